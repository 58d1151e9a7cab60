package groot2

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/go-zeromq/zmq4"

	"github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
	"github.com/gobt/bt/btlog"
)

// DefaultPort is the server port Groot2 connects to unless told otherwise; the
// publisher's notices go out on the next one.
const DefaultPort = 1667

// DefaultHeartbeat is how long the publisher waits for a request before it takes
// Groot2 for gone (BehaviorTree.CPP's default).
const DefaultHeartbeat = 5 * time.Second

// maxTransitions is how many changes a recording keeps between two GET_TRANSITIONS
// requests; older ones are dropped (BehaviorTree.CPP keeps 1000).
const maxTransitions = 1000

// Options configure a Publisher; the zero value (or nil) is BehaviorTree.CPP's
// defaults.
type Options struct {
	// Port is the server port (REQ/REP); the publisher also takes Port+1 (PUB).
	// 0 means DefaultPort.
	Port int
	// Host is the address to listen on: "" means DefaultHost, this machine only;
	// "0.0.0.0" (or "::") every interface, as BehaviorTree.CPP listens ("tcp://*"),
	// which lets anyone who reaches the machine pause and alter the tree unless
	// ReadOnly is set (see Security in the package documentation).
	Host string
	// Heartbeat is how long without a request makes the publisher take Groot2 for
	// gone (see Publisher). 0 means DefaultHeartbeat.
	Heartbeat time.Duration
	// ReadOnly serves monitoring only: the tree, its statuses, the blackboards and
	// the recording of transitions. Requests that would set or remove hooks —
	// breakpoints and fault injection — get an error reply (errReadOnly).
	ReadOnly bool
}

// DefaultHost is where a publisher listens unless Options.Host says otherwise: the
// loopback interface, so that only programs on the same machine can connect.
const DefaultHost = "127.0.0.1"

// Publisher serves one tree to Groot2. See the package documentation.
type Publisher struct {
	tree   *bt.Tree
	clock  bt.Clock
	xml    []byte // xml, uuid, scopes, offset change with a reload (see reload.go): read them under mu
	uuid   [16]byte
	scopes []scope // the tree instances, by name, for BLACKBOARD
	offset []int   // offset[uid-1] is the index of the node's status in status
	rep    *socket // the server: requests and replies
	pub    *socket // notices of breakpoints reached
	// readOnly: Options.ReadOnly.
	readOnly bool
	// The tick functions of the nodes that have hooks.
	preTick  bt.PreTick
	postTick bt.PostTick

	mu   sync.Mutex
	wake sync.Cond // on mu: a hook was unlocked, disabled or removed, or the publisher closed
	// closed: Close was called.
	closed bool
	// status is the status buffer: per node, its UID (uint16, little-endian) and its
	// status, a node gone Idle written as 10 + the status it had.
	status []byte
	hooks  [2]map[uint16]*hook // by position, then UID
	// dirty lists the nodes whose tick functions must be set or removed to match hooks.
	dirty []hookKey
	// queued: sync is queued with Tree.Do.
	queued bool
	// connected: a request came within the heartbeat (see touch).
	connected bool
	heartbeat time.Duration
	last      time.Time // of the last request
	timer     bt.Timer  // fires heartbeat after the last request
	recording bool
	recStart  time.Time
	recorded  []btlog.Transition // a ring of maxTransitions, from next
	next      int

	// On the ticking goroutine only: the cancel function of the subscription while the
	// publisher observes the tree.
	cancel   func()
	unreload func() // cancels OnReload
}

type hookKey struct {
	uid uint16
	pos position
}

// scope is a tree instance: the main tree, named after its ID, or a subtree instance,
// named after its SubTree node's path.
type scope struct {
	name string
	bb   *blackboard.Blackboard
}

// New serves tree to Groot2 on Options.Port (REQ/REP) and the port after it (PUB),
// of Options.Host (DefaultHost, loopback only, unless given). It fails when a port is
// taken. Close stops it. Create at most one publisher per
// tree: the hooks of two would overwrite each other's tick functions.
func New(tree *bt.Tree, o *Options) (*Publisher, error) {
	if tree == nil || tree.Root() == nil {
		return nil, errors.New("groot2: no tree to publish (nil or empty)")
	}
	if o == nil {
		o = &Options{}
	}
	port, hb := o.Port, o.Heartbeat
	if port == 0 {
		port = DefaultPort
	}
	if port < 1 || port > 65534 {
		return nil, fmt.Errorf("groot2: port %d: the server port must be from 1 to 65534 (the next one is the publisher's)", port)
	}
	if hb < 0 {
		return nil, fmt.Errorf("groot2: negative heartbeat %v", hb)
	}
	if hb == 0 {
		hb = DefaultHeartbeat
	}
	p, err := newPublisher(tree, hb)
	if err != nil {
		return nil, err
	}
	p.readOnly = o.ReadOnly
	host := o.Host
	if host == "" {
		host = DefaultHost
	}
	if p.rep, err = listen(net.JoinHostPort(host, strconv.Itoa(port)), zmq4.Rep, maxRequest, serveREP(p.handle)); err != nil {
		return nil, fmt.Errorf("groot2: server port: %w", err)
	}
	if p.pub, err = listen(net.JoinHostPort(host, strconv.Itoa(port+1)), zmq4.Pub, maxSubMessage, servePUB); err != nil {
		p.rep.close()
		return nil, fmt.Errorf("groot2: publisher port: %w", err)
	}
	return p, nil
}

// newPublisher makes a publisher without its sockets.
func newPublisher(tree *bt.Tree, heartbeat time.Duration) (*Publisher, error) {
	var xml bytes.Buffer
	if err := btlog.WriteTreeXML(&xml, tree); err != nil {
		return nil, fmt.Errorf("groot2: %w", err)
	}
	p := &Publisher{tree: tree, clock: tree.Clock(), xml: xml.Bytes(), heartbeat: heartbeat,
		hooks: [2]map[uint16]*hook{{}, {}}}
	p.wake.L = &p.mu
	p.preTick = func(n *bt.Node) bt.Status { return p.runHook(pre, n) }
	p.postTick = func(n *bt.Node, _ bt.Status) bt.Status { return p.runHook(post, n) }
	p.uuid = newUUID()
	p.layout()
	tree.Do(func() { p.unreload = tree.OnReload(p.reloaded) }) // on the ticking goroutine
	return p, nil
}

// layout makes the status buffer, every node Idle, and lists the tree instances. The
// nodes are in BehaviorTree.CPP's order: those of the main tree, then those of each
// subtree instance, instances in the order of their SubTree nodes.
func (p *Publisher) layout() {
	var groups [][]*bt.Node
	var walk func(n *bt.Node, g int)
	walk = func(n *bt.Node, g int) {
		groups[g] = append(groups[g], n)
		if n.Spec().SubTreeID() != "" && n.NumChildren() == 1 {
			groups = append(groups, nil)
			p.scopes = append(p.scopes, scope{n.Path(), n.Child(0).Blackboard()})
			walk(n.Child(0), len(groups)-1)
			return
		}
		for i := range n.NumChildren() {
			walk(n.Child(i), g)
		}
	}
	id := p.tree.ID()
	if id == "" {
		id = "MainTree" // as WriteTreeXML names it
	}
	groups = append(groups, nil)
	p.scopes = append(p.scopes, scope{id, p.tree.Root().Blackboard()})
	walk(p.tree.Root(), 0)
	p.offset = make([]int, p.tree.Len())
	for _, g := range groups {
		for _, n := range g {
			p.offset[n.UID()-1] = len(p.status) + 2
			p.status = append(p.status, byte(n.UID()), byte(n.UID()>>8), byte(bt.Idle))
		}
	}
}

// Port returns the server port (the publisher's is the next one).
func (p *Publisher) Port() int { return p.rep.port() }

// SetHeartbeat changes how long without a request makes the publisher take Groot2
// for gone (BehaviorTree.CPP's setMaxHeartbeatDelay); d ≤ 0 means DefaultHeartbeat.
func (p *Publisher) SetHeartbeat(d time.Duration) {
	if d <= 0 {
		d = DefaultHeartbeat
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.heartbeat = d
	if p.timer != nil && p.connected {
		p.timer.Reset(max(d-p.clock.Now().Sub(p.last), 0))
	}
}

// Close stops serving: it closes both ports, waits for the publisher's goroutines to
// end, and lets every node paused at a breakpoint go on. It may be called from any
// goroutine, also while the tree ticks. The tree stops being observed, and loses the
// tick functions of the hooks, at the start of its next tick (see bt.Tree.Do).
// Closing again does nothing.
func (p *Publisher) Close() error {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	if p.timer != nil {
		p.timer.Stop()
	}
	for pos := range p.hooks {
		for uid := range p.hooks[pos] {
			p.dropHook(hookKey{uid, position(pos)})
		}
	}
	p.queueSync()
	p.wake.Broadcast()
	p.mu.Unlock()
	if p.rep != nil {
		p.rep.close()
		p.pub.close()
	}
	return nil
}

// handle answers a request (the frames after the envelope), as BehaviorTree.CPP's
// serverLoop does.
func (p *Publisher) handle(req [][]byte) [][]byte {
	p.touch()
	if len(req) == 0 {
		return errorReply(errWrongHeader)
	}
	h, err := parseHeader(req[0])
	if err != nil {
		return errorReply(err.Error())
	}
	reply := make([]byte, 0, replyHeaderSize)
	p.mu.Lock()
	uuid := p.uuid
	p.mu.Unlock()
	reply = append(h.append(reply), uuid[:]...)
	var body []byte
	if body, err = p.answer(h.typ, req); err != nil {
		return errorReply(err.Error())
	}
	if body == nil {
		return [][]byte{reply}
	}
	return [][]byte{reply, body}
}

func errorReply(msg string) [][]byte { return [][]byte{[]byte("error"), []byte(msg)} }

// answer carries out a request and returns the reply's second part, nil for none.
func (p *Publisher) answer(typ byte, req [][]byte) ([]byte, error) {
	if p.readOnly && changesHooks(typ) {
		return nil, errors.New(errReadOnly)
	}
	switch typ {
	case reqFullTree:
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.xml, nil
	case reqStatus:
		p.mu.Lock()
		defer p.mu.Unlock()
		return bytes.Clone(p.status), nil
	case reqGetTransitions:
		return p.transitions(), nil
	case reqRemoveAllHooks:
		p.removeAllHooks()
		return nil, nil
	case reqDisableAllHooks:
		p.enableAllHooks(false)
		return nil, nil
	case reqHooksDump:
		return p.dumpHooks(), nil
	case reqBlackboard, reqHookInsert, reqHookRemove, reqBreakpointUnlock, reqToggleRecording:
		if len(req) != 2 {
			return nil, errors.New(errTwoParts)
		}
		return p.answerWith(typ, req[1])
	}
	return nil, errors.New(errNotRecognized)
}

// answerWith carries out a request of two parts, whose second is body.
func (p *Publisher) answerWith(typ byte, body []byte) ([]byte, error) {
	switch typ {
	case reqBlackboard:
		return p.dumpBlackboards(string(body))
	case reqHookInsert:
		return nil, p.insertHooks(body)
	case reqHookRemove:
		return nil, p.removeHook(body)
	case reqBreakpointUnlock:
		return nil, p.unlockBreakpoint(body)
	default: // reqToggleRecording
		return p.toggleRecording(string(body)), nil
	}
}

// toggleRecording starts ("start", replying with the time in µs since the Unix epoch
// from which transitions count) or stops ("stop") recording the changes.
func (p *Publisher) toggleRecording(cmd string) []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch cmd {
	case "start":
		p.recStart = p.clock.Now()
		p.recorded, p.next = p.recorded[:0], 0
		p.recording = true
		return strconv.AppendInt(nil, p.recStart.UnixMicro(), 10)
	case "stop":
		p.recording = false
	}
	return nil
}

// transitions returns the changes recorded since the last call, 9 bytes each, and
// forgets them.
func (p *Publisher) transitions() []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	b := make([]byte, 0, 9*len(p.recorded))
	for i := range p.recorded {
		b = btlog.AppendRecord(b, p.recorded[(p.next+i)%len(p.recorded)])
	}
	p.recorded, p.next = p.recorded[:0], 0
	return b
}

// changed follows the tree's changes, a batch at a time, on the ticking goroutine,
// while the publisher observes it. (The tree hands a batch over before a hook's tick
// function runs, so the status buffer is up to date while a breakpoint pauses.)
func (p *Publisher) changed(b bt.Batch) {
	if len(b.Changes) == 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range b.Changes {
		s := byte(c.Status())
		if c.Status() == bt.Idle {
			s = 10 + byte(c.Previous())
		}
		p.status[p.offset[c.UID()-1]] = s
	}
	if !p.recording {
		return
	}
	offset := b.Time.Sub(p.recStart)
	for _, c := range b.Changes {
		tr := btlog.Transition{Offset: offset, UID: c.UID(), Previous: c.Previous(), Status: c.Status()}
		if len(p.recorded) < maxTransitions {
			p.recorded = append(p.recorded, tr)
			continue
		}
		p.recorded[p.next] = tr
		p.next = (p.next + 1) % maxTransitions
	}
}

// observe starts or stops observing the tree, on the ticking goroutine before a tick.
// When it starts, the status buffer takes the nodes' statuses; a node that went Idle
// while nobody watched is written as 10 + the status it had when watching stopped.
func (p *Publisher) observe(on bool) {
	if !on {
		if p.cancel != nil {
			p.cancel()
			p.cancel = nil
		}
		return
	}
	if p.cancel != nil {
		return
	}
	p.cancel = p.tree.SubscribeBatch(p.changed)
	p.mu.Lock()
	defer p.mu.Unlock()
	for n := range p.tree.Nodes() {
		i := p.offset[n.UID()-1]
		switch s := n.Status(); {
		case s != bt.Idle:
			p.status[i] = byte(s)
		case p.status[i] != byte(bt.Idle) && p.status[i] < 10:
			p.status[i] += 10
		}
	}
}
