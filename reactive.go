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

func (r *reactive) tick(n *Node) Status {
	stop := Status(*r)
	pass := Success
	if stop == Success {
		pass = Failure
	}
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
