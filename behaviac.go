package bt

import "fmt"

// This file holds what the nodes taken from behaviac share (Log, Loop, LoopUntil, Time,
// Frames, CountLimit, SuccessUntil, FailureUntil). behaviac resumes a tree at its
// running leaf; bt keeps BehaviorTree.CPP's top-down ticking, and these rules translate
// behaviac's into it:
//
//   - a node "enters" when it is ticked while Idle; a child that completes is reset to
//     Idle at once, so a node that keeps running re-enters its child on the next tick;
//   - with decorate_when_child_ends=false (the default) the node's rule runs on every
//     tick, also while the child is Running; with true, while the child is Running the
//     node returns Running and its rule does not run;
//   - none of them yields: one iteration is one tick;
//   - a node that completes while its child is still Running halts the child (behaviac
//     leaves it running; in bt nothing may run unseen);
//   - each tick ends in decoratorNode.tick, as every builtin decorator's does: the
//     child is put back before the node's status is stored.

// whenEndsPort declares decorate_when_child_ends.
func whenEndsPort() PortDef {
	return InputPort[bool]("decorate_when_child_ends",
		"true: apply the rule only when the child completes (return RUNNING while it runs); false: on every tick").WithDefault("false")
}

// whenEnds is a node's decorate_when_child_ends port.
type whenEnds struct{ port In[bool] }

func (w *whenEnds) bind(c *NodeConfig) error { return w.port.bind(c, "decorate_when_child_ends") }

// wait reports whether the node must return Running and skip its rule because the child
// is still running and the node decorates only when the child ends.
func (w *whenEnds) wait(n *Node, child Status) bool {
	if child != Running {
		return false
	}
	return w.port.mustGet(n)
}

// countOf reads a count port: a number ≥ 0, or -1 for "no limit".
func countOf(n *Node, p *In[int]) int {
	c := p.mustGet(n)
	if c < -1 {
		n.Abort(fmt.Errorf("port %q must be -1 (no limit) or more, not %d", p.name, c))
	}
	return c
}
