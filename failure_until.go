package bt

import "strconv"

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
	build:       func(c *Init) (ticker, error) { return newUntil(c, Failure) },
}
