package proptest

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
)

// The blackboard entries the generated scripts use, and their first values. Scripts
// count in k (the post-conditions move it on, so pre-conditions change their minds),
// sw (a string, as Switch reads it) selects Switch cases, s f h count post-conditions
// and halts. The language has no %: conditions look at bits of k.
var entries = []struct {
	key string
	val blackboard.Value
}{{"k", blackboard.Int(0)}, {"sw", blackboard.String("0")}, {"s", blackboard.Int(0)}, {"f", blackboard.Int(0)}, {"h", blackboard.Int(0)}}

// gen makes random trees of every builtin node and of the world's scripted leaves.
type gen struct {
	r     *rand.Rand
	w     *world
	ids   []string // the builtin controls and decorators
	nodes int      // nodes made so far
	leafs int      // scripted leaves made so far
	subs  int      // subtrees made so far
	used  map[string]bool
	timed bool // a node waits on a timer
	// edit, when not nil, edits the tree as it is made (see reload.go): the tree is the
	// one of the seed but for the edits, which draw from a random source of their own.
	edit *editor
}

// maxNodes bounds a tree; maxLevels its depth.
const (
	maxNodes  = 40
	maxLevels = 6
)

// newGen returns the generator of seed's tree, drawing from r. One seed in four makes
// a tree of Sequences, Fallbacks and leaves only, whose observed changes the engine
// writes in runs (see bt's docs/architecture.md, "Observing"): so that Check compares
// those runs with the changes told one by one on many such trees.
func newGen(r *rand.Rand, w *world, seed uint64) *gen {
	g := &gen{r: r, w: w, used: map[string]bool{}}
	if seed%4 == 3 {
		g.ids = []string{"Sequence", "Fallback"}
		return g
	}
	for _, m := range bt.NewFactory().Models() {
		if k := m.Kind; k == bt.KindControl || k == bt.KindDecorator || k == bt.KindSubTree {
			g.ids = append(g.ids, m.ID)
		}
	}
	return g
}

// tree returns a random tree.
func (g *gen) tree() *bt.Spec { return g.node(0) }

func (g *gen) node(level int) *bt.Spec {
	g.nodes++
	var s *bt.Spec
	if level >= maxLevels || g.nodes >= maxNodes || level > 0 && g.r.IntN(8) <= level {
		s = g.leaf()
	} else {
		s = g.inner(g.ids[g.r.IntN(len(g.ids))], level)
	}
	id := s.Model().ID
	g.used[id] = true
	switch id {
	case "Timeout", "Delay", "Time", "Sleep", "TestNode":
		g.timed = true
	}
	s = g.conds(s)
	if g.edit != nil {
		s = g.edit.node(s)
	}
	return s
}

// kids returns n random children.
func (g *gen) kids(n, level int) []*bt.Spec {
	kids := make([]*bt.Spec, n)
	for i := range kids {
		kids[i] = g.node(level + 1)
	}
	return kids
}

// some returns between lo and hi random children (fewer when the tree is full).
func (g *gen) some(lo, hi, level int) []*bt.Spec {
	n := lo + g.r.IntN(hi-lo+1)
	if g.nodes >= maxNodes {
		n = lo
	}
	return g.kids(n, level)
}

// pick returns one of its arguments.
func pick[T any](g *gen, choices ...T) T { return choices[g.r.IntN(len(choices))] }

func (g *gen) ms() time.Duration { return time.Duration(pick(g, 0, 5, 10, 30)) * time.Millisecond }

func (g *gen) count() int { return pick(g, -1, 0, 1, 2, 3) }

// inner returns a control or decorator of type id, or a SubTree.
func (g *gen) inner(id string, level int) *bt.Spec {
	one := func() *bt.Spec { return g.node(level + 1) }
	switch id {
	case "Sequence":
		return bt.Sequence(g.some(1, 4, level)...)
	case "Fallback":
		return bt.Fallback(g.some(1, 4, level)...)
	case "AsyncSequence":
		return bt.AsyncSequence(g.some(1, 4, level)...)
	case "AsyncFallback":
		return bt.AsyncFallback(g.some(1, 4, level)...)
	case "SequenceWithMemory":
		return bt.SequenceWithMemory(g.some(1, 4, level)...)
	case "SequenceStar":
		m, _ := bt.NewFactory().Model(id)
		return m.Spec(g.some(1, 3, level)...)
	case "ReactiveSequence":
		return bt.ReactiveSequence(g.some(1, 3, level)...)
	case "ReactiveFallback":
		return bt.ReactiveFallback(g.some(1, 3, level)...)
	case "Parallel":
		kids := g.some(1, 4, level)
		n := len(kids)
		return bt.Parallel(pick(g, -1, -n, n, 1), pick(g, 1, -1, n), kids...)
	case "ParallelAll":
		kids := g.some(1, 4, level)
		return bt.ParallelAll(pick(g, -1, 1, len(kids)), kids...)
	case "IfThenElse":
		return bt.IfThenElse(g.some(2, 3, level)...)
	case "WhileDoElse":
		return bt.WhileDoElse(g.some(2, 3, level)...)
	case "TryCatch":
		return bt.TryCatch(g.r.IntN(2) == 0, g.some(2, 4, level)...)
	case "Switch2", "Switch3", "Switch4", "Switch5", "Switch6":
		n, _ := strconv.Atoi(id[len(id)-1:])
		cases := make([]string, n)
		for i := range cases {
			cases[i] = strconv.Itoa(i)
		}
		return bt.Switch("{sw}", cases, g.kids(n+1, level)...)
	case "Inverter":
		return bt.Inverter(one())
	case "Not":
		return bt.Not(one())
	case "ForceSuccess":
		return bt.ForceSuccess(one())
	case "ForceFailure":
		return bt.ForceFailure(one())
	case "ForceRunning":
		return bt.ForceRunning(one())
	case "Repeat":
		return bt.Repeat(pick(g, 0, 1, 2, 3), one()) // -1 over a synchronous child keeps TickOnce busy
	case "RetryUntilSuccessful":
		return bt.RetryUntilSuccessful(pick(g, 0, 1, 2, 3), one())
	case "KeepRunningUntilFailure":
		return bt.KeepRunningUntilFailure(one())
	case "RunOnce":
		return bt.RunOnce(g.r.IntN(2) == 0, one())
	case "Precondition":
		return bt.Precondition(pick(g, "(k & 3) != 0", "sw == '1'"), pick(g, bt.Failure, bt.Success, bt.Running, bt.Skipped), one())
	case "Timeout":
		return bt.Timeout(g.ms(), one())
	case "Delay":
		return bt.Delay(g.ms(), one())
	case "Time":
		return bt.Time(g.ms(), one()).With("decorate_when_child_ends", g.bool())
	case "Loop":
		inOne := g.r.IntN(3) == 0
		count := g.count()
		if inOne && count < 0 {
			count = 2
		}
		return bt.Loop(count, one()).With("in_one_tick", strconv.FormatBool(inOne)).With("decorate_when_child_ends", g.bool())
	case "LoopUntil":
		return bt.LoopUntil(g.count(), g.r.IntN(2) == 0, one()).With("decorate_when_child_ends", g.bool())
	case "Frames":
		return bt.Frames(g.count(), one()).With("decorate_when_child_ends", g.bool())
	case "CountLimit":
		return bt.CountLimit(g.count(), "(k & 7) == 0", one()).With("decorate_when_child_ends", g.bool())
	case "SuccessUntil":
		return bt.SuccessUntil(g.count(), one()).With("decorate_when_child_ends", g.bool())
	case "FailureUntil":
		return bt.FailureUntil(g.count(), one()).With("decorate_when_child_ends", g.bool())
	case "Log":
		return bt.Log("m", one()).With("level", "debug").With("decorate_when_child_ends", g.bool())
	case "LoopInt":
		return bt.LoopInt("1;2;3", "{li}", one()).With("if_empty", g.ifEmpty())
	case "LoopDouble":
		return bt.LoopDouble("1.5;2", "{ld}", one()).With("if_empty", g.ifEmpty())
	case "LoopString":
		return bt.LoopString("a;b", "{ls}", one()).With("if_empty", g.ifEmpty())
	case "LoopBool":
		return bt.LoopBool("true;false", "{lb}", one()).With("if_empty", g.ifEmpty())
	case "SkipUnlessUpdated":
		return bt.SkipUnlessUpdated(pick(g, "k", "sw"), one())
	case "WaitValueUpdate":
		return bt.WaitValueUpdate(pick(g, "k", "sw"), one())
	case "SubTree":
		g.subs++
		return bt.SubTree(fmt.Sprintf("Sub%d", g.subs), one()).AutoRemap(true)
	}
	panic(fmt.Sprintf("proptest: no way to generate a %s", id))
}

func (g *gen) bool() string { return strconv.FormatBool(g.r.IntN(2) == 0) }

func (g *gen) ifEmpty() string { return pick(g, "SUCCESS", "FAILURE", "SKIPPED") }

// leaf returns a builtin leaf or a scripted one.
func (g *gen) leaf() *bt.Spec {
	switch g.r.IntN(16) {
	case 0:
		return bt.AlwaysSuccess()
	case 1:
		return bt.AlwaysFailure()
	case 2:
		return bt.AlwaysRunning()
	case 3:
		return bt.Script(pick(g, "k += 1", "sw = '1'", "sw = '2'", "k += 2; sw = '0'"))
	case 4:
		return bt.ScriptCondition(pick(g, "(k & 1) == 0", "sw != '2'"))
	case 5:
		return pick(g, bt.SetBlackboard("tmp", "1"), bt.UnsetBlackboard("tmp"), bt.WasEntryUpdated(pick(g, "k", "sw")))
	case 6:
		return bt.Sleep(g.ms())
	case 7:
		return bt.TestNode(bt.TestNodeConfig{
			ReturnStatus: pick(g, bt.Success, bt.Failure, bt.Skipped, bt.Running),
			AsyncDelay:   g.ms(), PostScript: "k += 1"})
	case 8, 9:
		return g.stateful()
	case 10, 11, 12:
		return g.async()
	}
	return g.sync()
}

func (g *gen) name(kind string) string {
	g.leafs++
	return fmt.Sprintf("%s%d", kind, g.leafs)
}

// The scripted leaves fail with an error or a panic now and then (1 outcome in 15 or
// so), which stops the tick; the next tick or Halt must put things right.

func (g *gen) sync() *bt.Spec {
	l := &syncLeaf{w: g.w, name: g.name("Do"), s: script{plan: plan(g.r, 1+g.r.IntN(5), "SSSFFFRRRKKSFREY")}}
	if g.r.IntN(20) == 0 {
		l.s.plan = append(l.s.plan, 'P')
	}
	l = reuse(g.w.syncs, l.name, l)
	m := &bt.Model{ID: l.name, Kind: bt.KindAction, New: func(*bt.NodeConfig) (bt.Behavior, error) { return l, nil }}
	return m.Spec()
}

func (g *gen) stateful() *bt.Spec {
	l := &statefulLeaf{w: g.w, name: g.name("Act"), s: script{plan: plan(g.r, 1+g.r.IntN(6), "RRRRRSSSFFKE")}}
	l = reuse(g.w.statefuls, l.name, l)
	return bt.Stateful(l.name, func() bt.StatefulAction { return l })
}

func (g *gen) async() *bt.Spec {
	l := &asyncLeaf{w: g.w, name: g.name("Work"), s: script{plan: plan(g.r, 1+g.r.IntN(4), "SSSFFKWWE")}}
	if g.r.IntN(20) == 0 {
		l.s.plan = append(l.s.plan, 'P')
	}
	l = reuse(g.w.asyncs, l.name, l)
	return bt.NewAsyncAction(l.name, func() bt.AsyncAction { return l }).Spec()
}

// reuse returns the leaf of the world called name, or l, which it becomes: a tree made
// again in the same world (an edit of the tree, see reload.go) has the same leaves.
func reuse[L any](leaves map[string]*L, name string, l *L) *L {
	if old, ok := leaves[name]; ok {
		return old
	}
	leaves[name] = l
	return l
}

// conds gives a node pre- and post-conditions now and then.
func (g *gen) conds(s *bt.Spec) *bt.Spec {
	if g.r.IntN(6) != 0 {
		return s
	}
	h := condScripts[g.r.IntN(len(condScripts))]
	return s.Script(h.cond, h.code)
}

var condScripts = []struct {
	cond bt.Cond
	code string
}{
	{bt.SkipIf, "(k & 3) == 3"},
	{bt.FailureIf, "(k & 7) == 5"},
	{bt.SuccessIf, "(k & 7) == 6"},
	{bt.While, "(k & 7) != 4"},
	{bt.OnSuccess, "s += 1; k += 1"},
	{bt.OnFailure, "f += 1; k += 1"},
	{bt.Post, "k += 1"},
	{bt.OnHalted, "h += 1"},
	{bt.OnHalted, "nope = 1"}, // an error while halting
}

// usedBy returns the node types the tree of seed uses.
func usedBy(seed uint64) map[string]bool {
	g := newGen(rand.New(rand.NewPCG(seed, seed^pcgStream)), newWorld(), seed)
	g.tree()
	return g.used
}

// builtinIDs returns the IDs of every builtin node.
func builtinIDs() []string {
	var ids []string
	for _, m := range bt.NewFactory().Models() {
		ids = append(ids, m.ID)
	}
	return ids
}
