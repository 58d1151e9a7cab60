package bt_test

import (
	"testing"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
	"github.com/gobt/bt/bttest"
)

// passThrough is the table shared by the decorators that map their child's status:
// what Success and Failure become, Running and Skipped passing through, halting.
func mapperCases(mk func(*Spec) *Spec, onSuccess, onFailure, onSkipped Status) []bttest.Case {
	l := func(s Status) string { return bttest.Letter(s) }
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
	return []bttest.Case{
		{Name: "child success → " + l(onSuccess), Tree: func(r *bttest.Recorder) *Spec { return mk(r.Leaf("A", "S")) },
			Steps: []bttest.Step{bttest.Tick(onSuccess, "A:S", restState)}},
		{Name: "child failure → " + l(onFailure), Tree: func(r *bttest.Recorder) *Spec { return mk(r.Leaf("A", "F")) },
			Steps: []bttest.Step{bttest.Tick(onFailure, "A:F", failState)}},
		{Name: "child running → R", Tree: func(r *bttest.Recorder) *Spec { return mk(r.Leaf("A", "R R")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Running, "A:R", "R R")}},
		{Name: "child skipped → " + l(onSkipped), Tree: func(r *bttest.Recorder) *Spec { return mk(r.Leaf("A", "K")) },
			Steps: []bttest.Step{bttest.Tick(onSkipped, "A:K", skipState)}},
		{Name: "halt halts the child", Tree: func(r *bttest.Recorder) *Spec { return mk(r.Leaf("A", "R S")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Halt("A:halt", "I I"), bttest.Tick(onSuccess, "A:S", restState)}},
	}
}

func TestInverter(t *testing.T) {
	bttest.Run(t, mapperCases(Inverter, Failure, Success, Skipped))
}

func TestNot(t *testing.T) {
	bttest.Run(t, mapperCases(Not, Failure, Success, Skipped))
}

func TestForceSuccess(t *testing.T) {
	bttest.Run(t, mapperCases(ForceSuccess, Success, Success, Skipped))
}

func TestForceFailure(t *testing.T) {
	bttest.Run(t, mapperCases(ForceFailure, Failure, Failure, Skipped))
}

func TestForceRunning(t *testing.T) {
	bttest.Run(t, append(mapperCases(ForceRunning, Running, Running, Skipped),
		bttest.Case{Name: "a completed child starts again", Tree: func(r *bttest.Recorder) *Spec { return ForceRunning(r.Leaf("A", "S F")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:S", "R I"), bttest.Tick(Running, "A:F", "R I")}}))
}

func TestKeepRunningUntilFailure(t *testing.T) {
	bttest.Run(t, append(mapperCases(KeepRunningUntilFailure, Running, Failure, Running),
		bttest.Case{Name: "one iteration per tick until failure", Tree: func(r *bttest.Recorder) *Spec {
			return KeepRunningUntilFailure(r.Leaf("A", "S S F"))
		}, Steps: []bttest.Step{bttest.Tick(Running, "A:S", "R I"), bttest.Tick(Running, "A:S", "R I"), bttest.Tick(Failure, "A:F", "I I")}}))
}

func TestAlwaysRunning(t *testing.T) {
	bttest.Run(t, []bttest.Case{{Name: "always running", Tree: func(*bttest.Recorder) *Spec { return AlwaysRunning() },
		Steps: []bttest.Step{bttest.Tick(Running, "", "R"), bttest.Tick(Running, "", "R"), bttest.Halt("", "I")}}})
}

func TestRepeat(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "all cycles in one TickOnce", Only: bttest.TickOnce, Tree: func(r *bttest.Recorder) *Spec { return Repeat(3, r.Leaf("A", "S")) },
			Steps: []bttest.Step{bttest.Tick(Success, "A:S A:S A:S", "I I"), bttest.Tick(Success, "A:S A:S A:S", "I I")}},
		{Name: "yields after a synchronous success", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *Spec { return Repeat(3, r.Leaf("A", "S")) },
			Steps: []bttest.Step{
				bttest.Tick(Running, "A:S", "R I").Then(func(t *testing.T, tree *Tree) {
					if !TakeWakeUp(tree) {
						t.Error("no wake-up after a yield")
					}
				}),
				bttest.Tick(Running, "A:S", "R I"), bttest.Tick(Success, "A:S", "I I")}},
		{Name: "no yield after an asynchronous success", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *Spec {
			return Repeat(2, r.Leaf("A", "R S R S"))
		}, Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Running, "A:S A:R", "R R"), bttest.Tick(Success, "A:S", "I I")}},
		{Name: "failure resets the count", Only: bttest.TickOnce, Tree: func(r *bttest.Recorder) *Spec { return Repeat(3, r.Leaf("A", "S F S")) },
			Steps: []bttest.Step{bttest.Tick(Failure, "A:S A:F", "I I"), bttest.Tick(Success, "A:S A:S A:S", "I I")}},
		{Name: "failure, exactly once", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *Spec { return Repeat(3, r.Leaf("A", "S F")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:S", "R I"), bttest.Tick(Failure, "A:F", "I I")}},
		{Name: "skipped child: skipped, the count is kept", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *Spec {
			return Repeat(3, r.Leaf("A", "S K S S"))
		}, Steps: []bttest.Step{bttest.Tick(Running, "A:S", "R I"), bttest.Tick(Skipped, "A:K", "I I"), bttest.Tick(Running, "A:S", "R I"), bttest.Tick(Success, "A:S", "I I")}},
		{Name: "skipped child ends TickOnce", Only: bttest.TickOnce, Tree: func(r *bttest.Recorder) *Spec {
			return Repeat(3, r.Leaf("A", "S K S S"))
		}, Steps: []bttest.Step{bttest.Tick(Skipped, "A:S A:K", "I I"), bttest.Tick(Success, "A:S A:S", "I I")}},
		{Name: "num_cycles 0: success without ticking", Tree: func(r *bttest.Recorder) *Spec { return Repeat(0, r.Leaf("A", "S")) },
			Steps: []bttest.Step{bttest.Tick(Success, "", "I I")}},
		{Name: "num_cycles -1: forever", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *Spec { return Repeat(-1, r.Leaf("A", "S")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:S", "R I"), bttest.Tick(Running, "A:S", "R I"), bttest.Tick(Running, "A:S", "R I")}},
		{Name: "halt resets the count", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *Spec { return Repeat(2, r.Leaf("A", "S R S S")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:S", "R I"), bttest.Tick(Running, "A:R", "R R"), bttest.Halt("A:halt", "I I"),
				bttest.Tick(Running, "A:S", "R I"), bttest.Tick(Success, "A:S", "I I")}},
		{Name: "num_cycles from the blackboard", Only: bttest.TickOnce, Tree: func(r *bttest.Recorder) *Spec {
			return Sequence(Script("n := 2"), builtin("Repeat").Spec(r.Leaf("A", "S")).With("num_cycles", "{n}"))
		}, Steps: []bttest.Step{bttest.Tick(Success, "A:S A:S", "")}},
	})
	tickError(t, builtin("Repeat").Spec(AlwaysSuccess()), `Repeat needs the port "num_cycles": set it with With("num_cycles", …)`)
}

func TestRetryUntilSuccessful(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "retries in one TickOnce", Only: bttest.TickOnce, Tree: func(r *bttest.Recorder) *Spec { return RetryUntilSuccessful(3, r.Leaf("A", "F F S")) },
			Steps: []bttest.Step{bttest.Tick(Success, "A:F A:F A:S", "I I")}},
		{Name: "yields after a synchronous failure", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *Spec {
			return RetryUntilSuccessful(3, r.Leaf("A", "F F S"))
		}, Steps: []bttest.Step{bttest.Tick(Running, "A:F", "R I"), bttest.Tick(Running, "A:F", "R I"), bttest.Tick(Success, "A:S", "I I")}},
		{Name: "no yield after an asynchronous failure", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *Spec {
			return RetryUntilSuccessful(3, r.Leaf("A", "R F S"))
		}, Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Success, "A:F A:S", "I I")}},
		{Name: "attempts exhausted: failure, the count is reset", Only: bttest.TickOnce, Tree: func(r *bttest.Recorder) *Spec {
			return RetryUntilSuccessful(2, r.Leaf("A", "F"))
		}, Steps: []bttest.Step{bttest.Tick(Failure, "A:F A:F", "I I"), bttest.Tick(Failure, "A:F A:F", "I I")}},
		{Name: "success resets the count", Only: bttest.TickOnce, Tree: func(r *bttest.Recorder) *Spec {
			return RetryUntilSuccessful(2, r.Leaf("A", "F S F F"))
		}, Steps: []bttest.Step{bttest.Tick(Success, "A:F A:S", "I I"), bttest.Tick(Failure, "A:F A:F", "I I")}},
		{Name: "running child", Tree: func(r *bttest.Recorder) *Spec { return RetryUntilSuccessful(2, r.Leaf("A", "R")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R")}},
		{Name: "skipped child: skipped, the count is kept", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *Spec {
			return RetryUntilSuccessful(2, r.Leaf("A", "F K F"))
		}, Steps: []bttest.Step{bttest.Tick(Running, "A:F", "R I"), bttest.Tick(Skipped, "A:K", "I I"), bttest.Tick(Failure, "A:F", "I I")}},
		{Name: "num_attempts 0: failure without ticking", Tree: func(r *bttest.Recorder) *Spec { return RetryUntilSuccessful(0, r.Leaf("A", "S")) },
			Steps: []bttest.Step{bttest.Tick(Failure, "", "I I")}},
		{Name: "halt resets the count", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *Spec {
			return RetryUntilSuccessful(2, r.Leaf("A", "F R F F"))
		}, Steps: []bttest.Step{bttest.Tick(Running, "A:F", "R I"), bttest.Tick(Running, "A:R", "R R"), bttest.Halt("A:halt", "I I"),
			bttest.Tick(Running, "A:F", "R I"), bttest.Tick(Failure, "A:F", "I I")}},
		{Name: "num_attempts is read again after each failure", Only: bttest.TickOnce, Tree: func(r *bttest.Recorder) *Spec {
			return Sequence(Script("n := 5"), builtin("RetryUntilSuccessful").Spec(ScriptCondition("n = 1; false")).With("num_attempts", "{n}"))
		}, Steps: []bttest.Step{bttest.Tick(Failure, "", "").Then(bttest.EntryIs("n", "1"))}},
	})
	tickError(t, builtin("RetryUntilSuccessful").Spec(AlwaysSuccess()), `RetryUntilSuccessful needs the port "num_attempts": set it with With("num_attempts", …)`)
}

func TestRunOnce(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "then_skip: skipped after the first completion", Tree: func(r *bttest.Recorder) *Spec { return RunOnce(true, r.Leaf("A", "S F")) },
			Steps: []bttest.Step{bttest.Tick(Success, "A:S", "I I"), bttest.Tick(Skipped, "", "I I"), bttest.Tick(Skipped, "", "I I")}},
		{Name: "then_skip false: the remembered status", Tree: func(r *bttest.Recorder) *Spec { return RunOnce(false, r.Leaf("A", "F S")) },
			Steps: []bttest.Step{bttest.Tick(Failure, "A:F", "I I"), bttest.Tick(Failure, "", "I I")}},
		{Name: "running child", Tree: func(r *bttest.Recorder) *Spec { return RunOnce(true, r.Leaf("A", "R S")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Success, "A:S", "I I"), bttest.Tick(Skipped, "", "I I")}},
		{Name: "skipped child: nothing is remembered", Tree: func(r *bttest.Recorder) *Spec { return RunOnce(true, r.Leaf("A", "K S")) },
			Steps: []bttest.Step{bttest.Tick(Skipped, "A:K", "I I"), bttest.Tick(Success, "A:S", "I I"), bttest.Tick(Skipped, "", "I I")}},
		{Name: "halt while running: the child runs again", Tree: func(r *bttest.Recorder) *Spec { return RunOnce(true, r.Leaf("A", "R S")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Halt("A:halt", "I I"), bttest.Tick(Success, "A:S", "I I"), bttest.Tick(Skipped, "", "I I")}},
		{Name: "halting never resets the memory", Tree: func(r *bttest.Recorder) *Spec {
			return Sequence(RunOnce(true, r.Leaf("A", "R S")), r.Leaf("B", "R"))
		}, Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R R I"), bttest.Tick(Running, "A:S B:R", "R S I R"), bttest.Halt("B:halt", "I I I I"),
			bttest.Tick(Running, "B:R", "R I I R")}},
	})
}

func TestLoopQueue(t *testing.T) {
	sum := func(r *bttest.Recorder) *Spec { return Sequence(r.Leaf("A", "S"), Script("sum := sum + v")) }
	start := bttest.Assign("sum", blackboard.Int(0))
	bttest.Run(t, []bttest.Case{
		{Name: "one element per tick, then if_empty", Tree: func(r *bttest.Recorder) *Spec { return LoopInt("1;2;3", "{v}", sum(r)) },
			Steps: []bttest.Step{
				bttest.Tick(Running, "A:S", "R I I I").First(start).Then(bttest.EntryIs("v", "1")),
				bttest.Tick(Running, "A:S", "").Then(bttest.EntryIs("v", "2")),
				bttest.Tick(Running, "A:S", "").Then(bttest.EntryIs("sum", "6")),
				bttest.Tick(Success, "", "I I I I"),
				bttest.Tick(Running, "A:S", "").Then(bttest.EntryIs("v", "1")), // a new activation copies the text afresh
			}},
		{Name: "child running: nothing popped", Tree: func(r *bttest.Recorder) *Spec { return LoopInt("1;2", "{v}", r.Leaf("A", "R S R S")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R").Then(bttest.EntryIs("v", "1")), bttest.Tick(Running, "A:S", "R I").Then(bttest.EntryIs("v", "1")),
				bttest.Tick(Running, "A:R", "R R").Then(bttest.EntryIs("v", "2")), bttest.Tick(Running, "A:S", "R I"), bttest.Tick(Success, "", "I I")}},
		{Name: "child failure: failure", Tree: func(r *bttest.Recorder) *Spec { return LoopInt("1;2;3", "{v}", r.Leaf("A", "S F")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:S", "R I"), bttest.Tick(Failure, "A:F", "I I").Then(bttest.EntryIs("v", "2"))}},
		{Name: "child skipped: running", Tree: func(r *bttest.Recorder) *Spec { return LoopInt("1", "{v}", r.Leaf("A", "K")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:K", "R I"), bttest.Tick(Success, "", "I I")}},
		{Name: "empty queue: if_empty", Tree: func(r *bttest.Recorder) *Spec {
			return LoopInt("", "{v}", r.Leaf("A", "S")).With("if_empty", "SKIPPED")
		}, Steps: []bttest.Step{bttest.Tick(Skipped, "", "I I")}},
		{Name: "if_empty FAILURE", Tree: func(r *bttest.Recorder) *Spec {
			return LoopString("x", "{v}", r.Leaf("A", "S")).With("if_empty", "FAILURE")
		}, Steps: []bttest.Step{bttest.Tick(Running, "A:S", "R I").Then(bttest.EntryIs("v", "x")), bttest.Tick(Failure, "", "I I")}},
		{Name: "halt: the next activation starts over", Tree: func(r *bttest.Recorder) *Spec { return LoopInt("1;2", "{v}", r.Leaf("A", "R")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Halt("A:halt", "I I"), bttest.Tick(Running, "A:R", "R R").Then(bttest.EntryIs("v", "1"))}},
		{Name: "a slice entry is consumed in place", Tree: func(r *bttest.Recorder) *Spec { return LoopInt("{q}", "{v}", r.Leaf("A", "S F")) },
			Steps: []bttest.Step{
				bttest.Tick(Running, "A:S", "").First(func(t *testing.T, tree *Tree) {
					if err := tree.Blackboard().Entry("q").Set(blackboard.ValueOf([]int{4, 5, 6})); err != nil {
						t.Fatal(err)
					}
				}).Then(bttest.EntryIs("q", "[5 6]")),
				bttest.Tick(Failure, "A:F", "").Then(func(t *testing.T, tree *Tree) {
					q, err := blackboard.Get[[]int](tree.Blackboard().Entry("q"))
					if err != nil || len(q) != 1 || q[0] != 6 {
						t.Errorf("queue %v, %v; want [6]", q, err)
					}
				}),
			}},
		{Name: "a text entry is read once per activation", Tree: func(r *bttest.Recorder) *Spec {
			return LoopDouble("{q}", "{v}", r.Leaf("A", "S"))
		}, Steps: []bttest.Step{
			bttest.Tick(Running, "A:S", "").First(bttest.Assign("q", blackboard.String("0.5;1.5"))).Then(bttest.EntryIs("v", "0.5")),
			bttest.Tick(Running, "A:S", "").First(bttest.Assign("q", blackboard.String("9"))).Then(bttest.EntryIs("v", "1.5")),
			bttest.Tick(Success, "", "").Then(bttest.EntryIs("q", "9")),
		}},
		{Name: "an empty entry is an empty queue", Tree: func(r *bttest.Recorder) *Spec { return LoopBool("{q}", "{v}", r.Leaf("A", "S")) },
			Steps: []bttest.Step{bttest.Tick(Success, "", "I I")}},
		{Name: "LoopBool", Tree: func(r *bttest.Recorder) *Spec { return LoopBool("true;0", "{v}", r.Leaf("A", "S")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:S", "").Then(bttest.EntryIs("v", "true")), bttest.Tick(Running, "A:S", "").Then(bttest.EntryIs("v", "false"))}},
	})
	tickError(t, LoopInt("1;x", "{v}", AlwaysSuccess()), `port "queue"`)
	tickError(t, Sequence(Script("q := 3"), LoopInt("{q}", "{v}", AlwaysSuccess())), `holds a int64, not a []int`)
	tickError(t, LoopInt("", "{v}", AlwaysSuccess()).With("if_empty", "IDLE"), `SUCCESS, FAILURE or SKIPPED`)
}

func TestSkipUnlessUpdated(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "missing entry: skipped", Tree: func(r *bttest.Recorder) *Spec { return SkipUnlessUpdated("x", r.Leaf("A", "S")) },
			Steps: []bttest.Step{bttest.Tick(Skipped, "", "I I")}},
		{Name: "updated: tick the child; not updated since: skipped", Tree: func(r *bttest.Recorder) *Spec {
			return SkipUnlessUpdated("{x}", r.Leaf("A", "S F"))
		}, Steps: []bttest.Step{
			bttest.Tick(Success, "A:S", "I I").First(bttest.Assign("x", blackboard.Int(1))),
			bttest.Tick(Skipped, "", "I I"),
			bttest.Tick(Failure, "A:F", "I I").First(bttest.Assign("x", blackboard.Int(1))), // a write, even of the same value
		}},
		{Name: "running child goes on without looking", Tree: func(r *bttest.Recorder) *Spec {
			return SkipUnlessUpdated("x", r.Leaf("A", "R R S S"))
		}, Steps: []bttest.Step{
			bttest.Tick(Running, "A:R", "R R").First(bttest.Assign("x", blackboard.Int(1))),
			bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Success, "A:S", "I I"), bttest.Tick(Skipped, "", "I I"),
		}},
		{Name: "halt: look again", Tree: func(r *bttest.Recorder) *Spec { return SkipUnlessUpdated("x", r.Leaf("A", "R")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:R", "").First(bttest.Assign("x", blackboard.Int(1))), bttest.Halt("A:halt", "I I"), bttest.Tick(Skipped, "", "I I")}},
		{Name: "unset is not an update", Tree: func(r *bttest.Recorder) *Spec { return SkipUnlessUpdated("x", r.Leaf("A", "S")) },
			Steps: []bttest.Step{
				bttest.Tick(Success, "A:S", "").First(bttest.Assign("x", blackboard.Int(1))),
				bttest.Tick(Skipped, "", "").First(func(_ *testing.T, tree *Tree) { tree.Blackboard().Unset("x") }),
			}},
	})
	tickError(t, builtin("SkipUnlessUpdated").Spec(AlwaysSuccess()), `SkipUnlessUpdated needs the port "entry": set it with With("entry", …)`)
}

func TestWaitValueUpdate(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "waits until the entry is written", Tree: func(r *bttest.Recorder) *Spec { return WaitValueUpdate("x", r.Leaf("A", "S")) },
			Steps: []bttest.Step{
				bttest.Tick(Running, "", "R I"), bttest.Tick(Running, "", "R I"),
				bttest.Tick(Success, "A:S", "I I").First(bttest.Assign("x", blackboard.String("now"))),
				bttest.Tick(Running, "", "R I"),
			}},
		{Name: "running child goes on without looking", Tree: func(r *bttest.Recorder) *Spec {
			return WaitValueUpdate("x", r.Leaf("A", "R S"))
		}, Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R").First(bttest.Assign("x", blackboard.Int(1))), bttest.Tick(Success, "A:S", "I I")}},
		{Name: "halt", Tree: func(r *bttest.Recorder) *Spec { return WaitValueUpdate("x", r.Leaf("A", "R")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:R", "").First(bttest.Assign("x", blackboard.Int(1))), bttest.Halt("A:halt", "I I"), bttest.Tick(Running, "", "R I")}},
	})
}

func TestWasEntryUpdated(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "contract", Tree: func(*bttest.Recorder) *Spec { return WasEntryUpdated("{x}") }, Steps: []bttest.Step{
			bttest.Tick(Failure, "", "I"), // missing
			bttest.Tick(Success, "", "I").First(bttest.Assign("x", blackboard.Int(1))),
			bttest.Tick(Failure, "", "I"), // not written since
			bttest.Tick(Success, "", "I").First(bttest.Assign("x", blackboard.Int(2))),
		}},
	})
}

func TestSetBlackboard(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "a literal is stored as text", Tree: func(*bttest.Recorder) *Spec { return SetBlackboard("greeting", "42") },
			Steps: []bttest.Step{bttest.Tick(Success, "", "I").Then(func(t *testing.T, tree *Tree) {
				if v := tree.Blackboard().Entry("greeting").Load(); v.Kind() != blackboard.KindString || v.Str() != "42" {
					t.Errorf("greeting = %#v", v)
				}
			})}},
		{Name: "{src} copies value and type", Tree: func(*bttest.Recorder) *Spec {
			return Sequence(Script("src := 41"), SetBlackboard("copy", "{src}"), Script("copy += 1"))
		}, Steps: []bttest.Step{bttest.Tick(Success, "", "").Then(bttest.EntryIs("copy", "42"))}},
		{Name: "text into a typed entry is converted", Tree: func(*bttest.Recorder) *Spec { return SetBlackboard("n", "7") },
			Steps: []bttest.Step{bttest.Tick(Success, "", "").First(func(t *testing.T, tree *Tree) {
				if err := blackboard.Put(tree.Blackboard().Entry("n"), 3); err != nil {
					t.Fatal(err)
				}
			}).Then(func(t *testing.T, tree *Tree) {
				if v := tree.Blackboard().Entry("n").Load(); v.Kind() != blackboard.KindInt || v.Int() != 7 {
					t.Errorf("n = %#v", v)
				}
			})}},
		{Name: "an empty source: failure", Tree: func(*bttest.Recorder) *Spec {
			return Sequence(SetBlackboard("dst", "{src}"))
		}, Steps: []bttest.Step{bttest.Tick(Failure, "", "").First(func(t *testing.T, tree *Tree) {
			if err := tree.Blackboard().Entry("src").Declare(nil); err != nil {
				t.Fatal(err)
			}
		}).Then(bttest.EntryIs("dst", ""))}},
		{Name: "a source nothing wrote: failure, and a Fallback goes on", Tree: func(*bttest.Recorder) *Spec {
			return Fallback(SetBlackboard("dst", "{never}"), Script("next := 1"))
		}, Steps: []bttest.Step{bttest.Tick(Success, "", "").Then(bttest.EntryIs("next", "1")).Then(bttest.EntryIs("dst", ""))}},
		{Name: "output_key {k}: the key is read from k", Tree: func(*bttest.Recorder) *Spec {
			return Sequence(Script("k := 'target'"), SetBlackboard("{k}", "x"))
		}, Steps: []bttest.Step{bttest.Tick(Success, "", "").Then(bttest.EntryIs("target", "x"))}},
		{Name: "a write is an update", Tree: func(*bttest.Recorder) *Spec {
			return Sequence(SetBlackboard("x", "1"), WasEntryUpdated("x"))
		}, Steps: []bttest.Step{bttest.Tick(Success, "", "")}},
	})
	tickError(t, Sequence(Script("gone := 1"), UnsetBlackboard("gone"), SetBlackboard("dst", "{gone}")), `the entry "gone" does not exist`)
	typed := NewAction("typed", func(n *Node) (Status, error) { return Success, blackboard.Put(n.Blackboard().Entry("n"), 1) })
	tickError(t, Sequence(typed.Spec(), SetBlackboard("n", "x")), `entry "n"`)
	tickError(t, builtin("SetBlackboard").Spec().With("value", "1"), `SetBlackboard needs the port "output_key": set it with With("output_key", …)`)
}

func TestUnsetBlackboard(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "present or absent: success", Tree: func(*bttest.Recorder) *Spec {
			return Sequence(Script("a := 1"), UnsetBlackboard("a"), UnsetBlackboard("never"))
		}, Steps: []bttest.Step{bttest.Tick(Success, "", "I I I I").Then(bttest.EntryIs("a", ""))}},
		{Name: "only the node's own scope", Tree: func(*bttest.Recorder) *Spec {
			return Sequence(Script("a := 1"), SubTree("sub", UnsetBlackboard("a")).AutoRemap(true))
		}, Steps: []bttest.Step{bttest.Tick(Success, "", "").Then(bttest.EntryIs("a", "1"))}},
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
	), WithClock(bttest.NewClock(epoch)))
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
