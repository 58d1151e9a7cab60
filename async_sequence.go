package bt

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
	build:       func(c *Init) (ticker, error) { return newYielding(c, Failure, false), nil },
}
