package groot2

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
)

// closedByPeer reads from nc until the publisher closes it.
func closedByPeer(t *testing.T, nc net.Conn) {
	t.Helper()
	nc.SetReadDeadline(time.Now().Add(ioTimeout))
	if _, err := io.Copy(io.Discard, nc); err != nil && !errors.Is(err, net.ErrClosed) {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			t.Fatal("the publisher kept the connection open")
		}
	}
}

// Peers that break ZMTP lose their connection; the publisher goes on serving others.
func TestBadPeers(t *testing.T) {
	tree, _ := buildTree(t, mainTree(`<Count name="a"/>`))
	p := newTestPublisher(t, tree, Options{})
	addr := "127.0.0.1:" + strconv.Itoa(p.Port())

	silent, err := net.Dial("tcp", addr) // connects and says nothing
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()

	garbage, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer garbage.Close()
	garbage.Write(bytes.Repeat([]byte("GET / HTTP/1.1\r\n"), 8))
	closedByPeer(t, garbage)

	for _, c := range []struct {
		name string
		wire []byte
	}{
		// A frame announcing 2^40 bytes: refused before anything is allocated.
		{"huge frame", binary.BigEndian.AppendUint64([]byte{flagLong}, 1<<40)},
		{"too many frames", bytes.Repeat([]byte{flagMore, 0}, maxFrames+1)},
		{"too many bytes", append(append([]byte{flagMore, 100}, make([]byte, 100)...),
			binary.BigEndian.AppendUint64([]byte{flagLong}, maxMessage-50)...)},
	} {
		t.Run(c.name, func(t *testing.T) {
			bad := dial(t, p.Port(), zmq4.Req)
			bad.nc.Write(c.wire)
			closedByPeer(t, bad.nc)
		})
	}

	// A message without the REQ delimiter is dropped, as libzmq's REP drops it.
	c := dial(t, p.Port(), zmq4.Dealer)
	c.send(requestHeader(reqFullTree))
	if reply := c.request(reqStatus); len(reply) != 1 || len(reply[0]) != 3 {
		t.Errorf("STATUS replied %q after a message without delimiter", reply)
	}
	if reply := dial(t, p.Port(), zmq4.Req).request(reqFullTree); len(reply) != 1 {
		t.Errorf("FULLTREE replied %q", reply)
	}
}

// The guard follows frames split across reads at any point.
func TestGuardScan(t *testing.T) {
	var wire []byte
	wire = append(wire, bytes.Repeat([]byte{0xff}, greetingSize)...)
	wire = append(wire, flagMore, 0)                                             // an empty frame
	wire = append(wire, flagMore, 3, 'a', 'b', 'c')                              // a short one
	wire = append(wire, binary.BigEndian.AppendUint64([]byte{flagLong}, 300)...) // a long one
	wire = append(wire, bytes.Repeat([]byte{'x'}, 300)...)
	wire = append(wire, flagCommand, 5, 0, 0, 0, 0, 0) // a command
	for split := 1; split <= len(wire); split++ {
		g := &guard{skip: greetingSize}
		for rest := wire; len(rest) > 0; {
			k := min(split, len(rest))
			if err := g.scan(rest[:k]); err != nil {
				t.Fatalf("split %d: %v", split, err)
			}
			rest = rest[k:]
		}
		if g.state != atFlags || g.frames != 0 || g.total != 0 {
			t.Fatalf("split %d: ends in state %d with %d frames", split, g.state, g.frames)
		}
	}
	g := &guard{}
	if err := g.scan(binary.BigEndian.AppendUint64([]byte{flagLong}, maxMessage+1)); err == nil {
		t.Error("a frame beyond maxMessage passed")
	}
}
