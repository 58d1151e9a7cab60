package bt

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
