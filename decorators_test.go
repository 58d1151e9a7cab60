package bt

import (
	"strings"
	"testing"
	"time"

	"github.com/gobt/bt/blackboard"
)

// decCase is a tick table for one or more lines of a node's status contract. Unless it
// says otherwise it is run twice, with TickOnce and with TickExactlyOnce, and must give
// the same steps in both (the node does not yield).
type decCase struct {
	name  string
	tree  func(r *recorder) *Spec
	mode  tickMode
	opts  []Option
	steps []tstep
}

type tickMode uint8

const (
	bothModes   tickMode = iota
	onlyOnce             // TickOnce
	onlyExactly          // TickExactlyOnce
)

// tstep is a step of a tick table with what happens before it: the fake clock moves
// on, or a function changes the blackboard; and a check after it.
type tstep struct {
	step
	advance time.Duration
	before  func(tree *Tree) error
	check   func(t *testing.T, tree *Tree)
	woken   *bool // whether a wake-up is pending before the tick (consumed)
}

var epoch = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func runDecCases(t *testing.T, cases []decCase) {
	t.Helper()
	for _, c := range cases {
		for _, exactly := range []bool{false, true} {
			if c.mode == onlyOnce && exactly || c.mode == onlyExactly && !exactly {
				continue
			}
			name := c.name + "/TickOnce"
			if exactly {
				name = c.name + "/TickExactlyOnce"
			}
			t.Run(name, func(t *testing.T) {
				r := &recorder{}
				clock := &fakeClock{now: epoch}
				tree, err := NewTree(c.tree(r), append([]Option{WithClock(clock)}, c.opts...)...)
				if err != nil {
					t.Fatal(err)
				}
				runTimedSteps(t, tree, clock, r, exactly, c.steps)
			})
		}
	}
}

func runTimedSteps(t *testing.T, tree *Tree, clock *fakeClock, r *recorder, exactly bool, steps []tstep) {
	t.Helper()
	for i, st := range steps {
		if st.advance > 0 {
			clock.advance(st.advance)
		}
		if st.woken != nil {
			if got := tree.woken(); got != *st.woken {
				t.Errorf("step %d: wake-up pending: %v, want %v", i+1, got, *st.woken)
			}
		}
		if st.before != nil {
			if err := st.before(tree); err != nil {
				t.Fatalf("step %d: %v", i+1, err)
			}
		}
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
		if st.check != nil {
			st.check(t, tree)
		}
	}
}

// tick, halt and the others make tick tables short.
func tick(want Status, log, states string) tstep {
	return tstep{step: step{want: want, log: log, states: states}}
}

func halt(log, states string) tstep {
	return tstep{step: step{halt: true, log: log, states: states}}
}

func (s tstep) after(d time.Duration) tstep { s.advance = d; return s }

func (s tstep) wokenFirst(w bool) tstep { s.woken = &w; return s }

func (s tstep) then(check func(t *testing.T, tree *Tree)) tstep { s.check = check; return s }

func (s tstep) first(f func(tree *Tree) error) tstep { s.before = f; return s }

// set writes a blackboard entry (as a script's := would) before a step.
func set(key string, v blackboard.Value) func(tree *Tree) error {
	return func(tree *Tree) error { return tree.Blackboard().Entry(key).Assign(v) }
}

// entryIs checks a blackboard entry after a step ("" for an absent entry).
func entryIs(key, want string) func(t *testing.T, tree *Tree) {
	return func(t *testing.T, tree *Tree) {
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

// tickError ticks a tree built from spec once and checks the error it stops with.
func tickError(t *testing.T, spec *Spec, want string) {
	t.Helper()
	tree, err := NewTree(spec)
	if err == nil {
		_, err = tree.TickOnce()
	}
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got error %v, want one containing %q", err, want)
	}
}

// passThrough is the table shared by the decorators that map their child's status:
// what Success and Failure become, Running and Skipped passing through, halting.
func mapperCases(mk func(*Spec) *Spec, onSuccess, onFailure, onSkipped Status) []decCase {
	l := func(s Status) string { return statusLetter(s) }
	restState := "I I"
	if onSuccess == Running {
		restState = "R I"
	}
	failState := "I I"
	if onFailure == Running {
		failState = "R I"
	}
	skipState := "I I"
	if onSkipped == Running {
		skipState = "R I"
	}
	return []decCase{
		{name: "child success → " + l(onSuccess), tree: func(r *recorder) *Spec { return mk(r.leaf("A", "S")) },
			steps: []tstep{tick(onSuccess, "A:S", restState)}},
		{name: "child failure → " + l(onFailure), tree: func(r *recorder) *Spec { return mk(r.leaf("A", "F")) },
			steps: []tstep{tick(onFailure, "A:F", failState)}},
		{name: "child running → R", tree: func(r *recorder) *Spec { return mk(r.leaf("A", "R R")) },
			steps: []tstep{tick(Running, "A:R", "R R"), tick(Running, "A:R", "R R")}},
		{name: "child skipped → " + l(onSkipped), tree: func(r *recorder) *Spec { return mk(r.leaf("A", "K")) },
			steps: []tstep{tick(onSkipped, "A:K", skipState)}},
		{name: "halt halts the child", tree: func(r *recorder) *Spec { return mk(r.leaf("A", "R S")) },
			steps: []tstep{tick(Running, "A:R", "R R"), halt("A:halt", "I I"), tick(onSuccess, "A:S", restState)}},
	}
}

func TestInverter(t *testing.T) {
	runDecCases(t, mapperCases(Inverter, Failure, Success, Skipped))
}

func TestNot(t *testing.T) {
	runDecCases(t, mapperCases(Not, Failure, Success, Skipped))
}

func TestForceSuccess(t *testing.T) {
	runDecCases(t, mapperCases(ForceSuccess, Success, Success, Skipped))
}

func TestForceFailure(t *testing.T) {
	runDecCases(t, mapperCases(ForceFailure, Failure, Failure, Skipped))
}

func TestForceRunning(t *testing.T) {
	runDecCases(t, append(mapperCases(ForceRunning, Running, Running, Skipped),
		decCase{name: "a completed child starts again", tree: func(r *recorder) *Spec { return ForceRunning(r.leaf("A", "S F")) },
			steps: []tstep{tick(Running, "A:S", "R I"), tick(Running, "A:F", "R I")}}))
}

func TestKeepRunningUntilFailure(t *testing.T) {
	runDecCases(t, append(mapperCases(KeepRunningUntilFailure, Running, Failure, Running),
		decCase{name: "one iteration per tick until failure", tree: func(r *recorder) *Spec {
			return KeepRunningUntilFailure(r.leaf("A", "S S F"))
		}, steps: []tstep{tick(Running, "A:S", "R I"), tick(Running, "A:S", "R I"), tick(Failure, "A:F", "I I")}}))
}

func TestAlwaysRunning(t *testing.T) {
	runDecCases(t, []decCase{{name: "always running", tree: func(*recorder) *Spec { return AlwaysRunning() },
		steps: []tstep{tick(Running, "", "R"), tick(Running, "", "R"), halt("", "I")}}})
}

func TestRepeat(t *testing.T) {
	runDecCases(t, []decCase{
		{name: "all cycles in one TickOnce", mode: onlyOnce, tree: func(r *recorder) *Spec { return Repeat(3, r.leaf("A", "S")) },
			steps: []tstep{tick(Success, "A:S A:S A:S", "I I"), tick(Success, "A:S A:S A:S", "I I")}},
		{name: "yields after a synchronous success", mode: onlyExactly, tree: func(r *recorder) *Spec { return Repeat(3, r.leaf("A", "S")) },
			steps: []tstep{
				tick(Running, "A:S", "R I").then(func(t *testing.T, tree *Tree) {
					if !tree.woken() {
						t.Error("no wake-up after a yield")
					}
				}),
				tick(Running, "A:S", "R I"), tick(Success, "A:S", "I I")}},
		{name: "no yield after an asynchronous success", mode: onlyExactly, tree: func(r *recorder) *Spec {
			return Repeat(2, r.leaf("A", "R S R S"))
		}, steps: []tstep{tick(Running, "A:R", "R R"), tick(Running, "A:S A:R", "R R"), tick(Success, "A:S", "I I")}},
		{name: "failure resets the count", mode: onlyOnce, tree: func(r *recorder) *Spec { return Repeat(3, r.leaf("A", "S F S")) },
			steps: []tstep{tick(Failure, "A:S A:F", "I I"), tick(Success, "A:S A:S A:S", "I I")}},
		{name: "failure, exactly once", mode: onlyExactly, tree: func(r *recorder) *Spec { return Repeat(3, r.leaf("A", "S F")) },
			steps: []tstep{tick(Running, "A:S", "R I"), tick(Failure, "A:F", "I I")}},
		{name: "skipped child: skipped, the count is kept", mode: onlyExactly, tree: func(r *recorder) *Spec {
			return Repeat(3, r.leaf("A", "S K S S"))
		}, steps: []tstep{tick(Running, "A:S", "R I"), tick(Skipped, "A:K", "I I"), tick(Running, "A:S", "R I"), tick(Success, "A:S", "I I")}},
		{name: "skipped child ends TickOnce", mode: onlyOnce, tree: func(r *recorder) *Spec {
			return Repeat(3, r.leaf("A", "S K S S"))
		}, steps: []tstep{tick(Skipped, "A:S A:K", "I I"), tick(Success, "A:S A:S", "I I")}},
		{name: "num_cycles 0: success without ticking", tree: func(r *recorder) *Spec { return Repeat(0, r.leaf("A", "S")) },
			steps: []tstep{tick(Success, "", "I I")}},
		{name: "num_cycles -1: forever", mode: onlyExactly, tree: func(r *recorder) *Spec { return Repeat(-1, r.leaf("A", "S")) },
			steps: []tstep{tick(Running, "A:S", "R I"), tick(Running, "A:S", "R I"), tick(Running, "A:S", "R I")}},
		{name: "halt resets the count", mode: onlyExactly, tree: func(r *recorder) *Spec { return Repeat(2, r.leaf("A", "S R S S")) },
			steps: []tstep{tick(Running, "A:S", "R I"), tick(Running, "A:R", "R R"), halt("A:halt", "I I"),
				tick(Running, "A:S", "R I"), tick(Success, "A:S", "I I")}},
		{name: "num_cycles from the blackboard", mode: onlyOnce, tree: func(r *recorder) *Spec {
			return Sequence(Script("n := 2"), repeatModel.Spec(r.leaf("A", "S")).With("num_cycles", "{n}"))
		}, steps: []tstep{tick(Success, "A:S A:S", "")}},
	})
	tickError(t, repeatModel.Spec(AlwaysSuccess()), `Repeat needs the port "num_cycles": set it with With("num_cycles", …)`)
}

func TestRetryUntilSuccessful(t *testing.T) {
	runDecCases(t, []decCase{
		{name: "retries in one TickOnce", mode: onlyOnce, tree: func(r *recorder) *Spec { return RetryUntilSuccessful(3, r.leaf("A", "F F S")) },
			steps: []tstep{tick(Success, "A:F A:F A:S", "I I")}},
		{name: "yields after a synchronous failure", mode: onlyExactly, tree: func(r *recorder) *Spec {
			return RetryUntilSuccessful(3, r.leaf("A", "F F S"))
		}, steps: []tstep{tick(Running, "A:F", "R I"), tick(Running, "A:F", "R I"), tick(Success, "A:S", "I I")}},
		{name: "no yield after an asynchronous failure", mode: onlyExactly, tree: func(r *recorder) *Spec {
			return RetryUntilSuccessful(3, r.leaf("A", "R F S"))
		}, steps: []tstep{tick(Running, "A:R", "R R"), tick(Success, "A:F A:S", "I I")}},
		{name: "attempts exhausted: failure, the count is reset", mode: onlyOnce, tree: func(r *recorder) *Spec {
			return RetryUntilSuccessful(2, r.leaf("A", "F"))
		}, steps: []tstep{tick(Failure, "A:F A:F", "I I"), tick(Failure, "A:F A:F", "I I")}},
		{name: "success resets the count", mode: onlyOnce, tree: func(r *recorder) *Spec {
			return RetryUntilSuccessful(2, r.leaf("A", "F S F F"))
		}, steps: []tstep{tick(Success, "A:F A:S", "I I"), tick(Failure, "A:F A:F", "I I")}},
		{name: "running child", tree: func(r *recorder) *Spec { return RetryUntilSuccessful(2, r.leaf("A", "R")) },
			steps: []tstep{tick(Running, "A:R", "R R")}},
		{name: "skipped child: skipped, the count is kept", mode: onlyExactly, tree: func(r *recorder) *Spec {
			return RetryUntilSuccessful(2, r.leaf("A", "F K F"))
		}, steps: []tstep{tick(Running, "A:F", "R I"), tick(Skipped, "A:K", "I I"), tick(Failure, "A:F", "I I")}},
		{name: "num_attempts 0: failure without ticking", tree: func(r *recorder) *Spec { return RetryUntilSuccessful(0, r.leaf("A", "S")) },
			steps: []tstep{tick(Failure, "", "I I")}},
		{name: "halt resets the count", mode: onlyExactly, tree: func(r *recorder) *Spec {
			return RetryUntilSuccessful(2, r.leaf("A", "F R F F"))
		}, steps: []tstep{tick(Running, "A:F", "R I"), tick(Running, "A:R", "R R"), halt("A:halt", "I I"),
			tick(Running, "A:F", "R I"), tick(Failure, "A:F", "I I")}},
		{name: "num_attempts is read again after each failure", mode: onlyOnce, tree: func(r *recorder) *Spec {
			return Sequence(Script("n := 5"), retryModel.Spec(ScriptCondition("n = 1; false")).With("num_attempts", "{n}"))
		}, steps: []tstep{tick(Failure, "", "").then(entryIs("n", "1"))}},
	})
	tickError(t, retryModel.Spec(AlwaysSuccess()), `RetryUntilSuccessful needs the port "num_attempts": set it with With("num_attempts", …)`)
}

func TestRunOnce(t *testing.T) {
	runDecCases(t, []decCase{
		{name: "then_skip: skipped after the first completion", tree: func(r *recorder) *Spec { return RunOnce(true, r.leaf("A", "S F")) },
			steps: []tstep{tick(Success, "A:S", "I I"), tick(Skipped, "", "I I"), tick(Skipped, "", "I I")}},
		{name: "then_skip false: the remembered status", tree: func(r *recorder) *Spec { return RunOnce(false, r.leaf("A", "F S")) },
			steps: []tstep{tick(Failure, "A:F", "I I"), tick(Failure, "", "I I")}},
		{name: "running child", tree: func(r *recorder) *Spec { return RunOnce(true, r.leaf("A", "R S")) },
			steps: []tstep{tick(Running, "A:R", "R R"), tick(Success, "A:S", "I I"), tick(Skipped, "", "I I")}},
		{name: "skipped child: nothing is remembered", tree: func(r *recorder) *Spec { return RunOnce(true, r.leaf("A", "K S")) },
			steps: []tstep{tick(Skipped, "A:K", "I I"), tick(Success, "A:S", "I I"), tick(Skipped, "", "I I")}},
		{name: "halt while running: the child runs again", tree: func(r *recorder) *Spec { return RunOnce(true, r.leaf("A", "R S")) },
			steps: []tstep{tick(Running, "A:R", "R R"), halt("A:halt", "I I"), tick(Success, "A:S", "I I"), tick(Skipped, "", "I I")}},
		{name: "halting never resets the memory", tree: func(r *recorder) *Spec {
			return Sequence(RunOnce(true, r.leaf("A", "R S")), r.leaf("B", "R"))
		}, steps: []tstep{tick(Running, "A:R", "R R R I"), tick(Running, "A:S B:R", "R S I R"), halt("B:halt", "I I I I"),
			tick(Running, "B:R", "R I I R")}},
	})
}

func TestLoopQueue(t *testing.T) {
	sum := func(r *recorder) *Spec { return Sequence(r.leaf("A", "S"), Script("sum := sum + v")) }
	start := set("sum", blackboard.Int(0))
	runDecCases(t, []decCase{
		{name: "one element per tick, then if_empty", tree: func(r *recorder) *Spec { return LoopInt("1;2;3", "{v}", sum(r)) },
			steps: []tstep{
				tick(Running, "A:S", "R I I I").first(start).then(entryIs("v", "1")),
				tick(Running, "A:S", "").then(entryIs("v", "2")),
				tick(Running, "A:S", "").then(entryIs("sum", "6")),
				tick(Success, "", "I I I I"),
				tick(Running, "A:S", "").then(entryIs("v", "1")), // a new activation copies the text afresh
			}},
		{name: "child running: nothing popped", tree: func(r *recorder) *Spec { return LoopInt("1;2", "{v}", r.leaf("A", "R S R S")) },
			steps: []tstep{tick(Running, "A:R", "R R").then(entryIs("v", "1")), tick(Running, "A:S", "R I").then(entryIs("v", "1")),
				tick(Running, "A:R", "R R").then(entryIs("v", "2")), tick(Running, "A:S", "R I"), tick(Success, "", "I I")}},
		{name: "child failure: failure", tree: func(r *recorder) *Spec { return LoopInt("1;2;3", "{v}", r.leaf("A", "S F")) },
			steps: []tstep{tick(Running, "A:S", "R I"), tick(Failure, "A:F", "I I").then(entryIs("v", "2"))}},
		{name: "child skipped: running", tree: func(r *recorder) *Spec { return LoopInt("1", "{v}", r.leaf("A", "K")) },
			steps: []tstep{tick(Running, "A:K", "R I"), tick(Success, "", "I I")}},
		{name: "empty queue: if_empty", tree: func(r *recorder) *Spec {
			return LoopInt("", "{v}", r.leaf("A", "S")).With("if_empty", "SKIPPED")
		}, steps: []tstep{tick(Skipped, "", "I I")}},
		{name: "if_empty FAILURE", tree: func(r *recorder) *Spec {
			return LoopString("x", "{v}", r.leaf("A", "S")).With("if_empty", "FAILURE")
		}, steps: []tstep{tick(Running, "A:S", "R I").then(entryIs("v", "x")), tick(Failure, "", "I I")}},
		{name: "halt: the next activation starts over", tree: func(r *recorder) *Spec { return LoopInt("1;2", "{v}", r.leaf("A", "R")) },
			steps: []tstep{tick(Running, "A:R", "R R"), halt("A:halt", "I I"), tick(Running, "A:R", "R R").then(entryIs("v", "1"))}},
		{name: "a slice entry is consumed in place", tree: func(r *recorder) *Spec { return LoopInt("{q}", "{v}", r.leaf("A", "S F")) },
			steps: []tstep{
				tick(Running, "A:S", "").first(func(tree *Tree) error {
					return tree.Blackboard().Entry("q").Set(blackboard.ValueOf([]int{4, 5, 6}))
				}).then(entryIs("q", "[5 6]")),
				tick(Failure, "A:F", "").then(func(t *testing.T, tree *Tree) {
					q, err := blackboard.Get[[]int](tree.Blackboard().Entry("q"))
					if err != nil || len(q) != 1 || q[0] != 6 {
						t.Errorf("queue %v, %v; want [6]", q, err)
					}
				}),
			}},
		{name: "a text entry is read once per activation", tree: func(r *recorder) *Spec {
			return LoopDouble("{q}", "{v}", r.leaf("A", "S"))
		}, steps: []tstep{
			tick(Running, "A:S", "").first(set("q", blackboard.String("0.5;1.5"))).then(entryIs("v", "0.5")),
			tick(Running, "A:S", "").first(set("q", blackboard.String("9"))).then(entryIs("v", "1.5")),
			tick(Success, "", "").then(entryIs("q", "9")),
		}},
		{name: "an empty entry is an empty queue", tree: func(r *recorder) *Spec { return LoopBool("{q}", "{v}", r.leaf("A", "S")) },
			steps: []tstep{tick(Success, "", "I I")}},
		{name: "LoopBool", tree: func(r *recorder) *Spec { return LoopBool("true;0", "{v}", r.leaf("A", "S")) },
			steps: []tstep{tick(Running, "A:S", "").then(entryIs("v", "true")), tick(Running, "A:S", "").then(entryIs("v", "false"))}},
	})
	tickError(t, LoopInt("1;x", "{v}", AlwaysSuccess()), `port "queue"`)
	tickError(t, Sequence(Script("q := 3"), LoopInt("{q}", "{v}", AlwaysSuccess())), `holds a int64, not a []int`)
	tickError(t, LoopInt("", "{v}", AlwaysSuccess()).With("if_empty", "IDLE"), `SUCCESS, FAILURE or SKIPPED`)
}

func TestSkipUnlessUpdated(t *testing.T) {
	runDecCases(t, []decCase{
		{name: "missing entry: skipped", tree: func(r *recorder) *Spec { return SkipUnlessUpdated("x", r.leaf("A", "S")) },
			steps: []tstep{tick(Skipped, "", "I I")}},
		{name: "updated: tick the child; not updated since: skipped", tree: func(r *recorder) *Spec {
			return SkipUnlessUpdated("{x}", r.leaf("A", "S F"))
		}, steps: []tstep{
			tick(Success, "A:S", "I I").first(set("x", blackboard.Int(1))),
			tick(Skipped, "", "I I"),
			tick(Failure, "A:F", "I I").first(set("x", blackboard.Int(1))), // a write, even of the same value
		}},
		{name: "running child goes on without looking", tree: func(r *recorder) *Spec {
			return SkipUnlessUpdated("x", r.leaf("A", "R R S S"))
		}, steps: []tstep{
			tick(Running, "A:R", "R R").first(set("x", blackboard.Int(1))),
			tick(Running, "A:R", "R R"), tick(Success, "A:S", "I I"), tick(Skipped, "", "I I"),
		}},
		{name: "halt: look again", tree: func(r *recorder) *Spec { return SkipUnlessUpdated("x", r.leaf("A", "R")) },
			steps: []tstep{tick(Running, "A:R", "").first(set("x", blackboard.Int(1))), halt("A:halt", "I I"), tick(Skipped, "", "I I")}},
		{name: "unset is not an update", tree: func(r *recorder) *Spec { return SkipUnlessUpdated("x", r.leaf("A", "S")) },
			steps: []tstep{
				tick(Success, "A:S", "").first(set("x", blackboard.Int(1))),
				tick(Skipped, "", "").first(func(tree *Tree) error { tree.Blackboard().Unset("x"); return nil }),
			}},
	})
	tickError(t, skipUnlessUpdatedModel.Spec(AlwaysSuccess()), `SkipUnlessUpdated needs the port "entry": set it with With("entry", …)`)
}

func TestWaitValueUpdate(t *testing.T) {
	runDecCases(t, []decCase{
		{name: "waits until the entry is written", tree: func(r *recorder) *Spec { return WaitValueUpdate("x", r.leaf("A", "S")) },
			steps: []tstep{
				tick(Running, "", "R I"), tick(Running, "", "R I"),
				tick(Success, "A:S", "I I").first(set("x", blackboard.String("now"))),
				tick(Running, "", "R I"),
			}},
		{name: "running child goes on without looking", tree: func(r *recorder) *Spec {
			return WaitValueUpdate("x", r.leaf("A", "R S"))
		}, steps: []tstep{tick(Running, "A:R", "R R").first(set("x", blackboard.Int(1))), tick(Success, "A:S", "I I")}},
		{name: "halt", tree: func(r *recorder) *Spec { return WaitValueUpdate("x", r.leaf("A", "R")) },
			steps: []tstep{tick(Running, "A:R", "").first(set("x", blackboard.Int(1))), halt("A:halt", "I I"), tick(Running, "", "R I")}},
	})
}

func TestWasEntryUpdated(t *testing.T) {
	runDecCases(t, []decCase{
		{name: "contract", tree: func(*recorder) *Spec { return WasEntryUpdated("{x}") }, steps: []tstep{
			tick(Failure, "", "I"), // missing
			tick(Success, "", "I").first(set("x", blackboard.Int(1))),
			tick(Failure, "", "I"), // not written since
			tick(Success, "", "I").first(set("x", blackboard.Int(2))),
		}},
	})
}

func TestSetBlackboard(t *testing.T) {
	runDecCases(t, []decCase{
		{name: "a literal is stored as text", tree: func(*recorder) *Spec { return SetBlackboard("greeting", "42") },
			steps: []tstep{tick(Success, "", "I").then(func(t *testing.T, tree *Tree) {
				if v := tree.Blackboard().Entry("greeting").Load(); v.Kind() != blackboard.KindString || v.Str() != "42" {
					t.Errorf("greeting = %#v", v)
				}
			})}},
		{name: "{src} copies value and type", tree: func(*recorder) *Spec {
			return Sequence(Script("src := 41"), SetBlackboard("copy", "{src}"), Script("copy += 1"))
		}, steps: []tstep{tick(Success, "", "").then(entryIs("copy", "42"))}},
		{name: "text into a typed entry is converted", tree: func(*recorder) *Spec { return SetBlackboard("n", "7") },
			steps: []tstep{tick(Success, "", "").first(func(tree *Tree) error {
				return blackboard.Put(tree.Blackboard().Entry("n"), 3)
			}).then(func(t *testing.T, tree *Tree) {
				if v := tree.Blackboard().Entry("n").Load(); v.Kind() != blackboard.KindInt || v.Int() != 7 {
					t.Errorf("n = %#v", v)
				}
			})}},
		{name: "an empty source: failure", tree: func(*recorder) *Spec {
			return Sequence(SetBlackboard("dst", "{src}"))
		}, steps: []tstep{tick(Failure, "", "").first(func(tree *Tree) error {
			return tree.Blackboard().Entry("src").Declare(nil)
		}).then(entryIs("dst", ""))}},
		{name: "a source nothing wrote: failure, and a Fallback goes on", tree: func(*recorder) *Spec {
			return Fallback(SetBlackboard("dst", "{never}"), Script("next := 1"))
		}, steps: []tstep{tick(Success, "", "").then(entryIs("next", "1")).then(entryIs("dst", ""))}},
		{name: "output_key {k}: the key is read from k", tree: func(*recorder) *Spec {
			return Sequence(Script("k := 'target'"), SetBlackboard("{k}", "x"))
		}, steps: []tstep{tick(Success, "", "").then(entryIs("target", "x"))}},
		{name: "a write is an update", tree: func(*recorder) *Spec {
			return Sequence(SetBlackboard("x", "1"), WasEntryUpdated("x"))
		}, steps: []tstep{tick(Success, "", "")}},
	})
	tickError(t, Sequence(Script("gone := 1"), UnsetBlackboard("gone"), SetBlackboard("dst", "{gone}")), `the entry "gone" does not exist`)
	typed := NewAction("typed", func(n *Node) (Status, error) { return Success, blackboard.Put(n.Blackboard().Entry("n"), 1) })
	tickError(t, Sequence(typed.Spec(), SetBlackboard("n", "x")), `entry "n"`)
	tickError(t, setBlackboardModel.Spec().With("value", "1"), `SetBlackboard needs the port "output_key": set it with With("output_key", …)`)
}

func TestUnsetBlackboard(t *testing.T) {
	runDecCases(t, []decCase{
		{name: "present or absent: success", tree: func(*recorder) *Spec {
			return Sequence(Script("a := 1"), UnsetBlackboard("a"), UnsetBlackboard("never"))
		}, steps: []tstep{tick(Success, "", "I I I I").then(entryIs("a", ""))}},
		{name: "only the node's own scope", tree: func(*recorder) *Spec {
			return Sequence(Script("a := 1"), SubTree("sub", UnsetBlackboard("a")).AutoRemap(true))
		}, steps: []tstep{tick(Success, "", "").then(entryIs("a", "1"))}},
	})
}

// TestDecoratorTicksDoNotAllocate ticks every decorator and action of this family
// (except Log, whose logger allocates) many times: a tick must not allocate.
func TestDecoratorTicksDoNotAllocate(t *testing.T) {
	again := func(s *Spec) *Spec { return ForceRunning(s) }
	tree, err := NewTree(Parallel(-1, 1,
		again(Inverter(AlwaysFailure())), again(Not(AlwaysSuccess())),
		again(ForceSuccess(AlwaysFailure())), again(ForceFailure(AlwaysSuccess())),
		KeepRunningUntilFailure(AlwaysSuccess()), again(Repeat(3, AlwaysSuccess())), again(LoopDouble("1;2", "{k}", AlwaysSuccess())),
		again(RetryUntilSuccessful(3, AlwaysFailure())), again(RunOnce(false, AlwaysSuccess())),
		LoopInt("1;2;3", "{i}", AlwaysSuccess()), again(LoopInt("", "{j}", AlwaysSuccess())),
		again(SkipUnlessUpdated("x", AlwaysSuccess())), again(WaitValueUpdate("x", AlwaysSuccess())),
		again(WasEntryUpdated("x")), again(SetBlackboard("x", "text")), again(UnsetBlackboard("nothing")),
		again(Loop(2, AlwaysSuccess())), again(LoopUntil(3, true, AlwaysFailure())),
		again(Frames(2, AlwaysSuccess())), again(CountLimit(-1, "", AlwaysSuccess())),
		again(SuccessUntil(3, AlwaysSuccess())), again(FailureUntil(3, AlwaysSuccess())),
		again(TestNode(TestNodeConfig{})), AlwaysRunning(),
		again(Loop(2, AlwaysSuccess()).With("in_one_tick", "true")),
	), WithClock(&fakeClock{now: epoch}))
	if err != nil {
		t.Fatal(err)
	}
	for range 10 {
		if _, err := tree.TickOnce(); err != nil {
			t.Fatal(err)
		}
	}
	if n := testing.AllocsPerRun(200, func() { tree.TickOnce() }); n != 0 {
		t.Errorf("%v allocations per tick", n)
	}
}

// BenchmarkDecoratorTick ticks a chain of decorators over a leaf: the cost of a
// decorator per tick.
func BenchmarkDecoratorTick(b *testing.B) {
	for _, c := range []struct {
		name string
		mk   func(*Spec) *Spec
	}{
		{"Inverter", Inverter},
		{"Repeat", func(s *Spec) *Spec { return Repeat(1, s) }},
		{"RetryUntilSuccessful", func(s *Spec) *Spec { return RetryUntilSuccessful(1, s) }},
		{"Loop", func(s *Spec) *Spec { return Loop(1, s) }},
		{"SuccessUntil", func(s *Spec) *Spec { return SuccessUntil(-1, s) }},
		{"Timeout", func(s *Spec) *Spec { return Timeout(0, s) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			s := AlwaysSuccess()
			for range 10 {
				s = c.mk(s)
			}
			tree, err := NewTree(s)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				tree.TickOnce()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/10, "ns/decorator")
		})
	}
}
