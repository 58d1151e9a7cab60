package monitor

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// The limits of a Server (see NewServer).
const (
	ReadHeaderTimeout = 10 * time.Second
	ReadTimeout       = 30 * time.Second
	WriteTimeout      = 30 * time.Second
	IdleTimeout       = 30 * time.Second
	MaxHeaderBytes    = 64 << 10
	DefaultMaxConns   = 256
)

// Server is an http.Server with the limits a monitor needs on a network, where anyone
// who can reach it may open connections and hold them:
//
//   - a request must send its header within ReadHeaderTimeout and be read within
//     ReadTimeout, and its response be written within WriteTimeout;
//   - a keep-alive connection idle for IdleTimeout is closed;
//   - at most MaxConns connections are served at once. When all are taken, the next
//     one closes the connection idle longest (between two requests, or opened with no
//     request yet); if none is idle, it waits until one closes.
//
// An event stream is exempt from the read and write timeouts while it streams: it
// lives as long as the browser reads it, each write bounded by its own timeout, and
// counts against MaxViewers. Serve and ListenAndServe apply MaxConns; the fields of
// the http.Server may be changed before serving.
//
//	srv := monitor.NewServer("127.0.0.1:8642", m)
//	go srv.ListenAndServe()
//	defer srv.Close()
type Server struct {
	*http.Server
	MaxConns int
}

// NewServer returns a Server for h at addr with the limits above.
func NewServer(addr string, h http.Handler) *Server {
	return &Server{MaxConns: DefaultMaxConns, Server: &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       ReadTimeout,
		WriteTimeout:      WriteTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    MaxHeaderBytes,
	}}
}

// ListenAndServe listens on s.Addr and serves (see Serve).
func (s *Server) ListenAndServe() error {
	addr := s.Addr
	if addr == "" {
		addr = ":http"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	return s.Serve(ln)
}

// Serve serves the connections of ln, at most MaxConns at once; it returns as
// http.Server.Serve does.
func (s *Server) Serve(ln net.Listener) error {
	l := newLimitListener(ln, max(s.MaxConns, 1))
	user := s.ConnState
	s.ConnState = func(c net.Conn, state http.ConnState) {
		if lc, ok := c.(*limitConn); ok {
			l.setIdle(lc, state == http.StateNew || state == http.StateIdle)
		}
		if user != nil {
			user(c, state)
		}
	}
	return s.Server.Serve(l)
}

// limitListener lets at most max connections be open at once (see Server).
type limitListener struct {
	net.Listener
	max int

	mu     sync.Mutex
	more   *sync.Cond // a connection closed or became idle, or the listener closed
	conns  map[*limitConn]struct{}
	seq    uint64 // orders the idle connections: the lowest idle has been idle longest
	closed bool
}

func newLimitListener(ln net.Listener, n int) *limitListener {
	l := &limitListener{Listener: ln, max: n, conns: map[*limitConn]struct{}{}}
	l.more = sync.NewCond(&l.mu)
	return l
}

// limitConn is a connection of a limitListener.
type limitConn struct {
	net.Conn
	l    *limitListener
	idle uint64 // guarded by l.mu: when it became idle; 0: serving a request
	once sync.Once
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		c.l.mu.Lock()
		delete(c.l.conns, c)
		c.l.more.Signal()
		c.l.mu.Unlock()
	})
	return err
}

// Accept waits for a connection and for room for it, closing the one idle longest if
// all are taken.
func (l *limitListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for len(l.conns) >= l.max && !l.closed {
		var oldest *limitConn
		for o := range l.conns {
			if o.idle != 0 && (oldest == nil || o.idle < oldest.idle) {
				oldest = o
			}
		}
		if oldest == nil {
			l.more.Wait()
			continue
		}
		delete(l.conns, oldest) // its Close finds it gone
		l.mu.Unlock()
		oldest.Conn.Close()
		l.mu.Lock()
	}
	if l.closed {
		c.Close()
		return nil, net.ErrClosed
	}
	l.seq++
	lc := &limitConn{Conn: c, l: l, idle: l.seq} // idle until it sends a request
	l.conns[lc] = struct{}{}
	return lc, nil
}

// setIdle records whether c is idle (between requests, or with no request yet).
func (l *limitListener) setIdle(c *limitConn, idle bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !idle {
		c.idle = 0
		return
	}
	if c.idle == 0 {
		l.seq++
		c.idle = l.seq
		l.more.Signal()
	}
}

func (l *limitListener) Close() error {
	err := l.Listener.Close()
	l.mu.Lock()
	l.closed = true
	l.more.Broadcast()
	l.mu.Unlock()
	return err
}
