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
	build:       func(c *Init) (ticker, error) { return newSequence(c, Failure, false, false), nil },
}

// sequence implements Sequence, AsyncSequence and SequenceWithMemory, and, with stop =
// Success, Fallback and AsyncFallback: children are ticked in order while they return
// the opposite of stop.
type sequence struct {
	family         // the children, at hand
	stop    Status // the child status that ends the node early
	pass    Status // the child status that moves on to the next child: the opposite of stop
	yield   bool   // after a child that completed synchronously, return Running with a wake-up
	memory  bool   // after a stop, resume at the child that stopped us (SequenceWithMemory; it yields)
	idx     int32
	skipped int32
}

func newSequence(c *Init, stop Status, yield, memory bool) *sequence {
	pass := Success
	if stop == Success {
		pass = Failure
	}
	return &sequence{family: c.node.family(), stop: stop, pass: pass, yield: yield, memory: memory}
}

func (q *sequence) tick(n *Node) Status {
	if n.Status() == Idle {
		q.skipped = 0
	}
	n.setRunning()
	if q.yield {
		return q.tickYielding(n)
	}
	// The hot loop of every Sequence and Fallback: keep it free of anything else.
	kids, status, pass := q.nodes, q.status, q.pass
	status = status[:len(kids)]
	for i := int(q.idx); i < len(kids); i++ {
		c := &kids[i]
		s := c.t.tick(c)
		if uint8(s)|status[i] < uint8(Skipped) { // Node.commit, with the byte at hand
			status[i] = uint8(s)
		} else {
			c.set(s)
		}
		switch s {
		case pass:
		case Skipped:
			q.skipped++
		case Running:
			q.idx = int32(i)
			return Running
		default: // stop1, for a node without memory (those with it yield)
			q.idx = 0
			q.reset(0)
			return s
		}
	}
	return q.done()
}

// tickYielding is tick for the nodes that yield after a child that completed
// synchronously (AsyncSequence, AsyncFallback, SequenceWithMemory).
func (q *sequence) tickYielding(n *Node) Status {
	kids, pass := q.nodes, q.pass
	i := int(q.idx)
	for i < len(kids) {
		c := &kids[i]
		wasIdle := c.Status() == Idle
		switch s := c.commit(c.t.tick(c)); s {
		case pass:
			i++
			if wasIdle && i < len(kids) {
				q.idx = int32(i)
				n.Tree().WakeUp()
				return Running
			}
		case Skipped:
			i++
			q.skipped++
		case Running:
			q.idx = int32(i)
			return Running
		default:
			return q.stop1(i, s)
		}
	}
	return q.done()
}

// done ends the node after every child passed or was skipped.
func (q *sequence) done() Status {
	allSkipped := int(q.skipped) == len(q.nodes)
	q.reset(0)
	q.idx, q.skipped = 0, 0
	if allSkipped {
		return Skipped
	}
	return q.pass
}

// stop1 ends the node after child i returned the stopping status s.
func (q *sequence) stop1(i int, s Status) Status {
	// A sequence only moves on from a child that completed: none of them is Running.
	if q.memory {
		q.idx = int32(i)
		q.reset(i)
	} else {
		q.idx = 0
		q.reset(0)
	}
	return s
}

// Halt forgets the position, except for SequenceWithMemory, which resumes where it was.
func (q *sequence) Halt(*Node) {
	if !q.memory {
		q.idx, q.skipped = 0, 0
	}
}
