package bt_test

import (
	"testing"
	"time"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

func TestDelay(t *testing.T) {
	yes, no := true, false
	ms := time.Millisecond
	bttest.Run(t, []bttest.Case{
		{Name: "waits, then ticks the child", Tree: func(r *bttest.Recorder) *Spec { return Delay(100*ms, r.Leaf("A", "R S")) },
			Steps: []bttest.Step{
				bttest.Tick(Running, "", "R I"),
				bttest.Tick(Running, "", "R I").After(50 * ms).First(woken(no)),
				bttest.Tick(Running, "A:R", "R R").After(50 * ms).First(woken(yes)),
				bttest.Tick(Success, "A:S", "I I"),
				bttest.Tick(Running, "", "R I"), // the next activation waits again
			}},
		{Name: "child failure", Tree: func(r *bttest.Recorder) *Spec { return Delay(10*ms, r.Leaf("A", "F")) },
			Steps: []bttest.Step{bttest.Tick(Running, "", "R I"), bttest.Tick(Failure, "A:F", "I I").After(10 * ms).First(woken(yes))}},
		{Name: "child skipped: the next activation waits again", Tree: func(r *bttest.Recorder) *Spec { return Delay(10*ms, r.Leaf("A", "K")) },
			Steps: []bttest.Step{bttest.Tick(Running, "", "R I"), bttest.Tick(Skipped, "A:K", "I I").After(10 * ms).First(woken(yes)), bttest.Tick(Running, "", "R I")}},
		{Name: "delay 0, exactly once: the child on the next tick", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *Spec {
			return Delay(0, r.Leaf("A", "S"))
		}, Steps: []bttest.Step{bttest.Tick(Running, "", "R I"), bttest.Tick(Success, "A:S", "I I")}},
		{Name: "delay 0, TickOnce: the child in the same call", Only: bttest.TickOnce, Tree: func(r *bttest.Recorder) *Spec {
			return Delay(0, r.Leaf("A", "S"))
		}, Steps: []bttest.Step{bttest.Tick(Success, "A:S", "I I")}},
		{Name: "halt stops the timer", Tree: func(r *bttest.Recorder) *Spec { return Delay(100*ms, r.Leaf("A", "R")) },
			Steps: []bttest.Step{
				bttest.Tick(Running, "", "R I"), bttest.Halt("", "I I"),
				bttest.Tick(Running, "", "R I").After(60 * ms).First(woken(no)),
				bttest.Tick(Running, "", "R I").After(60 * ms).First(woken(no)), // the first timer would have rung
				bttest.Tick(Running, "A:R", "R R").After(40 * ms).First(woken(yes)),
				bttest.Halt("A:halt", "I I"),
			}},
	})
}
