package bt_test

import (
	"testing"
	"time"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

func TestSleepNode(t *testing.T) {
	yes, no := true, false
	ms := time.Millisecond
	bttest.Run(t, []bttest.Case{
		{Name: "runs until the time is up", Tree: func(*bttest.Recorder) *Spec { return Sleep(100 * ms) },
			Steps: []bttest.Step{
				bttest.Tick(Running, "", "R"),
				bttest.Tick(Running, "", "R").After(99 * ms).First(woken(no)),
				bttest.Tick(Success, "", "I").After(ms).First(woken(yes)),
				bttest.Tick(Running, "", "R"),
			}},
		{Name: "msec 0: success at once", Tree: func(*bttest.Recorder) *Spec { return Sleep(0) },
			Steps: []bttest.Step{bttest.Tick(Success, "", "I")}},
		{Name: "halt stops the timer", Tree: func(*bttest.Recorder) *Spec { return Sleep(100 * ms) },
			Steps: []bttest.Step{bttest.Tick(Running, "", "R"), bttest.Halt("", "I"), bttest.Tick(Running, "", "R").After(70 * ms).First(woken(no)),
				bttest.Tick(Running, "", "R").After(70 * ms).First(woken(no)), bttest.Tick(Success, "", "I").After(30 * ms).First(woken(yes))}},
		{Name: "in a sequence", Tree: func(r *bttest.Recorder) *Spec { return Sequence(Sleep(10*ms), r.Leaf("A", "S")) },
			Steps: []bttest.Step{bttest.Tick(Running, "", "R R I"), bttest.Tick(Success, "A:S", "I I I").After(10 * ms)}},
	})
}
