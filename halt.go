package bt

import (
	"errors"
	"fmt"
)

// Halting, resetting, stopping. To halt a node is to end the work of a Running node:
// BehaviorTree.CPP's haltNode (Node.halt) runs its Halt method, resets its children,
// sets it Idle and runs its _onHalted script. To reset a node is to put it back to
// Idle whatever its status: halt it if it is Running, else clear its status
// (Node.reset; children from one on, family.reset; every node of a tree,
// Tree.resetAll, which Tree.halt — BehaviorTree.CPP's haltTree — runs). These return
// what failed. During a tick the failures are raised (Node.raise) instead: a panic
// that stops the tick, as an error does. Node.Halt, which controls and decorators call
// on a child, and Node.resetChildren, which a control calls when it completes, raise
// them. To stop a tree is to ask it, from any goroutine (Tree.Stop), to halt at its next
// tick (Tree.endRun).
//
// Halting goes on whatever fails. A node's Halt method, its _onHalted script or an
// observer may fail while a node is halted (TryCatch's Halt even ticks its catch child),
// and every other node must still be halted — its goroutine canceled, its clean-up run —
// or the tree would keep work running that nobody sees. So each step of halting a node
// runs under protect, which turns a panic into an error naming its node; the failures
// are collected up the halt (errors.Join), and raised once every node below the one
// halted is Idle: a tick stops with them as with any error, and Tree.Halt returns them.
//
// A tick that stops with an error leaves the nodes it was in the middle of: the one that
// failed and the ones above it. Builtin controls and decorators mark themselves Running
// when they start only when the tree is observed (see setRunning), so which of them say
// Running would depend on observation. The node that catches the error settles it by
// marking them (interrupt): they were running, so halting the tree halts them, with
// their Halt methods and _onHalted scripts, observed or not. A Sequence or Fallback
// among them also stores the statuses of the children that passed, which its loop had
// not stored yet (sequence.interrupted): a child that was Running when the tick began
// must not look Running still.

// failure is the panic value that stops a tick when halting failed (Node.Halt) or an
// observer panicked: err names the nodes, and the nodes above at were interrupted.
type failure struct {
	err error
	at  *Node
}

// protect runs f, a step of halting n, and returns what it raised as an error that
// names its node.
func (n *Node) protect(f func()) (err error) {
	t := n.Tree()
	outer := t.user
	defer func() {
		if r := recover(); r != nil {
			err = t.recovered(r, n, outer)
		}
	}()
	f()
	return nil
}

// recovered turns a panic r, caught while halting below (or at) node top or ending a
// tick (top nil), into an error, after marking as Running the nodes it interrupted
// below top (see interrupt). outer is Tree.user when the function that caught r
// began, which it gets back. A panic that names no node was raised by user code
// entered since, if the stack says so (see panic.go), else by the step at top.
func (t *Tree) recovered(r any, top *Node, outer uint16) error {
	user, pre := t.user, t.preCond
	t.user, t.preCond = outer, false
	var (
		err  error
		at   *Node
		self bool
	)
	switch v := r.(type) {
	case *NodeError:
		err = v
		if n := t.Node(v.UID); n != nil && n.Path() == v.Path {
			at, self = n, n.NumChildren() > 0 && !isPreCondition(v.Err)
		}
	case *failure:
		err, at = v.err, v.at
	default:
		at = top
		switch panicSite() {
		case inLeaf:
			at = t.Node(t.leaf)
		case inUser: // as if it had called Abort, which a pre-condition runs before
			at = t.Node(user)
			self = at.NumChildren() > 0 && !pre
		}
		if at == nil {
			return newPanicError(r)
		}
		err = at.errorf(panicErr(r))
	}
	if at == nil {
		return err
	}
	return joinErrors(appendErr([]error{err}, t.interrupt(at, self, top)))
}

// interrupt marks as Running the nodes a failure at n interrupted: n itself when self,
// and its ancestors, up to top (excluded; nil: up to the root).
func (t *Tree) interrupt(n *Node, self bool, top *Node) error {
	if n == top {
		return nil
	}
	var child *Node // the interrupted child of n
	if !self {
		n, child = t.parent(n), n
	}
	var errs []error
	for ; n != nil && n != top; n, child = t.parent(n), n {
		if n.Status() != Running {
			errs = appendErr(errs, n.protect(func() { n.set(Running) }))
		}
		if child == nil {
			continue
		}
		if i, ok := n.core().(interruptible); ok {
			i.interrupted(int(t.byUID[child.meta.uid-1]) - int(n.meta.first))
		}
	}
	return joinErrors(errs)
}

// parent returns the parent of n, or nil for the root. Nodes do not keep their parent
// (a tick never needs it); this runs only after a failure.
func (t *Tree) parent(n *Node) *Node {
	i := int(t.byUID[n.meta.uid-1])
	for k := range t.nodes {
		if m := t.nodes[k].meta; int(m.first) <= i && i < int(m.first)+int(m.nkids) {
			return &t.nodes[k]
		}
	}
	return nil
}

// isPreCondition reports whether err was raised by a pre-condition, which runs before
// its node starts.
func isPreCondition(err error) bool {
	he, ok := err.(*condError)
	return ok && he.cond.IsPre()
}

// condError is the error of a pre- or post-condition script.
type condError struct {
	cond Cond
	err  error
}

func (e *condError) Error() string { return fmt.Sprintf("%s: %v", e.cond, e.err) }
func (e *condError) Unwrap() error { return e.err }

// resetAll resets every node — halts every Running one, clears every other — parents
// first, whatever fails on the way, and returns the failures: the tree is Idle
// afterwards, as BehaviorTree.CPP's haltTree leaves it. Visiting every node, not only the Running
// ones under the root, also clears what a parent leaves behind when it completes:
// the condition of a two-child IfThenElse that failed, the children a
// SequenceWithMemory remembers, the nodes a stopped tick left.
func (t *Tree) resetAll() error {
	var errs []error
	for n := range t.Nodes() {
		if !n.st.idleAndKnown() {
			errs = appendErr(errs, n.reset())
		}
	}
	return joinErrors(errs)
}

// joinedError is an error that joins several, as errors.Join makes them.
type joinedError interface {
	Unwrap() []error
}

// appendErr appends err to errs, flattening a joined error.
func appendErr(errs []error, err error) []error {
	if err == nil {
		return errs
	}
	if j, ok := err.(joinedError); ok {
		return append(errs, j.Unwrap()...)
	}
	return append(errs, err)
}

// joinErrors returns the one error of errs as itself, several joined, or nil.
func joinErrors(errs []error) error {
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	}
	return errors.Join(errs...)
}
