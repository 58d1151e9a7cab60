package bttest_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
	"github.com/gobt/bt/bttest"
)

func TestRun(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "a running child is halted when the condition fails", Tree: func(r *bttest.Recorder) *bt.Spec {
			return bt.ReactiveSequence(r.Leaf("Cond", "S F"), r.Leaf("Work", "R"))
		}, Steps: []bttest.Step{
			bttest.Tick(bt.Running, "Cond:S Work:R", "R I R"),
			bttest.Tick(bt.Failure, "Cond:F Work:halt", "I I I"),
		}},
		{Name: "halt, clock, blackboard", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *bt.Spec {
			return bt.Sequence(bt.Timeout(100*time.Millisecond, r.Stateful("A", "R")), bt.Script("done := x"))
		}, Steps: []bttest.Step{
			bttest.Tick(bt.Running, "A:start>R", "R R R I"),
			bttest.Halt("A:halted", "I I I I"),
			bttest.Tick(bt.Running, "A:start>R", "R R R I"),
			bttest.Tick(bt.Failure, "A:halted", "I I I I").After(100 * time.Millisecond),
			bttest.Tick(bt.Running, "A:start>R", "").First(bttest.Assign("x", blackboard.Int(2))),
		}},
		{Name: "an error", Tree: func(r *bttest.Recorder) *bt.Spec {
			return bt.Sequence(r.Leaf("A", "S"), bt.Script("y := nope"))
		}, Steps: []bttest.Step{bttest.Tick(bt.Idle, "A:S", "").Fails(`"nope" does not exist`)}},
		{Name: "yields", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *bt.Spec {
			return bt.AsyncSequence(r.Leaf("A", "S"), r.Leaf("B", "S"))
		}, Steps: []bttest.Step{
			bttest.Tick(bt.Running, "A:S", "R S I"),
			bttest.Tick(bt.Success, "B:S", "I I I").Then(bttest.EntryIs("none", "")),
		}},
	})
}

func TestScriptLetters(t *testing.T) {
	r := &bttest.Recorder{}
	for _, s := range []*bt.Spec{r.Leaf("A", "S X"), r.Stateful("B", ""), r.Leaf("C", "")} {
		if _, err := bt.NewTree(s); err == nil || !strings.Contains(err.Error(), "bttest: ") {
			t.Errorf("%s: %v", s.Model().ID, err)
		}
	}
}

// failing holds tables that are wrong, for TestRunReportsWhatIsWrong: each step's
// expectation fails one way.
var failing = []bttest.Case{{Name: "wrong", Tree: func(r *bttest.Recorder) *bt.Spec {
	return bt.Sequence(r.Leaf("A", "R S"))
}, Only: bttest.TickOnce, Steps: []bttest.Step{
	bttest.Tick(bt.Success, "A:R", ""),
	bttest.Tick(bt.Success, "A:X", "R R"),
	bttest.Halt("", "").Then(bttest.EntryIs("k", "1")),
	bttest.Tick(bt.Running, "A:S", "").Fails("boom"),
}}}

// TestRunReportsWhatIsWrong runs the wrong tables in a test binary of its own and
// checks that each wrong expectation is reported, and with the observer too.
func TestRunReportsWhatIsWrong(t *testing.T) {
	if os.Getenv("BTTEST_FAILING") == "1" {
		bttest.Run(t, failing)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestRunReportsWhatIsWrong$")
	cmd.Env = append(os.Environ(), "BTTEST_FAILING=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the wrong tables passed:\n%s", out)
	}
	for _, want := range []string{
		"wrong/TickOnce (", "wrong/TickOnce/observed (",
		"step 1: got RUNNING [A:R], want SUCCESS [A:R]",
		"step 2: got SUCCESS [A:S], want SUCCESS [A:X]",
		`step 2: node states "I I", want "R R"`,
		`entry "k" = "", want "1"`,
		`step 4: error <nil>, want one that contains "boom"`,
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the output does not say %q:\n%s", want, out)
		}
	}
}

// An Observer reports a change it was not told of: here, one made while it was not
// subscribed yet.
func TestObserverSeesUntoldChanges(t *testing.T) {
	if os.Getenv("BTTEST_FAILING") == "1" {
		r := &bttest.Recorder{}
		tree, err := bt.NewTree(bt.Sequence(r.Leaf("A", "R")))
		if err != nil {
			t.Fatal(err)
		}
		tree.TickOnce()
		bttest.Observe(t, tree).Check(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestObserverSeesUntoldChanges$")
	cmd.Env = append(os.Environ(), "BTTEST_FAILING=1")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "A::2 is RUNNING, observers were told IDLE") {
		t.Errorf("%v\n%s", err, out)
	}
}
