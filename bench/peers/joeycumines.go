package peers

import jc "github.com/joeycumines/go-behaviortree"

// joeycumines/go-behaviortree: a node is a function returning its tick and children,
// built with New. Its Sequence and Selector keep no state, so they are reactive: every
// tick starts from the first child. Memorize wraps a tick so that children that
// completed are not ticked again until the whole node completes: its memory controls.
// A tree closes over its agent; there is no blackboard.

func jcStatus(s jc.Status, err error) Status {
	switch {
	case err != nil:
		return Invalid
	case s == jc.Running:
		return Running
	case s == jc.Success:
		return Success
	case s == jc.Failure:
		return Failure
	}
	return Invalid
}

func jcDone(done bool) jc.Status {
	if done {
		return jc.Success
	}
	return jc.Running
}

func jcSingle(root jc.Node) Subject {
	return Subject{
		TickAll: func() { root.Tick() },
		Tick:    func(int) Status { return jcStatus(root.Tick()) },
	}
}

func jcFlat(w *World) (Subject, error) {
	kids := make([]jc.Node, len(w.Counts))
	for i := range kids {
		c := &w.Counts[i]
		kids[i] = jc.New(func([]jc.Node) (jc.Status, error) { *c++; return jc.Success, nil })
	}
	return jcSingle(jc.New(jc.Sequence, kids...)), nil
}

func jcReactive(w *World) (Subject, error) {
	kids := make([]jc.Node, len(w.Counts))
	for i := range kids[:len(kids)-1] {
		c := &w.Counts[i]
		kids[i] = jc.New(func([]jc.Node) (jc.Status, error) { *c++; return jc.Success, nil })
	}
	c := &w.Counts[len(kids)-1]
	kids[len(kids)-1] = jc.New(func([]jc.Node) (jc.Status, error) { *c++; return jc.Running, nil })
	return jcSingle(jc.New(jc.Sequence, kids...)), nil
}

// jcTree builds an agent's tree.
func jcTree(n Node, reactive bool, a *Agent) jc.Node {
	if n.Kids == nil {
		if cond := Leaves[n.Leaf].Cond; cond != nil {
			return jc.New(func([]jc.Node) (jc.Status, error) {
				if cond(a) {
					return jc.Success, nil
				}
				return jc.Failure, nil
			})
		}
		act := Leaves[n.Leaf].Act
		return jc.New(func([]jc.Node) (jc.Status, error) { return jcDone(act(a)), nil })
	}
	kids := make([]jc.Node, len(n.Kids))
	for i, k := range n.Kids {
		kids[i] = jcTree(k, reactive, a)
	}
	tick := jc.Sequence
	if n.Fallback {
		tick = jc.Selector
	}
	if !reactive {
		tick = jc.Memorize(tick)
	}
	return jc.New(tick, kids...)
}

func jcAgents(w *World, reactive bool) (Subject, error) {
	trees := make([]jc.Node, len(w.Agents))
	for i := range trees {
		trees[i] = jcTree(AgentTree, reactive, &w.Agents[i])
	}
	return Subject{
		TickAll: func() {
			for _, t := range trees {
				t.Tick()
			}
		},
		Tick: func(i int) Status { return jcStatus(trees[i].Tick()) },
	}, nil
}
