package bt

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"time"
)

// AsyncFunc is the work of an asynchronous action. It runs in its own goroutine and
// returns the node's final status (Success, Failure or Skipped); an error aborts the
// tick that collects it, naming the node. ctx is canceled when the node is halted or
// the tree stopped: the function must then return promptly (its result is discarded).
//
// From its goroutine the function may read and write ports and the blackboard, and call
// n.Name, n.Path, n.ID and n.WakeUp; it must not tick, halt or read the node's status.
type AsyncFunc func(ctx context.Context, n *Node) (Status, error)

// NewAsync returns the Model of an asynchronous action. When its node is ticked while
// Idle it starts fn in a goroutine and returns Running; when fn returns, the tree is
// woken up and the next tick returns fn's status. Halting the node cancels fn's context
// and waits for fn to return, so no goroutine outlives its node's activation — unless
// the tree has a halt timeout (WithHaltTimeout) and fn ignores its context for longer:
// then the halt gives up with ErrAbandoned.
//
// A panic in fn is recovered in its goroutine and raised by the tick that collects the
// result (under WithRepanic, as the same panic, in the ticking goroutine).
func NewAsync(id string, fn AsyncFunc, ports ...PortDef) *Model {
	m := &Model{ID: id, Kind: KindAction, Ports: ports, New: func(*NodeConfig) (Behavior, error) {
		return &async{fn: fn}, nil
	}}
	if fn == nil {
		m.err = nilFunc("NewAsync", id)
	}
	return m
}

// Async returns a node definition for a one-off asynchronous action.
func Async(id string, fn AsyncFunc) *Spec { return NewAsync(id, fn).Spec() }

// AsyncAction is the work of an asynchronous action as a value, one per node (see
// NewAsyncAction): for work that keeps state of its own across activations, which a
// snapshot of the tree saves when the value implements StateSaver. Run is called as an
// AsyncFunc is, in a goroutine of its own.
type AsyncAction interface {
	Run(ctx context.Context, n *Node) (Status, error)
}

// NewAsyncAction returns the Model of an asynchronous action whose work is a value:
// each node gets its own from newAction, and runs it as NewAsync runs its function.
func NewAsyncAction(id string, newAction func() AsyncAction, ports ...PortDef) *Model {
	m := &Model{ID: id, Kind: KindAction, Ports: ports, New: func(*NodeConfig) (Behavior, error) {
		a := newAction()
		if a == nil {
			return nil, fmt.Errorf("the constructor of %s returned nil", id)
		}
		sv, _ := a.(StateSaver)
		return &async{fn: a.Run, saver: sv}, nil
	}}
	if newAction == nil {
		m.err = nilFunc("NewAsyncAction", id)
	}
	return m
}

// ErrAbandoned is the error (wrapped in a *NodeError) of an async action that did not
// return within the tree's halt timeout after it was halted: the halt gave up waiting,
// and its goroutine runs on, abandoned; whatever it returns is discarded.
var ErrAbandoned = errors.New("goroutine abandoned")

type async struct {
	fn    AsyncFunc
	run   *asyncRun  // the work in progress; nil when there is none
	saver StateSaver // the AsyncAction's, if it saves its state
}

// asyncRun is the work of one activation. Its goroutine writes the results, then
// closes done.
type asyncRun struct {
	cancel   context.CancelFunc
	done     chan struct{}
	halted   atomic.Bool // the results are not wanted: the goroutine must not wake the tree
	woke     atomic.Bool // the goroutine is done but for closing done: its wake-up is posted
	status   Status
	err      error
	panicked bool // err is the *PanicError of a panic in fn
}

func (a *async) Tick(n *Node) Status {
	r := a.run
	if r == nil {
		if s := n.Status(); s.Completed() {
			return s // finished and not reset yet: the same result, as BehaviorTree.CPP's ThreadedAction
		}
		a.start(n)
		return Running
	}
	select {
	case <-r.done:
	default:
		if !r.woke.Load() {
			return Running
		}
		// The work is over and its wake-up posted, which this tick may have consumed:
		// done is about to be closed (see work), and the result must be collected now,
		// or nothing would wake the tree for it again.
		<-r.done
	}
	a.run = nil
	r.cancel()
	n.revokeWake() // the result is in: its wake-up has done its job
	r.raise(n)
	if r.status == Running || r.status == Idle {
		n.Abort(fmt.Errorf("async action returned %s", r.status))
	}
	return r.status
}

// restart starts the work of a node restored Running again (see Tree.Restore): the
// goroutine of the snapshot's activation did not come along.
func (a *async) restart(n *Node) {
	if a.run == nil {
		a.start(n)
	}
}

func (a *async) start(n *Node) {
	t := n.Tree()
	ctx, cancel := context.WithCancel(t.runContext())
	if r := t.rare; r != nil {
		for _, f := range r.asyncCtx {
			ctx = (*f)(ctx, n)
		}
	}
	r := &asyncRun{cancel: cancel, done: make(chan struct{})}
	a.run = r
	go r.work(ctx, a.fn, n)
}

// AsyncContextFunc derives the context an async action's goroutine receives from ctx,
// the one it would receive otherwise: see Tree.OnAsyncStart.
type AsyncContextFunc func(ctx context.Context, n *Node) context.Context

// OnAsyncStart registers fn to be called whenever an async action (NewAsync,
// NewAsyncAction) of the tree starts its goroutine, and returns a function that
// cancels the registration. fn is called on the ticking goroutine, in the tick that
// starts the work (or at the end of Restore, for work that starts again), with the node
// and the context the goroutine would receive; the goroutine receives the context fn
// returns instead, which must be derived from ctx so that halting the node still
// cancels it. That is how an observer hands the work something of its own: a tracing
// span the work's own spans nest under (the btotel module), a request ID. Functions
// registered by several calls are applied in the order they were registered, each to
// what the one before returned.
//
// fn must not tick or halt the tree; it may call Tree.Flush. Like Subscribe,
// OnAsyncStart and the cancel function must not be called during a tick, except from a
// function given to Tree.Do. A tree without such functions pays nothing for them.
// Registering nil does nothing.
func (t *Tree) OnAsyncStart(fn AsyncContextFunc) (cancel func()) {
	if fn == nil {
		return func() {}
	}
	h := &fn // funcs are not comparable: a registration is known by its address
	r := t.rareParts()
	r.asyncCtx = append(slices.Clip(r.asyncCtx), h)
	return func() {
		if i := slices.Index(r.asyncCtx, h); i >= 0 {
			r.asyncCtx = slices.Delete(slices.Clone(r.asyncCtx), i, i+1)
		}
		if len(r.asyncCtx) == 0 {
			r.asyncCtx = nil
		}
	}
}

func (r *asyncRun) work(ctx context.Context, fn AsyncFunc, n *Node) {
	defer func() {
		if v := recover(); v != nil {
			r.err, r.panicked = newPanicError(v), true
		}
		if !r.halted.Load() {
			r.woke.Store(true)
			n.WakeUp() // before done, so that a Halt waiting for done can take it back
		}
		close(r.done)
	}()
	r.status, r.err = fn(ctx, n)
}

// raise stops the tick with the run's error, if it has one: a panic in fn goes on as a
// panic under WithRepanic.
func (r *asyncRun) raise(n *Node) {
	if r.err == nil {
		return
	}
	if r.panicked && n.Tree().repanic { // the node's code is running: see Node.enter
		panic(r.err.(*PanicError).Value)
	}
	n.Abort(r.err)
}

// Halt cancels the work and waits for it to return, up to the tree's halt timeout. A
// panic in fn is reported; its other results are discarded.
func (a *async) Halt(n *Node) {
	r := a.run
	if r == nil {
		return
	}
	a.run = nil
	r.halted.Store(true)
	r.cancel()
	t := n.Tree()
	if !t.await(r.done) {
		n.Abort(fmt.Errorf("did not return within %v of being halted: %w", t.cfg.haltTimeout, ErrAbandoned))
	}
	if r.panicked {
		r.raise(n)
	}
}

// WithHaltTimeout bounds how long halting waits for an async action's goroutine to
// return once its context is canceled (by default it waits as long as it takes). When
// d elapses first, the halt goes on without it and reports a *NodeError naming the node
// that wraps ErrAbandoned; the goroutine is left to finish on its own. The time is
// the tree's clock's.
func WithHaltTimeout(d time.Duration) Option { return func(t *Tree) { t.config().haltTimeout = d } }

// await waits until done is closed, up to the halt timeout, and reports whether it was.
func (t *Tree) await(done <-chan struct{}) bool {
	if t.cfg.haltTimeout <= 0 {
		<-done
		return true
	}
	select {
	case <-done:
		return true
	default:
	}
	expired := make(chan struct{})
	timer := t.cfg.clock.AfterFunc(t.cfg.haltTimeout, func() { close(expired) })
	defer timer.Stop()
	select {
	case <-done:
		return true
	case <-expired:
		return false
	}
}

// saveState saves what became of the work of the activation under way, if any: still
// working ("working": Restore starts it again, and it reports restarting), or done,
// with a result the node has not collected yet ("result", or the failure: "error",
// "panic"), which the restored node collects as this one would have.
func (a *async) saveState(w *stateWriter) (restarts bool) {
	r := a.run
	if r == nil {
		return false
	}
	select {
	case <-r.done:
	default:
		w.flag("working", true)
		return true
	}
	var pe *PanicError
	switch {
	case r.panicked && errors.As(r.err, &pe):
		w.text("panic", fmt.Sprint(pe.Value))
	case r.err != nil:
		w.text("error", r.err.Error())
	default:
		w.text("result", r.status.String())
	}
	return false
}

// restoreState reads what saveState saved: the work to start again (it returns the
// function that does, for the end of the restore), or the result to collect.
func (a *async) restoreState(n *Node, r *stateReader) (restart func()) {
	working := r.flag("working")
	result, errText, panicText := r.text("result"), r.text("error"), r.text("panic")
	done := &asyncRun{cancel: func() {}, done: make(chan struct{})}
	close(done.done)
	switch {
	case working && (result != "" || errText != "" || panicText != ""), result != "" && (errText != "" || panicText != ""):
		r.fail("an async action's work is working, or done with one result")
	case (working || result != "" || errText != "" || panicText != "") && r.statusOf(n) != Running:
		r.fail("an async action has work only while it is RUNNING, not %s", r.statusOf(n))
	case result != "":
		s, err := ParseStatus(result)
		if err != nil {
			r.fail("field %q: %v", "result", err)
		}
		done.status = s
	case errText != "":
		done.err = errors.New(errText)
	case panicText != "":
		done.err, done.panicked = &PanicError{Value: panicText}, true
	default:
		done = nil
	}
	if !r.applying() {
		return nil
	}
	a.run = done
	if working {
		return func() { a.restart(n) }
	}
	return nil
}
