package bt

import (
	"math"
	"strconv"
)

// Repeat ticks its child num_cycles times in a row as long as it succeeds (-1: forever).
// num_cycles is read on every tick and has no default.
//
//	child Success → count it and reset the child; after num_cycles successes reset the
//	                count and return Success; otherwise go on with the next cycle: yield
//	                (Running with a wake-up) when the child completed within this tick,
//	                else tick it again at once
//	child Failure → reset the count and the child; Failure
//	child Running → Running
//	child Skipped → reset the child; Skipped (the count is kept)
//	num_cycles 0  → Success without ticking the child
//	halted        → reset the count, halt the child
//
// Because it yields, TickOnce still runs all cycles in one call while
// TickExactlyOnce returns Running after each one. XML:
//
//	<Repeat num_cycles="3">
//	    <ClapYourHandsOnce/>
//	</Repeat>
func Repeat(numCycles int, child *Spec) *Spec {
	return repeatModel.Spec(child).With("num_cycles", strconv.Itoa(numCycles))
}

var repeatModel = &Model{
	ID: "Repeat", Kind: KindDecorator,
	Description: "Ticks the child num_cycles times while it succeeds; -1 repeats forever.",
	Ports:       []PortDef{InputPort[int]("num_cycles", "how many successes to repeat (-1: forever)").Require().atLeast(-1)},
	build: decorates(resetThenStore, func(c *NodeConfig) (decorator, error) {
		r := &repeat{}
		return r, r.cycles.bind(c, "num_cycles")
	}),
}

type repeat struct {
	cycles In[int]
	count  int
	wake   wakeClaim // the wake-up of a yield, taken back by Halt
}

func (r *repeat) decorate(n *Node) Status {
	num := r.cycles.mustGet(n)
	child := n.Child(0)
	n.setRunning()
	for r.count < num || num == -1 {
		prev := child.Status()
		s := child.Tick()
		switch s {
		case Success:
			r.count++
			if r.count < num || num == -1 {
				if prev == Idle { // yield between cycles
					r.wake.post(n.Tree())
					return Running
				}
				child.Halt() // and the next cycle at once
				continue
			}
			r.count = 0
		case Failure:
			r.count = 0
		case Skipped:
			child.Halt() // observers may see it Running still (see shownRunningBit)
		}
		return s // Success, Failure, Running or Skipped
	}
	r.count = 0
	return Success // num_cycles reached without ticking the child (num_cycles 0)
}

func (r *repeat) Halt(n *Node) {
	r.count = 0
	r.wake.revoke(n.Tree())
}

// saveState saves the successes counted in this activation and the wake-up of a
// yield between cycles.
func (r *repeat) saveState(_ *Node, w *stateWriter) {
	w.int("count", int64(r.count))
	r.wake.saveState(w, "wake")
}

func (r *repeat) restoreState(_ *Node, sr *stateReader) {
	count := sr.int("count", 0, math.MaxInt)
	r.wake.restoreState(sr, "wake")
	if sr.applying() {
		r.count = int(count)
	}
}
