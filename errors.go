package bt

import (
	"errors"
	"fmt"
	"runtime/debug"
)

// ErrEmptyTree is returned when ticking a tree that has no root.
var ErrEmptyTree = errors.New("bt: the tree is empty")

// NodeError is an error raised while a node was ticked or halted: a script or port
// that failed, a behavior that called Node.Abort, or a panic in user code (then Err is
// a *PanicError). It names the innermost node involved.
type NodeError struct {
	Path string // the node's full path, as Node.Path returns it
	ID   string // the node's type ID
	UID  uint16 // the node's UID (Tree.Node finds it)
	Err  error
}

func (e *NodeError) Error() string {
	return fmt.Sprintf("node %s (%s): %v", e.Path, e.ID, e.Err)
}

func (e *NodeError) Unwrap() error { return e.Err }

// PanicError is a panic recovered from user code.
type PanicError struct {
	Value any    // what was passed to panic
	Stack []byte // the goroutine's stack where the panic happened
}

func newPanicError(v any) *PanicError {
	return &PanicError{Value: v, Stack: debug.Stack()}
}

func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v", e.Value) }

// Unwrap returns the panic value when it is an error.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}
