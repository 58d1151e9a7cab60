package bt

// AlwaysSuccess is an action that returns Success. XML:
//
//	<AlwaysSuccess/>
func AlwaysSuccess() *Spec { return alwaysSuccessModel.Spec() }

var alwaysSuccessModel = &Model{
	ID: "AlwaysSuccess", Kind: KindAction,
	Description: "Returns SUCCESS.",
	build:       func(*NodeConfig) (ticker, error) { return &alwaysSuccess, nil },
}

// AlwaysFailure is an action that returns Failure. XML:
//
//	<AlwaysFailure/>
func AlwaysFailure() *Spec { return alwaysFailureModel.Spec() }

var alwaysFailureModel = &Model{
	ID: "AlwaysFailure", Kind: KindAction,
	Description: "Returns FAILURE.",
	build:       func(*NodeConfig) (ticker, error) { return &alwaysFailure, nil },
}

// AlwaysRunning is an action that returns Running, forever (behaviac's AlwaysRunning,
// as a leaf like AlwaysSuccess). It never yields. XML:
//
//	<AlwaysRunning/>
func AlwaysRunning() *Spec { return alwaysRunningModel.Spec() }

var alwaysRunningModel = &Model{
	ID: "AlwaysRunning", Kind: KindAction,
	Description: "Returns RUNNING.",
	build:       func(*NodeConfig) (ticker, error) { return &alwaysRunning, nil },
}

// always is the leaf behind AlwaysSuccess, AlwaysFailure and AlwaysRunning: it returns
// the same status on every tick. The leaves of one status share one value, never
// modified, used through a pointer (a non-pointer value in an interface costs an extra
// call per tick).
type always struct{ s Status }

var alwaysSuccess, alwaysFailure, alwaysRunning = always{Success}, always{Failure}, always{Running}

func (a *always) tick(*Node) Status { return a.s }
