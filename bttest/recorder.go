package bttest

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gobt/bt"
)

// Recorder makes scripted nodes, which answer the statuses a test gives them, and keeps
// a log of what happens to them, so that a test can say, step by step, which nodes were
// ticked, what they answered and which were halted. The zero value is ready to use. A
// Recorder belongs to the goroutine that ticks its trees.
type Recorder struct {
	log []string
}

// Leaf returns an action named name that answers the statuses of script in turn, one
// per tick, the last one repeating: "R R S" is Running twice, then Success. The letters
// are S (Success), F (Failure), R (Running), K (Skipped) and I (Idle, which no node may
// return: for tests of that). Each tick logs "name:" and the letter answered, each halt
// "name:halt". The spec has a model of its own: there is nothing to register.
func (r *Recorder) Leaf(name, script string) *bt.Spec {
	plan, err := parseScript(script)
	m := &bt.Model{ID: name, Kind: bt.KindAction, New: func(*bt.NodeConfig) (bt.Behavior, error) {
		return &leaf{name: name, plan: plan, r: r}, err
	}}
	return m.Spec()
}

// Stateful returns a stateful action (bt.NewStateful) named name whose OnStart and
// OnRunning answer the statuses of script in turn, as Leaf's ticks do. It logs
// "name:start>R" and "name:running>S" (the call and its answer) and "name:halted".
func (r *Recorder) Stateful(name, script string) *bt.Spec {
	plan, err := parseScript(script)
	m := bt.NewStateful(name, func() bt.StatefulAction { return &stateful{leaf{name: name, plan: plan, r: r}} })
	if err == nil {
		return m.Spec()
	}
	return (&bt.Model{ID: name, Kind: bt.KindAction, New: func(*bt.NodeConfig) (bt.Behavior, error) { return nil, err }}).Spec()
}

// Log adds an entry to the log, for a test's own nodes and hooks.
func (r *Recorder) Log(entry string) { r.log = append(r.log, entry) }

// Take returns the entries logged since the last call, separated by spaces.
func (r *Recorder) Take() string {
	s := strings.Join(r.log, " ")
	r.log = r.log[:0]
	return s
}

// Letter returns the letter of a status in scripts and logs: I, R, S, F or K.
func Letter(s bt.Status) string {
	if s == bt.Skipped {
		return "K"
	}
	if s > bt.Skipped {
		return s.String()
	}
	return s.String()[:1]
}

// States returns the stored status of every node of tree, in UID order, as letters
// separated by spaces: "R S I" (see Letter).
func States(tree *bt.Tree) string {
	var b []string
	for n := range tree.Nodes() {
		b = append(b, Letter(n.Status()))
	}
	return strings.Join(b, " ")
}

// parseScript reads the statuses of a script.
func parseScript(script string) ([]bt.Status, error) {
	var plan []bt.Status
	for _, f := range strings.Fields(script) {
		s, ok := map[string]bt.Status{"S": bt.Success, "F": bt.Failure, "R": bt.Running, "K": bt.Skipped, "I": bt.Idle}[f]
		if !ok {
			return nil, fmt.Errorf("bttest: %q is not a status letter (S, F, R, K or I)", f)
		}
		plan = append(plan, s)
	}
	if len(plan) == 0 {
		return nil, fmt.Errorf("bttest: the script %q has no status", script)
	}
	return plan, nil
}

// leaf is the behavior of a Recorder's Leaf.
type leaf struct {
	name string
	plan []bt.Status
	i    int
	r    *Recorder
}

// next returns the next status of the plan and logs it after what.
func (l *leaf) next(what string) bt.Status {
	s := l.plan[min(l.i, len(l.plan)-1)]
	l.i++
	l.r.Log(l.name + ":" + what + Letter(s))
	return s
}

func (l *leaf) Tick(*bt.Node) bt.Status { return l.next("") }

// SaveState saves the leaf's place in its script, so that a tree restored from a
// snapshot (bt.Tree.Restore) goes on with the next status.
func (l *leaf) SaveState(*bt.Node) ([]byte, error) {
	return strconv.AppendInt(nil, int64(l.i), 10), nil
}

func (l *leaf) RestoreState(_ *bt.Node, state []byte) error {
	i, err := strconv.Atoi(string(state))
	if err != nil || i < 0 {
		return fmt.Errorf("bttest: %q is not a place in a script", state)
	}
	l.i = i
	return nil
}

func (l *leaf) Halt(*bt.Node) { l.r.Log(l.name + ":halt") }

// stateful is the action of a Recorder's Stateful.
type stateful struct{ l leaf }

func (s *stateful) OnStart(*bt.Node) bt.Status   { return s.l.next("start>") }
func (s *stateful) OnRunning(*bt.Node) bt.Status { return s.l.next("running>") }
func (s *stateful) OnHalted(*bt.Node)            { s.l.r.Log(s.l.name + ":halted") }

func (s *stateful) SaveState(n *bt.Node) ([]byte, error) { return s.l.SaveState(n) }

func (s *stateful) RestoreState(n *bt.Node, state []byte) error { return s.l.RestoreState(n, state) }
