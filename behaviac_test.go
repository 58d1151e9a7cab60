package bt_test

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"time"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
	"github.com/gobt/bt/bttest"
)

// whenEndsOn sets decorate_when_child_ends on a behaviac node.
func whenEndsOn(s *Spec) *Spec { return s.With("decorate_when_child_ends", "true") }

func TestLoop(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "counts ticks; a completed child starts again", Tree: func(r *bttest.Recorder) *Spec { return Loop(3, r.Leaf("A", "S")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:S", "R I"), bttest.Tick(Running, "A:S", "R I"), bttest.Tick(Success, "A:S", "I I"),
				bttest.Tick(Running, "A:S", "R I")}},
		{Name: "ignores the child's status", Tree: func(r *bttest.Recorder) *Spec { return Loop(3, r.Leaf("A", "F K S")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:F", "R I"), bttest.Tick(Running, "A:K", "R I"), bttest.Tick(Success, "A:S", "I I")}},
		{Name: "count 0: failure without ticking", Tree: func(r *bttest.Recorder) *Spec { return Loop(0, r.Leaf("A", "S")) },
			Steps: []bttest.Step{bttest.Tick(Failure, "", "I I")}},
		{Name: "count -1: forever", Tree: func(r *bttest.Recorder) *Spec { return Loop(-1, r.Leaf("A", "S F")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:S", "R I"), bttest.Tick(Running, "A:F", "R I"), bttest.Tick(Running, "A:F", "R I")}},
		{Name: "a running child runs on; success halts it", Tree: func(r *bttest.Recorder) *Spec { return Loop(2, r.Leaf("A", "R")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Success, "A:R A:halt", "I I")}},
		{Name: "decorate_when_child_ends: only completions count", Tree: func(r *bttest.Recorder) *Spec {
			return whenEndsOn(Loop(2, r.Leaf("A", "R S R R S")))
		}, Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Running, "A:S", "R I"), bttest.Tick(Running, "A:R", "R R"),
			bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Success, "A:S", "I I")}},
		{Name: "halt: the next tick enters afresh", Tree: func(r *bttest.Recorder) *Spec { return Loop(2, r.Leaf("A", "R")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Halt("A:halt", "I I"), bttest.Tick(Running, "A:R", "R R"),
				bttest.Tick(Success, "A:R A:halt", "I I")}},
		{Name: "in_one_tick: count iterations in one tick", Tree: func(r *bttest.Recorder) *Spec {
			return Loop(3, r.Leaf("A", "S K S")).With("in_one_tick", "true")
		}, Steps: []bttest.Step{bttest.Tick(Success, "A:S A:K A:S", "I I")}},
		{Name: "in_one_tick: failure", Tree: func(r *bttest.Recorder) *Spec {
			return Loop(3, r.Leaf("A", "S F")).With("in_one_tick", "true")
		}, Steps: []bttest.Step{bttest.Tick(Failure, "A:S A:F", "I I")}},
		{Name: "in_one_tick: running resumes the same iteration", Tree: func(r *bttest.Recorder) *Spec {
			return Loop(3, r.Leaf("A", "S R S")).With("in_one_tick", "true")
		}, Steps: []bttest.Step{bttest.Tick(Running, "A:S A:R", "R R"), bttest.Tick(Success, "A:S A:S", "I I")}},
		{Name: "in_one_tick: count 0", Tree: func(r *bttest.Recorder) *Spec {
			return Loop(0, r.Leaf("A", "S")).With("in_one_tick", "true")
		}, Steps: []bttest.Step{bttest.Tick(Failure, "", "I I")}},
	})
	if _, err := NewTree(Loop(-1, AlwaysSuccess()).With("in_one_tick", "true")); err == nil ||
		!strings.Contains(err.Error(), "cannot be done in one tick") {
		t.Errorf("count -1 in one tick: %v", err)
	}
	tickError(t, Loop(-2, AlwaysSuccess()), `port "count" must be -1 or more, not -2`)
	tickError(t, builtin("Loop").Spec(AlwaysSuccess()), `Loop needs the port "count": set it with With("count", …)`)
}

func TestLoopUntil(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "until true: child success ends it", Tree: func(r *bttest.Recorder) *Spec { return LoopUntil(5, true, r.Leaf("A", "F R S")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:F", "R I"), bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Success, "A:S", "I I")}},
		{Name: "until false: child failure ends it", Tree: func(r *bttest.Recorder) *Spec { return LoopUntil(5, false, r.Leaf("A", "S F")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:S", "R I"), bttest.Tick(Failure, "A:F", "I I")}},
		{Name: "count done: success even without the condition", Tree: func(r *bttest.Recorder) *Spec {
			return LoopUntil(2, true, r.Leaf("A", "F"))
		}, Steps: []bttest.Step{bttest.Tick(Running, "A:F", "R I"), bttest.Tick(Success, "A:F", "I I")}},
		{Name: "count done wins over until=false", Tree: func(r *bttest.Recorder) *Spec { return LoopUntil(1, false, r.Leaf("A", "F")) },
			Steps: []bttest.Step{bttest.Tick(Success, "A:F", "I I")}},
		{Name: "count -1: until the condition only", Tree: func(r *bttest.Recorder) *Spec { return LoopUntil(-1, true, r.Leaf("A", "F F F S")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:F", ""), bttest.Tick(Running, "A:F", ""), bttest.Tick(Running, "A:F", ""), bttest.Tick(Success, "A:S", "I I")}},
		{Name: "count 0: failure without ticking", Tree: func(r *bttest.Recorder) *Spec { return LoopUntil(0, true, r.Leaf("A", "S")) },
			Steps: []bttest.Step{bttest.Tick(Failure, "", "I I")}},
		{Name: "completing halts a running child", Tree: func(r *bttest.Recorder) *Spec { return LoopUntil(1, true, r.Leaf("A", "R")) },
			Steps: []bttest.Step{bttest.Tick(Success, "A:R A:halt", "I I")}},
		{Name: "decorate_when_child_ends", Tree: func(r *bttest.Recorder) *Spec {
			return whenEndsOn(LoopUntil(2, true, r.Leaf("A", "R F R")))
		}, Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Running, "A:F", "R I"), bttest.Tick(Running, "A:R", "R R"),
			bttest.Tick(Running, "A:R", "R R")}},
		{Name: "halt", Tree: func(r *bttest.Recorder) *Spec { return LoopUntil(2, true, r.Leaf("A", "R")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Halt("A:halt", "I I"), bttest.Tick(Running, "A:R", "R R")}},
	})
}

func TestFrames(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "counts ticks, ignoring the child", Tree: func(r *bttest.Recorder) *Spec { return Frames(3, r.Leaf("A", "F S")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:F", "R I"), bttest.Tick(Running, "A:S", "R I"), bttest.Tick(Success, "A:S", "I I")}},
		{Name: "frames 1 succeeds on the first tick", Tree: func(r *bttest.Recorder) *Spec { return Frames(1, r.Leaf("A", "F")) },
			Steps: []bttest.Step{bttest.Tick(Success, "A:F", "I I")}},
		{Name: "frames 0: failure without ticking", Tree: func(r *bttest.Recorder) *Spec { return Frames(0, r.Leaf("A", "S")) },
			Steps: []bttest.Step{bttest.Tick(Failure, "", "I I")}},
		{Name: "success halts a running child", Tree: func(r *bttest.Recorder) *Spec { return Frames(2, r.Leaf("A", "R")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Success, "A:R A:halt", "I I")}},
		{Name: "decorate_when_child_ends: running ticks do not count", Tree: func(r *bttest.Recorder) *Spec {
			return whenEndsOn(Frames(2, r.Leaf("A", "R S R S")))
		}, Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Running, "A:S", "R I"), bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Success, "A:S", "I I")}},
		{Name: "halt: the next tick enters afresh", Tree: func(r *bttest.Recorder) *Spec { return Frames(2, r.Leaf("A", "R")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Halt("A:halt", "I I"), bttest.Tick(Running, "A:R", "R R")}},
	})
}

func TestCountLimit(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "count entries, then fail without ticking", Tree: func(r *bttest.Recorder) *Spec { return CountLimit(2, "", r.Leaf("A", "S F")) },
			Steps: []bttest.Step{bttest.Tick(Success, "A:S", "I I"), bttest.Tick(Failure, "A:F", "I I"), bttest.Tick(Failure, "", "I I"), bttest.Tick(Failure, "", "I I")}},
		{Name: "entries, not ticks", Tree: func(r *bttest.Recorder) *Spec { return CountLimit(1, "", r.Leaf("A", "R R S")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Success, "A:S", "I I"), bttest.Tick(Failure, "", "I I")}},
		{Name: "reset_if re-arms at an entry", Tree: func(r *bttest.Recorder) *Spec { return CountLimit(1, "again", r.Leaf("A", "S")) },
			Steps: []bttest.Step{
				bttest.Tick(Success, "A:S", "").First(bttest.Assign("again", blackboard.Bool(false))),
				bttest.Tick(Failure, "", ""),
				bttest.Tick(Success, "A:S", "").First(bttest.Assign("again", blackboard.Bool(true))),
				bttest.Tick(Failure, "", "").First(bttest.Assign("again", blackboard.Bool(false))),
			}},
		{Name: "count -1: unlimited", Tree: func(r *bttest.Recorder) *Spec { return CountLimit(-1, "", r.Leaf("A", "S")) },
			Steps: []bttest.Step{bttest.Tick(Success, "A:S", ""), bttest.Tick(Success, "A:S", ""), bttest.Tick(Success, "A:S", "")}},
		{Name: "a skipped child uses an entry", Tree: func(r *bttest.Recorder) *Spec { return CountLimit(1, "", r.Leaf("A", "K")) },
			Steps: []bttest.Step{bttest.Tick(Skipped, "A:K", "I I"), bttest.Tick(Failure, "", "I I")}},
		{Name: "halting keeps the count", Tree: func(r *bttest.Recorder) *Spec { return CountLimit(2, "", r.Leaf("A", "R")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Halt("A:halt", "I I"), bttest.Tick(Running, "A:R", "R R"), bttest.Halt("A:halt", "I I"),
				bttest.Tick(Failure, "", "I I")}},
		{Name: "decorate_when_child_ends changes nothing", Tree: func(r *bttest.Recorder) *Spec {
			return whenEndsOn(CountLimit(1, "", r.Leaf("A", "R F")))
		}, Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Failure, "A:F", "I I"), bttest.Tick(Failure, "", "I I")}},
	})
	if _, err := NewTree(CountLimit(1, "a ==", AlwaysSuccess())); err == nil || !strings.Contains(err.Error(), "reset_if") {
		t.Errorf("bad reset_if: %v", err)
	}
}

func TestSuccessUntil(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "count-1 successes then one failure, whatever the child", Tree: func(r *bttest.Recorder) *Spec {
			return SuccessUntil(3, r.Leaf("A", "F S F S F S"))
		}, Steps: []bttest.Step{bttest.Tick(Success, "A:F", "I I"), bttest.Tick(Success, "A:S", "I I"), bttest.Tick(Failure, "A:F", "I I"),
			bttest.Tick(Success, "A:S", ""), bttest.Tick(Success, "A:F", ""), bttest.Tick(Failure, "A:S", "")}},
		{Name: "count -1: always success", Tree: func(r *bttest.Recorder) *Spec { return SuccessUntil(-1, r.Leaf("A", "F")) },
			Steps: []bttest.Step{bttest.Tick(Success, "A:F", ""), bttest.Tick(Success, "A:F", "")}},
		{Name: "count 0: always failure", Tree: func(r *bttest.Recorder) *Spec { return SuccessUntil(0, r.Leaf("A", "S")) },
			Steps: []bttest.Step{bttest.Tick(Failure, "A:S", ""), bttest.Tick(Failure, "A:S", "")}},
		{Name: "completing halts a running child", Tree: func(r *bttest.Recorder) *Spec { return SuccessUntil(2, r.Leaf("A", "R")) },
			Steps: []bttest.Step{bttest.Tick(Success, "A:R A:halt", "I I")}},
		{Name: "decorate_when_child_ends; the counter survives a halt", Tree: func(r *bttest.Recorder) *Spec {
			return whenEndsOn(SuccessUntil(3, r.Leaf("A", "S R S S")))
		}, Steps: []bttest.Step{bttest.Tick(Success, "A:S", "I I"), bttest.Tick(Running, "A:R", "R R"), bttest.Halt("A:halt", "I I"),
			bttest.Tick(Success, "A:S", "I I"), bttest.Tick(Failure, "A:S", "I I")}},
	})
}

func TestFailureUntil(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "count-1 failures then one success, whatever the child", Tree: func(r *bttest.Recorder) *Spec {
			return FailureUntil(3, r.Leaf("A", "S"))
		}, Steps: []bttest.Step{bttest.Tick(Failure, "A:S", "I I"), bttest.Tick(Failure, "A:S", ""), bttest.Tick(Success, "A:S", ""), bttest.Tick(Failure, "A:S", "")}},
		{Name: "count -1: always failure", Tree: func(r *bttest.Recorder) *Spec { return FailureUntil(-1, r.Leaf("A", "S")) },
			Steps: []bttest.Step{bttest.Tick(Failure, "A:S", ""), bttest.Tick(Failure, "A:S", "")}},
		{Name: "count 0: always success", Tree: func(r *bttest.Recorder) *Spec { return FailureUntil(0, r.Leaf("A", "F")) },
			Steps: []bttest.Step{bttest.Tick(Success, "A:F", "")}},
		{Name: "decorate_when_child_ends", Tree: func(r *bttest.Recorder) *Spec { return whenEndsOn(FailureUntil(2, r.Leaf("A", "R S R S"))) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Failure, "A:S", "I I"), bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Success, "A:S", "I I")}},
	})
}

func TestTimeNode(t *testing.T) {
	yes, no := true, false
	bttest.Run(t, []bttest.Case{
		{Name: "keeps the child going until the time is up", Tree: func(r *bttest.Recorder) *Spec { return Time(100*time.Millisecond, r.Leaf("A", "S F")) },
			Steps: []bttest.Step{
				bttest.Tick(Running, "A:S", "R I"),
				bttest.Tick(Running, "A:F", "R I").After(60 * time.Millisecond).First(woken(no)),
				bttest.Tick(Success, "A:F", "I I").After(40 * time.Millisecond).First(woken(yes)),
			}},
		{Name: "msec 0: failure without ticking", Tree: func(r *bttest.Recorder) *Spec { return Time(0, r.Leaf("A", "S")) },
			Steps: []bttest.Step{bttest.Tick(Failure, "", "I I")}},
		{Name: "success halts a running child", Tree: func(r *bttest.Recorder) *Spec { return Time(100*time.Millisecond, r.Leaf("A", "R")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Success, "A:R A:halt", "I I").After(100 * time.Millisecond)}},
		{Name: "decorate_when_child_ends: time is checked when the child ends", Tree: func(r *bttest.Recorder) *Spec {
			return whenEndsOn(Time(100*time.Millisecond, r.Leaf("A", "R R S")))
		}, Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Running, "A:R", "R R").After(time.Second).First(woken(yes)),
			bttest.Tick(Success, "A:S", "I I")}},
		{Name: "halt stops the timer; the next tick enters afresh", Tree: func(r *bttest.Recorder) *Spec {
			return Time(100*time.Millisecond, r.Leaf("A", "R"))
		}, Steps: []bttest.Step{
			bttest.Tick(Running, "A:R", "R R"),
			bttest.Halt("A:halt", "I I").After(60 * time.Millisecond),
			bttest.Tick(Running, "A:R", "R R").After(60 * time.Millisecond).First(woken(no)),
			bttest.Tick(Running, "A:R", "R R").After(60 * time.Millisecond).First(woken(no)),
			bttest.Tick(Success, "A:R A:halt", "I I").After(40 * time.Millisecond).First(woken(yes)),
		}},
	})
}

func TestLog(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{
		Level: slog.LevelDebug,
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	}))
	took := func(want string) func(t *testing.T, tree *Tree) {
		return func(t *testing.T, tree *Tree) {
			t.Helper()
			if got := strings.TrimSpace(buf.String()); got != want {
				t.Errorf("log:\n%s\nwant:\n%s", got, want)
			}
			buf.Reset()
		}
	}
	bttest.Run(t, []bttest.Case{
		{Name: "logs every tick, returns the child's status", Options: []Option{WithLogger(logger)}, Tree: func(r *bttest.Recorder) *Spec {
			return Log("hello", r.Leaf("A", "R F")).Named("greeter")
		}, Steps: []bttest.Step{
			bttest.Tick(Running, "A:R", "R R").Then(took(`level=INFO msg=hello node=greeter`)),
			bttest.Tick(Failure, "A:F", "I I").Then(took(`level=INFO msg=hello node=greeter`)),
		}},
		{Name: "level; decorate_when_child_ends logs when the child ends", Options: []Option{WithLogger(logger)}, Tree: func(r *bttest.Recorder) *Spec {
			return whenEndsOn(Log("{msg}", r.Leaf("A", "R S K")).With("level", "warn"))
		}, Steps: []bttest.Step{
			bttest.Tick(Running, "A:R", "R R").First(bttest.Assign("msg", blackboard.String("careful"))).Then(took(``)),
			bttest.Tick(Success, "A:S", "I I").Then(took(`level=WARN msg=careful node=Log::1`)),
			bttest.Tick(Skipped, "A:K", "I I").Then(took(`level=WARN msg=careful node=Log::1`)),
		}},
	})
	tickError(t, builtin("Log").Spec(AlwaysSuccess()), `Log needs the port "message": set it with With("message", …)`)
	if _, err := NewTree(Log("x", AlwaysSuccess()).With("level", "loud")); err == nil {
		t.Error("a bad level was accepted")
	}
	if got := (&Tree{}).Logger(); got != slog.Default() {
		t.Error("the default logger is not slog.Default()")
	}
}

// TestBehaviacReentryWithoutReset: a parent may tick a completed child again before
// resetting it (WhileDoElse does so with its condition); that is a new entry, not a
// continuation (it used to wrap Loop's count to -1, "forever").
func TestBehaviacReentryWithoutReset(t *testing.T) {
	r := &bttest.Recorder{}
	tree, err := NewTree(WhileDoElse(Loop(1, AlwaysSuccess()), r.Leaf("D", "R R S"), r.Leaf("E", "S")))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for range 4 {
		s, err := tree.TickOnce()
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, s.String())
	}
	if g := strings.Join(got, " "); g != "RUNNING RUNNING SUCCESS SUCCESS" {
		t.Errorf("got %s", g)
	}
}
