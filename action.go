package bt

import "fmt"

// ActionFunc is the type of a plain function that implements an action. It is called
// on every tick of the node. It may return Running to be called again on the next tick
// (a polled action); use NewStateful or NewAsync for actions that need to know when they
// start or are halted.
type ActionFunc interface {
	func() Status | func(n *Node) Status | func(n *Node) (Status, error)
}

// ConditionFunc is the type of a plain function that implements a condition: true is
// Success, false is Failure. An error aborts the tick.
type ConditionFunc interface {
	func() bool | func(n *Node) bool | func(n *Node) (bool, error)
}

// NewAction returns the Model of an action implemented by fn, with the given ports.
// Register it in a Factory, or use its Spec method (or Action) to build trees in Go.
func NewAction[F ActionFunc](id string, fn F, ports ...PortDef) *Model {
	var beh Behavior
	switch f := any(fn).(type) {
	case func() Status:
		if f != nil {
			beh = action0(f)
		}
	case func(*Node) Status:
		if f != nil {
			beh = action1(f)
		}
	case func(*Node) (Status, error):
		if f != nil {
			beh = action2(f)
		}
	}
	return leafModel("NewAction", id, KindAction, beh, ports)
}

// NewCondition returns the Model of a condition implemented by fn, with the given ports.
func NewCondition[F ConditionFunc](id string, fn F, ports ...PortDef) *Model {
	var beh Behavior
	switch f := any(fn).(type) {
	case func() bool:
		if f != nil {
			beh = cond0(f)
		}
	case func(*Node) bool:
		if f != nil {
			beh = cond1(f)
		}
	case func(*Node) (bool, error):
		if f != nil {
			beh = cond2(f)
		}
	}
	return leafModel("NewCondition", id, KindCondition, beh, ports)
}

// Action returns a node definition for a one-off action implemented by fn: a shortcut
// for NewAction(id, fn).Spec().
func Action[F ActionFunc](id string, fn F) *Spec { return NewAction(id, fn).Spec() }

// Condition returns a node definition for a one-off condition implemented by fn.
func Condition[F ConditionFunc](id string, fn F) *Spec { return NewCondition(id, fn).Spec() }

// leafModel shares one stateless behavior among all the nodes of a model; ctor names
// the function that made it, for the error of a nil function.
func leafModel(ctor, id string, k Kind, beh Behavior, ports []PortDef) *Model {
	m := &Model{ID: id, Kind: k, Ports: ports, New: func(*Init) (Behavior, error) { return beh, nil }}
	if beh == nil {
		m.err = nilFunc(ctor, id)
	}
	return m
}

// nilFunc is the problem of a model made from a nil function, reported when the model
// is registered or used.
func nilFunc(ctor, id string) error { return fmt.Errorf("%s(%q) was given a nil function", ctor, id) }

type (
	action0 func() Status
	action1 func(*Node) Status
	action2 func(*Node) (Status, error)
	cond0   func() bool
	cond1   func(*Node) bool
	cond2   func(*Node) (bool, error)
)

func (f action0) Tick(*Node) Status   { return f() }
func (f action1) Tick(n *Node) Status { return f(n) }
func (f action2) Tick(n *Node) Status {
	s, err := f(n)
	if err != nil {
		n.Abort(err)
	}
	return s
}
func (f cond0) Tick(*Node) Status   { return statusOf(f()) }
func (f cond1) Tick(n *Node) Status { return statusOf(f(n)) }
func (f cond2) Tick(n *Node) Status {
	ok, err := f(n)
	if err != nil {
		n.Abort(err)
	}
	return statusOf(ok)
}

func statusOf(ok bool) Status {
	if ok {
		return Success
	}
	return Failure
}

// StatefulAction is an action that knows when it starts, runs and is halted, like
// BehaviorTree.CPP's StatefulActionNode: OnStart is called when the node is ticked
// while Idle, OnRunning on the following ticks while it returns Running, OnHalted when
// it is halted while Running. OnStart and OnRunning must not return Idle.
type StatefulAction interface {
	OnStart(n *Node) Status
	OnRunning(n *Node) Status
	OnHalted(n *Node)
}

// NewStateful returns the Model of a stateful action; each node gets its own value from
// newAction.
func NewStateful(id string, newAction func() StatefulAction, ports ...PortDef) *Model {
	m := &Model{ID: id, Kind: KindAction, Ports: ports, New: func(*Init) (Behavior, error) {
		a := newAction()
		if a == nil {
			return nil, fmt.Errorf("the constructor of %s returned nil", id)
		}
		return &stateful{a}, nil
	}}
	if newAction == nil {
		m.err = nilFunc("NewStateful", id)
	}
	return m
}

// Stateful returns a node definition for a one-off stateful action.
func Stateful(id string, newAction func() StatefulAction) *Spec {
	return NewStateful(id, newAction).Spec()
}

type stateful struct{ a StatefulAction }

func (s *stateful) Tick(n *Node) Status {
	switch n.Status() {
	case Idle:
		return s.a.OnStart(n)
	case Running:
		return s.a.OnRunning(n)
	}
	return n.Status() // completed and not reset yet: report the same result
}

func (s *stateful) Halt(n *Node) { s.a.OnHalted(n) }

// saver returns the StateSaver of the action, if it is one.
func (s *stateful) saver() StateSaver {
	sv, _ := s.a.(StateSaver)
	return sv
}

// stateless reports whether b is a behavior made of a plain function, which keeps no
// state of its own that a snapshot could miss: its node is restored with its status.
func stateless(b Behavior) bool {
	switch b.(type) {
	case action0, action1, action2, cond0, cond1, cond2:
		return true
	}
	return false
}
