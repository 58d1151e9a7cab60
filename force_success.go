package bt

// ForceSuccess ticks its child and succeeds whenever the child completes.
//
//	child Success → reset the child; Success
//	child Failure → reset the child; Success
//	child Running → Running
//	child Skipped → Skipped
//	halted        → halt the child (ForceSuccess keeps no state)
//
// XML:
//
//	<ForceSuccess>
//	    <TryToOpenDoor/>
//	</ForceSuccess>
func ForceSuccess(child *Spec) *Spec { return forceSuccessModel.Spec(child) }

var forceSuccessModel = &Model{
	ID: "ForceSuccess", Kind: KindDecorator,
	Description: "Returns SUCCESS when the child completes, whatever its result.",
	build:       func(*Init) (ticker, error) { return &forceSuccess, nil },
}
