package bt_test

import (
	"testing"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

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
