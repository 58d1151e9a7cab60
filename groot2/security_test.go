package groot2

import (
	"bytes"
	"encoding/binary"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/go-zeromq/zmq4"

	"github.com/gobt/bt"
)

// The tests of what the publisher promises under bad peers (doc.go, Security).

// A subscriber keeps at most maxTopics subscriptions of at most maxTopic bytes: one
// that asks for more, or for a longer one, or sends a frame beyond the PUB socket's
// limit, is dropped, and what it made the publisher hold is let go.
func TestSubscriptionLimits(t *testing.T) {
	tree, _ := buildTree(t, mainTree(`<Count name="a"/>`))
	p := newTestPublisher(t, tree, Options{})
	topic := func(i int) []byte {
		b := bytes.Repeat([]byte{'t'}, maxTopic)
		binary.BigEndian.PutUint32(b, uint32(i))
		return append([]byte{1}, b...)
	}

	greedy := dial(t, p.Port()+1, zmq4.Sub)
	for i := range maxTopics {
		greedy.send(topic(i))
		greedy.send(topic(i)) // the same topic again takes nothing more
	}
	full := maxTopics * maxTopic
	waitFor(t, "every subscription", func() bool { return p.pub.retained() == full })
	greedy.send(topic(maxTopics))
	closedByPeer(t, greedy.nc)
	waitFor(t, "the subscriptions let go", func() bool { return p.pub.retained() == 0 })

	long := dial(t, p.Port()+1, zmq4.Sub)
	long.send(append(topic(0), 'x'))
	closedByPeer(t, long.nc)

	// The load: subscriptions of 1 MiB, refused at their header.
	huge := dial(t, p.Port()+1, zmq4.Sub)
	huge.nc.Write(binary.BigEndian.AppendUint64([]byte{flagLong}, 1<<20))
	huge.nc.Write(make([]byte, 4096))
	closedByPeer(t, huge.nc)
	if n := p.pub.retained(); n != 0 {
		t.Errorf("the publisher holds %d bytes for subscribers that are gone", n)
	}

	// Unsubscribing makes room; Groot2's subscription still works.
	fine := dial(t, p.Port()+1, zmq4.Sub)
	for i := range 3 * maxTopics {
		fine.send(topic(i))
		fine.send(append([]byte{0}, topic(i)[1:]...))
	}
	fine.send([]byte{1})
	waitFor(t, "the subscription", func() bool { return subscribedToAll(p) })
	p.pub.publish([][]byte{header{typ: breakpointReached, id: 1}.append(nil), []byte("1")})
	if uid := fine.notice(); uid != 1 {
		t.Errorf("notice for %d, want 1", uid)
	}
}

// subscribedToAll reports whether p's PUB socket has one subscriber, subscribed to every
// notice and nothing else, seen at once under the socket's lock (two calls, such as
// subscribers and retained, may see two moments between which a topic came and went).
func subscribedToAll(p *Publisher) bool {
	p.pub.mu.Lock()
	defer p.pub.mu.Unlock()
	if len(p.pub.peers) != 1 {
		return false
	}
	for c := range p.pub.peers {
		return len(c.topics) == 1 && len(c.topics[0]) == 0
	}
	return false
}

// Without Options.Host, the publisher listens on loopback only.
func TestDefaultHost(t *testing.T) {
	tree, _ := buildTree(t, mainTree(`<Count name="a"/>`))
	p, err := New(tree, &Options{Port: freePort(t)})
	if err != nil {
		t.Skipf("ports taken: %v", err)
	}
	defer p.Close()
	for _, s := range []*socket{p.rep, p.pub} {
		if ip := s.ln.Addr().(*net.TCPAddr).IP; !ip.Equal(net.IPv4(127, 0, 0, 1)) {
			t.Errorf("listens on %v, want 127.0.0.1", s.ln.Addr())
		}
	}
}

// A read-only publisher answers what monitoring needs and refuses every request that
// would set, change or remove a hook, or unlock a breakpoint; the tree keeps no hook.
func TestReadOnly(t *testing.T) {
	tree, n, p, c := serve(t, Options{ReadOnly: true}, mainTree(`<Count name="a"/>`))
	for _, r := range []struct {
		typ  byte
		body string
	}{
		{reqHookInsert, hookBody(1, replace, pre, false)},
		{reqHookInsert, hookBody(1, breakpoint, pre, false)},
		{reqHookRemove, `{"uid":1,"position":0}`},
		{reqBreakpointUnlock, unlockBody(1, pre, "FAILURE", true)},
		{reqRemoveAllHooks, ""},
		{reqDisableAllHooks, ""},
	} {
		parts := [][]byte{requestHeader(r.typ)}
		if r.body != "" {
			parts = append(parts, []byte(r.body))
		}
		if got := c.requestError(parts...); got != errReadOnly {
			t.Errorf("request %c: error %q, want %q", r.typ, got, errReadOnly)
		}
	}
	if got := c.request(reqFullTree); len(got) != 1 || !bytes.Contains(got[0], []byte(`name="a"`)) {
		t.Errorf("FULLTREE: %q", got)
	}
	c.request(reqToggleRecording, "start")
	tick(t, tree, bt.Success)
	if got := c.request(reqStatus); len(got) != 1 || got[0][2] != 12 {
		t.Errorf("STATUS: %v, want node 1 idle after SUCCESS (12)", got)
	}
	if got := c.request(reqGetTransitions); len(got) != 1 || len(got[0]) != 2*9 {
		t.Errorf("GET_TRANSITIONS: %v, want 2 transitions", got)
	}
	if got := c.request(reqBlackboard, "MainTree"); len(got) != 1 {
		t.Errorf("BLACKBOARD: %q", got)
	}
	if got := c.request(reqHooksDump); len(got) != 1 || string(got[0]) != "[]" {
		t.Errorf("HOOKS_DUMP: %q", got)
	}
	p.mu.Lock()
	hooks := len(p.hooks[pre]) + len(p.hooks[post])
	p.mu.Unlock()
	if n.get("a") != 1 || hooks != 0 {
		t.Errorf("the node ticked %d times, with %d hooks", n.get("a"), hooks)
	}
}

// A peer that stalls in its handshake, or in the middle of a message, is closed once
// it has stalled for stallTimeout; an idle peer is not.
func TestStalledPeersAreClosed(t *testing.T) {
	tree, _ := buildTree(t, mainTree(`<Count name="a"/>`))
	p := newTestPublisher(t, tree, Options{})
	stalled := stall(t, p.Port())
	partial := dial(t, p.Port(), zmq4.Req)
	partial.nc.Write([]byte{flagMore, 100})
	partial.nc.Write(make([]byte, 10))
	idle := dial(t, p.Port(), zmq4.Req)
	idle.request(reqStatus)
	waitFor(t, "three peers, one in the middle of a message", func() bool {
		return p.rep.count() == 3 && p.rep.retained() == 100
	})
	p.rep.sweep()
	if p.rep.retained() != 100 || p.rep.count() != 3 {
		t.Fatal("the sweeper closed a peer that had not stalled yet")
	}
	p.rep.skew.Store(int64(stallTimeout))
	p.rep.sweep()
	closedByPeer(t, stalled)
	closedByPeer(t, partial.nc)
	if n := p.rep.retained(); n != 0 {
		t.Errorf("the publisher holds %d bytes after the stalled peers are gone", n)
	}
	idle.request(reqStatus)
}

// When a socket is full, a new connection takes the place of the peer useful least
// recently: here one that connected first and has stalled in its handshake since.
func TestEvictLeastRecentlyUseful(t *testing.T) {
	tree, _ := buildTree(t, mainTree(`<Count name="a"/>`))
	p := newTestPublisher(t, tree, Options{})
	stalled := stall(t, p.Port())
	waitFor(t, "the stalled peer", func() bool { return p.rep.count() == 1 })
	busy := make([]*client, maxPeers-1)
	for i := range busy {
		busy[i] = dial(t, p.Port(), zmq4.Req)
		busy[i].request(reqStatus)
	}
	dial(t, p.Port(), zmq4.Req).request(reqStatus)
	closedByPeer(t, stalled)
	for _, c := range busy {
		c.request(reqStatus)
	}
}

// The load: 70 peers that send 10 bytes and stall, or 70 that send requests
// without pause, or both, do not keep a fresh client out.
func TestFreshClientUnderLoad(t *testing.T) {
	const load = 70
	for _, c := range []struct {
		name            string
		stalled, chatty int
	}{
		{"stalled", load, 0},
		{"chatty", 0, load},
		{"chatty then stalled", load, load},
	} {
		t.Run(c.name, func(t *testing.T) {
			tree, _ := buildTree(t, mainTree(`<Count name="a"/>`))
			p := newTestPublisher(t, tree, Options{})
			stop := startChatty(t, p, c.chatty)
			defer stop()
			for range c.stalled {
				stall(t, p.Port())
			}
			fresh, err := tryDial(t, p.Port(), zmq4.Req)
			if err != nil {
				t.Fatalf("a fresh client could not connect: %v", err)
			}
			defer fresh.nc.Close()
			if got := fresh.request(reqStatus); len(got) != 1 || len(got[0]) != 3 {
				t.Errorf("STATUS: %v", got)
			}
			if n := p.rep.retained(); n > maxPeers*maxRequest {
				t.Errorf("the publisher holds %d bytes for its peers", n)
			}
		})
	}
}

// startChatty connects n REQ peers that send STATUS requests without pause, and
// returns once every one has connected (or been refused) and they have had replies.
// The function it returns stops them and waits until they are gone.
func startChatty(t *testing.T, p *Publisher, n int) (stop func()) {
	var (
		done              atomic.Bool
		started, finished sync.WaitGroup
		mu                sync.Mutex
		conns             []net.Conn
		replies           atomic.Int64
	)
	started.Add(n)
	finished.Add(n)
	for range n {
		go func() {
			defer finished.Done()
			c, err := tryDial(t, p.Port(), zmq4.Req)
			if err == nil {
				mu.Lock()
				conns = append(conns, c.nc)
				mu.Unlock()
			}
			started.Done()
			if err != nil {
				return
			}
			for !done.Load() {
				if c.zc.SendMsg(zmq4.NewMsgFrom(nil, requestHeader(reqStatus))) != nil {
					return
				}
				if _, err := c.zc.RecvMsg(); err != nil {
					return
				}
				replies.Add(1)
			}
		}()
	}
	started.Wait()
	if n > 0 {
		waitFor(t, "chatty peers", func() bool { return replies.Load() > int64(n) })
	}
	return func() {
		done.Store(true)
		mu.Lock()
		for _, nc := range conns {
			nc.Close()
		}
		mu.Unlock()
		finished.Wait()
	}
}

// stall connects to port, sends the first 10 bytes of a ZMTP greeting and no more;
// the connection is closed when the test ends.
func stall(t *testing.T, port int) net.Conn {
	t.Helper()
	nc, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	nc.Write([]byte{0xff, 0, 0, 0, 0, 0, 0, 0, 1, 0x7f})
	return nc
}

// count returns the number of peers of a socket.
func (s *socket) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.peers)
}
