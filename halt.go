package bt

import (
	"errors"
	"fmt"
)

// Halting, resetting, stopping: see docs/architecture.md, "Halting".

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
			i.interrupted(int(t.byUID()[child.meta.uid-1]) - int(n.meta.first))
		}
	}
	return joinErrors(errs)
}

// parent returns the parent of n, or nil for the root. Nodes do not keep their parent
// (a tick never needs it); this runs only after a failure.
func (t *Tree) parent(n *Node) *Node {
	i := int(t.byUID()[n.meta.uid-1])
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
