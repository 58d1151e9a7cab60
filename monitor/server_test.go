package monitor

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gobt/bt"
)

// pipes is a listener whose connections are net.Pipes, so that a Server's timeouts
// run on testing/synctest's clock.
type pipes struct {
	conns chan net.Conn
	done  chan struct{}
}

func newPipes() *pipes { return &pipes{conns: make(chan net.Conn, 16), done: make(chan struct{})} }

func (p *pipes) Accept() (net.Conn, error) {
	select {
	case c := <-p.conns:
		return c, nil
	case <-p.done:
		return nil, net.ErrClosed
	}
}

func (p *pipes) Close() error {
	select {
	case <-p.done:
	default:
		close(p.done)
	}
	return nil
}

func (p *pipes) Addr() net.Addr { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8642} }

// dial opens a connection to the server.
func (p *pipes) dial() *clientConn {
	server, client := net.Pipe()
	p.conns <- server
	return &clientConn{Conn: client, r: bufio.NewReader(client)}
}

type clientConn struct {
	net.Conn
	r *bufio.Reader
}

// get sends a request for path and reads the response; its body is closed.
func (c *clientConn) get(t *testing.T, path string) *http.Response {
	t.Helper()
	if _, err := io.WriteString(c, "GET "+path+" HTTP/1.1\r\nHost: localhost\r\n\r\n"); err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	resp, err := http.ReadResponse(c.r, nil)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

// closed reports whether the server closed c: a read ends (rather than waiting).
func (c *clientConn) closed() bool {
	done := make(chan error, 1)
	go func() {
		_, err := c.r.ReadByte()
		done <- err
	}()
	synctest.Wait()
	select {
	case err := <-done:
		return errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe)
	default:
		c.Close() // ends the read
		return false
	}
}

// stream asks for the stream of tree t and reads the response's header.
func (c *clientConn) stream(t *testing.T) *http.Response {
	t.Helper()
	io.WriteString(c, "GET /api/trees/t/events HTTP/1.1\r\nHost: localhost\r\n\r\n")
	resp, err := http.ReadResponse(c.r, nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("a stream: %v, %v", resp, err)
	}
	return resp
}

// serve serves a monitor of one tree, t, with a Server of at most maxConns
// connections on a pipes listener.
func serve(maxConns int) (*pipes, func()) {
	tree, _ := bt.NewTree(bt.Sequence(stepper("A", bt.Running), bt.Script("n := 1")))
	m := New()
	m.Add("t", tree)
	p := newPipes()
	srv := NewServer("", m)
	srv.MaxConns = maxConns
	go srv.Serve(p)
	return p, func() {
		srv.Close()
		synctest.Wait()
	}
}

// TestServerIdle: a keep-alive connection is served while it is used, and closed once
// it has been idle for IdleTimeout; one that never sends a request is closed after
// ReadHeaderTimeout.
func TestServerIdle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, stop := serve(10)
		defer stop()
		c := p.dial()
		silent := p.dial()
		if resp := c.get(t, "/"); resp.StatusCode != 200 {
			t.Fatalf("GET /: %d", resp.StatusCode)
		}
		time.Sleep(IdleTimeout - time.Second)
		if resp := c.get(t, "/api/trees"); resp.StatusCode != 200 {
			t.Fatalf("GET /api/trees: %d", resp.StatusCode)
		}
		if !silent.closed() {
			t.Error("a connection that sent nothing for 29 s is open")
		}
		time.Sleep(IdleTimeout - time.Second)
		if c.closed() {
			t.Fatal("a connection idle for less than IdleTimeout was closed")
		}
	})
	synctest.Test(t, func(t *testing.T) {
		p, stop := serve(10)
		defer stop()
		c := p.dial()
		c.get(t, "/")
		time.Sleep(IdleTimeout + time.Second)
		if !c.closed() {
			t.Error("a connection idle for IdleTimeout is open")
		}
	})
}

// TestServerStream: an event stream outlives the server's read, write and idle
// timeouts while the browser reads it.
func TestServerStream(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, stop := serve(10)
		defer stop()
		c := p.dial()
		resp := c.stream(t)
		pings := make(chan int)
		go func() {
			n := 0
			s := bufio.NewScanner(resp.Body)
			s.Buffer(nil, 1<<20)
			for s.Scan() {
				if s.Text() == ": ping" {
					n++
				}
			}
			pings <- n
		}()
		time.Sleep(5*time.Minute + time.Second)
		c.Close()
		if n := <-pings; n != 20 { // one per 15 s
			t.Errorf("%d pings in 5 minutes, want 20", n)
		}
	})
}

// TestServerMaxConns: with every connection taken, a new one closes the one idle
// longest — one that sent nothing, then one between requests — and, with none idle,
// waits until one closes.
func TestServerMaxConns(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, stop := serve(2)
		defer stop()
		silent := p.dial()
		used := p.dial()
		used.get(t, "/")
		synctest.Wait()
		fresh := p.dial()
		if resp := fresh.get(t, "/"); resp.StatusCode != 200 {
			t.Fatalf("a third connection: %d", resp.StatusCode)
		}
		if !silent.closed() {
			t.Error("the connection that sent nothing is open")
		}
		if resp := used.get(t, "/api/trees"); resp.StatusCode != 200 {
			t.Fatalf("the connection between requests: %d", resp.StatusCode)
		}
		time.Sleep(time.Second)    // (the bubble's time: without it, both were last used at the same instant)
		fresh.get(t, "/api/trees") // used is now idle longer than fresh
		another := p.dial()
		if resp := another.get(t, "/"); resp.StatusCode != 200 {
			t.Fatalf("a fourth connection: %d", resp.StatusCode)
		}
		if !used.closed() {
			t.Error("used, idle longest, is open")
		}
		if fresh.closed() {
			t.Error("fresh, idle for less time than used, was closed")
		}

		// Two streams take both connections: a new one waits for one of them.
		another.Close()
		var streams []*clientConn
		for range 2 {
			s := p.dial()
			s.stream(t)
			go io.Copy(io.Discard, s.r)
			streams = append(streams, s)
		}
		waiting := p.dial()
		got := make(chan int, 1)
		go func() { got <- waiting.get(t, "/").StatusCode }()
		synctest.Wait()
		select {
		case code := <-got:
			t.Fatalf("served (%d) while two streams hold the two connections", code)
		default:
		}
		streams[0].Close()
		if code := <-got; code != 200 {
			t.Errorf("after a stream ended: %d", code)
		}
		streams[1].Close()
	})
}
