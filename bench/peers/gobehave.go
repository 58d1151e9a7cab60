package peers

import (
	behave "github.com/askft/go-behave"
	"github.com/askft/go-behave/common/composite"
	"github.com/askft/go-behave/core"
)

// askft/go-behave: nodes are types that embed core.Leaf, core.Composite or
// core.Decorator and implement Enter, Tick and Leave; core.Update calls Enter before a
// node that is not running. A tree's Context carries its Owner (the agent) to every
// node. It has no function leaves, so the leaves are types, and no reactive fallback,
// so behaveActiveSelector is one written the way its ActiveSequence is.

func behaveStatus(s core.Status) Status {
	switch s {
	case core.StatusRunning:
		return Running
	case core.StatusSuccess:
		return Success
	case core.StatusFailure:
		return Failure
	}
	return Invalid
}

func behaveDone(done bool) core.Status {
	if done {
		return core.StatusSuccess
	}
	return core.StatusRunning
}

// behaveCount succeeds, counting its visits.
type behaveCount struct {
	*core.Leaf
	n *uint32
}

func (l *behaveCount) Enter(*core.Context) {}
func (l *behaveCount) Tick(*core.Context) core.Status {
	*l.n++
	return core.StatusSuccess
}
func (l *behaveCount) Leave(*core.Context) {}

// behaveWork runs forever, counting its visits.
type behaveWork struct {
	*core.Leaf
	n *uint32
}

func (l *behaveWork) Enter(*core.Context) {}
func (l *behaveWork) Tick(*core.Context) core.Status {
	*l.n++
	return core.StatusRunning
}
func (l *behaveWork) Leave(*core.Context) {}

func behaveSingle(w *World, root core.Node) (Subject, error) {
	tree, err := behave.NewBehaviorTree(behave.Config{Owner: w, Data: w, Root: root})
	if err != nil {
		return Subject{}, err
	}
	return Subject{
		TickAll: func() { tree.Update() },
		Tick:    func(int) Status { return behaveStatus(tree.Update()) },
	}, nil
}

func behaveFlat(w *World) (Subject, error) {
	kids := make([]core.Node, len(w.Counts))
	for i := range kids {
		kids[i] = &behaveCount{core.NewLeaf("Leaf", nil, nil), &w.Counts[i]}
	}
	return behaveSingle(w, composite.Sequence(kids...))
}

func behaveReactive(w *World) (Subject, error) {
	kids := make([]core.Node, len(w.Counts))
	for i := range kids[:len(kids)-1] {
		kids[i] = &behaveCount{core.NewLeaf("Ready", nil, nil), &w.Counts[i]}
	}
	kids[len(kids)-1] = &behaveWork{core.NewLeaf("Work", nil, nil), &w.Counts[len(kids)-1]}
	return behaveSingle(w, composite.ActiveSequence(kids...))
}

// behaveCond is a condition on the tree's owner.
type behaveCond struct {
	*core.Leaf
	cond func(*Agent) bool
}

func (l *behaveCond) Enter(*core.Context) {}
func (l *behaveCond) Tick(ctx *core.Context) core.Status {
	if l.cond(ctx.Owner.(*Agent)) {
		return core.StatusSuccess
	}
	return core.StatusFailure
}
func (l *behaveCond) Leave(*core.Context) {}

// behaveAct is an action of the tree's owner.
type behaveAct struct {
	*core.Leaf
	act func(*Agent) bool
}

func (l *behaveAct) Enter(*core.Context) {}
func (l *behaveAct) Tick(ctx *core.Context) core.Status {
	return behaveDone(l.act(ctx.Owner.(*Agent)))
}
func (l *behaveAct) Leave(*core.Context) {}

// behaveActiveSelector is a Selector that starts from its first child on every tick.
type behaveActiveSelector struct {
	*core.Composite
}

func (s *behaveActiveSelector) Enter(*core.Context) {}
func (s *behaveActiveSelector) Tick(ctx *core.Context) core.Status {
	for _, c := range s.Children {
		if status := core.Update(c, ctx); status != core.StatusFailure {
			return status
		}
	}
	return core.StatusFailure
}
func (s *behaveActiveSelector) Leave(*core.Context) {}

// behaveTree builds an agent's tree (every agent has its own: nodes keep state).
func behaveTree(n Node, reactive bool) core.Node {
	if n.Kids == nil {
		l := Leaves[n.Leaf]
		if l.Cond != nil {
			return &behaveCond{core.NewLeaf(l.Name, nil, nil), l.Cond}
		}
		return &behaveAct{core.NewLeaf(l.Name, nil, nil), l.Act}
	}
	kids := make([]core.Node, len(n.Kids))
	for i, k := range n.Kids {
		kids[i] = behaveTree(k, reactive)
	}
	switch {
	case reactive && n.Fallback:
		return &behaveActiveSelector{core.NewComposite("ActiveSelector", kids)}
	case reactive:
		return composite.ActiveSequence(kids...)
	case n.Fallback:
		return composite.Selector(kids...)
	}
	return composite.Sequence(kids...)
}

func behaveAgents(w *World, reactive bool) (Subject, error) {
	trees := make([]*behave.BehaviorTree, len(w.Agents))
	shared := &struct{}{} // Config.Data: what every agent's tree shares (here nothing)
	for i := range trees {
		t, err := behave.NewBehaviorTree(behave.Config{Owner: &w.Agents[i], Data: shared, Root: behaveTree(AgentTree, reactive)})
		if err != nil {
			return Subject{}, err
		}
		trees[i] = t
	}
	return Subject{
		TickAll: func() {
			for _, t := range trees {
				t.Update()
			}
		},
		Tick: func(i int) Status { return behaveStatus(trees[i].Update()) },
	}, nil
}
