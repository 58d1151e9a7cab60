package bt

// AlwaysSuccess is an action that returns Success. XML:
//
//	<AlwaysSuccess/>
func AlwaysSuccess() *Spec { return alwaysSuccessModel.Spec() }

var alwaysSuccessModel = &Model{
	ID: "AlwaysSuccess", Kind: KindAction,
	Description: "Returns SUCCESS.",
	build:       func(*Init) (ticker, error) { return &succeed, nil },
}

// constant is a leaf that always returns the same status. It is used through a pointer
// (the leaves share one value) because a non-pointer value in an interface costs an
// extra call per tick.
type constant struct{ s Status }

// succeed and fail are never modified.
var succeed, fail = constant{Success}, constant{Failure}

func (c *constant) tick(*Node) Status { return c.s }
