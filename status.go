package bt

import "fmt"

// Status is what a node answers when it is ticked.
//
// The numeric values are BehaviorTree.CPP's (IDLE=0 … SKIPPED=4), which Groot2 and
// the .btlog file format rely on.
type Status uint8

const (
	// Idle: not ticked yet in this activation, or reset. A node never returns Idle.
	Idle Status = 0
	// Running: the node has work in progress; tick it again later.
	Running Status = 1
	// Success: the node completed and achieved its goal.
	Success Status = 2
	// Failure: the node completed without achieving its goal.
	Failure Status = 3
	// Skipped: the node did not run this time (a pre-condition or a decorator chose not
	// to run it). A skipped node is returned as Skipped to its parent but keeps Idle as
	// its stored status.
	Skipped Status = 4
)

// String returns the upper-case name BehaviorTree.CPP uses: "IDLE", "RUNNING", …
func (s Status) String() string {
	switch s {
	case Idle:
		return "IDLE"
	case Running:
		return "RUNNING"
	case Success:
		return "SUCCESS"
	case Failure:
		return "FAILURE"
	case Skipped:
		return "SKIPPED"
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// Completed reports whether s is Success or Failure.
func (s Status) Completed() bool { return s == Success || s == Failure }

// Active reports whether s is neither Idle nor Skipped.
func (s Status) Active() bool { return s != Idle && s != Skipped }

// ParseStatus converts a status name ("SUCCESS", as BehaviorTree.CPP spells it) to a Status.
func ParseStatus(name string) (Status, error) {
	switch name {
	case "IDLE":
		return Idle, nil
	case "RUNNING":
		return Running, nil
	case "SUCCESS":
		return Success, nil
	case "FAILURE":
		return Failure, nil
	case "SKIPPED":
		return Skipped, nil
	}
	return Idle, fmt.Errorf("%q is not a status (want IDLE, RUNNING, SUCCESS, FAILURE or SKIPPED)", name)
}

// MarshalText implements encoding.TextMarshaler.
func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler, so ports and blackboard entries
// can hold statuses written as text (for example Precondition's else="SUCCESS").
func (s *Status) UnmarshalText(text []byte) error {
	v, err := ParseStatus(string(text))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// Kind is the category of a node type, as in BehaviorTree.CPP's TreeNodesModel.
type Kind uint8

const (
	KindAction Kind = iota + 1
	KindCondition
	KindControl
	KindDecorator
	KindSubTree
)

// String returns the name BehaviorTree.CPP uses in XML: "Action", "Condition", …
func (k Kind) String() string {
	switch k {
	case KindAction:
		return "Action"
	case KindCondition:
		return "Condition"
	case KindControl:
		return "Control"
	case KindDecorator:
		return "Decorator"
	case KindSubTree:
		return "SubTree"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// ParseKind converts "Action", "Condition", "Control", "Decorator" or "SubTree" to a Kind.
func ParseKind(name string) (Kind, error) {
	for k := KindAction; k <= KindSubTree; k++ {
		if k.String() == name {
			return k, nil
		}
	}
	return 0, fmt.Errorf("%q is not a node kind (want Action, Condition, Control, Decorator or SubTree)", name)
}

// MarshalText implements encoding.TextMarshaler: the name String gives.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler (as ParseKind), so ports and
// blackboard entries can hold kinds written as text: kind="Action" is KindAction, as
// BehaviorTree.CPP's convertFromString<NodeType> reads it.
func (k *Kind) UnmarshalText(text []byte) error {
	v, err := ParseKind(string(text))
	if err != nil {
		return err
	}
	*k = v
	return nil
}
