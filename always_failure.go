package bt

// AlwaysFailure is an action that returns Failure. XML:
//
//	<AlwaysFailure/>
func AlwaysFailure() *Spec { return alwaysFailureModel.Spec() }

var alwaysFailureModel = &Model{
	ID: "AlwaysFailure", Kind: KindAction,
	Description: "Returns FAILURE.",
	build:       func(*Init) (ticker, error) { return &fail, nil },
}
