package bt

// AsyncFallback is a Fallback that yields after each child that failed synchronously.
//
//	child Failure that was Idle before this tick, more children left
//	              → Running, with a wake-up: TickOnce re-ticks at once and the next
//	                child runs then; TickExactlyOnce returns Running
//	otherwise     → as Fallback
//
// XML:
//
//	<AsyncFallback>
//	    <TryPlanA/>
//	    <TryPlanB/>
//	</AsyncFallback>
func AsyncFallback(children ...*Spec) *Spec { return asyncFallbackModel.Spec(children...) }

var asyncFallbackModel = &Model{
	ID: "AsyncFallback", Kind: KindControl,
	Description: "A Fallback that yields to the caller after each child that failed at once.",
	build:       func(c *Init) (ticker, error) { return newYielding(c, Success, false), nil },
}
