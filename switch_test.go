package bt_test

import (
	"testing"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
	"github.com/gobt/bt/bttest"
)

func TestSwitch(t *testing.T) {
	sw := func(variable string, r *bttest.Recorder) *Spec {
		return Switch(variable, []string{"walk", "3", "2.5"}, r.Leaf("W", "S"), r.Leaf("T", "S"), r.Leaf("F", "R"), r.Leaf("D", "S"))
	}
	bttest.Run(t, []bttest.Case{
		{Name: "text match", Tree: func(r *bttest.Recorder) *Spec { return sw("walk", r) },
			Steps: []bttest.Step{{Want: Success, Log: "W:S", States: "I I I I I"}}},
		{Name: "integer match", Tree: func(r *bttest.Recorder) *Spec { return sw("03", r) },
			Steps: []bttest.Step{{Want: Success, Log: "T:S"}}},
		{Name: "real match within epsilon", Tree: func(r *bttest.Recorder) *Spec { return sw("2.50000001", r) },
			Steps: []bttest.Step{{Want: Running, Log: "F:R"}}},
		{Name: "no match: default", Tree: func(r *bttest.Recorder) *Spec { return sw("swim", r) },
			Steps: []bttest.Step{{Want: Success, Log: "D:S"}}},
		{Name: "unset variable: default", Tree: func(r *bttest.Recorder) *Spec { return sw("{nothing}", r) },
			Steps: []bttest.Step{{Want: Success, Log: "D:S"}}},
		{Name: "skipped child is not replaced by the default", Tree: func(r *bttest.Recorder) *Spec {
			return Switch("a", []string{"a", "b"}, r.Leaf("A", "K"), r.Leaf("B", "S"), r.Leaf("D", "S"))
		}, Steps: []bttest.Step{{Want: Skipped, Log: "A:K"}}},
	})
}

func TestSwitchFollowsTheBlackboard(t *testing.T) {
	r := &bttest.Recorder{}
	tree, err := NewTree(Switch("{mode}", []string{"1", "2"}, r.Leaf("A", "R"), r.Leaf("B", "R"), r.Leaf("D", "R")))
	if err != nil {
		t.Fatal(err)
	}
	mode := tree.Blackboard().Entry("mode")
	for _, st := range []struct {
		set  func() error
		want string
	}{
		{func() error { return nil }, "D:R"},
		{func() error { return mode.Set(blackboard.String("2")) }, "D:halt B:R"},
		{func() error { return mode.Set(blackboard.String("1.0")) }, "B:halt A:R"},
		{func() error { return mode.Set(blackboard.String("x")) }, "A:halt D:R"},
	} {
		if err := st.set(); err != nil {
			t.Fatal(err)
		}
		if s, err := tree.TickOnce(); err != nil || s != Running {
			t.Fatal(s, err)
		}
		if got := r.Take(); got != st.want {
			t.Errorf("got %q, want %q", got, st.want)
		}
	}
}

func TestSwitchOnNumbers(t *testing.T) {
	for _, c := range []struct {
		v    blackboard.Value
		want string
	}{{blackboard.Int(2), "B:S"}, {blackboard.Float(1), "A:S"}, {blackboard.Float(1.5), "D:S"}, {blackboard.Bool(true), "A:S"}} {
		bb := blackboard.New()
		if err := bb.Entry("mode").Assign(c.v); err != nil { // as a script's "mode := …": a generic entry
			t.Fatal(err)
		}
		r := &bttest.Recorder{}
		tree, err := NewTree(Switch("{mode}", []string{"1", "2.0"}, r.Leaf("A", "S"), r.Leaf("B", "S"), r.Leaf("D", "S")), WithBlackboard(bb))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tree.TickOnce(); err != nil {
			t.Fatal(err)
		}
		if got := r.Take(); got != c.want {
			t.Errorf("%v: got %q, want %q", c.v, got, c.want)
		}
	}
}

// TestSwitchMatchesWholeText: a text variable matches a case as a number only when
// the whole text reads as one, as BehaviorTree.CPP's CheckStringEquality (its
// SwitchStringEquality.RejectsTrailingCharacters test): "5 " and "5abc" do not match
// case "5", while "5" matches "5.0".
func TestSwitchMatchesWholeText(t *testing.T) {
	for _, c := range []struct{ variable, cases, want string }{
		{"5", "5", "A:S"},
		{"5", "5.0", "A:S"},
		{"5.0", "5", "A:S"},
		{"42", "42", "A:S"},
		{"-7", "-7", "A:S"},
		{"5abc", "5", "D:S"},
		{"42xxxx", "42", "D:S"},
		{"1.0junk", "1.0", "D:S"},
		{"5 ", "5", "D:S"},
		{" 5", "5", "D:S"},
		{"5", " 5", "D:S"},
		{"none", "1", "D:S"},
		{"+5", "5", "D:S"},   // from_chars reads no sign '+'
		{"0x5", "5", "D:S"},  // nor a hex prefix
		{"1_0", "10", "D:S"}, // nor Go's digit separators
		{".5", "0.5", "A:S"},
		{"1e3", "1000", "A:S"},
	} {
		bb := blackboard.New()
		if err := bb.Entry("v").Assign(blackboard.String(c.variable)); err != nil {
			t.Fatal(err)
		}
		r := &bttest.Recorder{}
		tree, err := NewTree(Switch("{v}", []string{c.cases, "other"}, r.Leaf("A", "S"), r.Leaf("B", "S"), r.Leaf("D", "S")), WithBlackboard(bb))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tree.TickOnce(); err != nil {
			t.Fatal(err)
		}
		if got := r.Take(); got != c.want {
			t.Errorf("variable %q, case %q: got %q, want %q", c.variable, c.cases, got, c.want)
		}
	}
}

// TestSwitchOnTextDoesNotAllocate: a text variable is parsed once per write, and a word
// is not fed to strconv (whose errors allocate).
func TestSwitchOnTextDoesNotAllocate(t *testing.T) {
	tree, err := NewTree(Switch("{mode}", []string{"walk", "2"}, AlwaysSuccess(), AlwaysSuccess(), AlwaysFailure()))
	if err != nil {
		t.Fatal(err)
	}
	mode := tree.Blackboard().Entry("mode")
	for _, v := range []string{"walk", "run", "2"} {
		if err := mode.Set(blackboard.String(v)); err != nil {
			t.Fatal(err)
		}
		if a := testing.AllocsPerRun(50, func() { tree.TickOnce() }); a != 0 {
			t.Errorf("mode %q: %v allocations per tick", v, a)
		}
	}
}
