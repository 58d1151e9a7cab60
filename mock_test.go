package bt

import (
	"fmt"
	"strings"
	"testing"
)

// recorder makes scripted leaves that log what happens to them, so a test can assert,
// tick by tick, which nodes were ticked (and what they answered) and which were halted.
type recorder struct {
	log []string
}

// leaf returns a leaf named name that answers the statuses of script in turn, one per
// tick ("S F R K" = Success, Failure, Running, Skipped); the last one repeats.
func (r *recorder) leaf(name, script string) *Spec {
	var plan []Status
	for _, f := range strings.Fields(script) {
		plan = append(plan, map[string]Status{"S": Success, "F": Failure, "R": Running, "K": Skipped, "I": Idle}[f])
	}
	m := &Model{ID: name, Kind: KindAction, New: func(*Init) (Behavior, error) {
		return &mockLeaf{name: name, plan: plan, r: r}, nil
	}}
	return m.Spec()
}

// take returns the log since the last call, space-separated.
func (r *recorder) take() string {
	s := strings.Join(r.log, " ")
	r.log = r.log[:0]
	return s
}

type mockLeaf struct {
	name string
	plan []Status
	i    int
	r    *recorder
}

func (m *mockLeaf) Tick(*Node) Status {
	s := m.plan[min(m.i, len(m.plan)-1)]
	m.i++
	m.r.log = append(m.r.log, m.name+":"+statusLetter(s))
	return s
}

func (m *mockLeaf) Halt(*Node) { m.r.log = append(m.r.log, m.name+":halt") }

// step is one step of a tick table: a tick (or, with halt, a Tree.Halt), the status
// the tree returned, the recorder's log, and optionally the stored status of every
// node afterwards in UID order ("R S I": Running, Success, Idle).
type step struct {
	want   Status
	log    string
	states string
	halt   bool
}

// runSteps performs the steps on tree, ticking exactly once or with TickOnce.
// With a shadow, it also checks after each step that the tree's observers heard of
// every change.
func runSteps(t *testing.T, tree *Tree, r *recorder, exactly bool, steps []step, sh ...*shadow) {
	t.Helper()
	for i, st := range steps {
		var got Status
		var err error
		switch {
		case st.halt:
			err = tree.Halt()
		case exactly:
			got, err = tree.TickExactlyOnce()
		default:
			got, err = tree.TickOnce()
		}
		if err != nil {
			t.Fatalf("step %d: %v", i+1, err)
		}
		log := r.take()
		if got != st.want || log != st.log {
			t.Errorf("step %d: got %v [%s], want %v [%s]", i+1, got, log, st.want, st.log)
		}
		if st.states != "" {
			if s := states(tree); s != st.states {
				t.Errorf("step %d: node states %q, want %q", i+1, s, st.states)
			}
		}
		for _, sh := range sh {
			sh.check(t, tree, i+1)
		}
	}
}

// shadow follows a tree's statuses through the events its observers get. Controls keep
// two paths, one that stores statuses and one that tells observers too; a shadow
// checks that the second agrees with the first.
type shadow struct {
	seen map[*Node]Status
	errs []string
}

// watch subscribes a shadow to tree.
func watch(tree *Tree) *shadow {
	sh := &shadow{seen: map[*Node]Status{}}
	tree.Subscribe(func(ev StatusChange) {
		if prev := sh.seen[ev.Node]; prev != ev.Previous {
			sh.errs = append(sh.errs, fmt.Sprintf("%s: %v → %v, but it was %v", ev.Node.Path(), ev.Previous, ev.Status, prev))
		}
		if ev.Status == ev.Previous {
			sh.errs = append(sh.errs, fmt.Sprintf("%s: %v → %v is no change", ev.Node.Path(), ev.Previous, ev.Status))
		}
		sh.seen[ev.Node] = ev.Status
	})
	return sh
}

// check reports events that did not follow from the previous ones, and nodes whose
// status the observers were not told of.
func (sh *shadow) check(t *testing.T, tree *Tree, step int) {
	t.Helper()
	for _, e := range sh.errs {
		t.Errorf("step %d: observed %s", step, e)
	}
	sh.errs = nil
	for n := range tree.Nodes() {
		if n.Status() != sh.seen[n] {
			t.Errorf("step %d: %s is %v, observers were told %v", step, n.Path(), n.Status(), sh.seen[n])
		}
	}
}

// states lists the stored status of every node in UID order, one letter each.
func states(tree *Tree) string {
	var b []string
	for n := range tree.Nodes() {
		b = append(b, statusLetter(n.Status()))
	}
	return strings.Join(b, " ")
}

// statusLetter is the letter the recorder logs for a status.
func statusLetter(s Status) string {
	if s == Skipped {
		return "K"
	}
	return s.String()[:1]
}
