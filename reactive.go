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
// Use at most one asynchronous child. XML:
//
//	<ReactiveSequence>
//	    <IsEnemyVisible/>
//	    <ApproachEnemy/>
//	</ReactiveSequence>
func ReactiveSequence(children ...*Spec) *Spec { return reactiveSequenceModel.Spec(children...) }

var reactiveSequenceModel = &Model{
	ID: "ReactiveSequence", Kind: KindControl,
	Description: "A Sequence that starts again from the first child on every tick.",
	build:       func(*Init) (ticker, error) { return &reactiveSequenceNode, nil },
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
	build:       func(*Init) (ticker, error) { return &reactiveFallbackNode, nil },
}

// reactive implements ReactiveSequence (stop = Failure) and ReactiveFallback (stop =
// Success). It keeps no state between ticks.
type reactive Status

// The reactive nodes keep no state: all share these values, used through pointers (a
// non-pointer value in an interface costs an extra call per tick).
var reactiveSequenceNode, reactiveFallbackNode = reactive(Failure), reactive(Success)

func (r *reactive) stopPass() (stop, pass Status) {
	if stop = Status(*r); stop == Success {
		return stop, Failure
	}
	return stop, Success
}

// tick is the loop of an unobserved node. It stores each child's status in its byte,
// so that a tick stopped by an error leaves none that says Running after it completed;
// and it puts the children back by clearing those bytes. Between ticks at most one
// child is not Idle: the one that returned Running, which the next tick may halt.
func (r *reactive) tick(n *Node) Status {
	if n.st.observed() {
		return r.tickObserved(n)
	}
	stop, pass := r.stopPass()
	kids := n.kids()
	skipped := 0
	for i := 0; i < len(kids); i++ {
		k, s := tickWhile(kids[i:], pass)
		switch i += k; s {
		case pass: // every child from i on passed
		case Running:
			running(n, i)
			return Running
		case Skipped:
			*kids[i].st = statusByte(Idle) // a skipped child stays Idle
			skipped++
			continue
		default: // stop: every child is reset
			*kids[i].st = statusByte(Idle)
			n.resetChildren(0)
			return stop
		}
		break
	}
	n.resetChildren(0)
	if skipped == len(kids) {
		return Skipped
	}
	return pass
}

// tickWhile ticks the children in order while they return pass, and stores each status
// (nobody observes the tree: a byte store). It returns the index and status of the
// first child that did not pass, or len(kids) and pass. It is the reactive nodes' hot
// loop, kept apart so that few values live across the calls.
func tickWhile(kids []Node, pass Status) (int, Status) {
	for i := range kids {
		c := &kids[i]
		s := c.t.tick(c)
		*c.st = statusByte(s)
		if s != pass {
			return i, s
		}
	}
	return len(kids), pass
}

// running resets the children of n but i, which returned Running: BehaviorTree.CPP
// halts them all. Those before i completed (or were skipped) in this tick, so clearing
// their bytes resets them; one after i may be running, and is halted.
func running(n *Node, i int) {
	f := n.family()
	clearStatus(f.status[:i])
	if i+1 < len(f.status) {
		f.raiseReset(i + 1)
	}
}

// tickObserved is the loop of an observed node: every change goes through Node.set, in
// BehaviorTree.CPP's order — the node Running first, each child's status as it comes,
// the other children halted one by one when one runs.
func (r *reactive) tickObserved(n *Node) Status {
	stop, pass := r.stopPass()
	n.setRunning()
	allSkipped := true
	kids := n.kids()
	for i := range kids {
		c := &kids[i]
		s := c.commit(c.t.tick(c))
		allSkipped = allSkipped && s == Skipped
		switch s {
		case Running:
			for j := range kids {
				if j != i {
					kids[j].Halt()
				}
			}
			return Running
		case stop:
			n.resetChildren(0)
			return stop
		case Skipped:
			c.Halt()
		}
	}
	n.resetChildren(0)
	if allSkipped {
		return Skipped
	}
	return pass
}
