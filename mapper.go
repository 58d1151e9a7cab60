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
	build:       func(*Init) (ticker, error) { return &invert, nil },
}

var notModel = &Model{
	ID: "Not", Kind: KindDecorator,
	Description: "behaviac's name for Inverter: swaps the child's SUCCESS and FAILURE.",
	build:       func(*Init) (ticker, error) { return &invert, nil },
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

func (m *mapper) tick(n *Node) Status {
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
	return n.decorated(s, resetThenStore)
}
