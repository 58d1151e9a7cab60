package bt

import (
	"errors"
	"math"
	"strconv"
)

// SuccessUntil is behaviac's SuccessUntil: it ticks its child and, whatever the child
// returns, succeeds count-1 times in a row and then fails once, and so on (count=3
// gives Success, Success, Failure, Success, Success, Failure, …); count -1 always
// succeeds, count 0 always fails. The counter lives across activations.
//
//	entering, counter at 0 → load the counter from count
//	every tick    → tick the child; ignore its status; counter -1 → Success; otherwise
//	                count down: reaching 0 (or being 0) → Failure, else Success
//	child completed → reset it
//	completing while the child is Running → halt the child
//	decorate_when_child_ends → while the child is Running: Running, and nothing counts
//	halted        → halt the child; the counter is kept
//
// XML:
//
//	<SuccessUntil count="3">
//	    <Shoot/>
//	</SuccessUntil>
func SuccessUntil(count int, child *Spec) *Spec {
	return successUntilModel.Spec(child).With("count", strconv.Itoa(count))
}

var successUntilModel = &Model{
	ID: "SuccessUntil", Kind: KindDecorator,
	Description: "Succeeds count-1 times whatever the child returns, then fails once; and again.",
	Ports:       untilPorts(),
	build:       decorates(resetThenStore, func(c *NodeConfig) (decorator, error) { return newUntil(c, Success) }),
}

// FailureUntil is behaviac's FailureUntil, the mirror of SuccessUntil: whatever its
// child returns, it fails count-1 times in a row and then succeeds once, and so on
// (count=3 gives Failure, Failure, Success, …); count -1 always fails, count 0 always
// succeeds. The counter lives across activations.
//
//	entering, counter at 0 → load the counter from count
//	every tick    → tick the child; ignore its status; counter -1 → Failure; otherwise
//	                count down: reaching 0 (or being 0) → Success, else Failure
//	child completed → reset it
//	completing while the child is Running → halt the child
//	decorate_when_child_ends → while the child is Running: Running, and nothing counts
//	halted        → halt the child; the counter is kept
//
// XML:
//
//	<FailureUntil count="3">
//	    <Knock/>
//	</FailureUntil>
func FailureUntil(count int, child *Spec) *Spec {
	return failureUntilModel.Spec(child).With("count", strconv.Itoa(count))
}

var failureUntilModel = &Model{
	ID: "FailureUntil", Kind: KindDecorator,
	Description: "Fails count-1 times whatever the child returns, then succeeds once; and again.",
	Ports:       untilPorts(),
	build:       decorates(resetThenStore, func(c *NodeConfig) (decorator, error) { return newUntil(c, Failure) }),
}

func untilPorts() []PortDef {
	return []PortDef{
		InputPort[int]("count", "the length of the cycle (-1: never flip)").Require().atLeast(-1),
		whenEndsPort(),
	}
}

// until implements SuccessUntil (result Success) and FailureUntil (result Failure).
type until struct {
	count    In[int]
	whenEnds whenEnds
	result   Status
	left     int
}

func newUntil(c *NodeConfig, result Status) (decorator, error) {
	u := &until{result: result}
	return u, errors.Join(u.count.bind(c, "count"), u.whenEnds.bind(c))
}

func (u *until) decorate(n *Node) Status {
	if n.Status() != Running && u.left == 0 {
		u.left = countOf(n, &u.count)
	}
	n.setRunning()
	s := n.Child(0).Tick()
	if u.whenEnds.wait(n, s) {
		return Running
	}
	flip := Success
	if u.result == Success {
		flip = Failure
	}
	switch {
	case u.left == -1:
		return u.result
	case u.left > 0:
		u.left--
		if u.left > 0 {
			return u.result
		}
	}
	return flip
}

// saveState saves the counter (-1: never flips), which lives across activations.
func (u *until) saveState(_ *Node, w *stateWriter) { w.int("left", int64(u.left)) }

func (u *until) restoreState(_ *Node, r *stateReader) {
	left := r.int("left", -1, math.MaxInt)
	if r.applying() {
		u.left = int(left)
	}
}
