package bt

// ReactiveSequence ticks its children from the first one on every tick, so conditions
// placed before a long action are re-checked while it runs.
//
//	child Success → tick the next child
//	child Skipped → reset it (so it can be skipped again) and tick the next child
//	child Running → halt every other child (the earlier ones return to Idle, a later one
//	                that was running is stopped); Running
//	child Failure → halt all children; Failure
//	all children done → reset them; Skipped if every child was skipped in this tick,
//	                else Success
//
// Use at most one asynchronous child: two that return Running in turn halt each
// other on every tick. As BehaviorTree.CPP does, loading (or NewTree, for a tree built
// in Go) refuses a ReactiveSequence with more than one AsyncSequence child, in either
// XML form; that is the reference's whole rule: other children that may run (actions,
// subtrees, other controls) are not counted, nor are the children of a
// ReactiveFallback. XML:
//
//	<ReactiveSequence>
//	    <IsEnemyVisible/>
//	    <ApproachEnemy/>
//	</ReactiveSequence>
func ReactiveSequence(children ...*Spec) *Spec { return reactiveSequenceModel.Spec(children...) }

var reactiveSequenceModel = &Model{
	ID: "ReactiveSequence", Kind: KindControl,
	Description: "A Sequence that starts again from the first child on every tick.",
	build:       func(c *NodeConfig) (ticker, error) { return newReactive(c, Failure), nil },
}

// ReactiveFallback ticks its children from the first one on every tick, so a
// higher-priority child that starts succeeding interrupts a lower-priority one.
//
//	child Failure → tick the next child
//	child Skipped → reset it and tick the next child
//	child Running → halt every other child; Running
//	child Success → halt all children; Success
//	all children done → reset them; Skipped if every child was skipped in this tick,
//	                else Failure
//
// XML:
//
//	<ReactiveFallback>
//	    <IsDoorOpen/>
//	    <OpenDoor/>
//	</ReactiveFallback>
func ReactiveFallback(children ...*Spec) *Spec { return reactiveFallbackModel.Spec(children...) }

var reactiveFallbackModel = &Model{
	ID: "ReactiveFallback", Kind: KindControl,
	Description: "A Fallback that starts again from the first child on every tick.",
	build:       func(c *NodeConfig) (ticker, error) { return newReactive(c, Success), nil },
}

// reactive implements ReactiveSequence (stop = Failure) and ReactiveFallback (stop =
// Success).
type reactive struct {
	family     // the children, at hand
	stop, pass Status
	// childStoresOwn is set when a child stores its own status while it ticks: a decorator
	// or a subtree (see ticker).
	childStoresOwn bool
	// running is the child that returned Running at the last tick (-1: none). Between
	// ticks it is the one child that is not Idle, which the next tick puts back.
	running int32
	// storedAsTicked is set while the children's statuses are as they must be should an
	// error stop the tick, which interrupted then leaves alone: after a child was
	// skipped (statuses are stored as they come), and while a child that ran is halted.
	storedAsTicked bool
}

func newReactive(c *NodeConfig, stop Status) *reactive {
	pass := Success
	if stop == Success {
		pass = Failure
	}
	return &reactive{family: c.node.family(), stop: stop, pass: pass, childStoresOwn: c.node.someChildStoresOwn(), running: -1}
}

// tick is the loop of an unobserved node. Like Sequence's, it stores no status for
// the children that pass: they are reset at the end of the tick, and only one of them
// may have a status byte that is not Idle, the child that ran before (running), which
// the end of the tick puts back.
func (r *reactive) tick(n *Node) Status {
	if n.st.observed() {
		return r.tickObserved(n)
	}
	kids := r.nodes
	for i := range kids {
		s := kids[i].t.tick(&kids[i])
		if s == r.pass {
			continue
		}
		switch s {
		case Running:
			if int(r.running) != i || r.childStoresOwn {
				r.endRunning(i)
			} // else the child that ran at the last tick runs on: its byte says so already
			return Running
		case Skipped:
			return r.tickSkipped(i)
		default: // stop: the children ticked are reset, a later one that runs halted
			if r.running >= 0 || r.childStoresOwn { // else every byte is Idle
				r.endCompleted(i + 1)
			}
			return s
		}
	}
	if r.running >= 0 || r.childStoresOwn {
		r.endCompleted(len(kids))
	}
	if len(kids) == 0 {
		return Skipped
	}
	return r.pass
}

// endRunning ends a tick in which child i returned Running. BehaviorTree.CPP halts every
// other child: those before i completed in this tick and are reset, a later one that
// runs is halted.
func (r *reactive) endRunning(i int) {
	p := int(r.running)
	r.running = int32(i)
	if r.childStoresOwn {
		resetStatuses(r.status[:i])
	}
	r.status[i].store(Running)
	switch {
	case p < 0 || p == i:
	case p < i:
		r.status[p].store(Idle)
	default:
		r.haltRan(p)
	}
}

// haltRan halts child p, which ran before this tick, once the others are put back.
func (r *reactive) haltRan(p int) {
	r.storedAsTicked = true
	r.raiseReset(p)
	r.storedAsTicked = false
}

// endCompleted resets the children at the end of a tick in which the first k of them were
// ticked and none of them returned Running: their bytes are Idle, but for the child
// that ran before (running) and those that stored their own status (childStoresOwn); a
// child after them that ran before is halted.
func (r *reactive) endCompleted(k int) {
	p := int(r.running)
	r.running = -1
	if r.childStoresOwn {
		resetStatuses(r.status[:k])
	}
	switch {
	case p < 0:
	case p < k:
		r.status[p].store(Idle)
	default:
		r.haltRan(p)
	}
}

// tickSkipped goes on with the tick after child i was skipped: from there on every
// child's status is stored as it comes, as in the observed loop.
func (r *reactive) tickSkipped(i int) Status {
	r.storedAsTicked = true
	st, kids := r.status, r.nodes
	for j := range st[:i] {
		st[j].store(r.pass) // as interrupted(i) would
	}
	st[i].store(Idle) // a skipped child stays Idle
	skipped := 1
	for i++; i < len(kids); i++ {
		c := &kids[i]
		s := c.t.tick(c)
		st[i].storeTicked(s)
		switch s {
		case Skipped:
			skipped++
		case Running:
			p := int(r.running)
			r.running = int32(i)
			resetStatuses(st[:i])
			if p > i {
				r.raiseReset(p)
			}
			r.storedAsTicked = false
			return Running
		case r.stop:
			r.running = -1
			resetStatuses(st[:i+1])
			r.raiseReset(i + 1)
			r.storedAsTicked = false
			return s
		}
	}
	r.running, r.storedAsTicked = -1, false
	resetStatuses(st)
	if skipped == len(kids) {
		return Skipped
	}
	return r.pass
}

// interrupted is told that an error stopped the tick in child k: the children before
// it passed. Unless the tick stored their statuses as they came (after a skipped child,
// or observed), it stores them now, as the observed loop would have, so that the child
// that was Running when the tick began does not look Running to the halt that follows.
func (r *reactive) interrupted(k int) {
	if st := r.status; len(st) > 0 && !st[0].observed() && !r.storedAsTicked {
		for j := range st[:k] {
			st[j].store(r.pass)
		}
	}
}

// Halt forgets the running child, and the tick that an error stopped: the engine halts
// the children.
func (r *reactive) Halt(*Node) { r.running, r.storedAsTicked = -1, false }

// tickObserved is the loop of an observed node: every change goes through Node.set (or
// its common case, observation.tryRecord), in BehaviorTree.CPP's order — the node
// Running first, each child's status as it comes, the other children halted one by one
// when one runs (their common case written out: see recordResets).
func (r *reactive) tickObserved(n *Node) Status {
	o := n.meta.scope.tree.obs
	if *n.st != observedByte(Running) && !o.tryRecord(n, Running) { // Node.setRunning, inline
		n.set(Running)
	}
	allSkipped := true
	kids := r.nodes
	for i := range kids {
		c := &kids[i]
		s := c.t.tick(c)
		if s == Skipped || !o.tryRecord(c, s) { // tryRecord: Node.set's common case, inline
			c.set(s)
		}
		allSkipped = allSkipped && s == Skipped
		switch s {
		case Running:
			if !r.recordResets(o, i) {
				for j := range kids {
					if j != i {
						kids[j].Halt()
					}
				}
			}
			r.running = int32(i)
			return Running
		case r.stop:
			r.running = -1
			if !r.recordResets(o, -1) {
				n.resetChildren(0)
			}
			return s
		case Skipped:
			c.Halt()
		}
	}
	r.running = -1
	if !r.recordResets(o, -1) {
		n.resetChildren(0)
	}
	if allSkipped {
		return Skipped
	}
	return r.pass
}

// recordResets resets every child but child i (every child, for -1) in one run, as
// far as that is only recording their changes: a child that completed is set to Idle,
// an Idle one left alone, which is what Node.Halt and family.reset do with them. It
// reports whether it reset them all; it stops at a child that is Running (which a halt
// stops) or seen Running by observers (see shownRunningBit), or if the batch has no
// room for a change of each, and the caller then halts the children one by one, which
// finds those it reset Idle. The changes are the same either way, in the same order.
// (A small tree that a monitor watches pays for its reactive root's resets at every
// tick.)
func (r *reactive) recordResets(o *observation, i int) bool {
	st, kids := r.status, r.nodes
	kids = kids[:len(st)]
	k, rec := o.n, o.quick
	if len(rec)-k < len(st) {
		return false
	}
	for j, b := range st {
		switch {
		case j == i || b == observedByte(Idle):
		case b == observedByte(Success) || b == observedByte(Failure):
			st[j] = observedByte(Idle)
			rec[k] = MakeChange(kids[j].meta.uid, Status(b&^observedBit), Idle)
			k++
		default: // Running, seen Running, or not observed: see Node.Halt
			o.n = k
			return false
		}
	}
	o.n = k
	return true
}

// saveState saves nothing: between ticks the child that ran is the one child whose
// status is Running, where restoreState finds it again.
func (r *reactive) saveState(*Node, *stateWriter) {}

func (r *reactive) restoreState(n *Node, rd *stateReader) {
	running := 0
	for i := range n.NumChildren() {
		if rd.statusOf(n.Child(i)) == Running {
			running++
		}
	}
	if rd.cleanTick && running > 1 { // a tick halts every child but the one that runs
		rd.fail("%d children RUNNING, where a tick leaves one at the most", running)
	}
	if !rd.applying() {
		return
	}
	r.running = -1
	for i, b := range r.status {
		if b.status() == Running {
			r.running = int32(i)
			break
		}
	}
}
