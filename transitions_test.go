package bt_test

import (
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
	"github.com/gobt/bt/bttest"
)

// TestTransitions runs trees and compares every status change their observers hear of
// (Tree.Subscribe), tick by tick, with a golden file NAME.transitions beside NAME.xml
// (go test -run TestTransitions -update rewrites them):
//
//   - testdata/catalogue.xml uses every builtin node, the behaviac family included
//     (TestCatalogueTree checks that it does);
//   - testdata/transitions/*.xml put decorators and SubTree in the situations where the
//     order of changes matters: a child that runs and then completes, is halted, or is
//     skipped, under each kind of control.
//
// Each stream is also checked against the decorator rule (see checkDecoratorOrder), so
// that a golden file cannot be updated into a wrong order unnoticed.
func TestTransitions(t *testing.T) {
	files, err := filepath.Glob("testdata/transitions/*.xml")
	if err != nil || len(files) == 0 {
		t.Fatal("no test files", err)
	}
	for _, file := range append([]string{"testdata/catalogue.xml"}, files...) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			bttest.Golden(t, strings.TrimSuffix(file, ".xml")+".transitions", transitions(t, file), *update)
		})
	}
}

// transitions runs the main tree of file with TickOnce, the clock moving 50 ms after
// each tick, until the root completes (or, after 100 ticks, halts it), and returns the
// changes as `bt run --log` prints them: "PATH: PREV -> NEW", and "tick N STATUS".
//
// It runs the tree twice: heard change by change (Subscribe, which checks the
// decorator rule), then in batches alone (SubscribeBatch, where Sequence and Fallback
// write their changes in runs: see sequence.tickLeaves); both must hear the same.
func transitions(t *testing.T, file string) string {
	t.Helper()
	tree, clock := transitionTree(t, file)
	tree.Subscribe(checkDecoratorOrder(t, tree))
	each := bttest.RunTrace(t, tree, clock, 50*time.Millisecond, 100)
	tree, clock = transitionTree(t, file)
	if batched := bttest.RunTrace(t, tree, clock, 50*time.Millisecond, 100); batched != each {
		t.Errorf("heard in batches, the changes differ from those heard one by one:\n%s", bttest.LineDiff(each, batched))
	}
	return each
}

// transitionTree builds the main tree of file, with a clock of its own.
func transitionTree(t *testing.T, file string) (*Tree, *bttest.Clock) {
	t.Helper()
	f := NewFactory()
	if err := f.Register(userPass); err != nil {
		t.Fatal(err)
	}
	if err := f.LoadFile(file); err != nil {
		t.Fatal(err)
	}
	clock := bttest.NewClock(epoch)
	tree, err := f.NewTree("", WithClock(clock), WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	if err != nil {
		t.Fatal(err)
	}
	return tree, clock
}

// checkDecoratorOrder returns an observer that checks the order BehaviorTree.CPP gives
// a decorator's changes: when a builtin decorator (or a SubTree) ends a tick, its
// completed child was reset to Idle before the decorator's own change, since the
// reference resets the child inside the decorator's tick; SkipUnlessUpdated,
// WaitValueUpdate and user decorators leave that reset to the engine, which does it
// right after their change. Either way no decorator's child stays completed past it.
func checkDecoratorOrder(t *testing.T, tree *Tree) func(StatusChange) {
	status := map[*Node]Status{}
	var pending *Node // a decorator whose child must be reset by the next change
	return func(ev StatusChange) {
		t.Helper()
		n := ev.Node
		if pending != nil {
			if c := pending.Child(0); n != c || ev.Status != Idle {
				t.Errorf("%s: %v -> %v, but %s's completed child %s was not reset first",
					n.Path(), ev.Previous, ev.Status, pending.Path(), c.Path())
			}
			pending = nil
		}
		status[n] = ev.Status
		if k := n.Kind(); (k != KindDecorator && k != KindSubTree) || ev.Status == Idle {
			return
		}
		if !status[n.Child(0)].Completed() {
			return
		}
		switch n.ID() {
		case "SkipUnlessUpdated", "WaitValueUpdate", userPass.ID:
			pending = n
		default:
			t.Errorf("%s: %v -> %v while its child %s is still %v", n.Path(), ev.Previous, ev.Status,
				n.Child(0).Path(), status[n.Child(0)])
		}
	}
}

// userPass is a user decorator that returns its child's status: the engine resets
// the child after storing the decorator's status, as BehaviorTree.CPP's
// DecoratorNode::executeTick does.
var userPass = &Model{ID: "UserPass", Kind: KindDecorator, New: func(*NodeConfig) (Behavior, error) {
	return passBehavior{}, nil
}}

type passBehavior struct{}

func (passBehavior) Tick(n *Node) Status { return n.Child(0).Tick() }

// A control that went Running and returned Skipped (here a Sequence whose only child is
// skipped) is Idle for the engine at once: when its parent completes, observers hear of
// its RUNNING -> IDLE, as BehaviorTree.CPP's do, but it is not halted (BehaviorTree.CPP
// halts it, and runs its _onHalted script).
func TestSkippedIsNotHalted(t *testing.T) {
	r := &bttest.Recorder{}
	clock := bttest.NewClock(epoch)
	tree := mustTree(t, Sequence(
		Script("h := 0"),
		Sequence(r.Leaf("Skipped", "K")).Named("Skipping").Script(OnHalted, "h += 1"),
		r.Leaf("Runner", "R S"),
	), WithClock(clock))
	got := bttest.RunTrace(t, tree, clock, time.Millisecond, 10)
	want := `Sequence::1: IDLE -> RUNNING
Script::2: IDLE -> SUCCESS
Skipping: IDLE -> RUNNING
Runner::5: IDLE -> RUNNING
tick 1 RUNNING
Runner::5: RUNNING -> SUCCESS
Script::2: SUCCESS -> IDLE
Skipping: RUNNING -> IDLE
Runner::5: SUCCESS -> IDLE
Sequence::1: RUNNING -> SUCCESS
Sequence::1: SUCCESS -> IDLE
tick 2 SUCCESS
`
	if got != want {
		t.Errorf("stream:\n%s\nwant:\n%s", got, want)
	}
	if h, err := blackboard.Get[int](tree.Blackboard().Entry("h")); err != nil || h != 0 {
		t.Errorf("h = %v, %v: the _onHalted script of the skipped Sequence ran", h, err)
	}
	if log := r.Take(); log != "Skipped:K Runner:R Runner:S" {
		t.Errorf("log %q", log)
	}
}

// userSequence is a Sequence written as a user writes a control, going Running before
// it ticks its children when mark is set (Node.MarkRunning).
type userSequence struct {
	mark bool
	i    int
}

func (s *userSequence) Tick(n *Node) Status {
	if s.mark {
		n.MarkRunning()
	}
	for ; s.i < n.NumChildren(); s.i++ {
		switch n.Child(s.i).Tick() {
		case Running:
			return Running
		case Failure:
			s.Halt(n)
			return Failure
		}
	}
	s.Halt(n)
	return Success
}

// Halt resets the children, as BehaviorTree.CPP's resetChildren does when a control
// completes (the engine does it too when the node is halted).
func (s *userSequence) Halt(n *Node) {
	for j := range n.NumChildren() {
		n.Child(j).Halt()
	}
	s.i = 0
}

// TestUserControlMarkRunningReset: a user's control that calls MarkRunning stores its
// own status; the Sequence above it, whatever the child's place, resets it when it
// completes, as it resets a decorator (it once cleared only its first child's byte, and
// the control stayed Running between ticks).
func TestUserControlMarkRunningReset(t *testing.T) {
	user := &Model{ID: "UserSequence", Kind: KindControl, New: func(*NodeConfig) (Behavior, error) { return &userSequence{mark: true}, nil }}
	for i, spec := range []*Spec{
		Sequence(AlwaysSuccess(), user.Spec(AlwaysSuccess())),
		Sequence(user.Spec(AlwaysSuccess()), AlwaysSuccess()),
		Fallback(AlwaysFailure(), user.Spec(AlwaysFailure()), AlwaysFailure()),
	} {
		tree := mustTree(t, spec)
		for tick := range 2 {
			if _, err := tree.TickOnce(); err != nil {
				t.Fatal(err)
			}
			for n := range tree.Nodes() {
				if n.Status() != Idle {
					t.Errorf("tree %d, tick %d: %s is %v after the tree completed", i, tick+1, n.Path(), n.Status())
				}
			}
		}
	}
}

// TestUserControlMarkRunning: a control written by a user that calls MarkRunning
// first makes the same changes, in the same order, as the builtin Sequence; without
// it, its own change comes after its children's.
func TestUserControlMarkRunning(t *testing.T) {
	run := func(seq func(kids ...*Spec) *Spec) string {
		clock := bttest.NewClock(epoch)
		tree, err := NewTree(seq(AlwaysSuccess(), TestNode(TestNodeConfig{AsyncDelay: 100 * time.Millisecond}).Named("work"),
			AlwaysSuccess()).Named("seq"), WithClock(clock))
		if err != nil {
			t.Fatal(err)
		}
		return bttest.RunTrace(t, tree, clock, 50*time.Millisecond, 10)
	}
	user := func(mark bool) func(kids ...*Spec) *Spec {
		m := &Model{ID: "UserSequence", Kind: KindControl, New: func(*NodeConfig) (Behavior, error) { return &userSequence{mark: mark}, nil }}
		return m.Spec
	}
	want := run(Sequence)
	if got := run(user(true)); got != want {
		t.Errorf("a user's Sequence that calls MarkRunning:\n%s\nthe builtin Sequence:\n%s", got, want)
	}
	if got := run(user(false)); got == want || !strings.HasPrefix(got, "AlwaysSuccess::2: IDLE -> SUCCESS") {
		t.Errorf("a user's Sequence without MarkRunning goes Running before its children:\n%s", got)
	}
}
