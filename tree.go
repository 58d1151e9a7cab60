package bt

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"maps"
	"reflect"
	"sync/atomic"
	"time"

	"github.com/gobt/bt/blackboard"
)

// Tree is a built behavior tree, ready to tick. Build one with NewTree (from Go specs)
// or with a Factory (from XML).
//
// A tree is ticked, halted and read by one goroutine at a time; WakeUp and Stop may be
// called from anywhere.
type Tree struct {
	// A crowd of small trees pays for every byte of a Tree, which is kept to 176 bytes
	// (a size class): what the options set is shared (treeConfig), what few trees use
	// is apart (treeRare), and the index of the nodes by UID is the definition's.
	def       *treeDef // the definition it was built from (its ID, its fingerprint: see Snapshot)
	root      *Node
	nodes     []Node       // every node; siblings are contiguous
	status    []statusByte // the status of nodes[i] is status[i]
	obs       *observation // while someone subscribes (see observe.go)
	ticks     uint64       // see Ticks
	repanic   bool
	ticking   bool                          // a tick or a halt is under way (Snapshot and Restore refuse to run)
	preCond   bool                          // user is running a pre-condition's code (see guardCond)
	ownCfg    bool                          // cfg is the tree's own, which options may change (see config)
	attention atomic.Uint32                 // what the next tick sees to first: attnStop, attnAborted, attnQueued, attnWatch
	user      uint16                        // the UID of the node whose code runs; 0: none (see panic.go)
	leaf      uint16                        // the UID of the last function leaf that ran (see panic.go)
	wakes     atomic.Uint64                 // the wake-ups asked for (see wake.go)
	claims    atomic.Pointer[[]wakeClaim]   // the wake-ups nodes asked for (see Node.claim); nil: none yet
	bell      atomic.Pointer[chan struct{}] // see doorbell; nil: none yet
	runs      atomic.Pointer[runScope]      // see runContext
	cfg       *treeConfig                   // nil only in the zero Tree
	bb        *blackboard.Blackboard
	owner     any                   // see WithOwner
	queue     atomic.Pointer[queue] // functions to run before the next tick (see Do); nil: none yet
	rare      *treeRare             // nil until OnReload, Reload, OnAsyncStart or SubscribeBatchWhen
}

// treeConfig is what the options set, which does not change once the tree is built:
// the trees built without such options share one (a Factory's, or NewTree's).
type treeConfig struct {
	clock       Clock
	ctx         context.Context
	enums       func(string) (int64, bool) // a Factory's enum names; nil: none
	enumsOf     *Factory                   // the Factory whose enum names enums are; nil: none
	logger      *slog.Logger               // for the Log node; nil: slog.Default() (see logger.go)
	typeNames   map[string]reflect.Type    // the types given WithTypes, by name
	haltTimeout time.Duration
}

// newConfig returns the configuration of a tree built without options, with the enum
// names enums (nil: none).
func newConfig(enums func(string) (int64, bool)) *treeConfig {
	return &treeConfig{clock: systemClock{}, ctx: context.Background(), enums: enums}
}

// specConfig is the configuration NewTree's trees share until an option changes theirs.
var specConfig = newConfig(nil)

// config returns the tree's configuration to change, for an option: a copy of the
// shared one, made at the first change.
func (t *Tree) config() *treeConfig {
	if !t.ownCfg {
		c := *t.cfg
		c.typeNames = maps.Clone(c.typeNames)
		t.cfg, t.ownCfg = &c, true
	}
	return t.cfg
}

// treeRare is what few trees use, kept apart: a crowd of small trees pays for every byte
// of a Tree (see Tree).
type treeRare struct {
	reloaded []*func(*ReloadReport) // told of each reload (see OnReload)
	keys     []nodeKey              // the nodes' keys, which the last reload made for the next
	asyncCtx []*AsyncContextFunc    // see OnAsyncStart; nil: none
	watchers []*watcher             // the subscribers of SubscribeBatchWhen (see watch.go)
	spare    *observation           // the recording of a tree that they do not hear, for when they do
}

// rareParts returns the tree's treeRare, made at its first use.
func (t *Tree) rareParts() *treeRare {
	if t.rare == nil {
		t.rare = new(treeRare)
	}
	return t.rare
}

// The bits of Tree.attention: a tick finds what it must see to before it ticks the
// root in one load.
const (
	attnStop    = 1 << iota // Stop was called
	attnAborted             // an error stopped the last tick half-way (see TickOnce)
	attnQueued              // Do was given functions to run
	attnWatch               // subscribers of SubscribeBatchWhen are asked at each tick (see watch.go)
)

// Option configures a tree when it is built.
type Option func(*Tree)

// WithClock makes the tree read time from c instead of the system clock.
func WithClock(c Clock) Option { return func(t *Tree) { t.config().clock = c } }

// WithContext sets the parent context of the contexts given to async actions: canceling
// ctx cancels their work (the tree still has to be halted to wait for them; see Stop for
// a way that does both).
func WithContext(ctx context.Context) Option { return func(t *Tree) { t.config().ctx = ctx } }

// WithBlackboard makes bb the tree's root blackboard instead of a new, empty one
// (several trees may share one).
func WithBlackboard(bb *blackboard.Blackboard) Option { return func(t *Tree) { t.bb = bb } }

// WithRepanic makes a panic in a node's code propagate out of the tick instead of being
// returned as a *NodeError.
func WithRepanic() Option { return func(t *Tree) { t.repanic = true } }

func newTree(cfg *treeConfig, opts []Option) (*Tree, error) {
	t := &Tree{cfg: cfg}
	for _, o := range opts {
		if o == nil {
			return nil, errors.New("bt: a nil Option")
		}
		o(t)
	}
	switch {
	case t.cfg.clock == nil:
		return nil, errors.New("bt: WithClock: the clock is nil")
	case t.cfg.ctx == nil:
		return nil, errors.New("bt: WithContext: the context is nil")
	case t.cfg.haltTimeout < 0:
		return nil, fmt.Errorf("bt: WithHaltTimeout: the timeout %v is negative", t.cfg.haltTimeout)
	}
	if t.bb == nil {
		t.bb = blackboard.New(blackboard.WithEnums(t.cfg.enums))
	}
	return t, nil
}

// TickOnce makes one tick of the tree as BehaviorTree.CPP's Tree::tickOnce does, which
// may tick the root more than once: while the result is Running and a node asked for a
// wake-up (see WakeUp) the root is ticked again at once, so nodes that yield
// (AsyncSequence, Repeat, …) still finish within the call. TickExactlyOnce ticks the
// root exactly once. When the root completes it is reset to Idle, ready for the next run.
//
// An error means the tick was stopped: a node's script or port failed, a node returned
// an invalid status, user code panicked, or halting a node failed; errors.As finds the
// *NodeError. The nodes keep the statuses they had when it stopped, to look at — the
// nodes the error interrupted (the one that failed, unless it is a leaf or its
// pre-condition failed, and the ones above it) say Running — and the next tick (or
// Halt) first halts the tree as Halt does: it starts again from a clean state. If that
// halt fails, the tick returns its errors instead of ticking.
//
// Its common case — nobody observes the tree and the tick has nothing to see to first
// (Stop, an aborted tick, functions given to Do) — is written out in its own frame: a
// crowd of small trees, each ticked once a frame, pays a tick's fixed cost for every
// tree. Every other case takes tickFull.
func (t *Tree) TickOnce() (s Status, err error) {
	root := t.root
	if root == nil || t.ticking || t.obs != nil || t.attention.Load() != 0 {
		return t.tickFull(true)
	}
	// t.ticking says whether the deferred call must ask recover: the tick is under way,
	// so it panicked. (Code that clears it during a tick, as Do's, restores it.)
	defer func() {
		if t.ticking {
			s, err = t.untick(recover())
		}
	}()
	t.ticking = true
	// A wake-up asked for (whatever s is), a subscriber that came during the tick or a
	// Stop: one test each, the rest is tickTail's.
	s = root.t.tick(root)
	if t.obs != nil || uint32(t.wakes.Load())|t.attention.Load()&attnStop != 0 {
		return t.tickTail(root, s)
	}
	// Nobody observes the root's byte (t.obs is nil): it says Running, or Idle when the
	// root completed.
	if s == Running {
		root.st.store(Running)
	} else {
		root.st.store(Idle)
	}
	t.ticking = false
	t.ticks++
	return s, nil
}

// tickTail ends a tick of TickOnce's common case whose root returned s, when a node
// asked for a wake-up (the tick goes on while the root is Running), a subscriber came
// during it, or Stop was called.
func (t *Tree) tickTail(root *Node, s Status) (Status, error) {
	var err error
	if s == Running && uint32(t.wakes.Load()) != 0 {
		s, err = t.rerun(root, s, true)
	} else {
		s = root.storeRootStatus(s)
	}
	t.ticking = false
	return t.tickEnd(s, err)
}

// TickExactlyOnce ticks the root exactly once, ignoring wake-ups: a node that yields
// returns Running for this call.
func (t *Tree) TickExactlyOnce() (Status, error) { return t.tickFull(false) }

// untick ends a tick of TickOnce's common case that panicked with r.
func (t *Tree) untick(r any) (Status, error) {
	t.ticking = false
	var err error
	if r != nil {
		err = t.caught(r)
	}
	return t.tickEnd(Idle, err)
}

// tickFull is TickOnce (rerun) or TickExactlyOnce, every case: the root's ticks, then
// the tick's end for the subscribers, who may have come in a function given to Do. An
// observed tick with nothing to see to first (the case of a tree that a logger or a
// monitor watches) is written out here, in one frame, as TickOnce's common case is: the
// batch begun, the root ticked, the batch handed over, with one deferred call for a
// panic in either. (Through beginBatch, tickRoot, tickEnd and endBatch, it took three
// frames and two deferred calls that ask recover, each with its checks: on a small
// tree, most of what observing costs.) The uncommon ends — Stop called during the
// tick, a subscription changed by a function given to Do, a panic — take tickEnd.
func (t *Tree) tickFull(rerun bool) (s Status, err error) {
	o, root := t.obs, t.root
	switch {
	case root == nil:
		return Idle, ErrEmptyTree
	case t.ticking:
		return Idle, errNestedTick
	case o == nil || t.attention.Load() != 0:
		t.beginBatch(true)
		return t.tickEnd(t.tickRoot(rerun))
	}
	if _, ok := t.cfg.clock.(systemClock); ok { // (time.Now called directly, not through Clock)
		o.time = time.Now()
	} else {
		o.time = t.cfg.clock.Now()
	}
	o.ticking, o.openUID = true, 0
	phase := phaseTick
	defer func() {
		switch phase {
		case phaseTick:
			t.ticking = false
			if r := recover(); r != nil {
				s, err = t.tickEnd(Idle, t.caught(r))
			}
		case phaseHandOver:
			o.openUID = 0
			if r := recover(); r != nil {
				err = t.subscriberPanicked(err, r)
			}
		}
	}()
	t.ticking = true
	if s = root.t.tick(root); rerun && s == Running && uint32(t.wakes.Load()) != 0 {
		s, err = t.rerun(root, s, true)
	} else if s == Skipped || !o.tryRecord(root, s) || s.Completed() && !o.tryRecord(root, Idle) {
		s = root.storeRootStatus(s) // (its common case is the line above: it stores again what that stored, no change)
	}
	t.ticking = false
	if t.attention.Load()&attnStop != 0 || t.obs != o {
		phase = phaseDone
		return t.tickEnd(s, err)
	}
	t.ticks++
	o.ticking = false
	phase = phaseHandOver
	if o.openUID != 0 {
		t.settle()
	}
	n := o.n // (handOver, inline, and hand's common case)
	o.n = 0
	if len(o.batch) == 1 {
		o.batch[0].batch(Batch{Changes: o.buf[:n], Time: o.time, End: true})
	} else {
		o.hand(Batch{Changes: o.buf[:n], Time: o.time, End: true})
	}
	o.openUID = 0
	phase = phaseDone
	return s, err
}

// The phases of tickFull's observed tick, which its deferred call tells apart.
const (
	phaseTick     = iota // the root's ticks: a panic is the tick's error (see tickRoot)
	phaseHandOver        // the last batch handed over: a panic is a subscriber's (see endBatch)
	phaseDone            // nothing to recover
)

// tickEnd ends a tick that returned s and err: a Stop called during it halts the tree,
// and the subscribers get the tick's last batch.
func (t *Tree) tickEnd(s Status, err error) (Status, error) {
	if t.attention.Load()&attnStop != 0 {
		s, err = t.stopDuring(s, err)
	}
	t.ticks++
	if t.obs != nil {
		err = t.endBatch(true, err)
	}
	return s, err
}

func (t *Tree) tickRoot(rerun bool) (s Status, err error) {
	root := t.root
	a := t.attention.Load()
	if a&attnStop != 0 {
		return t.endRun(true)
	}
	if a&attnAborted != 0 {
		if err := t.haltAborted(); err != nil {
			return Idle, err
		}
	}
	done := false // the tick did not panic: the deferred call need not ask recover
	defer func() {
		t.ticking = false
		if done {
			return
		}
		if r := recover(); r != nil {
			s, err = Idle, t.caught(r)
		}
	}()
	if a&attnQueued != 0 {
		if err := t.runDo(); err != nil {
			done = true
			return Idle, err
		}
		root = t.root // a function given to Do may have reloaded the tree
	}
	t.ticking = true
	if t.attention.Load()&attnWatch != 0 {
		t.watchTick()
	}
	s, err = t.rerun(root, root.t.tick(root), rerun)
	done = true
	return s, err
}

// rerun ticks the root again, when again is set (TickOnce), while it returns Running
// (s, for the tick it just had) and a node asked for a wake-up, and stores the root's
// status.
func (t *Tree) rerun(root *Node, s Status, again bool) (Status, error) {
	for again && s == Running && t.woken() {
		root.storeStatus(s)
		if a := t.attention.Load(); a&^attnWatch != 0 {
			if a&attnStop != 0 {
				return t.endRun(true)
			}
			if err := t.runDo(); err != nil {
				return Idle, err
			}
			root = t.root
		}
		s = root.t.tick(root)
	}
	return root.storeRootStatus(s), nil // observers may panic
}

// storeRootStatus stores s, the status of the root, and returns it. A root that
// completed is reset to Idle, ready for the next run: observers see both changes.
func (root *Node) storeRootStatus(s Status) Status {
	if b := root.st; !b.observed() { // Running, or Idle when it completed
		b.store(Idle)
		if s == Running {
			b.store(Running)
		}
		return s
	}
	if root.storeStatus(s).Completed() {
		root.set(Idle)
	}
	return s
}

// runDo runs the functions given to Do, during a tick; when one restored a snapshot of
// a tree whose last tick failed, it halts the tree first, as the start of a tick does.
func (t *Tree) runDo() error {
	t.runQueued()
	if t.attention.Load()&attnAborted == 0 {
		return nil
	}
	if err := t.haltAborted(); err != nil {
		return err
	}
	t.ticking = true // halt ends with it false
	return nil
}

// haltAborted halts the tree before a tick when an error stopped the last tick
// half-way (see TickOnce), or a function given to Do restored a snapshot of a tree in
// that state (attnAborted).
func (t *Tree) haltAborted() error {
	err := t.halt()
	t.repanicFrom(err)
	return err
}

// caught turns the panic r that stopped a tick into an error. Under WithRepanic a panic
// of user code goes on up, after the tree noted what it interrupted.
func (t *Tree) caught(r any) error {
	t.attention.Or(attnAborted)
	err := t.recovered(r, nil, 0)
	if t.repanic {
		switch r.(type) {
		case *NodeError, *failure, invalidStatus:
			t.repanicFrom(err)
		default:
			panic(r)
		}
	}
	return err
}

// repanicFrom raises, under WithRepanic, the first panic of user code that halting
// collected in err.
func (t *Tree) repanicFrom(err error) {
	var pe *PanicError
	if t.repanic && errors.As(err, &pe) {
		panic(pe.Value)
	}
}

var errNilContext = errors.New("bt: nil context")

// DefaultPeriod is TickWhileRunning's period when none is given (BehaviorTree.CPP's default).
const DefaultPeriod = 10 * time.Millisecond

// TickWhileRunning calls TickOnce until the root is no longer Running, sleeping up to
// period between ticks (period ≤ 0 means DefaultPeriod). A wake-up cuts the sleep short.
// If ctx is done first, the tree is halted and ctx's error returned with Running.
func (t *Tree) TickWhileRunning(ctx context.Context, period time.Duration) (Status, error) {
	if ctx == nil {
		return Idle, errNilContext
	}
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

// ErrStopped is the error of the tick that halted the tree because Stop was called.
var ErrStopped = errors.New("bt: the tree was stopped")

// errNestedTick is the error of a tick of a tree asked for by its own nodes' code
// during a tick or a halt: a tree's ticks do not nest.
var errNestedTick = errors.New("bt: a tick of the tree during its own tick or halt (from a node's code): ticks do not nest")

// Stop stops the tree from any goroutine — a signal handler, an HTTP handler, a ROS
// callback — while another goroutine ticks it.
//
// A run of the tree is the ticks from one that finds the root Idle (the tree freshly
// built, or its last run over) to the one after which the root is no longer Running:
// the root completed, the tick failed, or the tree was halted. Stop ends the run under
// way when it is called: it cancels the contexts of the async actions at once, so that
// their work stops, and the tick under way, when its nodes are done, halts the tree
// instead of going on (TickOnce does not re-tick); between two ticks of the run,
// TickWhileRunning wakes from its sleep to halt it, and otherwise the next TickOnce or
// TickExactlyOnce halts the tree instead of ticking it. A Stop called between runs
// ends the next run so, at its first tick. Halt, if it comes first, ends the run
// instead.
//
// The tick that ends the run returns ErrStopped, joined with the errors of the halt and
// those of the tick's nodes, if any — but for the context's error that work which Stop
// canceled returned: it is the stop's doing. Its status is the root's: Running, or the
// status the root completed with during that tick. The tree is Idle then, and the next
// tick starts a new run, which the Stop does not reach: each Stop (or several at once)
// ends one run. Stop does not wait for any of it; it cannot interrupt a node's code
// that is running.
func (t *Tree) Stop() {
	// The run context loaded before the request is the one of the run that the request
	// ends (or of one that ended before: canceling it does no harm), never one of a run
	// that begins after the request was answered. One made after the request is
	// canceled as it is made (runContext); one made between the load and the request is
	// not canceled here, but by the halt that ends its run, at the end of the tick.
	rs := t.runs.Load()
	t.attention.Or(attnStop)
	if rs != nil {
		rs.cancel()
	}
	t.WakeUp()
}

// stopDuring ends the run of a tick during which Stop was called (see Stop): the tick
// returned s and err, and the nodes may have failed with the canceled context's error.
func (t *Tree) stopDuring(s Status, err error) (Status, error) {
	before, stopped := t.endRun(true)
	if err != nil { // the tick failed: the root is as the error left it
		s = before
	}
	return s, joinErrors(appendErr(appendErr(nil, stopped), notCanceled(err)))
}

// notCanceled returns err without the errors that are a context's cancellation.
func notCanceled(err error) error {
	if j, ok := err.(joinedError); ok {
		var errs []error
		for _, e := range j.Unwrap() {
			errs = appendErr(errs, notCanceled(e))
		}
		return joinErrors(errs)
	}
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// endRun halts the tree, for Halt or for a tick that found a request of Stop (then it
// returns ErrStopped too), and so ends the run: a request of Stop is answered either
// way, and after one the next run gets a context of its own. It returns the root's
// status before the halt.
func (t *Tree) endRun(tick bool) (Status, error) {
	s := t.root.Status()
	asked := t.attention.And(^uint32(attnStop))&attnStop != 0
	err := t.halt()
	if asked || tick {
		t.runs.Store(nil) // Stop canceled it: the next runs get a context of their own
		t.woken()         // Stop's wake-up is spent
	}
	t.repanicFrom(err)
	if tick {
		err = joinErrors(appendErr([]error{ErrStopped}, err))
	}
	return s, err
}

// runScope is the context of a run of the tree: Stop cancels it.
type runScope struct {
	ctx    context.Context
	cancel context.CancelFunc
}

// runContext returns the context async actions derive theirs from: a child of the
// tree's context (WithContext) that Stop cancels. It is made when first needed, by the
// ticking goroutine.
func (t *Tree) runContext() context.Context {
	rs := t.runs.Load()
	if rs == nil {
		ctx, cancel := context.WithCancel(t.cfg.ctx)
		rs = &runScope{ctx, cancel}
		t.runs.Store(rs)
		if t.attention.Load()&attnStop != 0 { // a Stop that did not see it
			cancel()
		}
	}
	return rs.ctx
}

// Halt stops every Running node and resets every node to Idle, as BehaviorTree.CPP's
// haltTree does. A node's Halt method runs before its children are halted, its
// _onHalted script after theirs.
//
// Halt halts the whole tree whatever fails on the way: a Halt method or an _onHalted
// script that fails, an observer that panics. It returns the failures joined
// (errors.Join), each a *NodeError naming its node; the tree is Idle all the same.
//
// Halt must be called by the goroutine that ticks the tree, never during a tick; to
// stop a tree from another goroutine, use Stop.
func (t *Tree) Halt() error {
	if t.root == nil {
		return nil
	}
	t.beginBatch(false)
	_, err := t.endRun(false)
	return t.endBatch(false, err)
}

// Ticks returns how many ticks the tree made: the calls of TickOnce and TickExactlyOnce
// that ticked its root, stopped it (Stop) or returned an error, each counted as it
// returns (TickWhileRunning makes one a round).
func (t *Tree) Ticks() uint64 { return t.ticks }

// halt is BehaviorTree.CPP's haltTree: it resets every node (see resetAll) and returns
// what failed. It starts the next tick afresh after an aborted one.
func (t *Tree) halt() (err error) {
	t.ticking = true
	defer func() {
		t.ticking = false
		if r := recover(); r != nil {
			err = t.caught(r)
		}
	}()
	t.attention.And(^uint32(attnAborted))
	return t.resetAll()
}

// ID returns the ID of the tree definition the tree was built from, as a Factory
// knows it (for example "MainTree"), or "" for a tree built with NewTree.
func (t *Tree) ID() string {
	if t.def == nil { // a zero Tree
		return ""
	}
	return t.def.id
}

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
func (t *Tree) Clock() Clock {
	if t.cfg == nil { // the zero Tree
		return nil
	}
	return t.cfg.clock
}

// Context returns the context async actions derive theirs from: a child of the context
// given WithContext, canceled by Stop. Like the other methods, call it from the
// goroutine that ticks the tree.
func (t *Tree) Context() context.Context {
	if t.cfg == nil { // the zero Tree
		return context.Background()
	}
	return t.runContext()
}

// Len returns the number of nodes.
func (t *Tree) Len() int { return len(t.nodes) }

// byUID returns the index in nodes of the node of each UID: that of the node whose UID
// is i+1 is byUID()[i]. The trees of a definition share it.
func (t *Tree) byUID() []uint16 {
	if t.def == nil { // the zero Tree
		return nil
	}
	return *t.def.byUID.Load()
}

// Node returns the node whose UID is uid, or nil.
func (t *Tree) Node(uid uint16) *Node {
	if uid == 0 || int(uid) > len(t.nodes) {
		return nil
	}
	return &t.nodes[t.byUID()[uid-1]]
}

// Nodes returns every node in UID order: depth-first, parents before children.
func (t *Tree) Nodes() iter.Seq[*Node] {
	return func(yield func(*Node) bool) {
		for _, i := range t.byUID() {
			if !yield(&t.nodes[i]) {
				return
			}
		}
	}
}

// Walk visits the nodes depth-first from the root, parents before children, with their
// depth (0 for the root). When visit returns false the node's children are skipped.
func (t *Tree) Walk(visit func(n *Node, depth int) bool) {
	if t.root != nil && visit != nil {
		walkFrom(t.root, 0, visit)
	}
}

func walkFrom(n *Node, depth int, visit func(*Node, int) bool) {
	if !visit(n, depth) {
		return
	}
	for i := range n.NumChildren() {
		walkFrom(n.Child(i), depth+1, visit)
	}
}
