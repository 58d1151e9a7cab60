package bt

// PreTick is a function that runs before a node is ticked (see Node.SetPreTick).
// Returning Success or Failure replaces the tick: the node is not ticked and returns
// that status. Any other status — Idle, Running, Skipped — lets the node tick.
type PreTick func(n *Node) Status

// PostTick is a function that runs after a node was ticked, with the status the tick
// returned (see Node.SetPostTick). Returning Success or Failure replaces that status;
// any other status keeps it.
type PostTick func(n *Node, s Status) Status

// SetPreTick makes f run before each tick of the node, or removes the function set
// before when f is nil: BehaviorTree.CPP's setPreTickFunction, for fault injection in
// tests and for debuggers (the Groot2 publisher's breakpoints). The node's tick becomes:
//
//  1. The node's pre-conditions (_failureIf, _successIf, _skipIf, _while) are checked.
//     When one decides the status, f does not run.
//  2. Otherwise, unless the node's status is Success or Failure (a node ticked again
//     after it completed, before its parent reset it), f runs. When it
//     returns Success or Failure the node is not ticked and returns that status; a node
//     that was Running is halted first, so that none of its work is left running.
//  3. Otherwise the node ticks.
//  4. The post-conditions run after Success or Failure, then the node's PostTick.
//
// Before f runs, the tree's batch subscribers are handed the changes made so far (see
// Tree.SubscribeBatch). A node without tick functions costs nothing more to tick:
// setting one wraps the node's dispatch, removing both unwraps it. A panic in f is
// turned into an error that names the node, as a panic in a node's own code is (see
// WithRepanic), and f may call n.Abort.
//
// Like every change to a node, SetPreTick must be called on the goroutine that ticks
// the tree: between ticks, during a tick from a node or a tick function (it applies
// from the node's next tick), or from another goroutine through Tree.Do.
func (n *Node) SetPreTick(f PreTick) {
	n.intercept(func(x *intercepted) { x.pre = f })
}

// SetPostTick makes f run after each tick of the node, or removes the function set
// before when f is nil: BehaviorTree.CPP's setPostTickFunction. f runs after the
// node's post-conditions and is given the status its parent would see — Running and
// Skipped too, also when a pre-condition or a PreTick decided it. When f returns
// Success or Failure the node returns that status instead; a node whose tick returned
// Running is halted first. See SetPreTick for the rest, which applies here too.
func (n *Node) SetPostTick(f PostTick) {
	n.intercept(func(x *intercepted) { x.post = f })
}

// intercepted is the dispatch of a node with tick functions: it takes over the node's
// pre/post conditions, so that the functions run where BehaviorTree.CPP runs them
// (TreeNode::executeTick), between the conditions and the tick.
//
// It keeps the ticker contract: it stores no status but Idle (when it halts the node),
// and a decorator inside it stores its own as before; a status it replaces is stored
// by the node's parent, like any status a tick returns.
type intercepted struct {
	orig  ticker // the dispatch it replaced, put back when both functions are removed
	inner ticker // ticks the node: orig, or orig's inner ticker when orig runs conditions
	conds *conds // the node's pre/post conditions, or nil
	pre   PreTick
	post  PostTick
}

// intercept changes the node's tick functions with set, wrapping or unwrapping its
// dispatch as needed.
func (n *Node) intercept(set func(*intercepted)) {
	x, ok := n.t.(*intercepted)
	if !ok {
		x = &intercepted{orig: n.t, inner: n.t}
		if hn, ok := n.t.(*condNode); ok {
			x.inner, x.conds = hn.inner, &hn.conds
		}
	}
	set(x)
	switch {
	case x.pre == nil && x.post == nil:
		n.t = x.orig
	case !ok:
		n.t = x
	}
}

// tick runs the tick functions the node has when its tick begins, as BehaviorTree.CPP
// copies them: one set or removed during the tick applies from the next.
func (x *intercepted) tick(n *Node) Status {
	pre, post := x.pre, x.post
	var s Status
	fired := false
	if x.conds != nil {
		s, fired = n.checkPre(x.conds)
	}
	if !fired {
		s = x.tickInner(n, pre)
	}
	if x.conds != nil && (s == Success || s == Failure) {
		n.runPost(x.conds, s)
	}
	if post != nil {
		if r := n.callPost(post, s); r != s && (r == Success || r == Failure) {
			if s == Running { // returned, not stored yet: halt it whatever its byte says
				n.raise(n.halt())
			}
			s = r
		}
	}
	return s
}

// tickInner runs pre, then the node's tick unless pre replaced it.
func (x *intercepted) tickInner(n *Node, pre PreTick) Status {
	if pre != nil && !n.Status().Completed() {
		if r := n.callPre(pre); r == Success || r == Failure {
			if n.Status() == Running {
				n.raise(n.halt())
			}
			return r
		}
	}
	return x.inner.tick(n)
}

func (x *intercepted) Halt(n *Node) {
	if h, ok := x.inner.(Halter); ok {
		h.Halt(n)
	}
}

// callPre and callPost run a tick function as user code (see Node.enter). The tree's
// batch subscribers hear of the changes made so far first, so that a debugger that
// pauses the tick in f (the Groot2 publisher's breakpoints) shows them.
func (n *Node) callPre(f PreTick) Status {
	n.Tree().Flush()
	t, outer := n.enter()
	s := f(n)
	t.user = outer
	return s
}

func (n *Node) callPost(f PostTick, s Status) Status {
	n.Tree().Flush()
	t, outer := n.enter()
	r := f(n, s)
	t.user = outer
	return r
}

// core returns the node's own implementation, without the wrappers that run tick
// functions and pre/post conditions around it, and a decorator's body without the
// decoratorNode that ends its ticks: what the engine asks for the optional methods
// of a family (stateKeeper, interruptible, …).
func (n *Node) core() any {
	t := n.t
	if x, ok := t.(*intercepted); ok {
		t = x.inner
	} else if hn, ok := t.(*condNode); ok {
		t = hn.inner
	}
	if d, ok := t.(*decoratorNode); ok {
		return d.body
	}
	return t
}

// conditions returns the node's pre/post conditions, or nil.
func (n *Node) conditions() *conds {
	switch t := n.t.(type) {
	case *intercepted:
		return t.conds
	case *condNode:
		return &t.conds
	}
	return nil
}
