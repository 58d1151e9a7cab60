package peers

// The bare walk is the floor: the same shapes as plain Go interface calls, with leaves
// that call a function, and no engine state — no statuses kept, no halting, no
// observers, no errors. Its reactive controls keep nothing; its controls with memory
// keep only the index of the running child.

type bareNode interface{ tick() Status }

type (
	bareSeq      struct{ kids []bareNode }
	bareFallback struct{ kids []bareNode }
	bareLeaf     struct{ fn func() Status }
	// bareMemSeq and bareMemFallback resume at the child that ran.
	bareMemSeq struct {
		kids []bareNode
		at   int
	}
	bareMemFallback struct {
		kids []bareNode
		at   int
	}
)

func (n *bareSeq) tick() Status {
	for _, k := range n.kids {
		if s := k.tick(); s != Success {
			return s
		}
	}
	return Success
}

func (n *bareFallback) tick() Status {
	for _, k := range n.kids {
		if s := k.tick(); s != Failure {
			return s
		}
	}
	return Failure
}

func (n *bareLeaf) tick() Status { return n.fn() }

func (n *bareMemSeq) tick() Status {
	for ; n.at < len(n.kids); n.at++ {
		switch n.kids[n.at].tick() {
		case Running:
			return Running
		case Failure:
			n.at = 0
			return Failure
		}
	}
	n.at = 0
	return Success
}

func (n *bareMemFallback) tick() Status {
	for ; n.at < len(n.kids); n.at++ {
		switch n.kids[n.at].tick() {
		case Running:
			return Running
		case Success:
			n.at = 0
			return Success
		}
	}
	n.at = 0
	return Failure
}

func bareSingle(root bareNode) Subject {
	return Subject{TickAll: func() { root.tick() }, Tick: func(int) Status { return root.tick() }}
}

func bareFlat(w *World) (Subject, error) {
	kids := make([]bareNode, len(w.Counts))
	for i := range kids {
		c := &w.Counts[i]
		kids[i] = &bareLeaf{func() Status { *c++; return Success }}
	}
	return bareSingle(&bareSeq{kids}), nil
}

func bareReactive(w *World) (Subject, error) {
	kids := make([]bareNode, len(w.Counts))
	for i := range kids[:len(kids)-1] {
		c := &w.Counts[i]
		kids[i] = &bareLeaf{func() Status { *c++; return Success }}
	}
	c := &w.Counts[len(kids)-1]
	kids[len(kids)-1] = &bareLeaf{func() Status { *c++; return Running }}
	return bareSingle(&bareSeq{kids}), nil
}

func bareDone(done bool) Status {
	if done {
		return Success
	}
	return Running
}

// bareTree builds an agent's tree, whose leaves close over the agent.
func bareTree(n Node, reactive bool, a *Agent) bareNode {
	if n.Kids == nil {
		if cond := Leaves[n.Leaf].Cond; cond != nil {
			return &bareLeaf{func() Status {
				if cond(a) {
					return Success
				}
				return Failure
			}}
		}
		act := Leaves[n.Leaf].Act
		return &bareLeaf{func() Status { return bareDone(act(a)) }}
	}
	kids := make([]bareNode, len(n.Kids))
	for i, k := range n.Kids {
		kids[i] = bareTree(k, reactive, a)
	}
	switch {
	case reactive && n.Fallback:
		return &bareFallback{kids}
	case reactive:
		return &bareSeq{kids}
	case n.Fallback:
		return &bareMemFallback{kids: kids}
	}
	return &bareMemSeq{kids: kids}
}

func bareAgents(w *World, reactive bool) (Subject, error) {
	trees := make([]bareNode, len(w.Agents))
	for i := range trees {
		trees[i] = bareTree(AgentTree, reactive, &w.Agents[i])
	}
	return Subject{
		TickAll: func() {
			for _, t := range trees {
				t.tick()
			}
		},
		Tick: func(i int) Status { return trees[i].tick() },
	}, nil
}
