package groot2

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/go-zeromq/zmq4/security/null"
)

// The ZeroMQ sockets: a REP socket for Groot2's requests and a PUB socket for the
// notices of breakpoints reached, each listening on a TCP port.
//
// zmq4 does the ZMTP 3.0 handshake and framing of each connection (zmq4.Open, Conn);
// the sockets' own rules are here, because zmq4's socket types do not keep them under
// bad peers: its REP splits a request's envelope at the last empty frame rather than
// the first (so a request with an empty part is misread), its listener does the
// handshake of one peer before accepting the next (a peer that connects and sends
// nothing stops every other), and its readers allocate whatever size a frame header
// announces.
//
// Here every connection has its own goroutines, and everything a peer can make the
// process hold is bounded (see the package documentation, Security): the frames and
// messages it sends (guard, before zmq4 allocates them), the subscriptions of a PUB
// peer, the notices queued for it, the number of connections of a socket. A peer
// that stalls — in its handshake, or in the middle of a message — is closed by the
// socket's sweeper; when a socket is full, a new connection takes the place of the
// peer that has been useful least recently (evict), so that stalled, idle or chatty
// peers cannot keep Groot2 out.

const (
	// stallTimeout bounds a handshake, from the connection's start, and a message,
	// from its first byte; the sweeper looks every sweepEvery.
	stallTimeout = 5 * time.Second
	sweepEvery   = time.Second
	// writeTimeout bounds a reply or a notice to one peer, as BehaviorTree.CPP's
	// publisher sets ZMQ_SNDTIMEO to 1000 ms.
	writeTimeout = time.Second
	// maxPeers bounds the connections of one socket, handshakes included.
	maxPeers = 64
	// maxFrames bounds the frames of one message, and maxRequest and maxSubMessage its
	// bytes on each socket: Groot2's requests are a header and at most one short part,
	// a subscriber sends subscriptions of at most maxTopic bytes, and the commands of
	// the handshake are a few dozen bytes.
	maxFrames     = 64
	maxRequest    = 64 << 10
	maxSubMessage = 1 << 10
	// maxTopics and maxTopic bound the subscriptions of a PUB peer (Groot2 sends one,
	// empty): a peer that asks for more, or a longer one, is dropped.
	maxTopics = 16
	maxTopic  = 256
	// pubQueue is how many notices wait for a slow subscriber before more are
	// dropped (a PUB socket never blocks its sender).
	pubQueue = 64
)

// socket is a listening socket of one type and its connections.
type socket struct {
	typ        zmq4.SocketType
	ln         net.Listener
	serve      func(*peer) // runs a connection after its handshake, until it fails
	maxMessage uint64      // the bytes of a message a peer may send
	wg         sync.WaitGroup
	done       chan struct{} // closed by close: stops the sweeper

	mu     sync.Mutex
	peers  map[*peer]struct{}
	closed bool

	skew atomic.Int64 // added to the time: tests move it forward
}

func (s *socket) now() int64 { return time.Now().UnixNano() + s.skew.Load() }

// peer is one connection to a socket.
type peer struct {
	s     *socket
	since int64        // when it connected (socket.now)
	ready atomic.Bool  // its handshake is done
	used  atomic.Int64 // when it was last useful (see evict)
	nc    net.Conn
	g     *guard // nc as zmq4 reads and writes it
	zc    *zmq4.Conn
	// For a PUB socket: the topics the subscriber asked for (guarded by socket.mu) and
	// the notices waiting for its writer.
	topics [][]byte
	out    chan [][]byte
}

// listen opens a socket of type typ on addr, whose connections serve runs, and whose
// peers may send messages of maxMessage bytes.
func listen(addr string, typ zmq4.SocketType, maxMessage uint64, serve func(*socket, *peer)) (*socket, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	s := &socket{typ: typ, ln: ln, maxMessage: maxMessage, peers: map[*peer]struct{}{}, done: make(chan struct{})}
	s.serve = func(c *peer) { serve(s, c) }
	s.wg.Add(2)
	go s.accept()
	go s.sweeper()
	return s, nil
}

func (s *socket) accept() {
	defer s.wg.Done()
	var backoff time.Duration
	for {
		nc, err := s.ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			// Out of file descriptors and the like: wait a little, as net/http does.
			backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
			time.Sleep(backoff)
			continue
		}
		backoff = 0
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			nc.Close()
			return
		}
		if len(s.peers) >= maxPeers {
			s.evict()
		}
		c := &peer{s: s, nc: nc, since: s.now()}
		c.used.Store(c.since)
		c.g = &guard{Conn: nc, skip: greetingSize, limit: s.maxMessage, now: s.now}
		if s.typ == zmq4.Pub {
			c.out = make(chan [][]byte, pubQueue)
		}
		s.peers[c] = struct{}{}
		s.wg.Add(1)
		s.mu.Unlock()
		go s.run(c)
	}
}

// evict closes the connection of the peer that has been useful least recently, to
// make room for a new one: the peer whose last request was answered (REP), or whose
// last subscription was taken (PUB), longest ago — or, if it has had none, whose
// handshake ended or connection began longest ago. Stalled and idle peers go first,
// and a new client, which has just connected, goes last. s.mu is held.
func (s *socket) evict() {
	var victim *peer
	for c := range s.peers {
		if victim == nil || c.used.Load() < victim.used.Load() {
			victim = c
		}
	}
	s.drop(victim)
}

// drop closes a peer's connection and forgets it (its goroutine deletes it again as
// it ends). s.mu is held.
func (s *socket) drop(c *peer) {
	c.nc.Close()
	delete(s.peers, c)
}

// sweeper closes, every sweepEvery until the socket closes, the connections of the
// peers that stall.
func (s *socket) sweeper() {
	defer s.wg.Done()
	t := time.NewTicker(sweepEvery)
	defer t.Stop()
	for {
		select {
		case <-s.done:
			return
		case <-t.C:
			s.sweep()
		}
	}
}

// sweep closes the connections of the peers that stall: whose handshake, or the
// message they are sending, has taken stallTimeout or more.
func (s *socket) sweep() {
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.peers {
		start := c.since
		if c.ready.Load() {
			start = c.g.started.Load()
		}
		if start != 0 && now-start >= int64(stallTimeout) {
			s.drop(c)
		}
	}
}

// run does the handshake of a connection and serves it. A peer that breaks the
// protocol in a way zmq4 does not expect (it panics on some malformed metadata) loses
// its connection, nothing else.
func (s *socket) run(c *peer) {
	defer s.wg.Done()
	defer func() {
		recover()
		c.nc.Close()
		s.mu.Lock()
		delete(s.peers, c)
		s.mu.Unlock()
	}()
	zc, err := zmq4.Open(c.g, null.Security(), s.typ, zmq4.SocketIdentity(""), true, nil)
	if err != nil {
		return
	}
	c.zc = zc
	c.used.Store(s.now())
	c.ready.Store(true)
	s.serve(c)
}

// close closes the listener and every connection, and waits for their goroutines.
func (s *socket) close() {
	s.mu.Lock()
	s.closed = true
	s.ln.Close()
	close(s.done)
	for c := range s.peers {
		c.nc.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
}

func (s *socket) port() int { return s.ln.Addr().(*net.TCPAddr).Port }

// retained returns the bytes the socket holds for its peers: their subscriptions,
// and the messages they are sending, as their frame headers announced them (zmq4
// allocates a frame whole once its header is read).
func (s *socket) retained() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for c := range s.peers {
		for _, t := range c.topics {
			n += len(t)
		}
		n += int(c.g.pending.Load())
	}
	return n
}

// send writes a message to a peer within writeTimeout.
func (c *peer) send(frames [][]byte) error { return c.g.writeMessage(frames) }

// recv reads the next message from a peer, skipping commands (zmq4 answers PINGs).
func (c *peer) recv() ([][]byte, error) {
	for {
		msg, err := c.zc.RecvMsg()
		if err != nil {
			return nil, err
		}
		if msg.Type != zmq4.CmdMsg {
			return msg.Frames, nil
		}
	}
}

// serveREP answers each request of a REQ (or DEALER) peer with handle's reply, as a
// REP socket does: the envelope — the frames up to the first empty one — is sent back
// before the reply, and a message without one is dropped.
func serveREP(handle func(request [][]byte) [][]byte) func(*socket, *peer) {
	return func(s *socket, c *peer) {
		for {
			frames, err := c.recv()
			if err != nil {
				return
			}
			i := slices.IndexFunc(frames, func(f []byte) bool { return len(f) == 0 })
			if i < 0 {
				continue
			}
			reply := append(slices.Clip(frames[:i+1]), handle(frames[i+1:])...)
			if c.send(reply) != nil {
				return
			}
			c.used.Store(s.now())
		}
	}
}

// servePUB reads a subscriber's (un)subscriptions — ZMTP 3.0 messages whose first byte
// is 1 (subscribe) or 0 (unsubscribe), then the topic — while its writer sends it
// the notices that publish queues. A subscriber that asks for more than maxTopics
// topics, or for one longer than maxTopic, is dropped.
func servePUB(s *socket, c *peer) {
	done := make(chan struct{})
	defer close(done)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			select {
			case <-done:
				return
			case msg := <-c.out:
				if c.send(msg) != nil {
					c.nc.Close()
					return
				}
			}
		}
	}()
	for {
		frames, err := c.recv()
		if err != nil || !c.subscribe(frames) {
			return
		}
	}
}

// subscribe carries out a subscriber's message, and reports whether the subscriber
// keeps within the limits.
func (c *peer) subscribe(frames [][]byte) bool {
	if len(frames) == 0 || len(frames[0]) == 0 {
		return true
	}
	f := frames[0]
	if len(f)-1 > maxTopic {
		return false
	}
	s := c.s
	s.mu.Lock()
	defer s.mu.Unlock()
	i := slices.IndexFunc(c.topics, func(t []byte) bool { return bytes.Equal(t, f[1:]) })
	switch {
	case f[0] == 1 && i < 0:
		if len(c.topics) == maxTopics {
			return false
		}
		c.topics = append(c.topics, slices.Clone(f[1:]))
	case f[0] == 0 && i >= 0:
		c.topics = slices.Delete(c.topics, i, i+1)
	}
	c.used.Store(s.now())
	return true
}

// publish queues a message for every subscriber with a topic that prefixes its first
// frame; a subscriber whose queue is full misses it. It never blocks.
func (s *socket) publish(frames [][]byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.peers {
		if c.out == nil || !slices.ContainsFunc(c.topics, func(t []byte) bool { return bytes.HasPrefix(frames[0], t) }) {
			continue
		}
		select {
		case c.out <- frames:
		default:
		}
	}
}

// greetingSize is the size of a ZMTP 3 greeting, which zmq4 reads and checks.
const greetingSize = 64

// guard follows the ZMTP framing of what a peer sends and fails a read as soon as a
// frame header announces more than a message may hold, before zmq4 allocates it.
//
// It also keeps what is written to the peer whole. zmq4 writes a frame as two Writes,
// its header and its body, and answers a PING from inside RecvMsg, on the goroutine
// that reads, while a PUB peer's notices are written by another: so the messages of
// this package are encoded whole and written in one Write (writeMessage), and a
// command's header that zmq4 writes is held back and written with its body.
type guard struct {
	net.Conn
	wmu    sync.Mutex
	held   []byte // a command frame's header, written with the next Write
	skip   int    // greeting bytes still to pass
	state  int    // what the next byte is: a frame's flags, a byte of its size, its body
	flags  byte   // of the current frame
	need   int    // size bytes still to read
	size   uint64 // the frame's size, as read so far
	left   uint64 // body bytes still to pass
	frames int    // frames of the current message, and their bytes
	total  uint64
	limit  uint64 // the bytes a message may hold

	// For the socket's sweeper and its accounting: when the current message began
	// (now; 0 between messages) and the bytes its frame headers announced so far.
	now     func() int64 // nil: not noted
	started atomic.Int64
	pending atomic.Int64
}

const (
	atFlags = iota
	atSize
	atBody
)

// ZMTP frame flags.
const (
	flagMore    = 0x01
	flagLong    = 0x02
	flagCommand = 0x04
)

var errTooLarge = fmt.Errorf("groot2: a peer sent a message of more than %d frames, or more bytes than the socket takes", maxFrames)

// Write writes what zmq4 writes: the greeting and the commands of the handshake, and
// PONGs.
func (g *guard) Write(p []byte) (int, error) {
	g.wmu.Lock()
	defer g.wmu.Unlock()
	if len(g.held) == 0 && isCommandHeader(p) {
		g.held = append(g.held, p...)
		return len(p), nil
	}
	if len(g.held) > 0 {
		frame := append(g.held, p...)
		g.held = g.held[:0]
		if _, err := g.write(frame); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return g.write(p)
}

// write writes p within writeTimeout. Every write sets its own deadline, under wmu:
// a PONG that zmq4 writes while it reads, long after the last notice, must not meet
// the deadline that notice's write had.
func (g *guard) write(p []byte) (int, error) {
	g.Conn.SetWriteDeadline(time.Now().Add(writeTimeout))
	return g.Conn.Write(p)
}

// isCommandHeader reports whether p is the header of a command frame, as zmq4 writes
// it on its own.
func isCommandHeader(p []byte) bool {
	return len(p) == 2 && p[0] == flagCommand || len(p) == 9 && p[0] == flagCommand|flagLong
}

// writeMessage writes a message of frames in one Write.
func (g *guard) writeMessage(frames [][]byte) error {
	n := 0
	for _, f := range frames {
		n += 9 + len(f)
	}
	b := make([]byte, 0, n)
	for i, f := range frames {
		var flags byte
		if i < len(frames)-1 {
			flags = flagMore
		}
		if len(f) > 255 {
			b = append(b, flags|flagLong)
			b = binary.BigEndian.AppendUint64(b, uint64(len(f)))
		} else {
			b = append(b, flags, byte(len(f)))
		}
		b = append(b, f...)
	}
	g.wmu.Lock()
	defer g.wmu.Unlock()
	_, err := g.write(b)
	return err
}

func (g *guard) Read(p []byte) (int, error) {
	n, err := g.Conn.Read(p)
	if g.scan(p[:n]) != nil {
		return 0, errTooLarge
	}
	return n, err
}

func (g *guard) scan(b []byte) error {
	for len(b) > 0 {
		switch {
		case g.skip > 0:
			k := min(g.skip, len(b))
			g.skip -= k
			b = b[k:]
		case g.state == atFlags:
			if g.frames == 0 && g.now != nil {
				g.started.Store(g.now())
			}
			g.flags, g.size, g.need = b[0], 0, 1
			if g.flags&flagLong != 0 {
				g.need = 8
			}
			g.state = atSize
			b = b[1:]
		case g.state == atSize:
			g.size = g.size<<8 | uint64(b[0])
			g.need--
			b = b[1:]
			if g.need > 0 {
				continue
			}
			g.frames++
			if g.frames > maxFrames || g.size > g.limit-g.total {
				return errTooLarge
			}
			g.total += g.size
			g.pending.Store(int64(g.total))
			g.left = g.size
			g.state = atBody
			if g.left == 0 {
				g.endFrame()
			}
		default:
			k := min(g.left, uint64(len(b)))
			g.left -= k
			b = b[k:]
			if g.left == 0 {
				g.endFrame()
			}
		}
	}
	return nil
}

func (g *guard) endFrame() {
	g.state = atFlags
	if g.flags&flagMore == 0 || g.flags&flagCommand != 0 {
		g.frames, g.total = 0, 0
		g.started.Store(0)
		g.pending.Store(0)
	}
}
