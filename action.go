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
//
// A condition may also return a Status, as BehaviorTree.CPP's SimpleConditionNode
// does: a condition that answers Running while it cannot tell yet (a sensor warming
// up) is written func(n *Node) Status and is called again on the next tick, as a polled
// action is. Its node is a condition all the same: Groot2, TreeNodesModel and
// substitution rules see a Condition.
type ConditionFunc interface {
	func() bool | func(n *Node) bool | func(n *Node) (bool, error) |
		func() Status | func(n *Node) Status | func(n *Node) (Status, error)
}

// NewAction returns the Model of an action implemented by fn, with the given ports.
// Register it in a Factory, or use its Spec method (or Action) to build trees in Go.
//
// Every node of the model, in every tree built from it, runs fn itself: make the model
// once and use it everywhere (m.Spec() in each tree, or Register it in a Factory), and
// a tree's node of it costs no memory beyond the node's own slot.
func NewAction[F ActionFunc](id string, fn F, ports ...PortDef) *Model {
	return leafModel("NewAction", id, KindAction, actionLeaf(fn), ports)
}

// actionLeaf returns the function leaf of fn when it returns a Status, else nil (also
// for a nil function).
func actionLeaf(fn any) funcLeaf {
	switch f := fn.(type) {
	case func() Status:
		if f != nil {
			return action0(f)
		}
	case func(*Node) Status:
		if f != nil {
			return action1(f)
		}
	case func(*Node) (Status, error):
		if f != nil {
			return action2(f)
		}
	}
	return nil
}

// NewCondition returns the Model of a condition implemented by fn, with the given ports.
// As for NewAction, make it once and use it in every tree.
func NewCondition[F ConditionFunc](id string, fn F, ports ...PortDef) *Model {
	leaf := actionLeaf(fn)
	switch f := any(fn).(type) {
	case func() bool:
		if f != nil {
			leaf = cond0(f)
		}
	case func(*Node) bool:
		if f != nil {
			leaf = cond1(f)
		}
	case func(*Node) (bool, error):
		if f != nil {
			leaf = cond2(f)
		}
	}
	return leafModel("NewCondition", id, KindCondition, leaf, ports)
}

// Action returns a node definition for a one-off action implemented by fn: a shortcut
// for NewAction(id, fn).Spec(). Each call makes a new Model; for a function that many
// trees use, make its Model once with NewAction.
func Action[F ActionFunc](id string, fn F) *Spec { return NewAction(id, fn).Spec() }

// Condition returns a node definition for a one-off condition implemented by fn: a
// shortcut for NewCondition(id, fn).Spec().
func Condition[F ConditionFunc](id string, fn F) *Spec { return NewCondition(id, fn).Spec() }

// leafModel makes the model of a function leaf; ctor names the function that made it,
// for the error of a nil function.
func leafModel(ctor, id string, k Kind, leaf funcLeaf, ports []PortDef) *Model {
	m := &Model{ID: id, Kind: k, Ports: ports, leaf: leaf, New: func(*NodeConfig) (Behavior, error) { return leaf, nil }}
	if leaf == nil {
		m.err = nilFunc(ctor, id)
	}
	return m
}

// nilFunc is the problem of a model made from a nil function, reported when the model
// is registered or used.
func nilFunc(ctor, id string) error { return fmt.Errorf("%s(%q) was given a nil function", ctor, id) }

// A function leaf is its own dispatch: the function's type implements ticker, and a
// func value fits in an interface as it is, so the node's ticker is the function, shared
// by every node of its model (see newTicker). A tick is one call into its tick method,
// which notes the node for a panic to name it (one store: see panic.go), calls the
// function and checks the status.
//
// Its Tick method makes it a Behavior too: a model with ports runs it in a userNode,
// which keeps the node's port bindings. A function that takes the node may call
// n.WakeUp, so its Halt takes that wake-up back (see Node.claim).
type funcLeaf interface {
	ticker
	Behavior
}

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

func (f action0) tick(n *Node) Status { n.enterLeaf(); return leafStatus(f()) }
func (f action1) tick(n *Node) Status { n.enterLeaf(); return leafStatus(f(n)) }
func (f action2) tick(n *Node) Status { n.enterLeaf(); return leafStatus(f.Tick(n)) }
func (f cond0) tick(n *Node) Status   { n.enterLeaf(); return statusOf(f()) }
func (f cond1) tick(n *Node) Status   { n.enterLeaf(); return statusOf(f(n)) }
func (f cond2) tick(n *Node) Status   { n.enterLeaf(); return f.Tick(n) }

// A function leaf keeps no state of its own, but the wake-up it asked for (Node.WakeUp)
// is part of a tree's snapshot, so that the restored tree takes it back on halt too.
func (action1) saveState(n *Node, w *stateWriter)    { n.saveWake(w) }
func (action2) saveState(n *Node, w *stateWriter)    { n.saveWake(w) }
func (cond1) saveState(n *Node, w *stateWriter)      { n.saveWake(w) }
func (cond2) saveState(n *Node, w *stateWriter)      { n.saveWake(w) }
func (action1) restoreState(n *Node, r *stateReader) { n.restoreWake(r) }
func (action2) restoreState(n *Node, r *stateReader) { n.restoreWake(r) }
func (cond1) restoreState(n *Node, r *stateReader)   { n.restoreWake(r) }
func (cond2) restoreState(n *Node, r *stateReader)   { n.restoreWake(r) }

func statusOf(ok bool) Status {
	s := Failure
	if ok {
		s = Success
	}
	return s
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
	m := &Model{ID: id, Kind: KindAction, Ports: ports, New: func(*NodeConfig) (Behavior, error) {
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
