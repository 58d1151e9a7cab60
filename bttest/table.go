package bttest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
)

// A Case is a tick table: a tree, built from a Recorder's scripted nodes and the nodes
// under test, and the steps it goes through. Each step is a tick (or a halt) with the
// status it must return, what the Recorder must log meanwhile and, if given, the status
// every node must hold afterwards.
type Case struct {
	Name string
	// Tree returns the tree's definition; it is called for each run of the case.
	Tree func(r *Recorder) *bt.Spec
	// Only is the tick method to run the case with; zero runs it with both, and the
	// steps must hold for both (for a tree whose nodes do not yield).
	Only    Method
	Options []bt.Option // more options for bt.NewTree, after the Case's clock
	Steps   []Step
}

// Method is a tick method of bt.Tree.
type Method uint8

const (
	TickOnce        Method = iota + 1 // Tree.TickOnce: re-ticks while a node yields
	TickExactlyOnce                   // Tree.TickExactlyOnce: each yield is a step
)

func (m Method) String() string {
	if m == TickExactlyOnce {
		return "TickExactlyOnce"
	}
	return "TickOnce"
}

// Step is one step of a tick table (see Tick and Halt).
type Step struct {
	Halt    bool          // Tree.Halt instead of a tick
	Want    bt.Status     // the status the tick returns
	Err     string        // the step's error contains this ("": it returns none)
	Log     string        // what the Recorder logged during the step (Recorder.Take)
	States  string        // the statuses of the nodes after the step (States); "": unchecked
	Advance time.Duration // how far the clock moves before the step
	// Before runs before the step, once the clock moved; Check after the step's
	// checks.
	Before, Check func(t *testing.T, tree *bt.Tree)
}

// Tick is a step that ticks the tree, which must return want while the Recorder logs
// log and leave its nodes with the statuses states ("": unchecked).
func Tick(want bt.Status, log, states string) Step {
	return Step{Want: want, Log: log, States: states}
}

// Halt is a step that halts the tree (Tree.Halt), while the Recorder logs log; the
// nodes are left with the statuses states ("": unchecked).
func Halt(log, states string) Step { return Step{Halt: true, Log: log, States: states} }

// After returns the step with the clock moved on by d before it.
func (s Step) After(d time.Duration) Step {
	s.Advance = d
	return s
}

// First returns the step with f to run before it, after what it ran before already.
func (s Step) First(f func(t *testing.T, tree *bt.Tree)) Step {
	s.Before = chain(s.Before, f)
	return s
}

// Then returns the step with check to run after it, after its other checks.
func (s Step) Then(check func(t *testing.T, tree *bt.Tree)) Step {
	s.Check = chain(s.Check, check)
	return s
}

// Fails returns the step with the error it must return: one that contains text.
func (s Step) Fails(text string) Step {
	s.Err = text
	return s
}

func chain(f, g func(*testing.T, *bt.Tree)) func(*testing.T, *bt.Tree) {
	if f == nil {
		return g
	}
	return func(t *testing.T, tree *bt.Tree) {
		t.Helper()
		f(t, tree)
		g(t, tree)
	}
}

// Assign writes v to the blackboard entry key, as a script's := does: for a step's
// First.
func Assign(key string, v blackboard.Value) func(t *testing.T, tree *bt.Tree) {
	return func(t *testing.T, tree *bt.Tree) {
		t.Helper()
		if err := tree.Blackboard().Entry(key).Assign(v); err != nil {
			t.Fatalf("%s := %v: %v", key, v, err)
		}
	}
}

// EntryIs checks that the blackboard entry key holds want, as text ("" for an entry
// that does not exist or holds no value): for a step's Then.
func EntryIs(key, want string) func(t *testing.T, tree *bt.Tree) {
	return func(t *testing.T, tree *bt.Tree) {
		t.Helper()
		got := ""
		if e, ok := tree.Blackboard().Lookup(key); ok {
			if v := e.Load(); v.Kind() == blackboard.KindString {
				got = v.Str()
			} else {
				got = v.String()
			}
		}
		if got != want {
			t.Errorf("entry %q = %q, want %q", key, got, want)
		}
	}
}

// epoch is where the clock of a Case starts.
var epoch = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// Run runs every case as a subtest for each tick method it allows, each three times:
// without observers, with an Observer that checks what the tree tells, and restored
// from a snapshot before every step — the tree is saved (bt.Tree.Snapshot), encoded,
// read back and restored into a tree built anew from the case's definition, which
// takes the step (see PlayRestored): the steps must hold all the same. Each run
// builds the case's tree afresh, with a new Recorder and a new Clock, which it gives
// the tree (bt.WithClock) before the case's Options.
func Run(t *testing.T, cases []Case) {
	t.Helper()
	for _, c := range cases {
		methods := []Method{TickOnce, TickExactlyOnce}
		if c.Only != 0 {
			methods = []Method{c.Only}
		}
		for _, m := range methods {
			for _, mode := range []string{"", "/observed", "/restored"} {
				t.Run(c.Name+"/"+m.String()+mode, func(t *testing.T) {
					r := &Recorder{}
					opts := append([]bt.Option{bt.WithClock(NewClock(epoch))}, c.Options...)
					build := func() *bt.Tree {
						t.Helper()
						tree, err := bt.NewTree(c.Tree(r), opts...)
						if err != nil {
							t.Fatal(err)
						}
						return tree
					}
					switch mode {
					case "":
						Play(t, build(), r, m, c.Steps)
					case "/observed":
						tree := build()
						Play(t, tree, r, m, c.Steps, Observe(t, tree))
					default:
						PlayRestored(t, build, r, m, c.Steps)
					}
				})
			}
		}
	}
}

// Play performs the steps on tree, ticking it with method m, and checks each as it
// goes: the status and the error the step returned, what r logged (r may be nil when
// no step expects a log), the nodes' statuses, and what each of the observers obs saw.
// A step that moves the clock needs a tree whose clock is a *Clock.
func Play(t *testing.T, tree *bt.Tree, r *Recorder, m Method, steps []Step, obs ...*Observer) {
	t.Helper()
	play(t, tree, nil, r, m, steps, obs)
}

// PlayRestored is Play on trees made by build, with the tree saved and restored
// before every step: a snapshot of it (in JSON and in binary, in turn) is read back
// and restored into a new tree from build, which takes the step, and the old tree is
// halted (what its halt logs is not the step's). build must make its trees with the
// same Recorder, and clock, and from the same definition; the leaves of a Recorder
// keep their places in their scripts across a restore.
func PlayRestored(t *testing.T, build func() *bt.Tree, r *Recorder, m Method, steps []Step) {
	t.Helper()
	play(t, build(), build, r, m, steps, nil)
}

func play(t *testing.T, tree *bt.Tree, build func() *bt.Tree, r *Recorder, m Method, steps []Step, obs []*Observer) {
	t.Helper()
	if r == nil {
		r = &Recorder{}
	}
	for i, st := range steps {
		if build != nil {
			tree = restored(t, tree, build, r, i%2 == 1)
		}
		if st.Advance != 0 {
			clock, ok := tree.Clock().(*Clock)
			if !ok {
				t.Fatalf("step %d moves the clock, but the tree's clock is a %T, not a *bttest.Clock", i+1, tree.Clock())
			}
			clock.Advance(st.Advance)
		}
		if st.Before != nil {
			st.Before(t, tree)
		}
		var got bt.Status
		var err error
		switch {
		case st.Halt:
			err = tree.Halt()
		case m == TickExactlyOnce:
			got, err = tree.TickExactlyOnce()
		default:
			got, err = tree.TickOnce()
		}
		switch {
		case st.Err == "" && err != nil:
			t.Fatalf("step %d: %v", i+1, err)
		case st.Err != "" && (err == nil || !strings.Contains(err.Error(), st.Err)):
			t.Fatalf("step %d: error %v, want one that contains %q", i+1, err, st.Err)
		}
		log := r.Take()
		if got != st.Want || log != st.Log {
			t.Errorf("step %d: got %v [%s], want %v [%s]", i+1, got, log, st.Want, st.Log)
		}
		if st.States != "" {
			if s := States(tree); s != st.States {
				t.Errorf("step %d: node states %q, want %q", i+1, s, st.States)
			}
		}
		for _, o := range obs {
			o.check(t, fmt.Sprintf("step %d", i+1), st.Halt)
		}
		if st.Check != nil {
			st.Check(t, tree)
		}
	}
}

// Observer follows the statuses of a tree's nodes through the changes the tree tells
// its observers (bt.Tree.Subscribe), to check that they agree with what the nodes
// store: observed or not, a tree must go through the same statuses.
type Observer struct {
	tree *bt.Tree
	seen map[*bt.Node]bt.Status
	errs []string
}

// Observe subscribes an Observer to tree until the test ends.
func Observe(t *testing.T, tree *bt.Tree) *Observer {
	o := &Observer{tree: tree, seen: map[*bt.Node]bt.Status{}}
	t.Cleanup(tree.Subscribe(func(ev bt.StatusChange) {
		if prev := o.seen[ev.Node]; prev != ev.Previous {
			o.errs = append(o.errs, fmt.Sprintf("%s: %v → %v, but it was %v", ev.Node.Path(), ev.Previous, ev.Status, prev))
		}
		if ev.Status == ev.Previous {
			o.errs = append(o.errs, fmt.Sprintf("%s: %v → %v is no change", ev.Node.Path(), ev.Previous, ev.Status))
		}
		o.seen[ev.Node] = ev.Status
	}))
	return o
}

// Check reports what went wrong since the last check: a change whose previous status
// is not the one told last, a change to the same status, a node whose status changed
// untold.
func (o *Observer) Check(t *testing.T) {
	t.Helper()
	o.check(t, "after the step", false)
}

// A node that returned Skipped after it was marked Running (a control or decorator
// whose children were all skipped) is Idle, but observers see it Running until it is
// reset, as BehaviorTree.CPP's observers do: that disagreement is allowed, except after
// a halt, which resets every node.
func (o *Observer) check(t *testing.T, at string, halted bool) {
	t.Helper()
	for _, e := range o.errs {
		t.Errorf("%s: observed %s", at, e)
	}
	o.errs = nil
	for n := range o.tree.Nodes() {
		if s := n.Status(); s != o.seen[n] && (halted || s != bt.Idle || o.seen[n] != bt.Running) {
			t.Errorf("%s: %s is %v, observers were told %v", at, n.Path(), n.Status(), o.seen[n])
		}
	}
}

// restored saves tree, restores the snapshot into a new tree from build, halts tree
// and returns the new one. What the halt logs is dropped.
func restored(t *testing.T, tree *bt.Tree, build func() *bt.Tree, r *Recorder, binary bool) *bt.Tree {
	t.Helper()
	fresh := build()
	SaveRestore(t, tree, fresh, binary)
	log := r.log
	r.log = nil
	tree.Halt() // its timers stop; its work ends
	r.log = log
	return fresh
}

// SaveRestore saves tree (bt.Tree.Snapshot), encodes the snapshot in binary or as
// JSON, reads it back and restores it into into, an idle tree of the same definition,
// failing t at any error; it returns the snapshot read back. Tests of nodes that
// implement bt.StateSaver use it to check that their state comes back.
func SaveRestore(t testing.TB, tree, into *bt.Tree, binary bool) *bt.Snapshot {
	t.Helper()
	snap, err := tree.Snapshot()
	if err != nil {
		t.Fatalf("Snapshot: %v", err)
	}
	data, err := snap.MarshalJSON()
	if binary {
		data, err = snap.MarshalBinary()
	}
	if err != nil {
		t.Fatalf("encoding the snapshot: %v", err)
	}
	saved, err := bt.ReadSnapshot(data)
	if err != nil {
		t.Fatalf("ReadSnapshot: %v", err)
	}
	if err := into.Restore(saved); err != nil {
		t.Fatalf("Restore: %v", err)
	}
	return saved
}
