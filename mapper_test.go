package bt_test

import (
	"testing"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

// mapperCases is the table shared by the decorators that map their child's status:
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
