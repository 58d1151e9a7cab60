package bt

// ForceRunning ticks its child and keeps running whatever the child returns, so the
// child starts again on the next tick once it completed (from the Rust behaviortree
// crate and behaviac's AlwaysRunning decorator). It never yields.
//
//	child Success → reset the child; Running
//	child Failure → reset the child; Running
//	child Running → Running
//	child Skipped → Skipped
//	halted        → halt the child (ForceRunning keeps no state)
//
// XML:
//
//	<ForceRunning>
//	    <Patrol/>
//	</ForceRunning>
func ForceRunning(child *Spec) *Spec { return forceRunningModel.Spec(child) }

var forceRunningModel = &Model{
	ID: "ForceRunning", Kind: KindDecorator,
	Description: "Returns RUNNING whatever the child returns (except SKIPPED); a completed child restarts on the next tick.",
	build:       func(*Init) (ticker, error) { return &forceRunning, nil },
}
