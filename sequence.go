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
	return sequence{family: f, pass: pass, childStoresOwn: own, plain: !own && len(f.nodes) > 0}
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
			kids = q.nodes
			// Every child is Idle and stores nothing itself: a node that completes
			// without a child skipped or Running has nothing to store or reset, and
			// its position and count are 0 (a Halt, or the end of a run, left them so).
			for ; i < uint(len(kids)); i++ {
				s := kids[i].t.tick(&kids[i])
				if s == q.pass {
					continue
				}
				q.idx, q.skipped = 0, 0 // (in case a tick was aborted)
				switch s {
				case Skipped: // the general loop takes over
					q.storeUpTo(i, Idle)
					q.idx = uint32(i + 1)
					q.skipped++
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
		i = uint(q.idx)
	default: // observed; or completed and ticked again before it was reset (as the
		// failed condition of a two-child IfThenElse is)
		if o := n.meta.scope.tree.obs; o != nil {
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
			q.storeUpTo(i, Idle)
			q.idx = uint32(i + 1)
			q.skipped++
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
	if st := q.status; len(st) > 0 && !st[0].observed() {
		for j := int(q.idx); j < k; j++ {
			st[j].store(q.pass)
		}
	}
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
		if b, k := st[i], o.n; b&flagBits == observedBit && k < len(o.quick) && s != Skipped {
			if b != observedByte(s) { // observation.tryRecord, written out
				st[i] = observedByte(s)
				o.quick[k] = MakeChange(c.meta.uid, Status(b&^observedBit), s)
				o.n = k + 1
			}
		} else {
			c.storeStatus(s)
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
	q.recordReset(o)
	return s
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
