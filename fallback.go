package bt

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
	build:       func(c *Init) (ticker, error) { return newSequence(c, Success), nil },
}
