package bt

import (
	"errors"
	"reflect"
	"runtime"
	"strings"
)

// Containing panics in user code: see docs/architecture.md, "Containing panics".

// enter notes that n's user code (not a function leaf's: see above) is about to run,
// and returns the tree and the UID it replaces in Tree.user, to put back when the code
// returns (t.user = outer). It is inlined: five loads and two stores around the call.
// (A UID rather than a pointer, which would cost each store a test of the garbage
// collector's write barrier.)
func (n *Node) enter() (t *Tree, outer uint16) {
	m := n.meta
	t = m.scope.tree
	outer, t.user = t.user, m.uid
	return t, outer
}

// enterLeaf notes that the function of the function leaf n is about to run.
func (n *Node) enterLeaf() {
	m := n.meta
	m.scope.tree.leaf = m.uid
}

// leafStatus returns s, the status a function leaf returned, if a tick may return it;
// otherwise it panics with invalidStatus, which the recover reports as an error of the
// leaf (a panic needs nothing kept across the call to know the node, which a call to
// Abort would).
func leafStatus(s Status) Status {
	if s-Running > Skipped-Running {
		panic(invalidStatus(s))
	}
	return s
}

// invalidStatus is the panic value of a function leaf that returned s, a status a tick
// may not return.
type invalidStatus Status

// valid returns s, a status that user code returned, after checking that a tick may
// return it (Running, Success, Failure or Skipped); otherwise it aborts the tick.
func (n *Node) valid(s Status) Status {
	if s-Running > Skipped-Running {
		n.Abort(statusError(s))
	}
	return s
}

func statusError(s Status) error {
	if s == Idle {
		return errors.New("returned IDLE (a node must return RUNNING, SUCCESS, FAILURE or SKIPPED)")
	}
	return errors.New("returned " + s.String())
}

// panicErr is the error of a panic r of a node's code.
func panicErr(r any) error {
	if s, ok := r.(invalidStatus); ok {
		return statusError(Status(s))
	}
	return newPanicError(r)
}

// site is whose code raised a panic.
type site uint8

const (
	inEngine site = iota // no user code entered below the recover (an observer's, say)
	inLeaf               // a function leaf: Tree.leaf
	inUser               // other user code: Tree.user
)

// panicSite says, from a deferred function that recovered a panic, whose code raised
// it: walking the stack from the panic outward, the first frame that calls into user
// code, recovers panics for the engine or calls observers (siteFrames).
func panicSite() site {
	pcs := make([]uintptr, 64)
	for {
		if n := runtime.Callers(2, pcs); n < len(pcs) {
			pcs = pcs[:n]
			break
		}
		pcs = make([]uintptr, 2*len(pcs))
	}
	pkg := reflect.TypeFor[Tree]().PkgPath() + "."
	frames := runtime.CallersFrames(pcs)
	panicking := false
	for more := true; more; {
		var f runtime.Frame
		f, more = frames.Next()
		if !panicking {
			panicking = f.Function == "runtime.gopanic"
			continue
		}
		name, ours := strings.CutPrefix(f.Function, pkg)
		if !ours {
			continue
		}
		if s, ok := siteFrames[name]; ok {
			return s
		}
	}
	return inEngine
}

// siteFrames are the frames panicSite stops at, by function name, and what they say of
// the panic. The engine's frames are those that recover panics, and those that call
// observers (whose panics are no node's). TestPanicSiteFrames checks the names.
var siteFrames = map[string]site{
	"action0.tick": inLeaf, "action1.tick": inLeaf, "action2.tick": inLeaf,
	"cond0.tick": inLeaf, "cond1.tick": inLeaf, "cond2.tick": inLeaf,

	"(*userNode).tick": inUser, "(*userNode).Halt": inUser,
	"(*Node).callPre": inUser, "(*Node).callPost": inUser, "(*Node).guardCond": inUser,

	"(*Node).protect": inEngine, "(*family).resetFrom": inEngine,
	"(*Tree).TickOnce": inEngine, "(*Tree).tickRoot": inEngine, "(*Tree).halt": inEngine,
	"(*Tree).notify": inEngine, "(*Tree).handOver": inEngine,
}
