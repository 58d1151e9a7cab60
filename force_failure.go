package bt

// ForceFailure ticks its child and fails whenever the child completes.
//
//	child Success → reset the child; Failure
//	child Failure → reset the child; Failure
//	child Running → Running
//	child Skipped → Skipped
//	halted        → halt the child (ForceFailure keeps no state)
//
// XML:
//
//	<ForceFailure>
//	    <LogAttempt/>
//	</ForceFailure>
func ForceFailure(child *Spec) *Spec { return forceFailureModel.Spec(child) }

var forceFailureModel = &Model{
	ID: "ForceFailure", Kind: KindDecorator,
	Description: "Returns FAILURE when the child completes, whatever its result.",
	build:       func(*Init) (ticker, error) { return &forceFailure, nil },
}
