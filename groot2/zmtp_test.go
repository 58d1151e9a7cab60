package groot2

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"strconv"
	"sync/atomic"
	"testing"
	"testing/synctest"
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
			binary.BigEndian.AppendUint64([]byte{flagLong}, maxRequest-50)...)},
		// Groot2's requests are small: a frame of more than maxRequest bytes is refused.
		{"large request", binary.BigEndian.AppendUint64([]byte{flagLong}, maxRequest+1)},
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
		g := &guard{skip: greetingSize, limit: maxRequest}
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
	g := &guard{limit: maxRequest}
	if err := g.scan(binary.BigEndian.AppendUint64([]byte{flagLong}, maxRequest+1)); err == nil {
		t.Error("a frame beyond the limit passed")
	}
}

// TestPubWithPings: a subscriber that sends PINGs (libzmq's ZMQ_HEARTBEAT_IVL) while
// notices go out gets its PONGs and well-formed notices; zmq4 writes the PONG from the
// goroutine that reads, beside the one that writes the notices.
func TestPubWithPings(t *testing.T) {
	tree, _ := buildTree(t, mainTree(`<Count name="a"/>`))
	p := newTestPublisher(t, tree, Options{})
	sub := subscribe(t, p)
	var stop atomic.Bool
	pinged := make(chan struct{})
	go func() { // the subscriber's heartbeat, as fast as it can
		defer close(pinged)
		for !stop.Load() {
			if sub.zc.SendCmd(zmq4.CmdPing, []byte{0, 10}) != nil {
				return
			}
		}
	}()
	published := make(chan struct{})
	go func() {
		defer close(published)
		for !stop.Load() {
			p.pub.publish([][]byte{header{typ: breakpointReached, id: 7}.append(nil), []byte("1")})
		}
	}()
	defer func() { stop.Store(true); sub.nc.Close(); <-pinged; <-published }()
	want := header{typ: breakpointReached, id: 7}.append(nil)
	notices, pongs := 0, 0
	for notices < 20000 || pongs == 0 {
		sub.nc.SetDeadline(time.Now().Add(ioTimeout))
		msg, err := sub.zc.RecvMsg()
		if err != nil {
			t.Fatalf("after %d notices and %d PONGs: %v", notices, pongs, err)
		}
		if msg.Type == zmq4.CmdMsg {
			pongs++
			continue
		}
		if len(msg.Frames) != 2 || !bytes.Equal(msg.Frames[0], want) || string(msg.Frames[1]) != "1" {
			t.Fatalf("after %d notices: malformed notice %q", notices, msg.Frames)
		}
		notices++
	}
}

// TestPongAfterQuiet: a PING that comes long after the last notice gets its PONG. Each
// write sets its own deadline: a PONG written with the deadline of the last notice
// failed once a second had passed, and the subscriber was dropped.
func TestPongAfterQuiet(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		near, far := net.Pipe()
		defer near.Close()
		defer far.Close()
		got := make(chan []byte, 2)
		go func() {
			for {
				b := make([]byte, 64)
				n, err := far.Read(b)
				if err != nil {
					close(got)
					return
				}
				got <- b[:n]
			}
		}()
		c := &peer{nc: near, g: &guard{Conn: near}}
		if err := c.send([][]byte{[]byte("notice")}); err != nil {
			t.Fatal(err)
		}
		<-got
		time.Sleep(2 * writeTimeout) // quiet: no notice for two write timeouts
		pong := []byte{flagCommand, 5, 4, 'P', 'O', 'N', 'G'}
		if _, err := c.g.Write(pong[:2]); err != nil { // zmq4 writes a command's header,
			t.Fatal(err)
		}
		if _, err := c.g.Write(pong[2:]); err != nil { // then its body
			t.Fatalf("the PONG after a quiet spell: %v", err)
		}
		if b := <-got; !bytes.Equal(b, pong) {
			t.Errorf("the subscriber read %q, want the PONG %q", b, pong)
		}
	})
}
