package bt

import (
	"errors"
	"iter"
	"slices"
	"strconv"

	"github.com/gobt/bt/blackboard"
	"github.com/gobt/bt/btxml"
)

// Behavior is what a node does when it is ticked: the body of an action, a condition,
// a control or a decorator. Tick returns Running, Success, Failure or Skipped — never
// Idle — and the engine stores it as the node's status (see Node.Tick).
//
// The tree builds a Behavior value per node (its model's New function runs once for
// each), so a behavior may keep state across ticks in its own fields. Function leaves
// (NewAction, NewCondition) are the exception: every node of such a model shares the
// function, which keeps no state of the node's.
type Behavior interface {
	Tick(n *Node) Status
}

// Halter is implemented by behaviors that hold work or state to release when their node
// is halted while Running: stop a motor, cancel a request, forget an index. The node's
// children are halted by the engine right after Halt returns, so a control or decorator
// only forgets its own state.
type Halter interface {
	Halt(n *Node)
}

// ticker is what a node dispatches a tick to: the node's pipeline up to, not including,
// storing the status, which the caller does with Node.storeStatus (Node.Tick, the
// committing loops; the hot loops of Sequence and Fallback store fewer bytes: see
// sequence.tick). Builtin controls and leaves implement it directly, so that their tick
// costs one interface call; a decorator's body is wrapped in a decoratorNode (a second
// call), user behaviors in a userNode, and nodes with pre/post conditions in a
// condNode.
//
// A ticker does not store its own node's status, except that of a decorator or a
// SubTree: their dispatch is a decoratorNode, whose tick puts the child back and
// stores the decorator's status. Sequence and Fallback count on it to know
// which of their children's status bytes they must clear (see sequence.childStoresOwn).
//
// What the engine asks of a node besides its tick, it finds by assertion on the node's
// core (Node.core: the ticker, or a decorator's body, without the wrappers around it):
// Halter (halting), interruptible (a tick stopped by an error), stateKeeper
// (snapshots, snapshot_state.go), and userNode or funcLeaf for a user's code.
type ticker interface {
	tick(n *Node) Status
}

// interruptible is implemented by the controls whose loop leaves some of their
// children's statuses unstored while it runs (Sequence and Fallback, the reactive
// ones): when an error stops the tick in child k, Tree.interrupt tells them, so that
// they store what the halt that follows must see (see halt.go).
type interruptible interface {
	interrupted(k int)
}

// Node is one node of a built tree: a behavior wrapped in the lifecycle every node
// shares (pre-conditions, status bookkeeping, post-conditions, observers, halting).
//
// Nodes are created by NewTree or a Factory and live as long as their Tree. They are
// not safe for concurrent use: only the goroutine that ticks the tree may call Tick,
// Halt or read Status (an async action's goroutine may call what AsyncFunc lists).
type Node struct {
	// A node is kept to the 32 bytes a tick reads, so that a big tree's hot data stays in
	// the CPU's cache; the rest is in meta. Its status lives in the tree's status array,
	// where the statuses of siblings are contiguous, so that a control resets its
	// children by clearing a few bytes.
	t    ticker
	st   *statusByte
	meta *nodeMeta
}

// statusByte is a node's status as the tree stores it: the Status, with observedBit
// set while the tree has observers. Unobserved, the byte is the Status itself, so the
// hot paths compare it with statuses (statusByte(Idle), …) and mask nothing; an
// observed byte equals none of them, which sends those paths to the one that tells
// the observers (Node.set). Its methods are inlined.
type statusByte uint8

// observedBit marks a status byte whose changes must be told to observers.
const observedBit statusByte = 0x80

// shownRunningBit marks the byte of an observed node that is Idle, but that observers
// were last told is Running: a control or decorator that returned Skipped after it was
// marked Running (it marks itself Running before it ticks its children).
// BehaviorTree.CPP never stores SKIPPED, so such a node stays RUNNING there until it is
// reset — by its parent, by a halt of the tree — or its status changes at a later tick;
// bt puts it back to Idle at once, and tells observers of it when BehaviorTree.CPP
// would (see Node.set), so that they see the reference's stream. (A leaf that returns
// Skipped while Running would stay RUNNING there too, and resume at its next tick,
// where bt starts it afresh: observers see it go Idle at once, so that they see each
// start of its work.)
const shownRunningBit statusByte = 0x40

// flagBits are the bits of a status byte that are not its status.
const flagBits = observedBit | shownRunningBit

// status returns the status the byte holds.
func (b statusByte) status() Status { return Status(b &^ flagBits) }

// observed reports whether the byte's changes must be told to observers.
func (b statusByte) observed() bool { return b >= observedBit }

// idleAndKnown reports whether the byte holds Idle and observers know it: there is nothing
// to reset.
func (b statusByte) idleAndKnown() bool { return b&^observedBit == statusByte(Idle) }

// A status byte is written only by the methods of statusByte below, resetStatuses,
// observation.tryRecord (whose inlining a call would cost) and assignments of what
// observedByte returns, whose names say which rule each write
// keeps (TestStatusBytesWrittenByHelpers fails when a byte is written anywhere else).
// None of them stores Skipped: a skipped node stays, or becomes, Idle. They are
// inlined.

// store stores s — Idle, Running, Success or Failure, never Skipped — in a byte nobody
// observes.
func (b *statusByte) store(s Status) { *b = statusByte(s) }

// storeTicked stores s, the status a tick returned, in a byte nobody observes: Skipped
// is stored as Idle.
func (b *statusByte) storeTicked(s Status) {
	if s == Skipped {
		s = Idle
	}
	*b = statusByte(s)
}

// observedByte is the byte to store for s — never Skipped — in an observed node that
// observers will see as it is (telling them is the caller's: see Node.set). It is
// assigned (b = observedByte(s)), not stored through a method, because the observed
// loops that store most bytes (observation.tryRecord, family.resetObserved) lose
// their bounds-check elimination and inlining otherwise.
func observedByte(s Status) statusByte { return statusByte(s) | observedBit }

// keepShownRunning makes an observed byte Idle while its observers go on seeing it
// Running (see shownRunningBit).
func (b *statusByte) keepShownRunning() { *b = statusByte(Idle) | flagBits }

// restore stores s, the status a snapshot gives the node, and keeps whether the byte is
// observed.
func (b *statusByte) restore(s Status) { *b = statusByte(s) | *b&observedBit }

// adopt stores in the byte of a node that a reload kept the status of its old node, old:
// with whether observers see it Running when the node is the same one (sameNode), and
// observed as the tree now is.
func (b *statusByte) adopt(old statusByte, sameNode, observed bool) {
	if sameNode {
		*b = old &^ observedBit
	} else {
		*b = old &^ flagBits
	}
	if observed {
		*b |= observedBit
	}
}

// observe marks the byte as observed, or unmarks it.
func (b *statusByte) observe(on bool) {
	if on {
		*b |= observedBit
	} else {
		*b &^= flagBits
	}
}

// nodeMeta is the part of a node that ticks rarely read. A node's children and their
// status bytes are the ranges [first, first+nkids) of the tree's node and status arrays:
// siblings are contiguous. Its definition is the record root+def of its scope's defs.
//
// Slots, UIDs and the records of one tree or subtree are fewer than maxNodes, so 16
// bits hold them: a node and its meta take 48 bytes.
type nodeMeta struct {
	scope *scope
	def   uint16
	first uint16
	uid   uint16
	nkids uint16
}

// def returns the node's definition and its record in it.
func (n *Node) def() (*defs, *defNode) {
	sc := n.meta.scope
	return sc.defs, &sc.defs.nodes[sc.root+uint32(n.meta.def)]
}

// portValue returns the value its definition sets for the node's port name, or nil.
func (n *Node) portValue(name string) *portValue {
	d, r := n.def()
	return d.port(r, name)
}

// childrenAreLeaves reports whether every child of the node is an action or a
// condition, which record no change of their own when they are ticked.
func (n *Node) childrenAreLeaves() bool {
	d, r := n.def()
	for _, kid := range d.nodes[r.first : r.first+uint32(r.nkids)] {
		if k := d.models[kid.model].Kind; k != KindAction && k != KindCondition {
			return false
		}
	}
	return true
}

// someChildStoresOwn reports whether a child of the node stores its own status when
// ticked: a decorator or a subtree (see ticker), or a control a user wrote, which stores
// Running when it calls Node.MarkRunning. It reads the children's records in a row.
func (n *Node) someChildStoresOwn() bool {
	d, r := n.def()
	for _, kid := range d.nodes[r.first : r.first+uint32(r.nkids)] {
		switch m := d.models[kid.model]; m.Kind {
		case KindDecorator, KindSubTree:
			return true
		case KindControl:
			if m.build == nil {
				return true
			}
		}
	}
	return false
}

// model returns the node's type.
func (n *Node) model() *Model {
	d, r := n.def()
	return d.models[r.model]
}

// Pos returns where the node is written in XML (an invalid Pos for nodes defined in Go).
func (n *Node) Pos() btxml.Pos {
	d, r := n.def()
	return btxml.Pos{File: d.files[r.file], Line: r.line, Col: r.col}
}

// typeID is the type a node's path is made of: the model ID, or for a SubTree the ID of
// the tree it instantiates.
func (n *Node) typeID() string {
	d, r := n.def()
	if id := d.moreOf(r).treeID(); id != "" { // (also of a SubTree a rule replaced)
		return id
	}
	return d.models[r.model].ID
}

// Tick runs the node's pipeline once and returns the status its parent sees:
//
//  1. When the node is Idle its pre-conditions (_failureIf, _successIf, _skipIf,
//     _while) are checked; one that fires decides the status and the behavior is not
//     ticked. While it is Running only _while is checked: false halts the node and
//     returns Skipped.
//  2. Otherwise the behavior's Tick runs.
//  3. The status is stored — except Skipped, which is returned but never stored: a
//     skipped node stays (or becomes) Idle. Observers see every change.
//  4. After Success or Failure the post-conditions run (_onSuccess or _onFailure, then _post).
//  5. A decorator resets its child to Idle when the child completed (see
//     the node lifecycle in the package doc for the order observers see).
//
// Controls and decorators call Tick on their children; users call Tree.TickOnce.
func (n *Node) Tick() Status { return n.storeStatus(n.t.tick(n)) }

// storeStatus stores the status a tick produced and returns it. Node.Tick, decoratorNode
// and the controls' committing loops call it as c.storeStatus(c.t.tick(c)), where it is
// inlined; the hot loops of Sequence, Fallback and the reactive controls store their
// children's bytes themselves, and fewer of them (see sequence.tick).
func (n *Node) storeStatus(s Status) Status {
	// One test for the common case: a status below Skipped, stored in a byte without the
	// observedBit (both below 4, so their OR is too).
	if statusByte(s)|*n.st < statusByte(Skipped) {
		n.st.store(s)
	} else {
		n.set(s)
	}
	return s
}

// set changes the stored status (Skipped means Idle) and tells the observers. Its
// common case — an observed node that observers see as it is, given a status to
// store — is a few instructions and the record of the change (Tree.record); the rest
// is setGeneral's.
func (n *Node) set(s Status) {
	if o := n.meta.scope.tree.obs; o == nil || s == Skipped || !o.tryRecord(n, s) {
		n.setGeneral(s)
	}
}

// setGeneral is set for a node nobody observes, a node that observers see Running while
// it is Idle (see shownRunningBit), Skipped, and a change that does not fit in the
// batch or that subscribers of Subscribe must hear of.
func (n *Node) setGeneral(s Status) {
	b := *n.st
	if !b.observed() {
		n.st.storeTicked(s)
		return
	}
	prev, shown := b.status(), b.status()
	if b&shownRunningBit != 0 {
		shown = Running
	}
	switch {
	case s == Skipped && shown == Running && n.meta.nkids > 0: // observers go on seeing it Running
		n.st.keepShownRunning()
		return
	case s == Skipped:
		s = Idle
	case s == Idle && prev != shown:
		n.settleShown()
	}
	*n.st = observedByte(s)
	if shown != s {
		n.meta.scope.tree.record(n, shown, s)
	}
}

// settleShown tells observers that the children of n that they see Running went Idle,
// as BehaviorTree.CPP's halt of n, which observers see Running, would reset them,
// before n itself.
func (n *Node) settleShown() {
	f := n.family()
	for i, b := range f.status {
		if b&shownRunningBit != 0 {
			f.nodes[i].set(Idle)
		}
	}
}

// setRunning marks a control or decorator Running before it ticks its children, as
// BehaviorTree.CPP does, so observers see the parent start before its children. Without
// observers nobody can tell, and the store is left to storeStatus. Every control and
// decorator calls it, so it is kept small enough to be inlined: one test when nobody
// observes the tree.
func (n *Node) setRunning() {
	if b := *n.st; b.observed() && b != statusByte(Running)|observedBit {
		n.set(Running)
	}
}

// MarkRunning stores Running as the node's status at once, in the middle of its own
// tick, as BehaviorTree.CPP's setStatus(NodeStatus::RUNNING) at the start of a
// control's or decorator's tick: observers hear the node go Running before they hear
// of its children, which is the order of the builtin controls and decorators. A
// control or decorator a user writes calls it first thing in its Tick:
//
//	func (s *mySequence) Tick(n *bt.Node) bt.Status {
//		n.MarkRunning()
//		for ; s.i < n.NumChildren(); s.i++ { … n.Child(s.i).Tick() … }
//	}
//
// Without it the node's change is stored, and heard, when its Tick returns, after
// those of its children. The status its Tick returns is stored then, as always (a
// Skipped after MarkRunning leaves the node Idle, and observers see it as they see a
// builtin control's: see The node lifecycle in the package doc). Calling it from
// anywhere but the node's own Tick is a mistake the engine does not catch.
func (n *Node) MarkRunning() {
	if o := n.meta.scope.tree.obs; o != nil && o.openUID != 0 {
		n.meta.scope.tree.settle() // a leaf's change, after those of its parent's run
	}
	if n.st.status() != Running {
		n.set(Running)
	}
}

// Halt stops the node if it is Running — its behavior's Halt, then its children, then
// its _onHalted script — and resets it to Idle. Halting a node that is not Running only
// resets it. Controls and decorators call Halt on children they stop or reset.
//
// Halting goes on whatever fails on the way (a Halt method, an _onHalted script, an
// observer): every node under n is halted, then the failures, each naming its node,
// stop the tick as an error does.
func (n *Node) Halt() {
	if !n.st.idleAndKnown() {
		n.raise(n.reset())
	}
}

// raise stops the tick with err, what failed while n (or a family from n on) was
// reset, unless it is nil: the nodes above n were interrupted (see halt.go).
func (n *Node) raise(err error) {
	if err != nil {
		panic(&failure{err: err, at: n})
	}
}

// reset puts the node back to Idle — it halts the node if it is Running, else clears
// its status — and returns what failed.
func (n *Node) reset() error {
	if n.Status() == Running {
		return n.halt()
	}
	return n.protect(func() { n.set(Idle) })
}

// halt is BehaviorTree.CPP's haltNode for a running node: its behavior's Halt, its
// children reset, its status Idle, its _onHalted script. Each step is protected: one
// that fails does not keep the next from running. It returns what failed. The wake-up
// the node asked for (Node.WakeUp) is taken back once its Halt returned: an async
// action's goroutine, which asks for one as it ends, has returned by then.
func (n *Node) halt() error {
	var errs []error
	if h, ok := n.t.(Halter); ok {
		errs = appendErr(errs, n.protect(func() { h.Halt(n) }))
	}
	n.revokeWake()
	f := n.family()
	errs = appendErr(errs, f.reset(0))
	errs = appendErr(errs, n.protect(func() { n.set(Idle) }))
	if h := n.conditions(); h != nil {
		errs = appendErr(errs, n.protect(func() { h.run(n, OnHalted) }))
	}
	return joinErrors(errs)
}

// resetChildren resets every child from index i on, as a control does when it
// completes, and raises what failed.
func (n *Node) resetChildren(i int) {
	f := n.family()
	f.raiseReset(i)
}

// raiseReset resets the children from index i on and raises what failed.
func (f *family) raiseReset(i int) {
	if err := f.reset(i); err != nil {
		f.nodes[i].raise(err) // the parent and the nodes above it were interrupted
	}
}

// family is a node's children as a control keeps them at hand: the nodes and their
// status bytes, both contiguous in the tree's arrays.
type family struct {
	nodes  []Node
	status []statusByte // status[i] is the status byte of nodes[i]
}

func (n *Node) family() family {
	m := n.meta
	t := m.scope.tree
	lo, hi := int(m.first), int(m.first)+int(m.nkids)
	return family{t.nodes[lo:hi:hi], t.status[lo:hi:hi]}
}

// resetDone resets the children from index i on, known not to be Running: their status
// bytes are cleared, unless observers must hear of the change. (There is nothing to
// halt: an observer that panics stops the tick, and the next tick starts afresh.)
func (f *family) resetDone(i int) {
	st := f.status[i:]
	if len(st) > 0 && st[0].observed() { // observed: every byte has the bit
		f.resetObserved(f.nodes[0].meta.scope.tree.obs, i)
		return
	}
	resetStatuses(st)
}

// resetObserved is resetDone for an observed family, o its tree's observation.
func (f *family) resetObserved(o *observation, i int) {
	if i == 0 {
		f.recordReset(o)
		return
	}
	g := family{f.nodes[i:], f.status[i:]}
	g.recordReset(o)
}

// recordReset resets every child of an observed family: when the batch has room for
// every child, set's common case written out for the family, which a Sequence or
// Fallback that completes resets. (The family is not resliced in the common case, and
// the batch is held in a local: the compiler would reload it after each store.)
func (f *family) recordReset(o *observation) {
	kids, st := f.nodes, f.status
	kids = kids[:len(st)]
	k, rec := o.n, o.quick
	if len(rec)-k < len(st) {
		resetEach(kids, st)
		return
	}
	for j, b := range st {
		switch {
		case b == statusByte(Idle)|observedBit:
		case b&shownRunningBit != 0: // set may record more than one change
			o.n = k
			resetEach(kids[j:], st[j:])
			return
		default:
			st[j] = observedByte(Idle)
			rec[k] = MakeChange(kids[j].meta.uid, Status(b&^observedBit), Idle)
			k++
		}
	}
	o.n = k
}

// resetEach sets the nodes to Idle one by one (see resetDone).
func resetEach(kids []Node, st []statusByte) {
	for j, b := range st {
		if !b.idleAndKnown() {
			kids[j].set(Idle)
		}
	}
}

// resetStatuses sets status bytes nobody observes back to Idle, as a control does with
// its children's after a tick. Up to 8 of them, as most families have, are cleared by a
// loop that stays inline (written backwards, so that the compiler does not turn it
// into a call to memclr, which costs more than a few stores); more, by clear.
func resetStatuses(st []statusByte) {
	if len(st) > 8 {
		clear(st)
		return
	}
	for i := len(st) - 1; i >= 0; i-- {
		st[i] = statusByte(Idle)
	}
}

// reset resets the children from index i on (see Node.reset), every one of them
// whatever fails, and returns the failures. Without observers and with no child
// Running, that is clearing their status bytes.
func (f *family) reset(i int) error {
	st := f.status[i:]
	if len(st) > 0 && !st[0].observed() && !slices.Contains(st, statusByte(Running)) {
		resetStatuses(st)
		return nil
	}
	last, err := f.resetFrom(i)
	if err == nil {
		return nil
	}
	errs := appendErr(nil, err)
	for last+1 < len(f.nodes) {
		if last, err = f.resetFrom(last + 1); err != nil {
			errs = appendErr(errs, err)
		}
	}
	return joinErrors(errs)
}

// resetFrom resets the children from index i on until one fails, and returns the
// index of the last child it dealt with and what failed. (One recover for the family,
// not one per child: observed families reset every child this way.)
func (f *family) resetFrom(i int) (last int, err error) {
	if i >= len(f.nodes) {
		return i, nil
	}
	t := f.nodes[i].Tree()
	outer := t.user
	defer func() {
		if r := recover(); r != nil {
			err = t.recovered(r, &f.nodes[last], outer)
		}
	}()
	for last = i; last < len(f.nodes); last++ {
		switch f.status[last] {
		case statusByte(Idle):
		case statusByte(Success), statusByte(Failure):
			f.status[last].store(Idle)
		default: // Running, or observed
			if n := &f.nodes[last]; n.Status() != Running {
				n.set(Idle)
			} else if err := n.halt(); err != nil {
				return last, err
			}
		}
	}
	return last, nil
}

// resetOrder is when a decorator's child is put back, relative to storing the
// decorator's own status; observers see the difference (see decoratorNode.tick).
type resetOrder bool

const (
	// resetThenStore is the order of BehaviorTree.CPP's builtin decorators and SubTree:
	// they reset (or halt) the child inside their tick, before executeTick stores
	// their status.
	resetThenStore resetOrder = false
	// storeThenReset is the order of decorators that leave the child to the engine:
	// BehaviorTree.CPP's DecoratorNode::executeTick stores the status the tick returned,
	// then resets a child that completed. User decorators, SkipUnlessUpdated and
	// WaitValueUpdate are such decorators.
	storeThenReset resetOrder = true
)

// decorator is the body of a decorator or a SubTree: it ticks its child as it needs
// and returns its own status, leaving the child and its own status byte to
// decoratorNode, which every decorator is built into (see decorates). A decorator's
// body has no tick method, so it cannot be a node's dispatch without that wrapper.
type decorator interface {
	decorate(n *Node) Status
}

// decoratorNode is the dispatch of every decorator and SubTree, builtin or a user's
// (userNode): its tick is the one place where a decorator's child is put back and the
// decorator's status stored, as BehaviorTree.CPP's DecoratorNode::executeTick does.
// A builtin decorator model whose build function returns another ticker fails to
// build (see builder.newTicker).
type decoratorNode struct {
	body  decorator
	order resetOrder
}

// decorating returns the dispatch of a decorator whose body is d.
func decorating(d decorator, order resetOrder) *decoratorNode {
	return &decoratorNode{body: d, order: order}
}

// decorates returns the build function of a builtin decorator whose body newBody
// builds (see Model.build).
func decorates(order resetOrder, newBody func(c *NodeConfig) (decorator, error)) func(c *NodeConfig) (ticker, error) {
	return func(c *NodeConfig) (ticker, error) {
		d, err := newBody(c)
		return decorating(d, order), err
	}
}

// tick runs the decorator's body and ends its tick with the status s it returned,
// whether or not it ticked its child. Decorators store their own status — which is
// what Sequence and Fallback count on (see ticker) — in order:
//
//	resetThenStore: a child that completed is reset to Idle, a child still Running
//	                when s is not is halted (nothing is left running unseen); then s
//	                is stored
//	storeThenReset: s is stored; then a child that completed is reset to Idle (a
//	                Running child is left to the decorator, as BehaviorTree.CPP does)
//
// Without observers the order is invisible and each change is a byte store.
func (d *decoratorNode) tick(n *Node) Status {
	s := d.body.decorate(n)
	c := n.Child(0)
	if d.order == storeThenReset {
		n.storeStatus(s)
		if c.Status().Completed() {
			c.set(Idle)
		}
		return s
	}
	switch *c.st {
	case statusByte(Idle):
	case statusByte(Success), statusByte(Failure): // nobody observes the tree
		c.st.store(Idle)
	default: // Running, or observed
		if cs := c.Status(); cs.Completed() {
			c.set(Idle)
		} else if cs == Running && s != Running {
			c.raise(c.halt()) // nothing is left running unseen
		}
	}
	return n.storeStatus(s)
}

// Halt runs the body's Halt, if it has one.
func (d *decoratorNode) Halt(n *Node) {
	if h, ok := d.body.(Halter); ok {
		h.Halt(n)
	}
}

// Abort stops the current tick with err: the Tree's tick method returns a *NodeError
// that names this node. Use it from a behavior for errors that are not a Failure of the
// task, such as a port that holds a value of the wrong type.
func (n *Node) Abort(err error) {
	if err == nil {
		err = errors.New("aborted")
	}
	panic(n.errorf(err))
}

func (n *Node) errorf(err error) *NodeError {
	return &NodeError{Path: n.Path(), ID: n.ID(), UID: n.meta.uid, Err: err}
}

// Status returns the node's stored status (never Skipped).
func (n *Node) Status() Status { return n.st.status() }

// Name returns the instance name: the XML name attribute or, when none was given, the
// type ID (for a SubTree, the ID of the tree it instantiates).
func (n *Node) Name() string {
	if d, r := n.def(); r.name != 0 {
		return d.names[r.name]
	}
	return n.typeID()
}

// ID returns the node's type ID, such as "Sequence" or a registered action's ID.
func (n *Node) ID() string { return n.model().ID }

// Kind returns the node's category.
func (n *Node) Kind() Kind { return n.model().Kind }

// UID returns the node's unique ID in its tree: 1 for the root, then depth-first in
// document order, as BehaviorTree.CPP numbers them for Groot2.
func (n *Node) UID() uint16 { return n.meta.uid }

// Path returns the node's full path as BehaviorTree.CPP writes it: the path of the
// subtree instance it belongs to, then its name, then "::UID" when the name is just the
// type ID (so that paths are unique). For example "Script::3" or "nav/Sequence::7".
func (n *Node) Path() string {
	name := n.Name()
	p := n.meta.scope.prefix + name
	if name == n.typeID() {
		p += "::" + strconv.Itoa(int(n.meta.uid))
	}
	return p
}

// NumChildren returns the number of children of the node.
func (n *Node) NumChildren() int { return int(n.meta.nkids) }

// Child returns the node's child i (0 ≤ i < NumChildren).
func (n *Node) Child(i int) *Node {
	if uint(i) >= uint(n.meta.nkids) {
		panic("bt: child index out of range")
	}
	return &n.meta.scope.tree.nodes[int(n.meta.first)+i]
}

// kids returns the node's children, which are contiguous in the tree's node array.
func (n *Node) kids() []Node {
	m := n.meta
	lo, hi := int(m.first), int(m.first)+int(m.nkids)
	return m.scope.tree.nodes[lo:hi:hi]
}

// Tree returns the tree the node belongs to.
func (n *Node) Tree() *Tree { return n.meta.scope.tree }

// Behavior returns the behavior a user-defined node was built with (for example to
// reach a custom action's fields in a test), or nil for a builtin node.
func (n *Node) Behavior() Behavior {
	switch t := n.core().(type) {
	case *userNode:
		if s, ok := t.beh.(starting); ok { // ModelOf's wrapper of a Starter
			return s.beh
		}
		return t.beh
	case funcLeaf:
		return t
	}
	return nil
}

// Attribute returns the value of an attribute of the node that is neither a port nor
// one the engine reads (name, the pre/post conditions, _autoremap): "_description",
// Groot2's "_uid", a tool's own annotation, as XML (or Spec.With) wrote it.
// BehaviorTree.CPP keeps them in NodeConfig::other_attributes. The node reads them from
// its definition, which every tree built from it shares.
func (n *Node) Attribute(name string) (string, bool) {
	if m := n.more(); m != nil {
		return attributeIn(m.attrs, name)
	}
	return "", false
}

// Attributes returns the attributes Attribute reads, name and value, in the order they
// were written.
func (n *Node) Attributes() iter.Seq2[string, string] {
	var attrs []attribute
	if m := n.more(); m != nil {
		attrs = m.attrs
	}
	return eachAttribute(attrs)
}

// more returns the rarer parts of the node's definition, or nil.
func (n *Node) more() *specMore {
	d, r := n.def()
	return d.moreOf(r)
}

// Spec returns the definition the node was built from. It must not be modified.
func (n *Node) Spec() *Spec {
	sc := n.meta.scope
	return sc.defs.spec(sc.root + uint32(n.meta.def))
}

// Blackboard returns the blackboard of the tree or subtree instance the node belongs to.
func (n *Node) Blackboard() *blackboard.Blackboard { return n.meta.scope.bb }

// scope is what the nodes of one tree or subtree instance share.
type scope struct {
	tree   *Tree
	defs   *defs  // the definition of the scope's nodes: the records from defs.nodes[root]
	root   uint32 // on (fewer than maxNodes of them: see nodeMeta)
	prefix string // path prefix of the nodes: "" in the main tree, "name/" in a subtree
	// bb is the scope's blackboard, which the scripts of its nodes read and write: the
	// scope is their script.Env (see scripting.go). A crowd of small trees keeps a
	// scope per tree, in 48 bytes.
	bb *blackboard.Blackboard
}

func newScope(t *Tree, prefix string, bb *blackboard.Blackboard, d *treeDef) *scope {
	return &scope{tree: t, defs: d.defs, root: d.root, prefix: prefix, bb: bb}
}

// userNode runs a user's Behavior: it notes the node whose code runs, for a panic to
// name it (see enter), and checks the returned status.
// A user's decorator (or SubTree stand-in) is built into a decoratorNode, which puts
// its child back after each tick, as the body it runs (decorate).
type userNode struct {
	beh   Behavior
	ports []binding // for Get and Set
}

func (u *userNode) tick(n *Node) Status {
	t, outer := n.enter()
	s := u.beh.Tick(n)
	t.user = outer
	n.valid(s)
	return s
}

func (u *userNode) decorate(n *Node) Status { return u.tick(n) }

// Halt runs the behavior's Halt (Node.halt then takes back the wake-up the node asked
// for: an async action's goroutine has returned by then).
func (u *userNode) Halt(n *Node) {
	if h, ok := u.beh.(Halter); ok {
		t, outer := n.enter()
		h.Halt(n)
		t.user = outer
	}
}
