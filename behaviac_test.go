package bt_test

import (
	"strings"
	"testing"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

// whenEndsOn sets decorate_when_child_ends on a behaviac node.
func whenEndsOn(s *Spec) *Spec { return s.With("decorate_when_child_ends", "true") }

// TestBehaviacReentryWithoutReset: a parent may tick a completed child again before
// resetting it (WhileDoElse does so with its condition); that is a new entry, not a
// continuation (it used to wrap Loop's count to -1, "forever").
func TestBehaviacReentryWithoutReset(t *testing.T) {
	r := &bttest.Recorder{}
	tree, err := NewTree(WhileDoElse(Loop(1, AlwaysSuccess()), r.Leaf("D", "R R S"), r.Leaf("E", "S")))
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
