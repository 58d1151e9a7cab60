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
	build:       func(c *Init) (ticker, error) { return newSequence(c, Failure), nil },
}

// sequence implements Sequence and, with pass = Failure, Fallback: children are ticked
// in order, within one tick, while they return pass. The yielding variants are in
// yielding.
type sequence struct {
	family         // the children, at hand
	pass    Status // the child status that moves on to the next child
	idx     uint32 // the child to tick next
	skipped int32  // children skipped since the node was Idle
}

// newSequence returns a Sequence (stop = Failure) or a Fallback (stop = Success): a
// node that ends at the first child that returns stop.
func newSequence(c *Init, stop Status) *sequence {
	pass := Success
	if stop == Success {
		pass = Failure
	}
	return &sequence{family: c.node.family(), pass: pass}
}

func (q *sequence) tick(n *Node) Status {
	switch *n.st {
	case uint8(Idle):
		q.skipped = 0
	case uint8(Running):
	default: // observed
		q.enter(n)
	}
	// The hot loop of every Sequence and Fallback: a deep tree runs it for every other
	// node, so its ends are written out too.
	kids, status := q.nodes, q.status
	status = status[:len(kids)]
	for i := uint(q.idx); i < uint(len(kids)); i++ {
		s := kids[i].t.tick(&kids[i])
		if uint8(s)|status[i] < uint8(Skipped) { // Node.commit, with the byte at hand
			status[i] = uint8(s)
		} else {
			kids[i].set(s)
		}
		if s == q.pass {
			continue
		}
		switch s {
		case Skipped:
			q.skipped++
		case Running:
			q.idx = uint32(i)
			return Running
		default: // the stop status: no child is Running (a sequence moved past them)
			q.idx = 0
			if status[0] < observedBit { // family.reset, inlined
				clearStatus(status)
			} else {
				q.reset(0)
			}
			return s
		}
	}
	q.idx = 0
	if q.skipped != 0 || len(status) == 0 {
		return q.done()
	}
	if status[0] < observedBit {
		clearStatus(status)
	} else {
		q.reset(0)
	}
	return q.pass
}

// enter is the start of a tick for an observed node: the skipped count starts afresh
// when the node is Idle, and observers see it become Running before its children.
func (q *sequence) enter(n *Node) {
	if n.Status() == Idle {
		q.skipped = 0
	}
	n.setRunning()
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

// Halt forgets the position.
func (q *sequence) Halt(*Node) { q.idx, q.skipped = 0, 0 }

// yielding implements AsyncSequence, AsyncFallback and SequenceWithMemory: a sequence
// that returns Running with a wake-up after a child that completed synchronously, so
// that the caller gets control back between children.
type yielding struct {
	sequence
	memory bool // after a stop, resume at the child that stopped us (SequenceWithMemory)
}

func newYielding(c *Init, stop Status, memory bool) *yielding {
	return &yielding{sequence: *newSequence(c, stop), memory: memory}
}

func (q *yielding) tick(n *Node) Status {
	if n.Status() == Idle {
		q.skipped = 0
	}
	n.setRunning()
	kids, pass := q.nodes, q.pass
	i := int(q.idx)
	for i < len(kids) {
		c := &kids[i]
		wasIdle := c.Status() == Idle
		switch s := c.commit(c.t.tick(c)); s {
		case pass:
			i++
			if wasIdle && i < len(kids) {
				q.idx = uint32(i)
				n.Tree().WakeUp()
				return Running
			}
		case Skipped:
			i++
			q.skipped++
		case Running:
			q.idx = uint32(i)
			return Running
		default:
			return q.stop1(i, s)
		}
	}
	return q.done()
}

// stop1 ends the node after child i returned the stopping status s.
func (q *yielding) stop1(i int, s Status) Status {
	// A sequence only moves on from a child that completed: none of them is Running.
	if q.memory {
		q.idx = uint32(i)
		q.reset(i)
	} else {
		q.idx = 0
		q.reset(0)
	}
	return s
}

// Halt forgets the position, except for SequenceWithMemory, which resumes where it was.
func (q *yielding) Halt(*Node) {
	if !q.memory {
		q.idx, q.skipped = 0, 0
	}
}
