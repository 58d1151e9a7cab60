package groot2

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/go-zeromq/zmq4/security/null"

	"github.com/gobt/bt"
)

// The test client speaks to a publisher as Groot2 does: a REQ socket for requests (a
// header of 6 bytes, then at most one part) and a SUB socket for the notices. It is
// built on zmq4's ZMTP connections, like the publisher, but shares none of its code.
// Every read and write has a deadline, so a publisher that does not answer fails the
// test instead of hanging it.

const ioTimeout = 10 * time.Second

type client struct {
	t  testing.TB
	nc net.Conn
	zc *zmq4.Conn
}

// dial connects a socket of type typ to port on this machine.
func dial(t testing.TB, port int, typ zmq4.SocketType) *client {
	t.Helper()
	c, err := tryDial(t, port, typ)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.nc.Close() })
	return c
}

// tryDial connects as dial does, and returns the error of a connection refused or
// closed during its handshake; it may be called from any goroutine.
func tryDial(t testing.TB, port int, typ zmq4.SocketType) (*client, error) {
	nc, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		return nil, err
	}
	nc.SetDeadline(time.Now().Add(ioTimeout))
	zc, err := zmq4.Open(nc, null.Security(), typ, zmq4.SocketIdentity(""), false, nil)
	if err != nil {
		nc.Close()
		return nil, err
	}
	return &client{t: t, nc: nc, zc: zc}, nil
}

func (c *client) send(frames ...[]byte) {
	c.t.Helper()
	c.nc.SetDeadline(time.Now().Add(ioTimeout))
	if err := c.zc.SendMsg(zmq4.NewMsgFrom(frames...)); err != nil {
		c.t.Fatalf("send: %v", err)
	}
}

func (c *client) recv() [][]byte {
	c.t.Helper()
	c.nc.SetDeadline(time.Now().Add(ioTimeout))
	for {
		msg, err := c.zc.RecvMsg()
		if err != nil {
			c.t.Fatalf("recv: %v", err)
		}
		if msg.Type != zmq4.CmdMsg {
			return msg.Frames
		}
	}
}

// raw sends a request of the given parts as a REQ socket does (after an empty
// delimiter) and returns the reply's parts.
func (c *client) raw(parts ...[]byte) [][]byte {
	c.t.Helper()
	c.send(append([][]byte{{}}, parts...)...)
	reply := c.recv()
	if len(reply) == 0 || len(reply[0]) != 0 {
		c.t.Fatalf("reply without its envelope: %q", reply)
	}
	return reply[1:]
}

// requestHeader is a request header with a random id, as Groot2 makes it.
func requestHeader(typ byte) []byte {
	return binary.LittleEndian.AppendUint32([]byte{protocolID, typ}, rand.Uint32())
}

// request sends a well-formed request and checks the reply's header: the request's
// header (protocol, type, id) followed by the tree's UUID. It returns the reply's
// parts after the header.
func (c *client) request(typ byte, payload ...string) [][]byte {
	c.t.Helper()
	parts := [][]byte{requestHeader(typ)}
	for _, p := range payload {
		parts = append(parts, []byte(p))
	}
	reply := c.raw(parts...)
	if len(reply) > 0 && string(reply[0]) == "error" {
		c.t.Fatalf("request %q: error reply %q", typ, reply[1:])
	}
	if len(reply) == 0 || len(reply[0]) != replyHeaderSize || string(reply[0][:requestHeaderSize]) != string(parts[0]) {
		c.t.Fatalf("request %q: reply header %x, want %x and a UUID", typ, reply, parts[0])
	}
	return reply[1:]
}

// requestError sends a request that must fail and returns the error's text.
func (c *client) requestError(parts ...[]byte) string {
	c.t.Helper()
	reply := c.raw(parts...)
	if len(reply) != 2 || string(reply[0]) != "error" {
		c.t.Fatalf("got %q, want an error reply", reply)
	}
	return string(reply[1])
}

// subscribe connects a SUB socket to a publisher's notices, subscribed to all.
func subscribe(t testing.TB, p *Publisher) *client {
	t.Helper()
	c := dial(t, p.Port()+1, zmq4.Sub)
	k := subscribers(p)
	c.send([]byte{1})
	waitFor(t, "the subscription", func() bool { return subscribers(p) > k })
	return c
}

// notice reads the next BREAKPOINT_REACHED notice and returns its node's UID.
func (c *client) notice() uint16 {
	c.t.Helper()
	m := c.recv()
	if len(m) != 2 || len(m[0]) != requestHeaderSize || m[0][0] != protocolID || m[0][1] != breakpointReached {
		c.t.Fatalf("notice %q, want a BREAKPOINT_REACHED header and a UID", m)
	}
	uid, err := strconv.ParseUint(string(m[1]), 10, 16)
	if err != nil {
		c.t.Fatal(err)
	}
	return uint16(uid)
}

// hookJSON is the body of a HOOK_INSERT request as Groot2 sends it (BehaviorTree.CPP's
// tests' makeHook).
func hookBody(uid uint16, m mode, pos position, once bool) string {
	b, _ := json.Marshal(map[string]any{"enabled": true, "uid": uid, "mode": int(m), "once": once,
		"desired_status": "FAILURE", "position": int(pos)})
	return string(b)
}

func unlockBody(uid uint16, pos position, desired string, remove bool) string {
	return fmt.Sprintf(`{"uid":%d,"position":%d,"desired_status":%q,"remove_when_done":%v}`, uid, pos, desired, remove)
}

// waitFor waits until cond holds, yielding the processor in between, for what another
// goroutine does at once but not synchronously with the test (a subscription reaching
// the publisher).
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(ioTimeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		runtime.Gosched()
	}
}

// newPublisher starts a publisher of tree on free ports of this machine, closed when
// the test ends, and checks that closing it leaves no goroutine behind.
func newTestPublisher(t testing.TB, tree *bt.Tree, o Options) *Publisher {
	t.Helper()
	o.Host = "127.0.0.1"
	for range 20 {
		o.Port = freePort(t)
		p, err := New(tree, &o)
		if err == nil {
			if !leakChecked[t] {
				leakChecked[t] = true
				t.Cleanup(func() { checkNoGoroutines(t) }) // after the others: registered first
			}
			t.Cleanup(func() { p.Close() })
			return p
		}
		if !errors.Is(err, syscall.EADDRINUSE) {
			t.Fatal(err)
		}
	}
	t.Fatal("no two free ports in a row")
	return nil
}

// freePort returns a port that was free a moment ago, and below 65535, so that the
// next one is a port too.
func freePort(t testing.TB) int {
	t.Helper()
	for {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := ln.Addr().(*net.TCPAddr).Port
		ln.Close()
		if port < 65535 {
			return port
		}
	}
}

// leakChecked notes the tests that check for goroutines left when they end (tests
// do not run in parallel).
var leakChecked = map[testing.TB]bool{}

// checkNoGoroutines fails the test if a goroutine of the publisher, or one the test
// started, is still running (a hand-written goleak). Close waits until the
// publisher's goroutines are done; they may still be returning, which they are given
// a moment for.
func checkNoGoroutines(t testing.TB) {
	t.Helper()
	delete(leakChecked, t)
	var left []string
	deadline := time.Now().Add(ioTimeout)
	for {
		left = left[:0]
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		for _, g := range strings.Split(string(buf), "\n\n") {
			if strings.Contains(g, "created by github.com/gobt/bt/groot2.") || strings.Contains(g, "groot2.(*Publisher)") {
				left = append(left, g)
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			break
		}
		runtime.Gosched()
	}
	for _, g := range left {
		t.Errorf("a goroutine is left after Close:\n%s", g)
	}
}
