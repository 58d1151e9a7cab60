package bt

import (
	"context"
	"errors"
	"iter"
	"log/slog"
	"time"

	"github.com/gobt/bt/blackboard"
)

// Tree is a built behavior tree, ready to tick. Build one with NewTree (from Go specs)
// or with a Factory (from XML).
//
// A tree is ticked by one goroutine at a time; WakeUp may be called from anywhere.
type Tree struct {
	id        string // of the definition it was built from; "" for NewTree
	root      *Node
	nodes     []Node   // every node; siblings are contiguous
	status    []uint8  // the status of nodes[i] is status[i]
	byUID     []uint16 // the index in nodes of the node whose UID is i+1
	observers []*observer
	observed  bool
	repanic   bool // (next to observed: a Tree is a size class smaller)
	aborted   bool // an error stopped the last tick or halt half-way (see restart)
	wake      chan struct{}
	clock     Clock
	ctx       context.Context
	bb        *blackboard.Blackboard
	enums     func(string) (int64, bool)
	logger    *slog.Logger // for the Log node; nil: slog.Default() (see logger.go)
	queue     queue        // functions to run before the next tick (see Do)
}

// Option configures a tree when it is built.
type Option func(*Tree)

// WithClock makes the tree read time from c instead of the system clock.
func WithClock(c Clock) Option { return func(t *Tree) { t.clock = c } }

// WithContext sets the parent context of the contexts given to async actions: canceling
// ctx cancels their work (the tree still has to be halted to wait for them).
func WithContext(ctx context.Context) Option { return func(t *Tree) { t.ctx = ctx } }

// WithBlackboard makes bb the tree's root blackboard instead of a new, empty one
// (several trees may share one).
func WithBlackboard(bb *blackboard.Blackboard) Option { return func(t *Tree) { t.bb = bb } }

// WithRepanic makes a panic in a node's code propagate out of the tick instead of being
// returned as a *NodeError.
func WithRepanic() Option { return func(t *Tree) { t.repanic = true } }

func newTree(enums func(string) (int64, bool), opts []Option) *Tree {
	t := &Tree{wake: make(chan struct{}, 1), clock: systemClock{}, ctx: context.Background(), enums: enums}
	for _, o := range opts {
		o(t)
	}
	if t.bb == nil {
		t.bb = blackboard.New(blackboard.WithEnums(t.enums))
	}
	return t
}

// TickOnce ticks the root once, as BehaviorTree.CPP's Tree::tickOnce does: while the
// result is Running and a node asked for a wake-up (see WakeUp) the root is ticked
// again at once, so nodes that yield (AsyncSequence, Repeat, …) still finish within
// the call. When the root completes it is reset to Idle, ready for the next run.
//
// An error means the tick was stopped: a node's script or port failed, a node returned
// an invalid status, or user code panicked; errors.As finds the *NodeError. The nodes
// keep the statuses they had when it stopped, to look at, and the next tick (or Halt)
// first halts the nodes that are Running and resets every node, as Halt does: the tree
// starts again from a clean state.
func (t *Tree) TickOnce() (Status, error) { return t.tick(true) }

// TickExactlyOnce ticks the root exactly once, ignoring wake-ups: a node that yields
// returns Running for this call.
func (t *Tree) TickExactlyOnce() (Status, error) { return t.tick(false) }

func (t *Tree) tick(rerun bool) (s Status, err error) {
	if t.root == nil {
		return Idle, ErrEmptyTree
	}
	defer t.catch(&err)
	t.runQueued()
	if t.aborted {
		t.restart()
	}
	s = t.root.Tick()
	for rerun && s == Running && t.woken() {
		t.runQueued()
		s = t.root.Tick()
	}
	if s.Completed() {
		t.root.set(Idle)
	}
	return s, nil
}

// catch turns an aborted tick or a panic into an error.
func (t *Tree) catch(err *error) {
	r := recover()
	if r == nil {
		return
	}
	t.aborted = true
	if ne, ok := r.(*NodeError); ok {
		*err = ne
		return
	}
	if t.repanic {
		panic(r)
	}
	*err = newPanicError(r)
}

// restart halts the nodes that are Running and resets every node to Idle after a tick
// that an error stopped half-way, which left nodes with statuses and positions that no
// longer hang together (a control may have stored some of its children's statuses and
// not the rest). Parents come before children: halting a parent halts its subtree.
func (t *Tree) restart() {
	t.aborted = false
	for n := range t.Nodes() {
		n.Halt()
	}
}

// woken consumes a pending wake-up.
func (t *Tree) woken() bool {
	select {
	case <-t.wake:
		return true
	default:
		return false
	}
}

// WakeUp asks the tree to tick again without waiting: TickOnce re-ticks a Running
// root at once and TickWhileRunning cuts its sleep short. Nodes call it when they yield
// or when background work completes. It is safe to call from any goroutine.
func (t *Tree) WakeUp() {
	select {
	case t.wake <- struct{}{}:
	default:
	}
}

// DefaultPeriod is TickWhileRunning's period when none is given (BehaviorTree.CPP's default).
const DefaultPeriod = 10 * time.Millisecond

// TickWhileRunning calls TickOnce until the root is no longer Running, sleeping up to
// period between ticks (period ≤ 0 means DefaultPeriod). A wake-up cuts the sleep short.
// If ctx is done first, the tree is halted and ctx's error returned with Running.
func (t *Tree) TickWhileRunning(ctx context.Context, period time.Duration) (Status, error) {
	if period <= 0 {
		period = DefaultPeriod
	}
	var sl sleeper
	defer sl.stop()
	for {
		s, err := t.TickOnce()
		if err != nil || s != Running {
			return s, err
		}
		if _, err := sl.sleep(ctx, t, period); err != nil {
			return Running, errors.Join(err, t.Halt())
		}
	}
}

// Sleep waits until d has elapsed on the tree's clock, a wake-up arrives (woken is then
// true; the wake-up is consumed) or ctx is done (err is ctx's error). Use it to write
// your own tick loop: tick, then Sleep until the next tick is due.
func (t *Tree) Sleep(ctx context.Context, d time.Duration) (woken bool, err error) {
	var sl sleeper
	defer sl.stop()
	return sl.sleep(ctx, t, d)
}

// sleeper is an interruptible sleep whose timer is reused across calls.
type sleeper struct {
	timer Timer
	ring  chan struct{}
}

func (sl *sleeper) sleep(ctx context.Context, t *Tree, d time.Duration) (woken bool, err error) {
	if sl.timer == nil {
		ring := make(chan struct{}, 1)
		sl.ring = ring
		sl.timer = t.clock.AfterFunc(d, func() {
			select {
			case ring <- struct{}{}:
			default:
			}
		})
	} else {
		sl.timer.Reset(d)
	}
	defer func() {
		sl.timer.Stop()
		select { // a timer that fired as we were woken must not shorten the next sleep
		case <-sl.ring:
		default:
		}
	}()
	select {
	case <-ctx.Done():
		return false, ctx.Err()
	case <-t.wake:
		return true, nil
	case <-sl.ring:
		return false, nil
	}
}

func (sl *sleeper) stop() {
	if sl.timer != nil {
		sl.timer.Stop()
	}
}

// Halt stops every Running node and resets the root to Idle. A node's Halt method runs
// before its children are halted, its _onHalted script after theirs. After a tick that
// returned an error it resets every node (see TickOnce).
func (t *Tree) Halt() (err error) {
	if t.root == nil {
		return nil
	}
	defer t.catch(&err)
	if t.aborted {
		t.restart()
		return nil
	}
	t.root.Halt()
	return nil
}

// ID returns the ID of the tree definition the tree was built from, as a Factory
// knows it (for example "MainTree"), or "" for a tree built with NewTree.
func (t *Tree) ID() string { return t.id }

// Root returns the root node, or nil for an empty tree.
func (t *Tree) Root() *Node { return t.root }

// Status returns the root's status (Idle after a completed tick: the root is reset).
func (t *Tree) Status() Status {
	if t.root == nil {
		return Idle
	}
	return t.root.Status()
}

// Blackboard returns the root blackboard: the main tree's.
func (t *Tree) Blackboard() *blackboard.Blackboard { return t.bb }

// Clock returns the tree's clock.
func (t *Tree) Clock() Clock { return t.clock }

// Context returns the context async actions derive theirs from.
func (t *Tree) Context() context.Context { return t.ctx }

// Len returns the number of nodes.
func (t *Tree) Len() int { return len(t.nodes) }

// Node returns the node whose UID is uid, or nil.
func (t *Tree) Node(uid uint16) *Node {
	if uid == 0 || int(uid) > len(t.nodes) {
		return nil
	}
	return &t.nodes[t.byUID[uid-1]]
}

// Nodes returns every node in UID order: depth-first, parents before children.
func (t *Tree) Nodes() iter.Seq[*Node] {
	return func(yield func(*Node) bool) {
		for _, i := range t.byUID {
			if !yield(&t.nodes[i]) {
				return
			}
		}
	}
}

// Walk visits the nodes depth-first from the root, parents before children, with their
// depth (0 for the root). When visit returns false the node's children are skipped.
func (t *Tree) Walk(visit func(n *Node, depth int) bool) {
	if t.root != nil {
		walk(t.root, 0, visit)
	}
}

func walk(n *Node, depth int, visit func(*Node, int) bool) {
	if !visit(n, depth) {
		return
	}
	for i := range n.NumChildren() {
		walk(n.Child(i), depth+1, visit)
	}
}
