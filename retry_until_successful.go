package bt

import (
	"math"
	"strconv"
)

// RetryUntilSuccessful ticks its child until it succeeds, at most num_attempts times
// (-1: forever). num_attempts is read on every tick, and again after each failure, and
// has no default.
//
//	child Success → reset the count and the child; Success
//	child Failure → count it and reset the child; after num_attempts failures reset the
//	                count and return Failure; otherwise try again: yield (Running with a
//	                wake-up) when the child completed within this tick, else tick it
//	                again at once
//	child Running → Running
//	child Skipped → reset the child; Skipped (the count is kept)
//	num_attempts 0 → Failure without ticking the child
//	halted        → reset the count, halt the child
//
// XML:
//
//	<RetryUntilSuccessful num_attempts="3">
//	    <OpenDoor/>
//	</RetryUntilSuccessful>
func RetryUntilSuccessful(numAttempts int, child *Spec) *Spec {
	return retryModel.Spec(child).With("num_attempts", strconv.Itoa(numAttempts))
}

var retryModel = &Model{
	ID: "RetryUntilSuccessful", Kind: KindDecorator,
	Description: "Ticks the child again after each failure, up to num_attempts times; -1 retries forever.",
	Ports:       []PortDef{InputPort[int]("num_attempts", "how many failures to accept (-1: forever)").Require().atLeast(-1)},
	build: decorates(resetThenStore, func(c *NodeConfig) (decorator, error) {
		r := &retry{}
		return r, r.attempts.bind(c, "num_attempts")
	}),
}

type retry struct {
	attempts In[int]
	tries    int
	wake     wakeClaim // the wake-up of a yield, taken back by Halt
}

func (r *retry) decorate(n *Node) Status {
	num := r.attempts.mustGet(n)
	child := n.Child(0)
	n.setRunning()
	for r.tries < num || num == -1 {
		prev := child.Status()
		s := child.Tick()
		switch s {
		case Success:
			r.tries = 0
		case Failure:
			r.tries++
			num = r.attempts.mustGet(n) // the child may have changed it
			if r.tries < num || num == -1 {
				if prev == Idle { // yield between attempts
					r.wake.post(n.Tree())
					return Running
				}
				child.Halt() // and the next attempt at once
				continue
			}
			r.tries = 0
		case Skipped:
			child.Halt() // observers may see it Running still (see shownRunningBit)
		}
		return s // Success, Failure, Running or Skipped
	}
	r.tries = 0
	return Failure // num_attempts reached without ticking the child (num_attempts 0)
}

func (r *retry) Halt(n *Node) {
	r.tries = 0
	r.wake.revoke(n.Tree())
}

// saveState saves the failures counted in this activation and the wake-up of a yield
// between attempts.
func (r *retry) saveState(_ *Node, w *stateWriter) {
	w.int("failures", int64(r.tries))
	r.wake.saveState(w, "wake")
}

func (r *retry) restoreState(_ *Node, sr *stateReader) {
	tries := sr.int("failures", 0, math.MaxInt)
	r.wake.restoreState(sr, "wake")
	if sr.applying() {
		r.tries = int(tries)
	}
}
