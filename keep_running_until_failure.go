package bt

// KeepRunningUntilFailure ticks its child once per tick for as long as it does not
// fail. It never yields: each iteration takes one tick.
//
//	child Success → reset the child; Running (the child starts again next tick)
//	child Failure → reset the child; Failure
//	child Running → Running
//	child Skipped → Running (as in BehaviorTree.CPP)
//	halted        → halt the child (KeepRunningUntilFailure keeps no state)
//
// XML:
//
//	<KeepRunningUntilFailure>
//	    <PickNextItem/>
//	</KeepRunningUntilFailure>
func KeepRunningUntilFailure(child *Spec) *Spec { return keepRunningModel.Spec(child) }

var keepRunningModel = &Model{
	ID: "KeepRunningUntilFailure", Kind: KindDecorator,
	Description: "Restarts the child each time it succeeds; fails when it fails.",
	build:       func(*Init) (ticker, error) { return &keepRunning, nil },
}
