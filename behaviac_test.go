package bt

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/gobt/bt/blackboard"
)

// whenEndsOn sets decorate_when_child_ends on a behaviac node.
func whenEndsOn(s *Spec) *Spec { return s.With("decorate_when_child_ends", "true") }

func TestLoop(t *testing.T) {
	runDecCases(t, []decCase{
		{name: "counts ticks; a completed child starts again", tree: func(r *recorder) *Spec { return Loop(3, r.leaf("A", "S")) },
			steps: []tstep{tick(Running, "A:S", "R I"), tick(Running, "A:S", "R I"), tick(Success, "A:S", "I I"),
				tick(Running, "A:S", "R I")}},
		{name: "ignores the child's status", tree: func(r *recorder) *Spec { return Loop(3, r.leaf("A", "F K S")) },
			steps: []tstep{tick(Running, "A:F", "R I"), tick(Running, "A:K", "R I"), tick(Success, "A:S", "I I")}},
		{name: "count 0: failure without ticking", tree: func(r *recorder) *Spec { return Loop(0, r.leaf("A", "S")) },
			steps: []tstep{tick(Failure, "", "I I")}},
		{name: "count -1: forever", tree: func(r *recorder) *Spec { return Loop(-1, r.leaf("A", "S F")) },
			steps: []tstep{tick(Running, "A:S", "R I"), tick(Running, "A:F", "R I"), tick(Running, "A:F", "R I")}},
		{name: "a running child runs on; success halts it", tree: func(r *recorder) *Spec { return Loop(2, r.leaf("A", "R")) },
			steps: []tstep{tick(Running, "A:R", "R R"), tick(Success, "A:R A:halt", "I I")}},
		{name: "decorate_when_child_ends: only completions count", tree: func(r *recorder) *Spec {
			return whenEndsOn(Loop(2, r.leaf("A", "R S R R S")))
		}, steps: []tstep{tick(Running, "A:R", "R R"), tick(Running, "A:S", "R I"), tick(Running, "A:R", "R R"),
			tick(Running, "A:R", "R R"), tick(Success, "A:S", "I I")}},
		{name: "halt: the next tick enters afresh", tree: func(r *recorder) *Spec { return Loop(2, r.leaf("A", "R")) },
			steps: []tstep{tick(Running, "A:R", "R R"), halt("A:halt", "I I"), tick(Running, "A:R", "R R"),
				tick(Success, "A:R A:halt", "I I")}},
		{name: "in_one_tick: count iterations in one tick", tree: func(r *recorder) *Spec {
			return Loop(3, r.leaf("A", "S K S")).With("in_one_tick", "true")
		}, steps: []tstep{tick(Success, "A:S A:K A:S", "I I")}},
		{name: "in_one_tick: failure", tree: func(r *recorder) *Spec {
			return Loop(3, r.leaf("A", "S F")).With("in_one_tick", "true")
		}, steps: []tstep{tick(Failure, "A:S A:F", "I I")}},
		{name: "in_one_tick: running resumes the same iteration", tree: func(r *recorder) *Spec {
			return Loop(3, r.leaf("A", "S R S")).With("in_one_tick", "true")
		}, steps: []tstep{tick(Running, "A:S A:R", "R R"), tick(Success, "A:S A:S", "I I")}},
		{name: "in_one_tick: count 0", tree: func(r *recorder) *Spec {
			return Loop(0, r.leaf("A", "S")).With("in_one_tick", "true")
		}, steps: []tstep{tick(Failure, "", "I I")}},
	})
	if _, err := NewTree(Loop(-1, AlwaysSuccess()).With("in_one_tick", "true")); err == nil ||
		!strings.Contains(err.Error(), "cannot be done in one tick") {
		t.Errorf("count -1 in one tick: %v", err)
	}
	tickError(t, Loop(-2, AlwaysSuccess()), `port "count" must be -1 or more, not -2`)
	tickError(t, loopModel.Spec(AlwaysSuccess()), `Loop needs the port "count": set it with With("count", …)`)
}

func TestLoopUntil(t *testing.T) {
	runDecCases(t, []decCase{
		{name: "until true: child success ends it", tree: func(r *recorder) *Spec { return LoopUntil(5, true, r.leaf("A", "F R S")) },
			steps: []tstep{tick(Running, "A:F", "R I"), tick(Running, "A:R", "R R"), tick(Success, "A:S", "I I")}},
		{name: "until false: child failure ends it", tree: func(r *recorder) *Spec { return LoopUntil(5, false, r.leaf("A", "S F")) },
			steps: []tstep{tick(Running, "A:S", "R I"), tick(Failure, "A:F", "I I")}},
		{name: "count done: success even without the condition", tree: func(r *recorder) *Spec {
			return LoopUntil(2, true, r.leaf("A", "F"))
		}, steps: []tstep{tick(Running, "A:F", "R I"), tick(Success, "A:F", "I I")}},
		{name: "count done wins over until=false", tree: func(r *recorder) *Spec { return LoopUntil(1, false, r.leaf("A", "F")) },
			steps: []tstep{tick(Success, "A:F", "I I")}},
		{name: "count -1: until the condition only", tree: func(r *recorder) *Spec { return LoopUntil(-1, true, r.leaf("A", "F F F S")) },
			steps: []tstep{tick(Running, "A:F", ""), tick(Running, "A:F", ""), tick(Running, "A:F", ""), tick(Success, "A:S", "I I")}},
		{name: "count 0: failure without ticking", tree: func(r *recorder) *Spec { return LoopUntil(0, true, r.leaf("A", "S")) },
			steps: []tstep{tick(Failure, "", "I I")}},
		{name: "completing halts a running child", tree: func(r *recorder) *Spec { return LoopUntil(1, true, r.leaf("A", "R")) },
			steps: []tstep{tick(Success, "A:R A:halt", "I I")}},
		{name: "decorate_when_child_ends", tree: func(r *recorder) *Spec {
			return whenEndsOn(LoopUntil(2, true, r.leaf("A", "R F R")))
		}, steps: []tstep{tick(Running, "A:R", "R R"), tick(Running, "A:F", "R I"), tick(Running, "A:R", "R R"),
			tick(Running, "A:R", "R R")}},
		{name: "halt", tree: func(r *recorder) *Spec { return LoopUntil(2, true, r.leaf("A", "R")) },
			steps: []tstep{tick(Running, "A:R", "R R"), halt("A:halt", "I I"), tick(Running, "A:R", "R R")}},
	})
}

func TestFrames(t *testing.T) {
	runDecCases(t, []decCase{
		{name: "counts ticks, ignoring the child", tree: func(r *recorder) *Spec { return Frames(3, r.leaf("A", "F S")) },
			steps: []tstep{tick(Running, "A:F", "R I"), tick(Running, "A:S", "R I"), tick(Success, "A:S", "I I")}},
		{name: "frames 1 succeeds on the first tick", tree: func(r *recorder) *Spec { return Frames(1, r.leaf("A", "F")) },
			steps: []tstep{tick(Success, "A:F", "I I")}},
		{name: "frames 0: failure without ticking", tree: func(r *recorder) *Spec { return Frames(0, r.leaf("A", "S")) },
			steps: []tstep{tick(Failure, "", "I I")}},
		{name: "success halts a running child", tree: func(r *recorder) *Spec { return Frames(2, r.leaf("A", "R")) },
			steps: []tstep{tick(Running, "A:R", "R R"), tick(Success, "A:R A:halt", "I I")}},
		{name: "decorate_when_child_ends: running ticks do not count", tree: func(r *recorder) *Spec {
			return whenEndsOn(Frames(2, r.leaf("A", "R S R S")))
		}, steps: []tstep{tick(Running, "A:R", "R R"), tick(Running, "A:S", "R I"), tick(Running, "A:R", "R R"), tick(Success, "A:S", "I I")}},
		{name: "halt: the next tick enters afresh", tree: func(r *recorder) *Spec { return Frames(2, r.leaf("A", "R")) },
			steps: []tstep{tick(Running, "A:R", "R R"), halt("A:halt", "I I"), tick(Running, "A:R", "R R")}},
	})
}

func TestCountLimit(t *testing.T) {
	runDecCases(t, []decCase{
		{name: "count entries, then fail without ticking", tree: func(r *recorder) *Spec { return CountLimit(2, "", r.leaf("A", "S F")) },
			steps: []tstep{tick(Success, "A:S", "I I"), tick(Failure, "A:F", "I I"), tick(Failure, "", "I I"), tick(Failure, "", "I I")}},
		{name: "entries, not ticks", tree: func(r *recorder) *Spec { return CountLimit(1, "", r.leaf("A", "R R S")) },
			steps: []tstep{tick(Running, "A:R", "R R"), tick(Running, "A:R", "R R"), tick(Success, "A:S", "I I"), tick(Failure, "", "I I")}},
		{name: "reset_if re-arms at an entry", tree: func(r *recorder) *Spec { return CountLimit(1, "again", r.leaf("A", "S")) },
			steps: []tstep{
				tick(Success, "A:S", "").first(set("again", blackboard.Bool(false))),
				tick(Failure, "", ""),
				tick(Success, "A:S", "").first(set("again", blackboard.Bool(true))),
				tick(Failure, "", "").first(set("again", blackboard.Bool(false))),
			}},
		{name: "count -1: unlimited", tree: func(r *recorder) *Spec { return CountLimit(-1, "", r.leaf("A", "S")) },
			steps: []tstep{tick(Success, "A:S", ""), tick(Success, "A:S", ""), tick(Success, "A:S", "")}},
		{name: "a skipped child uses an entry", tree: func(r *recorder) *Spec { return CountLimit(1, "", r.leaf("A", "K")) },
			steps: []tstep{tick(Skipped, "A:K", "I I"), tick(Failure, "", "I I")}},
		{name: "halting keeps the count", tree: func(r *recorder) *Spec { return CountLimit(2, "", r.leaf("A", "R")) },
			steps: []tstep{tick(Running, "A:R", "R R"), halt("A:halt", "I I"), tick(Running, "A:R", "R R"), halt("A:halt", "I I"),
				tick(Failure, "", "I I")}},
		{name: "decorate_when_child_ends changes nothing", tree: func(r *recorder) *Spec {
			return whenEndsOn(CountLimit(1, "", r.leaf("A", "R F")))
		}, steps: []tstep{tick(Running, "A:R", "R R"), tick(Failure, "A:F", "I I"), tick(Failure, "", "I I")}},
	})
	if _, err := NewTree(CountLimit(1, "a ==", AlwaysSuccess())); err == nil || !strings.Contains(err.Error(), "reset_if") {
		t.Errorf("bad reset_if: %v", err)
	}
}

func TestSuccessUntil(t *testing.T) {
	runDecCases(t, []decCase{
		{name: "count-1 successes then one failure, whatever the child", tree: func(r *recorder) *Spec {
			return SuccessUntil(3, r.leaf("A", "F S F S F S"))
		}, steps: []tstep{tick(Success, "A:F", "I I"), tick(Success, "A:S", "I I"), tick(Failure, "A:F", "I I"),
			tick(Success, "A:S", ""), tick(Success, "A:F", ""), tick(Failure, "A:S", "")}},
		{name: "count -1: always success", tree: func(r *recorder) *Spec { return SuccessUntil(-1, r.leaf("A", "F")) },
			steps: []tstep{tick(Success, "A:F", ""), tick(Success, "A:F", "")}},
		{name: "count 0: always failure", tree: func(r *recorder) *Spec { return SuccessUntil(0, r.leaf("A", "S")) },
			steps: []tstep{tick(Failure, "A:S", ""), tick(Failure, "A:S", "")}},
		{name: "completing halts a running child", tree: func(r *recorder) *Spec { return SuccessUntil(2, r.leaf("A", "R")) },
			steps: []tstep{tick(Success, "A:R A:halt", "I I")}},
		{name: "decorate_when_child_ends; the counter survives a halt", tree: func(r *recorder) *Spec {
			return whenEndsOn(SuccessUntil(3, r.leaf("A", "S R S S")))
		}, steps: []tstep{tick(Success, "A:S", "I I"), tick(Running, "A:R", "R R"), halt("A:halt", "I I"),
			tick(Success, "A:S", "I I"), tick(Failure, "A:S", "I I")}},
	})
}

func TestFailureUntil(t *testing.T) {
	runDecCases(t, []decCase{
		{name: "count-1 failures then one success, whatever the child", tree: func(r *recorder) *Spec {
			return FailureUntil(3, r.leaf("A", "S"))
		}, steps: []tstep{tick(Failure, "A:S", "I I"), tick(Failure, "A:S", ""), tick(Success, "A:S", ""), tick(Failure, "A:S", "")}},
		{name: "count -1: always failure", tree: func(r *recorder) *Spec { return FailureUntil(-1, r.leaf("A", "S")) },
			steps: []tstep{tick(Failure, "A:S", ""), tick(Failure, "A:S", "")}},
		{name: "count 0: always success", tree: func(r *recorder) *Spec { return FailureUntil(0, r.leaf("A", "F")) },
			steps: []tstep{tick(Success, "A:F", "")}},
		{name: "decorate_when_child_ends", tree: func(r *recorder) *Spec { return whenEndsOn(FailureUntil(2, r.leaf("A", "R S R S"))) },
			steps: []tstep{tick(Running, "A:R", "R R"), tick(Failure, "A:S", "I I"), tick(Running, "A:R", "R R"), tick(Success, "A:S", "I I")}},
	})
}

func TestTimeNode(t *testing.T) {
	yes, no := true, false
	runDecCases(t, []decCase{
		{name: "keeps the child going until the time is up", tree: func(r *recorder) *Spec { return Time(100*time.Millisecond, r.leaf("A", "S F")) },
			steps: []tstep{
				tick(Running, "A:S", "R I"),
				tick(Running, "A:F", "R I").after(60 * time.Millisecond).wokenFirst(no),
				{step: step{want: Success, log: "A:F", states: "I I"}, advance: 40 * time.Millisecond, woken: &yes},
			}},
		{name: "msec 0: failure without ticking", tree: func(r *recorder) *Spec { return Time(0, r.leaf("A", "S")) },
			steps: []tstep{tick(Failure, "", "I I")}},
		{name: "success halts a running child", tree: func(r *recorder) *Spec { return Time(100*time.Millisecond, r.leaf("A", "R")) },
			steps: []tstep{tick(Running, "A:R", "R R"), tick(Success, "A:R A:halt", "I I").after(100 * time.Millisecond)}},
		{name: "decorate_when_child_ends: time is checked when the child ends", tree: func(r *recorder) *Spec {
			return whenEndsOn(Time(100*time.Millisecond, r.leaf("A", "R R S")))
		}, steps: []tstep{tick(Running, "A:R", "R R"), tick(Running, "A:R", "R R").after(time.Second).wokenFirst(yes),
			tick(Success, "A:S", "I I")}},
		{name: "halt stops the timer; the next tick enters afresh", tree: func(r *recorder) *Spec {
			return Time(100*time.Millisecond, r.leaf("A", "R"))
		}, steps: []tstep{
			tick(Running, "A:R", "R R"),
			halt("A:halt", "I I").after(60 * time.Millisecond),
			tick(Running, "A:R", "R R").after(60 * time.Millisecond).wokenFirst(no),
			tick(Running, "A:R", "R R").after(60 * time.Millisecond).wokenFirst(no),
			tick(Success, "A:R A:halt", "I I").after(40 * time.Millisecond).wokenFirst(yes),
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
	runDecCases(t, []decCase{
		{name: "logs every tick, returns the child's status", opts: []Option{WithLogger(logger)}, tree: func(r *recorder) *Spec {
			return Log("hello", r.leaf("A", "R F")).Named("greeter")
		}, steps: []tstep{
			tick(Running, "A:R", "R R").then(took(`level=INFO msg=hello node=greeter`)),
			tick(Failure, "A:F", "I I").then(took(`level=INFO msg=hello node=greeter`)),
		}},
		{name: "level; decorate_when_child_ends logs when the child ends", opts: []Option{WithLogger(logger)}, tree: func(r *recorder) *Spec {
			return whenEndsOn(Log("{msg}", r.leaf("A", "R S K")).With("level", "warn"))
		}, steps: []tstep{
			tick(Running, "A:R", "R R").first(set("msg", blackboard.String("careful"))).then(took(``)),
			tick(Success, "A:S", "I I").then(took(`level=WARN msg=careful node=Log::1`)),
			tick(Skipped, "A:K", "I I").then(took(`level=WARN msg=careful node=Log::1`)),
		}},
	})
	tickError(t, logModel.Spec(AlwaysSuccess()), `Log needs the port "message": set it with With("message", …)`)
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
	r := &recorder{}
	tree, err := NewTree(WhileDoElse(Loop(1, AlwaysSuccess()), r.leaf("D", "R R S"), r.leaf("E", "S")))
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
