package bt

import (
	"errors"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestGoBuiltTreesAreChecked: NewTree checks a tree built in Go as the loader checks
// XML, and reports every problem at once, each naming its node.
func TestGoBuiltTreesAreChecked(t *testing.T) {
	child := AlwaysSuccess
	for _, tc := range []struct {
		name string
		root *Spec
		want string
	}{
		{"undeclared port", Repeat(3, child()).With("num_cycle", "2"),
			`node Repeat::1 (Repeat): Repeat has no port "num_cycle"; did you mean "num_cycles"?`},
		{"undeclared port, no suggestion", child().With("nope", "1"),
			`node AlwaysSuccess::1 (AlwaysSuccess): AlwaysSuccess has no port "nope"`},
		{"misspelt hook", child().With("_skipif", "true"),
			`node AlwaysSuccess::1 (AlwaysSuccess): AlwaysSuccess has no port "_skipif"; did you mean "_skipIf"?`},
		{"control without children", Sequence(),
			`node Sequence::1 (Sequence): Sequence is a Control: it needs at least one child`},
		{"parallel without children", Parallel(1, 1),
			`node Parallel::1 (Parallel): Parallel is a Control: it needs at least one child`},
		{"decorator with two children", inverterModel.Spec(child(), child()),
			`node Inverter::1 (Inverter): Inverter is a Decorator: it has exactly one child, found 2`},
		{"decorator without child", ForceSuccess(nil),
			`bt: child 1 of ForceSuccess is nil`},
		{"leaf with a child", alwaysSuccessModel.Spec(child()),
			`node AlwaysSuccess::1 (AlwaysSuccess): AlwaysSuccess is a leaf (Action): it has no children, found 1`},
		{"negative duration", Timeout(-time.Millisecond, child()),
			`node Timeout::1 (Timeout): port "msec": "-1" is negative; it takes 0 or more`},
		{"negative duration under a millisecond", Delay(-time.Microsecond, child()),
			`node Delay::1 (Delay): port "delay_msec": "-1" is negative; it takes 0 or more`},
		{"negative sleep", Sleep(-time.Second),
			`node Sleep::1 (Sleep): port "msec": "-1000" is negative; it takes 0 or more`},
		{"negative count", Repeat(-5, child()),
			`node Repeat::1 (Repeat): port "num_cycles" must be -1 or more, not -5`},
		{"negative attempts", RetryUntilSuccessful(-3, child()),
			`node RetryUntilSuccessful::1 (RetryUntilSuccessful): port "num_attempts" must be -1 or more, not -3`},
		{"not a number", Repeat(3, child()).With("num_cycles", "many"),
			`node Repeat::1 (Repeat): port "num_cycles": cannot parse "many" as int: invalid syntax`},
		{"literal on an output port", LoopInt("1;2", "x", child()),
			`node LoopInt::1 (LoopInt): output port "value" must name a blackboard entry like {key}, not "x"`},
		{"script error, reported once", Script("x := := 1"),
			"node Script::1 (Script): port \"code\": 1:6: expected an operand, found ':='\n    x := := 1\n         ^"},
		{"script hook error", child().With("_onSuccess", "x :="),
			"node AlwaysSuccess::1 (AlwaysSuccess): _onSuccess: 1:5: expected an operand, found end of script\n    x :=\n        ^"},
		{"every problem, each with its node", Sequence(Repeat(-2, child()), Fallback(), child().With("n", "1")),
			`node Repeat::2 (Repeat): port "num_cycles" must be -1 or more, not -2` + "\n" +
				`node Fallback::4 (Fallback): Fallback is a Control: it needs at least one child` + "\n" +
				`node AlwaysSuccess::5 (AlwaysSuccess): AlwaysSuccess has no port "n"`},
		{"in a subtree", Sequence(SubTree("Sub", Repeat(-7, child()))),
			`node Sub::2/Repeat::3 (Repeat): port "num_cycles" must be -1 or more, not -7`},
		// WithValue
		{"value of another type", Repeat(3, child()).WithValue("num_cycles", 2.5),
			`node Repeat::1 (Repeat): port "num_cycles" is int: cannot set it to float64 2.5`},
		{"negative value into an unsigned port", timeoutModel.Spec(child()).WithValue("msec", -1),
			`node Timeout::1 (Timeout): port "msec" is uint32: cannot set it to int -1`},
		{"value out of range", repeatModel.Spec(child()).WithValue("num_cycles", -9),
			`node Repeat::1 (Repeat): port "num_cycles" must be -1 or more, not -9`},
		{"text that does not parse", repeatModel.Spec(child()).WithValue("num_cycles", "x"),
			`node Repeat::1 (Repeat): port "num_cycles": cannot parse "x" as int: invalid syntax`},
		{"value on an output port", LoopInt("1;2", "{x}", child()).WithValue("value", 3),
			`node LoopInt::1 (LoopInt): output port "value" takes a blackboard entry, not a value: use With("value", "{key}")`},
		{"value of a script port", Script("x := 1").WithValue("code", 3),
			`node Script::1 (Script): port "code" holds a script: want a string, not int`},
		{"nil value", child().WithValue("x", nil), `node AlwaysSuccess::1 (AlwaysSuccess): port "x": WithValue of nil`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewTree(tc.root)
			if err == nil || err.Error() != tc.want {
				t.Errorf("got error\n%v\nwant\n%s", err, tc.want)
			}
			var ne *NodeError
			if strings.HasPrefix(tc.want, "node ") && !errors.As(err, &ne) {
				t.Errorf("%v is not a *NodeError", err)
			}
		})
	}
}

// TestGoAndXMLGetTheSameErrors: a tree built in Go and the same tree written in XML
// are refused with the same message, after the node's name or the position.
func TestGoAndXMLGetTheSameErrors(t *testing.T) {
	leaf := AlwaysSuccess
	for _, tc := range []struct {
		spec *Spec
		xml  string
	}{
		{Repeat(3, leaf()).With("num_cycle", "2"), `<Repeat num_cycles="3" num_cycle="2"><AlwaysSuccess/></Repeat>`},
		{Sequence(), `<Sequence/>`},
		{inverterModel.Spec(leaf(), leaf()), `<Inverter><AlwaysSuccess/><AlwaysSuccess/></Inverter>`},
		{alwaysSuccessModel.Spec(leaf()), `<AlwaysSuccess><AlwaysSuccess/></AlwaysSuccess>`},
		{Timeout(-time.Millisecond, leaf()), `<Timeout msec="-1"><AlwaysSuccess/></Timeout>`},
		{Repeat(-5, leaf()), `<Repeat num_cycles="-5"><AlwaysSuccess/></Repeat>`},
		{Loop(-3, leaf()), `<Loop count="-3"><AlwaysSuccess/></Loop>`},
		{CountLimit(-2, "", leaf()), `<CountLimit count="-2"><AlwaysSuccess/></CountLimit>`},
		{Repeat(3, leaf()).With("num_cycles", "many"), `<Repeat num_cycles="many"><AlwaysSuccess/></Repeat>`},
		{LoopInt("1;2", "x", leaf()), `<LoopInt queue="1;2" value="x"><AlwaysSuccess/></LoopInt>`},
	} {
		_, goErr := NewTree(tc.spec)
		f := NewFactory()
		xmlErr := f.LoadString("t.xml", `<root BTCPP_format="4"><BehaviorTree ID="T">`+tc.xml+`</BehaviorTree></root>`)
		if goErr == nil || xmlErr == nil {
			t.Errorf("%s: Go: %v, XML: %v; want errors from both", tc.xml, goErr, xmlErr)
			continue
		}
		g := regexp.MustCompile(`^node \S+ \(\w+\): `).ReplaceAllString(goErr.Error(), "")
		x := regexp.MustCompile(`^t\.xml:\d+:\d+: `).ReplaceAllString(xmlErr.Error(), "")
		if g != x {
			t.Errorf("%s:\nGo:  %s\nXML: %s", tc.xml, g, x)
		}
	}
}

// TestWithValue: typed values in Go reach the nodes converted to their ports' types.
func TestWithValue(t *testing.T) {
	var got []any
	probe := NewAction("Probe", func(n *Node) (Status, error) {
		f, err := Get[float64](n, "f")
		if err != nil {
			return Failure, err
		}
		s, err := Get[string](n, "s")
		if err != nil {
			return Failure, err
		}
		d, err := Get[time.Duration](n, "d")
		if err != nil {
			return Failure, err
		}
		got = append(got, f, s, d)
		return Success, nil
	}, InputPort[float64]("f", ""), InputPort[string]("s", ""), InputPort[time.Duration]("d", ""))
	tree, err := NewTree(Sequence(
		Script("sum := 0"),
		probe.Spec().WithValue("f", 3).WithValue("s", "{not a key}").WithValue("d", 1500*time.Millisecond),
		Repeat(1, AlwaysSuccess()).WithValue("num_cycles", 2),
		SetBlackboard("answer", "").WithValue("value", 42),
		SubTree("Sub", Script("twice := half * 2")).WithValue("half", 2.5).With("twice", "{twice}"),
		LoopInt("", "{item}", Script("sum += item")).WithValue("queue", []int{1, 2, 3}),
	))
	if err != nil {
		t.Fatal(err)
	}
	s, err := tree.TickOnce()
	for i := 0; s == Running && err == nil && i < 5; i++ { // LoopInt: an item a tick
		s, err = tree.TickOnce()
	}
	if s != Success || err != nil {
		t.Fatal(s, err)
	}
	if want := []any{3.0, "{not a key}", 1500 * time.Millisecond}; !reflect.DeepEqual(got[:3], want) {
		t.Errorf("the probe read %v, want %v", got, want)
	}
	js, _ := tree.Blackboard().MarshalJSON()
	if want := `{"answer":42,"item":3,"sum":6,"twice":5.0}`; string(js) != want {
		t.Errorf("blackboard %s, want %s", js, want)
	}
}

// TestWithAttributes: With takes the attributes that are not ports as XML does.
func TestWithAttributes(t *testing.T) {
	tree, err := NewTree(Sequence(
		Script("a := 1").With("name", "First"),
		Script("b := 1").With("_skipIf", "a == 1"),
		SubTree("Sub", Script("c := 2")).With("_autoremap", "true"),
	))
	if err != nil {
		t.Fatal(err)
	}
	if s, err := tree.TickOnce(); s != Success || err != nil {
		t.Fatal(s, err)
	}
	js, _ := tree.Blackboard().MarshalJSON()
	if want := `{"a":1,"c":2}`; string(js) != want {
		t.Errorf("blackboard %s, want %s", js, want)
	}
	if name := tree.Root().Child(0).Name(); name != "First" {
		t.Errorf("name %q", name)
	}
	_, err = NewTree(SubTree("Sub", Script("c := 2")).With("_autoremap", "yes"))
	if want := `node Sub::1 (SubTree): _autoremap must be true or false, not "yes"`; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

// TestDurationsInGo: durations given in Go are whole milliseconds rounded away from
// zero, so a positive one never becomes 0 ("no limit" for Timeout).
func TestDurationsInGo(t *testing.T) {
	for _, tc := range []struct {
		spec *Spec
		port string
		want string
	}{
		{Timeout(500*time.Microsecond, AlwaysSuccess()), "msec", "1"},
		{Timeout(1500*time.Microsecond, AlwaysSuccess()), "msec", "2"},
		{Delay(2*time.Second, AlwaysSuccess()), "delay_msec", "2000"},
		{Sleep(0), "msec", "0"},
		{Time(-time.Microsecond, AlwaysSuccess()), "msec", "-1"},
	} {
		if got, _ := tc.spec.Port(tc.port); got != tc.want {
			t.Errorf("%s %s = %q, want %q", tc.spec.Model().ID, tc.port, got, tc.want)
		}
	}
}
