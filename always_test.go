package bt_test

import (
	"testing"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

func TestAlwaysRunning(t *testing.T) {
	bttest.Run(t, []bttest.Case{{Name: "always running", Tree: func(*bttest.Recorder) *Spec { return AlwaysRunning() },
		Steps: []bttest.Step{bttest.Tick(Running, "", "R"), bttest.Tick(Running, "", "R"), bttest.Halt("", "I")}}})
}
