package blackboard

import (
	"errors"
	"fmt"
)

// Sentinel errors. Every error of this package wraps one of them, so callers can test
// with errors.Is; the messages themselves name the key and the types involved.
var (
	// ErrNotExist: the entry was never created or has been unset.
	ErrNotExist = errors.New("entry does not exist")
	// ErrEmpty: the entry exists but holds no value yet.
	ErrEmpty = errors.New("entry is empty")
	// ErrType: a value does not fit the entry's type or the requested type.
	ErrType = errors.New("type mismatch")
	// ErrInvalidKey: the key is empty or malformed ("", "@", "@@x").
	ErrInvalidKey = errors.New("invalid key")
)

// keyError carries a complete message and the sentinel (and cause) it stands for.
type keyError struct {
	msg   string
	kind  error
	cause error
}

func (e *keyError) Error() string { return e.msg }

func (e *keyError) Unwrap() []error {
	if e.cause == nil {
		return []error{e.kind}
	}
	return []error{e.kind, e.cause}
}

func errorf(kind, cause error, format string, args ...any) error {
	return &keyError{msg: fmt.Sprintf(format, args...), kind: kind, cause: cause}
}

// ParseError reports a string that cannot be converted into a type.
type ParseError struct {
	Text string // the input (shortened in the message)
	Type string // the type it was parsed as
	Msg  string // optional detail ("out of range", "element 2: …")
}

func (e *ParseError) Error() string {
	s := "cannot parse " + quote(e.Text) + " as " + e.Type
	if e.Msg != "" {
		s += ": " + e.Msg
	}
	return s
}

// Is makes every ParseError match ErrType.
func (e *ParseError) Is(target error) bool { return target == ErrType }
