package bt

// AlwaysRunning is an action that returns Running, forever (behaviac's AlwaysRunning,
// as a leaf like AlwaysSuccess). It never yields. XML:
//
//	<AlwaysRunning/>
func AlwaysRunning() *Spec { return alwaysRunningModel.Spec() }

var alwaysRunningModel = &Model{
	ID: "AlwaysRunning", Kind: KindAction,
	Description: "Returns RUNNING.",
	build:       func(*Init) (ticker, error) { return &keepGoing, nil },
}

// keepGoing is never modified.
var keepGoing = constant{Running}
