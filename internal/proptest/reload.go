package proptest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gobt/bt"
)

// CheckReload checks Tree.Reload on the tree of seed: between random steps it reloads
// the tree with a random edit of its definition — the tree of the seed made again in
// the same world of leaves, with some nodes given a pre/post condition, renamed,
// replaced by a leaf, wrapped in a decorator or given another port value — and checks
// after each reload that:
//
//   - the report and the statuses follow the matching rule of the package doc
//     ("Hot reload"), computed here from the trees' public API: a node keeps its old
//     status when it kept its state (or a StateSaver carried it), else it is Idle; the
//     old Running nodes that did not carry over are the ones halted;
//   - the leaves saw no halt missed or doubled: a stateful action is never started
//     while running nor halted when not (the world checks), an async action's work
//     runs only while its node runs, and none is left when its node went away;
//   - and all of Check's invariants, after every step, under an observer, to the
//     final Halt; the synctest bubble fails on a goroutine left behind.
func CheckReload(t *testing.T, seed uint64) {
	t.Helper()
	synctest.Test(t, func(t *testing.T) {
		t.Helper()
		r := rand.New(rand.NewPCG(seed, seed^pcgStream))
		d := newDriver(t, seed, r)
		if d == nil {
			return
		}
		d.watch()
		d.restored = true // the observer's counts are by node, which reloads replace
		for i := range 15 + r.IntN(30) {
			if r.IntN(4) == 0 {
				d.reload(i, r)
			} else {
				d.step(i, r)
			}
			if d.failed {
				break
			}
		}
		d.finish(true)
	})
}

// reload reloads the tree with an edit of the seed's tree drawn from r, and checks the
// result against the rule.
func (d *driver) reload(i int, r *rand.Rand) {
	d.t.Helper()
	g := newGen(rand.New(rand.NewPCG(d.seed, d.seed^pcgStream)), d.w, d.seed)
	g.edit = &editor{r: rand.New(rand.NewPCG(r.Uint64(), 0)), rate: 1 + r.IntN(8)}
	spec := g.tree()
	old := describe(d.tree)
	async := map[string]bool{}
	for name := range d.w.asyncs {
		async[name] = true
	}
	rep, err := d.tree.ReloadSpec(spec)
	synctest.Wait()
	if rep != nil {
		d.findNodes()
		d.rewatch()
	}
	d.do(fmt.Sprintf("%d Reload (%d edits): %v", i, g.edit.n, err), nil)
	if rep == nil { // refused: the tree is as it was
		if err == nil || !strings.Contains(err.Error(), "halt it first") {
			d.fail("the reload failed: %v", err)
		}
		if now := describe(d.tree); !slices.Equal(now, old) {
			d.fail("a refused reload changed the tree")
		}
		return
	}
	d.timed = d.timed || g.timed
	d.checkRule(old, describe(d.tree), rep, async)
}

// editor edits the nodes of a tree as the generator makes them, one in rate.
type editor struct {
	r    *rand.Rand
	rate int
	n    int // edits made
}

func (e *editor) node(s *bt.Spec) *bt.Spec {
	if e.r.IntN(e.rate) != 0 {
		return s
	}
	e.n++
	switch e.r.IntN(6) {
	case 0: // its definition changes: it is rebuilt, or its StateSaver carries its state
		return s.Script(bt.Post, "k += 0")
	case 1: // its key changes: removed, and another added
		if s.Model().ID == "SubTree" || strings.HasPrefix(s.Model().ID, "Act") || strings.HasPrefix(s.Model().ID, "Work") || strings.HasPrefix(s.Model().ID, "Do") {
			return bt.ForceFailure(s) // (a leaf's name finds it; a SubTree's ID is its tree)
		}
		return s.Named(fmt.Sprintf("Edited%d", e.r.IntN(2)))
	case 2: // replaced by a leaf: what was under it goes away
		return bt.Script("k += 1")
	case 3: // moved under a new parent
		return bt.ForceSuccess(s)
	case 4:
		if s.Model().ID == "Sleep" {
			return bt.Sleep(7 * time.Millisecond)
		}
		return s
	}
	e.n--
	return s
}

// shape is what the rule reads of a node: its key, its definition, its children's keys.
type shape struct {
	key, print, kids, path string
	leaf, id               string // the ID of a scripted leaf ("" for the rest)
	status                 bt.Status
	parent                 int // the index of its parent in the description; -1: the root
}

// describe returns the shapes of the tree's nodes, parents first.
func describe(t *bt.Tree) []shape {
	var out []shape
	var walk func(n *bt.Node, parent int, key string)
	walk = func(n *bt.Node, parent int, key string) {
		sp := n.Spec()
		typ := n.ID()
		if id := sp.SubTreeID(); id != "" {
			typ = id
		}
		var ports []string
		for p, v := range sp.Ports() {
			ports = append(ports, p+"="+v)
		}
		slices.Sort(ports)
		var conds []string
		for h := bt.FailureIf; h <= bt.OnHalted; h++ {
			if code, ok := sp.CondScript(h); ok {
				conds = append(conds, h.String()+":"+code)
			}
		}
		me := len(out)
		sh := shape{key: key, path: n.Path(), status: n.Status(), parent: parent,
			print: fmt.Sprint(typ, "|", n.Name(), "|", n.NumChildren(), "|", ports, "|", conds)}
		if n.NumChildren() == 0 && n.Behavior() != nil {
			sh.leaf = n.ID()
		}
		out = append(out, sh)
		ranks := map[string]int{}
		var kids []string
		for i := range n.NumChildren() {
			c := n.Child(i)
			ctyp := c.ID()
			if id := c.Spec().SubTreeID(); id != "" {
				ctyp = id
			}
			step := ctyp + "|" + c.Name()
			ck := fmt.Sprintf("%s/%s#%d", key, step, ranks[step])
			ranks[step]++
			kids = append(kids, ck)
			walk(c, me, ck)
		}
		out[me].kids = strings.Join(kids, " ")
	}
	root := t.Root()
	walk(root, -1, "/"+root.ID()+"|"+root.Name()+"#0")
	return out
}

// checkRule checks a reload from the tree old to the tree now against the rule.
// async names the async actions, whose work under way no StateSaver carries.
func (d *driver) checkRule(old, now []shape, rep *bt.ReloadReport, async map[string]bool) {
	d.t.Helper()
	byKey := map[string]int{}
	for i, o := range old {
		byKey[o.key] = i
	}
	kept := make([]bool, len(now))
	carried := make([]bool, len(now))
	keptOld := make([]bool, len(old))
	count := 0
	for i, n := range now {
		j, ok := byKey[n.key]
		parentKept := n.parent < 0 || kept[n.parent]
		if !ok {
			continue
		}
		o := old[j]
		if o.print == n.print && o.kids == n.kids && parentKept {
			kept[i], keptOld[j] = true, true
			count++
			if n.status != o.status {
				d.fail("after a reload: %s kept its state but is %v, it was %v", n.path, n.status, o.status)
			}
			continue
		}
		if parentKept && n.leaf != "" && n.leaf == o.leaf && !(async[n.leaf] && o.status == bt.Running) {
			carried[i], keptOld[j] = true, true
			if n.status != o.status {
				d.fail("after a reload: %s carried its state but is %v, it was %v", n.path, n.status, o.status)
			}
			continue
		}
		if n.status != bt.Idle {
			d.fail("after a reload: %s is new but %v", n.path, n.status)
		}
	}
	for i, n := range now {
		if _, ok := byKey[n.key]; !ok && n.status != bt.Idle {
			d.fail("after a reload: %s was added but is %v", now[i].path, n.status)
		}
	}
	var halted []string
	for j, o := range old {
		if o.status == bt.Running && !keptOld[j] {
			halted = append(halted, o.path)
		}
	}
	if rep.Kept != count {
		d.fail("after a reload: %d nodes kept their state, the rule says %d", rep.Kept, count)
	}
	if !slices.Equal(rep.Halted, halted) {
		d.fail("after a reload: halted %q, the rule says %q", rep.Halted, halted)
	}
}
