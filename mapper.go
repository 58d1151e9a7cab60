package bt

// Inverter ticks its child and swaps Success and Failure.
//
//	child Success → reset the child; Failure
//	child Failure → reset the child; Success
//	child Running → Running
//	child Skipped → Skipped
//	halted        → halt the child (Inverter keeps no state)
//
// XML:
//
//	<Inverter>
//	    <IsDoorOpen/>
//	</Inverter>
func Inverter(child *Spec) *Spec { return inverterModel.Spec(child) }

// Not is behaviac's name for Inverter: the same node under the ID "Not".
//
//	<Not>
//	    <IsDoorOpen/>
//	</Not>
func Not(child *Spec) *Spec { return notModel.Spec(child) }

var inverterModel = &Model{
	ID: "Inverter", Kind: KindDecorator,
	Description: "Turns the child's SUCCESS into FAILURE and its FAILURE into SUCCESS.",
	build:       func(*NodeConfig) (ticker, error) { return decorating(&invert, resetThenStore), nil },
}

var notModel = &Model{
	ID: "Not", Kind: KindDecorator,
	Description: "behaviac's name for Inverter: swaps the child's SUCCESS and FAILURE.",
	build:       func(*NodeConfig) (ticker, error) { return decorating(&invert, resetThenStore), nil },
}

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
	build:       func(*NodeConfig) (ticker, error) { return decorating(&forceSuccess, resetThenStore), nil },
}

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
	build:       func(*NodeConfig) (ticker, error) { return decorating(&forceFailure, resetThenStore), nil },
}

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
	build:       func(*NodeConfig) (ticker, error) { return decorating(&forceRunning, resetThenStore), nil },
}

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
	build:       func(*NodeConfig) (ticker, error) { return decorating(&keepRunning, resetThenStore), nil },
}

// mapper is a stateless decorator that maps the status of its child: Inverter, the
// Force… nodes and KeepRunningUntilFailure. Running passes through. The values are
// shared by every node and never modified.
type mapper struct {
	success, failure, skipped Status
}

var (
	invert       = mapper{success: Failure, failure: Success, skipped: Skipped}
	forceSuccess = mapper{success: Success, failure: Success, skipped: Skipped}
	forceFailure = mapper{success: Failure, failure: Failure, skipped: Skipped}
	forceRunning = mapper{success: Running, failure: Running, skipped: Skipped}
	keepRunning  = mapper{success: Running, failure: Failure, skipped: Running}
)

func (m *mapper) decorate(n *Node) Status {
	n.setRunning()
	s := n.Child(0).Tick()
	switch s {
	case Success:
		s = m.success
	case Failure:
		s = m.failure
	case Skipped:
		s = m.skipped
	}
	return s
}
