package bt_test

import (
	"testing"
	"time"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

func TestTimeout(t *testing.T) {
	yes, no := true, false
	ms := time.Millisecond
	bttest.Run(t, []bttest.Case{
		{Name: "child completes in time: its status; the timer stops", Tree: func(r *bttest.Recorder) *Spec {
			return Timeout(100*ms, r.Leaf("A", "R S R"))
		}, Steps: []bttest.Step{
			bttest.Tick(Running, "A:R", "R R"),
			bttest.Tick(Success, "A:S", "I I").After(50 * ms).First(woken(no)),
			bttest.Tick(Running, "A:R", "R R").After(time.Second).First(woken(no)), // the old timer is gone
		}},
		{Name: "child failure", Tree: func(r *bttest.Recorder) *Spec { return Timeout(100*ms, r.Leaf("A", "F")) },
			Steps: []bttest.Step{bttest.Tick(Failure, "A:F", "I I")}},
		{Name: "time up: the next tick halts the child and fails", Tree: func(r *bttest.Recorder) *Spec {
			return Timeout(100*ms, r.Leaf("A", "R"))
		}, Steps: []bttest.Step{
			bttest.Tick(Running, "A:R", "R R"),
			bttest.Tick(Running, "A:R", "R R").After(99 * ms).First(woken(no)),
			bttest.Tick(Failure, "A:halt", "I I").After(ms).First(woken(yes)),
			bttest.Tick(Running, "A:R", "R R"), // a new activation, a new timer
			bttest.Tick(Failure, "A:halt", "I I").After(100 * ms).First(woken(yes)),
		}},
		{Name: "time up wakes TickOnce's caller", Only: bttest.TickOnce, Tree: func(r *bttest.Recorder) *Spec {
			return Timeout(100*ms, r.Leaf("A", "R"))
		}, Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Failure, "A:halt", "I I").After(100 * ms)}},
		{Name: "msec 0: no limit", Tree: func(r *bttest.Recorder) *Spec { return Timeout(0, r.Leaf("A", "R")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Running, "A:R", "R R").After(time.Hour).First(woken(no))}},
		{Name: "child skipped: skipped, the timer stops", Tree: func(r *bttest.Recorder) *Spec { return Timeout(100*ms, r.Leaf("A", "K R")) },
			Steps: []bttest.Step{bttest.Tick(Skipped, "A:K", "I I"), bttest.Tick(Running, "A:R", "R R").After(time.Second).First(woken(no))}},
		{Name: "halt stops the timer", Tree: func(r *bttest.Recorder) *Spec { return Timeout(100*ms, r.Leaf("A", "R")) },
			Steps: []bttest.Step{
				bttest.Tick(Running, "A:R", "R R"), bttest.Halt("A:halt", "I I"),
				bttest.Tick(Running, "A:R", "R R").After(time.Second).First(woken(no)),
			}},
	})
	tickError(t, builtin("Timeout").Spec(AlwaysSuccess()), `Timeout needs the port "msec": set it with With("msec", …)`)
}
