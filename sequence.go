package bt

// Sequence ticks its children in order, within one tick, as long as they succeed.
//
//	child Success → tick the next child in the same tick
//	child Skipped → tick the next child (the child counts as skipped)
//	child Running → Running; the next tick resumes at this child (earlier ones are not re-ticked)
//	child Failure → halt all children, restart from the first next time; Failure
//	all children done → reset them; Skipped if every child was skipped, else Success
//	halted        → halt the children, restart from the first next time
//
// It never yields on its own (see AsyncSequence). XML:
//
//	<Sequence>
//	    <OpenDoor/>
//	    <WalkThrough/>
//	</Sequence>
func Sequence(children ...*Spec) *Spec { return sequenceModel.Spec(children...) }

var sequenceModel = &Model{
	ID: "Sequence", Kind: KindControl,
	Description: "Ticks the children in order while they succeed; fails at the first failure.",
	build:       func(c *NodeConfig) (ticker, error) { return newSequence(c, Failure), nil },
}

// Fallback tries its children in order, within one tick, until one succeeds.
//
//	child Failure → tick the next child in the same tick
//	child Skipped → tick the next child (counted as skipped)
//	child Running → Running; the next tick resumes at this child
//	child Success → halt all children, restart from the first next time; Success
//	all children done → reset them; Skipped if every child was skipped, else Failure
//	halted        → halt the children, restart from the first next time
//
// XML:
//
//	<Fallback>
//	    <OpenDoor/>
//	    <BreakDoor/>
//	</Fallback>
func Fallback(children ...*Spec) *Spec { return fallbackModel.Spec(children...) }

var fallbackModel = &Model{
	ID: "Fallback", Kind: KindControl,
	Description: "Tries the children in order until one succeeds.",
	build:       func(c *NodeConfig) (ticker, error) { return newSequence(c, Success), nil },
}

// AsyncSequence is a Sequence that yields after each child that completed
// synchronously, so a long chain of quick children does not hog one tick.
//
//	child Success that was Idle before this tick, more children left
//	              → Running, with a wake-up: TickOnce re-ticks at once and the next
//	                child runs then; TickExactlyOnce returns Running
//	otherwise     → as Sequence
//
// XML:
//
//	<AsyncSequence>
//	    <Step1/>
//	    <Step2/>
//	</AsyncSequence>
func AsyncSequence(children ...*Spec) *Spec { return asyncSequenceModel.Spec(children...) }

var asyncSequenceModel = &Model{
	ID: "AsyncSequence", Kind: KindControl,
	Description: "A Sequence that yields to the caller after each child that completed at once.",
	build:       func(c *NodeConfig) (ticker, error) { return newYielding(c, Failure, false), nil },
}

// AsyncFallback is a Fallback that yields after each child that failed synchronously.
//
//	child Failure that was Idle before this tick, more children left
//	              → Running, with a wake-up: TickOnce re-ticks at once and the next
//	                child runs then; TickExactlyOnce returns Running
//	otherwise     → as Fallback
//
// XML:
//
//	<AsyncFallback>
//	    <TryPlanA/>
//	    <TryPlanB/>
//	</AsyncFallback>
func AsyncFallback(children ...*Spec) *Spec { return asyncFallbackModel.Spec(children...) }

var asyncFallbackModel = &Model{
	ID: "AsyncFallback", Kind: KindControl,
	Description: "A Fallback that yields to the caller after each child that failed at once.",
	build:       func(c *NodeConfig) (ticker, error) { return newYielding(c, Success, false), nil },
}

// SequenceWithMemory is a Sequence that does not start over after a failure: the next
// activation ticks the child that failed, skipping the ones that already succeeded.
//
//	child Success → next child; when it was Idle before this tick and more children are
//	                left, yield (Running with a wake-up), like AsyncSequence
//	child Skipped → next child (counted as skipped)
//	child Running → Running; resume at this child
//	child Failure → halt this child and the ones after it; Failure; the next
//	                activation resumes at this child
//	all done      → reset the children; Skipped if every child was skipped, else Success
//	halted        → halt the children but keep the position (BehaviorTree.CPP does the same)
//
// SequenceStar is its name in BehaviorTree.CPP 3 files. XML:
//
//	<SequenceWithMemory>
//	    <GoTo goal="A"/>
//	    <GoTo goal="B"/>
//	</SequenceWithMemory>
func SequenceWithMemory(children ...*Spec) *Spec { return sequenceWithMemoryModel.Spec(children...) }

var sequenceWithMemoryModel = &Model{
	ID: "SequenceWithMemory", Kind: KindControl,
	Description: "A Sequence that resumes at the failed child instead of restarting.",
	build:       newSequenceWithMemory,
}

// sequenceStarModel is SequenceWithMemory under its BehaviorTree.CPP 3 name.
var sequenceStarModel = &Model{
	ID: "SequenceStar", Kind: KindControl,
	Description: "The BehaviorTree.CPP 3 name of SequenceWithMemory.",
	build:       newSequenceWithMemory,
}

func newSequenceWithMemory(c *NodeConfig) (ticker, error) {
	return newYielding(c, Failure, true), nil
}

// sequence implements Sequence and, with pass = Failure, Fallback: children are ticked
// in order, within one tick, while they return pass. Its second loop, tickCommitting,
// also serves AsyncSequence, AsyncFallback and SequenceWithMemory (see yielding).
type sequence struct {
	family        // the children, at hand
	pass   Status // the child status that moves on to the next child
	memory bool   // after a stop, resume at the child that stopped us (SequenceWithMemory)
	// childStoresOwn is set when a child stores its own status while it ticks: a decorator
	// or a subtree (see ticker).
	childStoresOwn bool
	plain          bool   // it has children, and none of them stores its own status
	leaves         bool   // it has children, all leaves: observed, none records a change itself
	idx            uint32 // the child to tick next
	skipped        uint32 // children skipped since the node was Idle
}

// newSequence returns a Sequence (stop = Failure) or a Fallback (stop = Success): a
// node that ends at the first child that returns stop.
func newSequence(c *NodeConfig, stop Status) *sequence {
	q := makeSequence(c, stop)
	return &q
}

func makeSequence(c *NodeConfig, stop Status) sequence {
	pass := Success
	if stop == Success {
		pass = Failure
	}
	f, own := c.node.family(), c.node.someChildStoresOwn()
	return sequence{family: f, pass: pass, childStoresOwn: own, plain: !own && len(f.nodes) > 0,
		leaves: len(f.nodes) > 0 && c.node.childrenAreLeaves()}
}

// tick is the hot loop of every Sequence and Fallback; a deep tree runs it for every
// other node. Unless the tree is observed, it stores the status of a child that
// returned pass only when it has to — when the node returns Running, or a later child
// is skipped — since most of the time the node completes in the tick it started in,
// and then resets every child: the stores would be undone at once. Between ticks the
// children's statuses are what Node.storeStatus would have left.
//
// While the loop runs, idx is the first child whose status is not stored: children
// before it returned pass or were skipped, and their statuses are stored; from idx on
// they returned pass in this tick, and their bytes say what they were before (Idle, or
// Running for child idx) or what the child stored itself (see childStoresOwn).
func (q *sequence) tick(n *Node) Status {
	var kids []Node
	i := uint(0)
	switch *n.st {
	case statusByte(Idle):
		if q.plain {
			// Every child is Idle and stores nothing itself: a node that completes
			// without a child skipped or Running has nothing to store or reset, and
			// its position and count are 0 (a Halt, or the end of a run, left them so).
			// (The children are read from q at each turn: kept in locals, they would
			// be stored on the stack before the loop and read from there.)
			for ; i < uint(len(q.nodes)); i++ {
				c := &q.nodes[i]
				s := c.t.tick(c)
				if s == q.pass {
					continue
				}
				q.idx, q.skipped = 0, 0 // (in case a tick was aborted)
				switch s {
				case Skipped: // the general loop takes over
					q.skip(i)
					i++
				case Running:
					q.endRunning(i)
					return Running
				default:
					return s
				}
				goto general
			}
			return q.pass
		}
		q.idx, q.skipped = 0, 0 // (they are 0 unless a tick was aborted)
	case statusByte(Running):
		// The node resumes at the child that returned Running at its last tick, which
		// most of the time runs on: its byte says so already (but for a node that a
		// reload put in its place: the byte is stored) and the position stays.
		i = uint(q.idx)
		if kids = q.nodes; i < uint(len(kids)) {
			switch s := kids[i].t.tick(&kids[i]); s {
			case Running:
				q.status[i].store(Running)
				return Running
			case q.pass: // the general loop goes on after it
				i++
			case Skipped:
				q.skip(i)
				i++
			default: // the stop status
				q.resetTicked(i + 1)
				return s
			}
		}
	default: // observed; or completed and ticked again before it was reset (as the
		// failed condition of a two-child IfThenElse is)
		if o := n.meta.scope.tree.obs; o != nil {
			if *n.st == observedByte(Idle) && len(o.quick) != 0 {
				if q.leaves {
					return q.tickLeaves(n, o)
				}
				return q.tickFresh(n, o)
			}
			return q.tickObserved(n, o)
		}
		return q.tickCommitting(n, nil)
	}
general:
	kids = q.nodes
	for ; i < uint(len(kids)); i++ {
		s := kids[i].t.tick(&kids[i])
		if s == q.pass {
			continue
		}
		switch s {
		case Skipped:
			q.skip(i)
		case Running:
			q.endRunning(i)
			return Running
		default: // the stop status: reset the children ticked so far
			q.resetTicked(i + 1)
			return s
		}
	}
	if q.skipped != 0 || len(kids) == 0 {
		q.idx = 0
		return q.done()
	}
	q.resetTicked(uint(len(kids)))
	return q.pass
}

// interrupted is told that an error stopped the tick in child k. The loop had not
// stored the statuses of the children from idx to k-1, which passed: it stores them
// now, so that a child that was Running when the tick began does not look Running to
// the halt that follows (which would halt an action that succeeded). The committing
// loop stores as it goes.
func (q *sequence) interrupted(k int) {
	st := q.status
	if len(st) > 0 && !st[0].observed() {
		for j := int(q.idx); j < k; j++ {
			st[j].store(q.pass)
		}
		return
	}
	if len(st) > 0 { // observed: tickLeaves may have left changes unwritten
		q.nodes[0].Tree().closeRun(q, k)
	}
}

// skip notes that child i was skipped: the statuses up to it are stored, and the
// position is the next child.
func (q *sequence) skip(i uint) {
	q.storeUpTo(i, Idle)
	q.idx = uint32(i + 1)
	q.skipped++
}

// storeUpTo stores the statuses of the children from idx to i: pass, and s for child i.
func (q *sequence) storeUpTo(i uint, s Status) {
	st := q.status[q.idx:i]
	for j := range st {
		st[j].store(q.pass)
	}
	q.status[i].store(s)
}

// endRunning ends a tick in which child i returned Running: the statuses are stored and the
// next tick resumes at i. Most of the time i still runs, and only its byte is stored.
func (q *sequence) endRunning(i uint) {
	st := q.status
	for j := uint(q.idx); j < i; j++ {
		st[j].store(q.pass)
	}
	st[i].store(Running)
	q.idx = uint32(i)
}

// resetTicked sets the status bytes of the first k children, those ticked so far, back
// to Idle, and the position back to the first child. When the node started at its first
// child and stored nothing, only that child's byte may differ from Idle (it may have
// been Running) — unless a child stores its own status as it ticks, as decorators do.
func (q *sequence) resetTicked(k uint) {
	if q.idx == 0 && !q.childStoresOwn {
		q.status[0].store(Idle)
		return
	}
	q.idx = 0
	resetStatuses(q.status[:k])
}

// tickCommitting is the loop for observed nodes and for the nodes that yield: every
// child's status is stored as it returns (Node.storeStatus). A node that yields (wake is not
// nil) returns Running with a wake-up after a child that completed synchronously, so
// that the caller gets control back between children.
func (q *sequence) tickCommitting(n *Node, wake *wakeClaim) Status {
	if n.Status() == Idle {
		q.skipped = 0
	}
	n.setRunning()
	kids, pass := q.nodes, q.pass
	i := int(q.idx)
	for i < len(kids) {
		c := &kids[i]
		wasIdle := c.Status() == Idle
		switch s := c.storeStatus(c.t.tick(c)); s {
		case pass:
			i++
			if wake != nil && wasIdle && i < len(kids) {
				q.idx = uint32(i)
				wake.post(n.Tree())
				return Running
			}
		case Skipped:
			i++
			q.skipped++
		case Running:
			q.idx = uint32(i)
			return Running
		default:
			return q.stopAt(i, s)
		}
	}
	return q.done()
}

// tickObserved is the loop of an observed Sequence or Fallback: every child's status is
// stored and recorded as it returns, and when the node completes its children are reset
// and recorded, the common cases written out (observation.tryRecord, family.resetObserved).
// The child's byte is reached through the family's status array, which holds it, and the
// loop has one exit for a node that completes, so that it stays small.
func (q *sequence) tickObserved(n *Node, o *observation) Status {
	if n.Status() == Idle {
		q.skipped = 0
	}
	if !o.tryRecord(n, Running) {
		n.set(Running)
	}
	kids, st, pass := q.nodes, q.status, q.pass
	st = st[:len(kids)]
	s := pass
	i := int(q.idx)
	for ; i < len(kids); i++ {
		c := &kids[i]
		s = c.t.tick(c)
		// observation.tryRecord, written out; a child that stores its own status
		// (a decorator, a control that closed its run) has nothing left to record.
		if b := st[i]; b != observedByte(s) {
			if k := o.n; b&flagBits == observedBit && k < len(o.quick) && s != Skipped {
				st[i] = observedByte(s)
				o.quick[k] = MakeChange(c.meta.uid, Status(b&^observedBit), s)
				o.n = k + 1
			} else {
				c.storeStatus(s)
			}
		}
		if s == pass {
			continue
		}
		if s == Skipped {
			q.skipped++
			continue
		}
		if s == Running {
			q.idx = uint32(i)
			return Running
		}
		break // the stop status
	}
	if i == len(kids) { // every child passed or was skipped
		s = pass
		if int(q.skipped) == len(kids) {
			s = Skipped
		}
	}
	q.idx, q.skipped = 0, 0
	if s == Skipped {
		q.recordReset(o)
		return s
	}
	return q.close(n, o, i+1, s)
}

// close ends an observed node that completed with s (not Skipped) after its first k
// children (at most all) were ticked: it resets them and writes the changes in one go,
// and, when nothing stands between its tick and its parent (n.t is the node itself, a
// *sequence: no pre- or post-condition, no tick function, which wrap it), the node's
// own change, which the parent then finds made (see observation.tryRecord). The
// children after the k-th are Idle, as the end of the node's last run left them.
func (q *sequence) close(n *Node, o *observation, k int, s Status) Status {
	kids, st := q.nodes, q.status
	k = min(k, len(kids), len(st))
	w, rec := o.n, o.quick
	if len(rec)-w <= k {
		q.recordReset(o)
		return q.own(n, s)
	}
	for j := range k {
		b := st[j]
		if b == observedByte(Idle) { // skipped
			continue
		}
		if b&shownRunningBit != 0 { // set may record more than one change
			o.n = w
			resetEach(kids[j:], st[j:])
			return q.own(n, s)
		}
		st[j] = observedByte(Idle)
		rec[w] = MakeChange(kids[j].meta.uid, Status(b&^observedBit), Idle)
		w++
	}
	if _, self := n.t.(*sequence); self {
		*n.st = observedByte(s)
		rec[w] = MakeChange(n.meta.uid, Running, s)
		w++
	}
	o.n = w
	return s
}

// own records the change of a node that completed with s (not Skipped) when nothing
// stands between its tick and its parent, as close does: after a run that could not
// be written in one go, so that a parent that ticked the node directly (tickFresh)
// finds every change of a completed child made.
func (q *sequence) own(n *Node, s Status) Status {
	if _, self := n.t.(*sequence); self {
		n.storeStatus(s)
	}
	return s
}

// tickLeaves is tickObserved for a node ticked while Idle whose children are all
// leaves, which record no change of their own: its loop is the unobserved one, which
// stores nothing, and the changes are written when the node completes, all at once.
// The run under way is noted in the observation (openUID), with the child being
// ticked, so that anything that hands the batch over before it completes (Flush, a
// tick function, an error) writes first the changes made so far (Tree.settle), in
// BehaviorTree.CPP's order: the node going Running, then each child that passed.
// (The writing is written out here rather than called: a call costs as much as the
// changes of a small family.)
func (q *sequence) tickLeaves(n *Node, o *observation) Status {
	o.openUID = n.meta.uid
	// The position is in idx, where Tree.settle finds it.
	kids := q.nodes
	k, s := len(kids), q.pass
	if len(kids) == 2 { // a pair, unrolled
		if s = kids[0].t.tick(&kids[0]); s == q.pass {
			q.idx = 1
			s = kids[1].t.tick(&kids[1])
		} else {
			k = 1
		}
		if s == Running || s == Skipped {
			return q.leavesStopped(n, o, k-1, s)
		}
	} else {
		for i := range kids {
			q.idx = uint32(i)
			if r := kids[i].t.tick(&kids[i]); r != q.pass {
				if r == Running || r == Skipped {
					return q.leavesStopped(n, o, i, r)
				}
				k, s = i+1, r
				break
			}
		}
	}
	q.idx = 0
	kids, pass := q.nodes, q.pass
	w, rec := o.n, o.quick
	if o.settled || len(rec)-w < 2*k+2 {
		return q.finishLeaves(n, k, s)
	}
	uid := o.openUID
	o.openUID = 0
	// The node going Running; each child going up from Idle to its status, then each
	// going back down; the node's own end (see close).
	if k == 2 && len(kids) >= 2 { // a pair, as many families are, written out
		r := (*[6]Change)(rec[w : w+6])
		u0, u1 := Change(kids[0].meta.uid), Change(kids[1].meta.uid)
		r[0] = MakeChange(uid, Idle, Running)
		r[1], r[2] = u0|MakeChange(0, Idle, pass), u1|MakeChange(0, Idle, s)
		r[3], r[4] = u0|MakeChange(0, pass, Idle), u1|MakeChange(0, s, Idle)
		r[5] = MakeChange(uid, Running, s) // counted if the node's own (below)
		w += 5
	} else {
		rec[w] = MakeChange(uid, Idle, Running)
		up := rec[w+1 : w+1+k]
		kids = kids[:len(up)]
		pu := MakeChange(0, Idle, pass)
		for j := range up {
			up[j] = Change(kids[j].meta.uid) | pu
		}
		up[k-1] = up[k-1]&0xffff | MakeChange(0, Idle, s)
		down := rec[w+1+k : w+1+2*k]
		down = down[:len(up)]
		for j, c := range up {
			down[j] = c&0xffff | c>>24<<16 // the up with its statuses swapped (Idle is 0)
		}
		w += 2*k + 1
		rec[w] = MakeChange(uid, Running, s)
	}
	if _, self := n.t.(*sequence); self {
		*n.st = observedByte(s)
		w++ // the node's own end, written above
	} else {
		*n.st = observedByte(Running)
	}
	o.n = w
	return s
}

// tickFresh is tickObserved for a node ticked while Idle whose children are not all
// leaves, in its common case: the node records its own change first; each child that
// is a control records its own (see close; a Sequence or Fallback ticked directly, on
// every path: see own), and the loop goes on while they pass; then the node closes
// as close does, written out. Anything else goes on in tickObserved (freshStopped).
func (q *sequence) tickFresh(n *Node, o *observation) Status {
	uid := n.meta.uid
	if w, rec := o.n, o.quick; w < len(rec) { // observation.tryRecord, for a byte known to be Idle
		rec[w] = MakeChange(uid, Idle, Running)
		*n.st = observedByte(Running)
		o.n = w + 1
	} else {
		n.set(Running)
	}
	var k int // the children ticked, the last one returning s
	var s Status
	for i := 0; ; i++ { // (reading q's fields again costs less than keeping them)
		if i >= len(q.nodes) {
			k, s = i, q.pass
			break
		}
		c := &q.nodes[i]
		var r Status
		// A child that is a Sequence or Fallback, Idle as the node is, gets what its
		// tick would call, without its tests; when it completes, it has recorded its
		// own change (see close and own).
		if kq, ok := c.t.(*sequence); ok && *c.st == observedByte(Idle) {
			if kq.leaves {
				r = kq.tickLeaves(c, o)
			} else {
				r = kq.tickFresh(c, o)
			}
		} else if r = c.t.tick(c); q.status[i] != observedByte(r) { // a leaf, or a change left to record
			return q.freshStopped(n, o, i, r)
		}
		if r != q.pass {
			if r == Running || r == Skipped {
				return q.freshStopped(n, o, i, r)
			}
			k, s = i+1, r
			break
		}
	}
	kids, st, pass := q.nodes, q.status, q.pass
	w, rec := o.n, o.quick
	if len(rec)-w <= k {
		return q.close(n, o, k, s)
	}
	if k == 2 && len(kids) >= 2 && len(st) >= 2 { // a pair, written out
		r := (*[3]Change)(rec[w : w+3])
		st[0], st[1] = observedByte(Idle), observedByte(Idle)
		r[0] = Change(kids[0].meta.uid) | MakeChange(0, pass, Idle)
		r[1] = Change(kids[1].meta.uid) | MakeChange(0, s, Idle)
		r[2] = MakeChange(uid, Running, s) // counted if the node's own (below)
		w += 2
	} else {
		st, kids = st[:k], kids[:k]
		pd := MakeChange(0, pass, Idle)
		for j := range kids {
			st[j] = observedByte(Idle)
			rec[w+j] = Change(kids[j].meta.uid) | pd
		}
		w += k
		rec[w-1] = rec[w-1]&0xffff | MakeChange(0, s, Idle)
		rec[w] = MakeChange(uid, Running, s)
	}
	if _, self := n.t.(*sequence); self {
		*n.st = observedByte(s)
		w++ // the node's own end, written above
	}
	o.n = w
	return s
}

// freshStopped goes on from tickFresh after child i returned s, which is not recorded
// yet: tickObserved takes over.
func (q *sequence) freshStopped(n *Node, o *observation, i int, s Status) Status {
	q.nodes[i].storeStatus(s)
	switch s {
	case q.pass:
	case Skipped:
		q.skipped++
	case Running:
		q.idx = uint32(i)
		return Running
	default:
		return q.close(n, o, i+1, s)
	}
	q.idx = uint32(i + 1)
	return q.tickObserved(n, o)
}

// finishLeaves ends tickLeaves' run change by change: when the batch has no room for
// all of them, or when they were partly written already (Tree.settle).
func (q *sequence) finishLeaves(n *Node, k int, s Status) Status {
	n.Tree().closeRun(q, k-1)
	q.idx = 0
	q.nodes[k-1].set(s)
	q.recordReset(n.Tree().obs)
	return q.own(n, s)
}

// leavesStopped goes on from tickLeaves' run after child i returned Running or
// Skipped: the changes so far are written, and the observed loop takes over.
func (q *sequence) leavesStopped(n *Node, o *observation, i int, s Status) Status {
	n.Tree().closeRun(q, i)
	if s == Running {
		q.nodes[i].set(Running)
		q.idx = uint32(i)
		return Running
	}
	q.idx, q.skipped = uint32(i+1), 1
	return q.tickObserved(n, o)
}

// stopAt ends the node after child i returned the stopping status s.
func (q *sequence) stopAt(i int, s Status) Status {
	// A sequence only moves on from a child that completed: none of them is Running.
	if q.memory {
		q.idx = uint32(i)
		q.resetDone(i)
	} else {
		q.idx = 0
		q.resetDone(0)
	}
	return s
}

// done ends the node after every child passed or was skipped.
func (q *sequence) done() Status {
	allSkipped := int(q.skipped) == len(q.nodes)
	q.resetDone(0)
	q.idx, q.skipped = 0, 0
	if allSkipped {
		return Skipped
	}
	return q.pass
}

// Halt forgets the position, except for SequenceWithMemory, which resumes where it was.
func (q *sequence) Halt(*Node) {
	if !q.memory {
		q.idx, q.skipped = 0, 0
	}
}

// yielding implements AsyncSequence, AsyncFallback and SequenceWithMemory.
type yielding struct {
	sequence
	wake wakeClaim
}

func newYielding(c *NodeConfig, stop Status, memory bool) *yielding {
	q := &yielding{sequence: makeSequence(c, stop)}
	q.memory = memory
	return q
}

func (q *yielding) tick(n *Node) Status { return q.tickCommitting(n, &q.wake) }

// interrupted has nothing to fix: the yielding loop stores every status as it comes.
func (q *yielding) interrupted(int) {}

// Halt also takes back the wake-up of a yield.
func (q *yielding) Halt(n *Node) {
	q.sequence.Halt(n)
	q.wake.revoke(n.Tree())
}

// saveState saves the child to tick next ("child") and the children skipped since the
// node was Idle ("skipped"); SequenceWithMemory keeps the first across halts.
func (q *sequence) saveState(_ *Node, w *stateWriter) {
	w.int("child", int64(q.idx))
	w.int("skipped", int64(q.skipped))
}

func (q *sequence) restoreState(n *Node, r *stateReader) {
	k := int64(len(q.nodes))
	idx, skipped := r.int("child", 0, k), r.int("skipped", 0, k)
	for i := range n.NumChildren() {
		if r.cleanTick && r.statusOf(n.Child(i)) == Running && int64(i) != idx {
			r.fail("child %d is RUNNING, but the node would resume at child %d", i, idx)
		}
	}
	if r.applying() {
		q.idx, q.skipped = uint32(idx), uint32(skipped)
	}
}

// saveState also saves the wake-up of a yield that TickOnce has not acted on.
func (q *yielding) saveState(n *Node, w *stateWriter) {
	q.sequence.saveState(n, w)
	q.wake.saveState(w, "wake")
}

func (q *yielding) restoreState(n *Node, r *stateReader) {
	q.sequence.restoreState(n, r)
	q.wake.restoreState(r, "wake")
}
