package bt

import "fmt"

// Cond names a pre- or post-condition that any node may carry, spelled in XML as the
// attribute Cond.String() returns (`_skipIf="battery < 20"`).
//
// Pre-conditions are checked in the order FailureIf, SuccessIf, SkipIf, While, and only
// when the node is Idle (once per activation); While is also checked while the node
// is Running. A pre-condition that fires decides the node's status without ticking it:
//
//	FailureIf true → Failure
//	SuccessIf true → Success
//	SkipIf true    → Skipped
//	While false    → Skipped (and, when the node was Running, the node is halted first)
//
// Post-conditions run after the node completed — OnSuccess after Success, OnFailure
// after Failure, then Post after either — also when a pre-condition decided the status.
// They do not run after Running or Skipped. OnHalted runs when a Running node is halted.
//
// They are BehaviorTree.CPP's PreCond and PostCond. The functions that run around a
// tick are tick functions (SetPreTick, SetPostTick), which Groot2 calls hooks.
type Cond uint8

const (
	FailureIf Cond = iota
	SuccessIf
	SkipIf
	While
	OnSuccess
	OnFailure
	Post
	OnHalted
	numConds
)

var condNames = [numConds]string{"_failureIf", "_successIf", "_skipIf", "_while",
	"_onSuccess", "_onFailure", "_post", "_onHalted"}

// String returns the XML attribute name, such as "_skipIf".
func (h Cond) String() string {
	if h < numConds {
		return condNames[h]
	}
	return fmt.Sprintf("Cond(%d)", uint8(h))
}

// IsPre reports whether h is a pre-condition (FailureIf, SuccessIf, SkipIf or While).
func (h Cond) IsPre() bool { return h <= While }

// CondByName returns the Cond whose attribute name is name ("_skipIf").
func CondByName(name string) (Cond, bool) {
	for h := Cond(0); h < numConds; h++ {
		if condNames[h] == name {
			return h, true
		}
	}
	return 0, false
}

// condFunc is a pre- or post-condition bound to one node: a condition (pre) or an
// action (post, whose boolean is ignored).
type condFunc func() (bool, error)

// condDef is a pre- or post-condition of a Spec: binding it to a node yields the node's
// condFunc. script is its text when it is written in the scripting language ("" for a
// Go function), kept for Spec.CondScript.
type condDef struct {
	bind   func(n *Node) (condFunc, error)
	script string
}

// conds are a node's bound pre- and post-conditions.
type conds struct {
	fn [numConds]condFunc
}

// condNode runs a node's pre- and post-conditions around its pipeline.
type condNode struct {
	inner ticker
	conds
}

func (hn *condNode) tick(n *Node) Status {
	h := &hn.conds
	s, fired := n.checkPre(h)
	if !fired {
		s = hn.inner.tick(n)
	}
	if s == Success || s == Failure {
		n.runPost(h, s)
	}
	return s
}

func (hn *condNode) Halt(n *Node) {
	if h, ok := hn.inner.(Halter); ok {
		h.Halt(n)
	}
}

// checkPre evaluates the pre-conditions; fired reports whether one decided the status.
func (n *Node) checkPre(h *conds) (s Status, fired bool) {
	switch n.Status() {
	case Idle:
		for k := FailureIf; k <= While; k++ {
			f := h.fn[k]
			if f == nil {
				continue
			}
			ok := n.eval(k, f)
			switch {
			case k == FailureIf && ok:
				return Failure, true
			case k == SuccessIf && ok:
				return Success, true
			case k == SkipIf && ok:
				return Skipped, true
			case k == While && !ok:
				return Skipped, true
			}
		}
	case Running:
		if f := h.fn[While]; f != nil && !n.eval(While, f) {
			n.raise(n.halt())
			return Skipped, true
		}
	}
	return 0, false
}

// runPost runs the post-conditions after the node completed with s.
func (n *Node) runPost(h *conds, s Status) {
	k := OnFailure
	if s == Success {
		k = OnSuccess
	}
	if f := h.fn[k]; f != nil {
		n.eval(k, f)
	}
	if f := h.fn[Post]; f != nil {
		n.eval(Post, f)
	}
}

func (h *conds) run(n *Node, k Cond) {
	if f := h.fn[k]; f != nil {
		n.eval(k, f)
	}
}

// guardCond is deferred around a Go pre- or post-condition k: a panic becomes the
// condition's error, or goes on under WithRepanic (see recovered).
func (n *Node) guardCond(k Cond, err *error) {
	if r := recover(); r != nil {
		switch r.(type) {
		case *NodeError, *failure: // it names its node already
			panic(r)
		}
		if t := n.Tree(); t.repanic {
			t.user, t.preCond = n.meta.uid, k.IsPre()
			panic(r)
		}
		*err = newPanicError(r)
	}
}

// eval runs a condition; an error aborts the tick.
func (n *Node) eval(k Cond, f condFunc) bool {
	ok, err := f()
	if err != nil {
		n.Abort(&condError{k, err})
	}
	return ok
}
