package peers

import (
	"strings"

	"github.com/gobt/bt"
)

// bt builds its trees from Specs (bt.Action and bt.Condition for function leaves) or
// from a Factory that knows the leaf types and loads the tree as BehaviorTree.CPP XML.

func btStatus(s bt.Status, err error) Status {
	switch {
	case err != nil:
		return Invalid
	case s == bt.Running:
		return Running
	case s == bt.Success:
		return Success
	case s == bt.Failure:
		return Failure
	}
	return Invalid
}

func btDone(done bool) bt.Status {
	if done {
		return bt.Success
	}
	return bt.Running
}

func btOptions(repanic bool) []bt.Option {
	if repanic {
		return []bt.Option{bt.WithRepanic()}
	}
	return nil
}

func btSingle(root *bt.Spec, repanic bool) (Subject, error) {
	tree, err := bt.NewTree(root, btOptions(repanic)...)
	if err != nil {
		return Subject{}, err
	}
	return Subject{
		TickAll: func() { tree.TickOnce() },
		Tick:    func(int) Status { return btStatus(tree.TickOnce()) },
	}, nil
}

func btFlat(w *World, repanic bool) (Subject, error) {
	kids := make([]*bt.Spec, len(w.Counts))
	for i := range kids {
		c := &w.Counts[i]
		kids[i] = bt.Action("Leaf", func() bt.Status { *c++; return bt.Success })
	}
	return btSingle(bt.Sequence(kids...), repanic)
}

func btReactive(w *World, repanic bool) (Subject, error) {
	kids := make([]*bt.Spec, len(w.Counts))
	for i := range kids[:len(kids)-1] {
		c := &w.Counts[i]
		kids[i] = bt.Condition("Ready", func() bool { *c++; return true })
	}
	c := &w.Counts[len(kids)-1]
	kids[len(kids)-1] = bt.Action("Work", func() bt.Status { *c++; return bt.Running })
	return btSingle(bt.ReactiveSequence(kids...), repanic)
}

// btSpec builds the agent tree's Spec, its leaves made by leaf.
func btSpec(n Node, reactive bool, leaf func(i int) *bt.Spec) *bt.Spec {
	if n.Kids == nil {
		return leaf(n.Leaf)
	}
	kids := make([]*bt.Spec, len(n.Kids))
	for i, k := range n.Kids {
		kids[i] = btSpec(k, reactive, leaf)
	}
	switch {
	case reactive && n.Fallback:
		return bt.ReactiveFallback(kids...)
	case reactive:
		return bt.ReactiveSequence(kids...)
	case n.Fallback:
		return bt.Fallback(kids...)
	}
	return bt.Sequence(kids...)
}

// btAgentXML writes the agent tree as BehaviorTree.CPP XML.
func btAgentXML(reactive bool) string {
	var b strings.Builder
	b.WriteString(`<root BTCPP_format="4" main_tree_to_execute="Agent"><BehaviorTree ID="Agent">`)
	var write func(n Node)
	write = func(n Node) {
		if n.Kids == nil {
			b.WriteString("<" + Leaves[n.Leaf].Name + "/>")
			return
		}
		tag := "Sequence"
		if n.Fallback {
			tag = "Fallback"
		}
		if reactive {
			tag = "Reactive" + tag
		}
		b.WriteString("<" + tag + ">")
		for _, k := range n.Kids {
			write(k)
		}
		b.WriteString("</" + tag + ">")
	}
	write(AgentTree)
	b.WriteString(`</BehaviorTree></root>`)
	return b.String()
}

// btAgentModels makes the leaf types of a shared definition, once for every tree. A
// leaf reaches its agent as the owner of its tree (bt.WithOwner, bt.Owner).
func btAgentModels() []*bt.Model {
	ms := make([]*bt.Model, NumLeaves)
	for i, l := range Leaves {
		if cond := l.Cond; cond != nil {
			ms[i] = bt.NewCondition(l.Name, func(n *bt.Node) bool { return cond(bt.Owner[*Agent](n)) })
			continue
		}
		act := l.Act
		ms[i] = bt.NewAction(l.Name, func(n *bt.Node) bt.Status { return btDone(act(bt.Owner[*Agent](n))) })
	}
	return ms
}

// btAgents builds a tree per agent with newTree, the agent its owner.
func btAgents(w *World, newTree func(opts ...bt.Option) (*bt.Tree, error)) (Subject, error) {
	trees := make([]*bt.Tree, len(w.Agents))
	for i := range trees {
		t, err := newTree(bt.WithOwner(&w.Agents[i]))
		if err != nil {
			return Subject{}, err
		}
		trees[i] = t
	}
	return btSubject(trees), nil
}

func btSubject(trees []*bt.Tree) Subject {
	return Subject{
		trees: trees,
		TickAll: func() {
			for _, t := range trees {
				t.TickOnce()
			}
		},
		Tick: func(i int) Status { return btStatus(trees[i].TickOnce()) },
	}
}

// btAgentsFactory: one Factory knows the leaf types and the tree, loaded from XML;
// every agent's tree is built from that definition.
func btAgentsFactory(w *World, reactive bool) (Subject, error) {
	f := bt.NewFactory()
	if err := f.Register(btAgentModels()...); err != nil {
		return Subject{}, err
	}
	if err := f.LoadString("agent.xml", btAgentXML(reactive)); err != nil {
		return Subject{}, err
	}
	return btAgents(w, func(opts ...bt.Option) (*bt.Tree, error) { return f.NewTree("Agent", opts...) })
}

// btAgentsSharedSpec: one Spec, written in Go, for every agent's tree.
func btAgentsSharedSpec(w *World, reactive bool) (Subject, error) {
	ms := btAgentModels()
	spec := btSpec(AgentTree, reactive, func(i int) *bt.Spec { return ms[i].Spec() })
	return btAgents(w, func(opts ...bt.Option) (*bt.Tree, error) { return bt.NewTree(spec, opts...) })
}

// OnCores returns s, a build of bt's trees, ticked with bt.TickAll on up to workers
// goroutines: a crowd ticked on several cores.
func OnCores(s Subject, workers int) Subject {
	trees := s.trees
	s.TickAll = func() {
		if err := bt.TickAll(trees, workers, nil); err != nil {
			panic(err)
		}
	}
	return s
}

// btAgentsSpecPerAgent: a Spec per agent, whose function leaves close over the agent.
func btAgentsSpecPerAgent(w *World, reactive bool) (Subject, error) {
	trees := make([]*bt.Tree, len(w.Agents))
	for i := range trees {
		a := &w.Agents[i]
		spec := btSpec(AgentTree, reactive, func(l int) *bt.Spec {
			if cond := Leaves[l].Cond; cond != nil {
				return bt.Condition(Leaves[l].Name, func() bool { return cond(a) })
			}
			act := Leaves[l].Act
			return bt.Action(Leaves[l].Name, func() bt.Status { return btDone(act(a)) })
		})
		t, err := bt.NewTree(spec)
		if err != nil {
			return Subject{}, err
		}
		trees[i] = t
	}
	return btSubject(trees), nil
}
