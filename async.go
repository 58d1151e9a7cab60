package bt

import (
	"context"
	"fmt"
)

// AsyncFunc is the work of an asynchronous action. It runs in its own goroutine and
// returns the node's final status (Success, Failure or Skipped); an error aborts the
// tick that collects it, naming the node. ctx is canceled when the node is halted: the
// function must then return promptly (its result is discarded).
//
// From its goroutine the function may read and write ports and the blackboard, and call
// n.Name, n.Path, n.ID and n.WakeUp; it must not tick, halt or read the node's status.
type AsyncFunc func(ctx context.Context, n *Node) (Status, error)

// NewAsync returns the Model of an asynchronous action. When its node is ticked while
// Idle it starts fn in a goroutine and returns Running; when fn returns, the tree is
// woken up and the next tick returns fn's status. Halting the node cancels fn's context
// and waits for fn to return, so no goroutine outlives its node's activation.
func NewAsync(id string, fn AsyncFunc, ports ...PortDef) *Model {
	return &Model{ID: id, Kind: KindAction, Ports: ports, New: func(*Init) (Behavior, error) {
		return &async{fn: fn}, nil
	}}
}

// Async returns a node definition for a one-off asynchronous action.
func Async(id string, fn AsyncFunc) *Spec { return NewAsync(id, fn).Spec() }

type async struct {
	fn     AsyncFunc
	cancel context.CancelFunc
	done   chan struct{} // closed when fn returned; nil when no work is in progress
	status Status        // fn's results, valid once done is closed
	err    error
}

func (a *async) Tick(n *Node) Status {
	if a.done == nil {
		if s := n.Status(); s.Completed() {
			return s // finished and not reset yet: the same result, as BehaviorTree.CPP's ThreadedAction
		}
		a.start(n)
		return Running
	}
	select {
	case <-a.done:
	default:
		return Running
	}
	s, err := a.status, a.err
	a.finish()
	if err != nil {
		n.Abort(err)
	}
	if s == Running || s == Idle {
		n.Abort(fmt.Errorf("async action returned %s", s))
	}
	return s
}

func (a *async) start(n *Node) {
	ctx, cancel := context.WithCancel(n.Tree().ctx)
	a.cancel, a.done, a.status, a.err = cancel, make(chan struct{}), Idle, nil
	go a.run(ctx, n, a.done)
}

func (a *async) run(ctx context.Context, n *Node, done chan struct{}) {
	defer func() {
		if r := recover(); r != nil {
			if n.Tree().repanic {
				panic(r)
			}
			a.err = newPanicError(r)
		}
		close(done)
		n.Tree().WakeUp()
	}()
	a.status, a.err = a.fn(ctx, n)
}

// Halt cancels the work and waits for it to return.
func (a *async) Halt(*Node) {
	if a.done == nil {
		return
	}
	a.cancel()
	<-a.done
	a.finish()
}

func (a *async) finish() {
	a.cancel()
	a.cancel, a.done = nil, nil
}
