package bt_test

import (
	"testing"
	"time"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

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
