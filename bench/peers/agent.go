package peers

import "math/rand/v2"

// The agent shapes tick one 16-node tree per agent. The user code is the same for
// every library: the leaf functions below, reached through each library's own way of
// giving a leaf its agent. Each leaf counts its visits in the agent, so the checks can
// prove that every library did the same work.
//
//	Sequence                       (ReactiveSequence, or Sequence with memory)
//	├─ Perceive                    action, always succeeds
//	├─ IsAlive                     condition
//	└─ Fallback                    (ReactiveFallback, or Fallback with memory)
//	   ├─ Sequence: LowHealth, Flee
//	   ├─ Sequence: EnemyVisible, InRange, HasAmmo, Shoot
//	   └─ Sequence: HasWaypoint, Rested, Patrol
//
// Flee, Shoot and Patrol are long actions: they return Running, forever in the
// reactive shape, and for Cycle-1 ticks before succeeding in the memory shape.

// Leaf indexes, in tree order.
const (
	Perceive = iota
	IsAlive
	LowHealth
	Flee
	EnemyVisible
	InRange
	HasAmmo
	Shoot
	HasWaypoint
	Rested
	Patrol
	NumLeaves
)

// Agent is a game entity driven by a tree.
type Agent struct {
	HP, Ammo, EnemyDist int32
	Enemy, Waypoint     bool
	Tired               bool
	State               State
	Cycle, step         uint8 // a long action succeeds on its Cycle-th tick (0: never)
	Visits              [NumLeaves]uint32
}

// State is what an agent is doing, which fixes the path a tick takes through its tree.
type State uint8

const (
	Dead State = iota
	Fleeing
	Attacking
	Patrolling
)

func (s State) String() string {
	return [...]string{"dead", "fleeing", "attacking", "patrolling"}[s]
}

// Leaf is the user code of one leaf: a condition (Cond) or an action (Act, which reports
// whether it completed).
type Leaf struct {
	Name string
	Cond func(*Agent) bool
	Act  func(*Agent) (done bool)
}

// Leaves lists the leaf functions by index.
var Leaves = [NumLeaves]Leaf{
	Perceive:     {Name: "Perceive", Act: perceive},
	IsAlive:      {Name: "IsAlive", Cond: func(a *Agent) bool { a.Visits[IsAlive]++; return a.HP > 0 }},
	LowHealth:    {Name: "LowHealth", Cond: func(a *Agent) bool { a.Visits[LowHealth]++; return a.HP < 30 }},
	Flee:         {Name: "Flee", Act: func(a *Agent) bool { return a.act(Flee) }},
	EnemyVisible: {Name: "EnemyVisible", Cond: func(a *Agent) bool { a.Visits[EnemyVisible]++; return a.Enemy }},
	InRange:      {Name: "InRange", Cond: func(a *Agent) bool { a.Visits[InRange]++; return a.EnemyDist < 10 }},
	HasAmmo:      {Name: "HasAmmo", Cond: func(a *Agent) bool { a.Visits[HasAmmo]++; return a.Ammo > 0 }},
	Shoot:        {Name: "Shoot", Act: func(a *Agent) bool { return a.act(Shoot) }},
	HasWaypoint:  {Name: "HasWaypoint", Cond: func(a *Agent) bool { a.Visits[HasWaypoint]++; return a.Waypoint }},
	Rested:       {Name: "Rested", Cond: func(a *Agent) bool { a.Visits[Rested]++; return !a.Tired }},
	Patrol:       {Name: "Patrol", Act: func(a *Agent) bool { return a.act(Patrol) }},
}

func perceive(a *Agent) bool { a.Visits[Perceive]++; return true }

// act is the body of a long action: Running until its Cycle-th tick.
func (a *Agent) act(leaf int) bool {
	a.Visits[leaf]++
	if a.Cycle == 0 {
		return false
	}
	a.step++
	if a.step < a.Cycle {
		return false
	}
	a.step = 0
	return true
}

// Node is the agent tree's shape, from which each library builds its own tree.
type Node struct {
	Fallback bool // a control: Sequence or Fallback (reactive or with memory, by shape)
	Kids     []Node
	Leaf     int // a leaf when Kids is nil
}

// AgentTree is the 16-node tree of the agent shapes.
var AgentTree = seq(leaf(Perceive), leaf(IsAlive), Node{Fallback: true, Kids: []Node{
	seq(leaf(LowHealth), leaf(Flee)),
	seq(leaf(EnemyVisible), leaf(InRange), leaf(HasAmmo), leaf(Shoot)),
	seq(leaf(HasWaypoint), leaf(Rested), leaf(Patrol)),
}})

func seq(kids ...Node) Node { return Node{Kids: kids} }
func leaf(i int) Node       { return Node{Leaf: i} }

// Len is the number of nodes of the tree.
func (n Node) Len() int {
	c := 1
	for _, k := range n.Kids {
		c += k.Len()
	}
	return c
}

// NewAgents makes n agents in a fixed mix of states (10 % dead, 20 % fleeing, 35 %
// attacking, 35 % patrolling), shuffled with a fixed seed so that neighbours take
// different paths. cycle is the length of a long action (0: never completes).
func NewAgents(n int, cycle uint8) []Agent {
	r := rand.New(rand.NewPCG(17, 2026))
	agents := make([]Agent, n)
	for i := range agents {
		a := &agents[i]
		a.Cycle = cycle
		a.HP, a.Ammo, a.EnemyDist = 100, 12, 30
		switch p := r.IntN(100); {
		case p < 10:
			a.State, a.HP = Dead, 0
		case p < 30:
			a.State, a.HP, a.Enemy, a.EnemyDist = Fleeing, 20, true, 5
		case p < 65:
			a.State, a.Enemy, a.EnemyDist = Attacking, true, 5
		default:
			a.State, a.Waypoint = Patrolling, true
		}
	}
	return agents
}

// path lists the leaves a tick that starts the tree visits in each state: the
// conditions up to the action that runs.
var path = [...][]int{
	Dead:       {Perceive, IsAlive},
	Fleeing:    {Perceive, IsAlive, LowHealth, Flee},
	Attacking:  {Perceive, IsAlive, LowHealth, EnemyVisible, InRange, HasAmmo, Shoot},
	Patrolling: {Perceive, IsAlive, LowHealth, EnemyVisible, HasWaypoint, Rested, Patrol},
}

// WantVisits is what an agent's leaves must have counted after ticks ticks. A reactive
// tree walks the whole path on every tick; a tree with memory walks it when it starts
// and then resumes the running action, so the conditions count once per action cycle.
func (a *Agent) WantVisits(reactive bool, ticks int) (v [NumLeaves]uint32) {
	p := path[a.State]
	starts := ticks // a reactive tree, or a dead agent's, walks the path on every tick
	if !reactive && a.State != Dead {
		starts = min(ticks, 1) // the action never completes
		if a.Cycle > 0 {
			starts = (ticks + int(a.Cycle) - 1) / int(a.Cycle)
		}
	}
	for _, l := range p {
		v[l] = uint32(starts)
	}
	if a.State != Dead {
		v[p[len(p)-1]] = uint32(ticks)
	}
	return v
}

// WantStatus is the status of an agent's tree on its tick-th tick (from 1).
func (a *Agent) WantStatus(tick int) Status {
	switch {
	case a.State == Dead:
		return Failure
	case a.Cycle > 0 && tick%int(a.Cycle) == 0:
		return Success
	}
	return Running
}
