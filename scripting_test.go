package bt

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/gobt/bt/blackboard"
)

// runXML loads doc with a Busy action (Running while its ticks counter is below
// "ticks", then Success), ticks it n times (stopping when it completes), halts it if
// it is still running, and returns the statuses and the root blackboard as JSON.
func runXML(t *testing.T, doc string, n int) (string, map[string]any) {
	t.Helper()
	f := NewFactory()
	busy := NewStateful("Busy", func() StatefulAction { return &busyAction{} }, InputPort[int]("ticks", "").WithDefault("2"))
	if err := f.Register(busy); err != nil {
		t.Fatal(err)
	}
	if err := f.LoadString("t.xml", doc); err != nil {
		t.Fatal(err)
	}
	tree, err := f.NewTree("")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for range n {
		s, err := tree.TickOnce()
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, s.String())
		if s != Running {
			break
		}
	}
	if err := tree.Halt(); err != nil {
		t.Fatal(err)
	}
	js, err := tree.Blackboard().MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var bb map[string]any
	if err := json.Unmarshal(js, &bb); err != nil {
		t.Fatal(err)
	}
	return strings.Join(got, " "), bb
}

type busyAction struct{ left int }

func (b *busyAction) OnStart(n *Node) Status {
	ticks, err := Get[int](n, "ticks")
	if err != nil {
		n.Abort(err)
	}
	b.left = ticks
	return b.OnRunning(n)
}

func (b *busyAction) OnRunning(*Node) Status {
	if b.left--; b.left > 0 {
		return Running
	}
	return Success
}

func (b *busyAction) OnHalted(*Node) {}

func TestScriptedConditions(t *testing.T) {
	for _, c := range []struct {
		name, tree string
		ticks      int
		want       string
		bb         map[string]float64
	}{
		{"_while re-checked while running; false halts and skips", `
			<Sequence>
				<Script code="go := true; halted := 0; after := 0"/>
				<Busy ticks="5" _while="go" _onHalted="halted += 1" _post="posted := 1"/>
				<Script code="after += 1"/>
			</Sequence>`, 1, "RUNNING", map[string]float64{"halted": 1, "after": 0}},
		{"_skipIf only checked when idle", `
			<Sequence>
				<Script code="n := 0"/>
				<Busy ticks="3" _skipIf="n &gt; 0" _post="n += 10"/>
				<Script code="n += 1"/>
			</Sequence>`, 5, "RUNNING RUNNING SUCCESS", map[string]float64{"n": 11}},
		{"post conditions after a pre-condition decided", `
			<Fallback>
				<Script code="x := 1" _failureIf="true" _onFailure="f := 1" _onSuccess="s := 1" _post="p := 1"/>
				<Script code="y := 1" _successIf="true" _onSuccess="s2 := 1" _post="p2 := 1"/>
			</Fallback>`, 1, "SUCCESS", map[string]float64{"f": 1, "p": 1, "s2": 1, "p2": 1}},
		{"nothing after RUNNING or SKIPPED", `
			<Sequence>
				<Script code="k := 0"/>
				<Busy ticks="2" _post="k += 1" _onSuccess="k += 10"/>
				<Script code="never := 1" _skipIf="true" _post="k += 100"/>
			</Sequence>`, 5, "RUNNING SUCCESS", map[string]float64{"k": 11}},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc := `<root BTCPP_format="4"><BehaviorTree ID="T">` + c.tree + `</BehaviorTree></root>`
			got, bb := runXML(t, doc, c.ticks)
			if got != c.want {
				t.Errorf("statuses %q, want %q", got, c.want)
			}
			for k, v := range c.bb {
				if f, ok := bb[k].(float64); !ok || f != v {
					t.Errorf("%s = %v, want %v (blackboard %v)", k, bb[k], v, bb)
				}
			}
			if _, posted := bb["posted"]; posted {
				t.Error("_post ran after a halt")
			}
		})
	}
}

func TestScriptRuntimeErrorNamesNodeAndScript(t *testing.T) {
	f := NewFactory()
	f.LoadString("t.xml", `<root BTCPP_format="4"><BehaviorTree ID="T"><Sequence>
		<Script code="known := 1"/><Script name="oops" code="unknown = 2"/></Sequence></BehaviorTree></root>`)
	tree, _ := f.NewTree("")
	_, err := tree.TickOnce()
	if err == nil || !strings.HasPrefix(err.Error(), "node oops (Script): ") || !strings.Contains(err.Error(), "unknown = 2") {
		t.Errorf("got %v", err)
	}
}

func TestScriptConditionAndPrecondition(t *testing.T) {
	got, bb := runXML(t, `<root BTCPP_format="4"><BehaviorTree ID="T"><Sequence>
		<Script code="i := 0; big := 0"/>
		<ScriptCondition code="i &lt; 1"/>
		<Precondition if="i &gt; 0" else="SUCCESS"><Script code="big := 1"/></Precondition>
		<Precondition if="i == 0" else="FAILURE"><Script code="big += 2"/></Precondition>
		</Sequence></BehaviorTree></root>`, 1)
	if got != "SUCCESS" || bb["big"] != float64(2) {
		t.Errorf("got %s %v", got, bb)
	}
}

func TestEnumsInScriptsAndPorts(t *testing.T) {
	f := NewFactory()
	if err := RegisterEnums(f, Success, Failure); err != nil {
		t.Fatal(err)
	}
	f.LoadString("t.xml", `<root BTCPP_format="4"><BehaviorTree ID="T">
		<Script code="a := FAILURE; b := SUCCESS + 1"/></BehaviorTree></root>`)
	tree, _ := f.NewTree("")
	if _, err := tree.TickOnce(); err != nil {
		t.Fatal(err)
	}
	if a := tree.Blackboard().Entry("a").Load(); a.Int() != 3 {
		t.Errorf("a = %v", a)
	}
	if err := f.RegisterEnum("SUCCESS", 7); err == nil {
		t.Error("re-registering an enum with another value must fail")
	}
}

// tickOnce builds the tree of body (the content of a BehaviorTree) and ticks it once.
func tickOnce(t *testing.T, body string) (*Tree, Status, error) {
	t.Helper()
	return loadAndTick(t, NewFactory(), "", `<root BTCPP_format="4"><BehaviorTree ID="T">`+body+`</BehaviorTree></root>`)
}

// loadAndTick loads doc into f, builds the tree id and ticks it once.
func loadAndTick(t *testing.T, f *Factory, id, doc string) (*Tree, Status, error) {
	t.Helper()
	if err := f.LoadString("t.xml", doc); err != nil {
		t.Fatal(err)
	}
	tree, err := f.NewTree(id)
	if err != nil {
		t.Fatal(err)
	}
	s, err := tree.TickOnce()
	return tree, s, err
}

// TestConditionCasts checks how a script's value decides a condition: as
// BehaviorTree.CPP 4.10 casts it to bool, 0 and 1 (and true and false) are accepted,
// any other integer and any string are an error naming the node; a real number is
// true unless it is zero.
func TestConditionCasts(t *testing.T) {
	const notBool = "the int 2 is not a boolean: only 0 and 1 are (implicit casting to bool is not allowed)"
	for _, tc := range []struct{ body, want string }{
		{`<ScriptCondition code="1"/>`, "SUCCESS"},
		{`<ScriptCondition code="0"/>`, "FAILURE"},
		{`<ScriptCondition code="true"/>`, "SUCCESS"},
		{`<ScriptCondition code="2 &gt; 1"/>`, "SUCCESS"},
		{`<ScriptCondition code="0.5"/>`, "SUCCESS"},
		{`<ScriptCondition code="1 + 1"/>`, "SUCCESS"}, // a Float: C-style
		{`<ScriptCondition code="1 / 0 &gt; 1000000"/>`, "SUCCESS"},
		{`<ScriptCondition code="2"/>`, `node ScriptCondition::1 (ScriptCondition): script "2": ` + notBool},
		{`<Sequence><Script code="n := 2"/><ScriptCondition name="check" code="n"/></Sequence>`,
			`node check (ScriptCondition): script "n": ` + notBool},
		{`<ScriptCondition code="'true'"/>`, `node ScriptCondition::1 (ScriptCondition): script "'true'": the string "true" is not a boolean`},
		{`<AlwaysSuccess _skipIf="2"/>`, `node AlwaysSuccess::1 (AlwaysSuccess): _skipIf: script "2": ` + notBool},
		{`<Precondition if="2" else="FAILURE"><AlwaysSuccess/></Precondition>`,
			`node Precondition::1 (Precondition): script "2": ` + notBool},
	} {
		_, s, err := tickOnce(t, tc.body)
		got := s.String()
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.body, got, tc.want)
		}
	}
}

// TestDivisionByZero checks that script arithmetic is IEEE double arithmetic, as in
// BehaviorTree.CPP: 1 / 0 is +Inf and 0 / 0 NaN, which JSON exports as null; only
// narrowing them into an integer entry is an error.
func TestDivisionByZero(t *testing.T) {
	tree, s, err := tickOnce(t, `<Sequence>
		<Script code="inf := 1 / 0; nan := 0 / 0; zero := 0; neg := -1 / zero"/>
		<ScriptCondition code="inf &gt; 1000000 &amp;&amp; neg &lt; 0 &amp;&amp; nan != nan"/>
	</Sequence>`)
	if err != nil || s != Success {
		t.Fatalf("got %v, %v; want SUCCESS", s, err)
	}
	bb := tree.Blackboard()
	if inf := bb.Entry("inf").Load().Float(); !math.IsInf(inf, 1) {
		t.Errorf("inf = %v", inf)
	}
	if neg := bb.Entry("neg").Load().Float(); !math.IsInf(neg, -1) {
		t.Errorf("neg = %v", neg)
	}
	if nan := bb.Entry("nan").Load().Float(); !math.IsNaN(nan) {
		t.Errorf("nan = %v", nan)
	}
	js, err := bb.MarshalJSON()
	if want := `{"inf":null,"nan":null,"neg":null,"zero":0}`; err != nil || string(js) != want {
		t.Errorf("JSON %s, %v; want %s", js, err, want)
	}
	_, _, err = tickOnce(t, `<Script code="i := 4; i /= 0"/>`)
	if want := `node Script::1 (Script): script "i := 4; i /= 0": cannot assign float +Inf to "i"`; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("got %v, want %s…", err, want)
	}
}

// TestFirstWriteTypesEntry checks that an entry a port created when the tree was built
// (typed after the port) takes the type of its first write, as in BehaviorTree.CPP, and
// that ports typed as strings read numbers as their text.
func TestFirstWriteTypesEntry(t *testing.T) {
	for _, tc := range []struct{ name, script, bb string }{
		{"int", "state := 2", `{"out":"2","picked":"two","state":2}`},
		{"real", "state := 2.0", `{"out":"2","picked":"two","state":2.0}`},
		{"bool", "state := true", `{"out":"true","picked":"one","state":true}`}, // true is 1, as in BT.CPP
		{"text", "state := '1'", `{"out":"1","picked":"one","state":"1"}`},
		// Once the entry holds a number, a number-like string is read as that number.
		{"number then text", "state := 1; state = '2'", `{"out":"2","picked":"two","state":2}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := NewFactory()
			echo := NewAction("Echo", func(n *Node) (Status, error) {
				s, err := Get[string](n, "in")
				if err == nil {
					err = Set(n, "out", s)
				}
				return Success, err
			}, InputPort[string]("in", ""), OutputPort[string]("out", ""))
			if err := f.Register(echo); err != nil {
				t.Fatal(err)
			}
			tree, s, err := loadAndTick(t, f, "", `<root BTCPP_format="4"><BehaviorTree ID="T"><Sequence>
				<Script code="`+tc.script+`"/>
				<Echo in="{state}" out="{out}"/>
				<Switch2 variable="{state}" case_1="1" case_2="2">
					<Script code="picked := 'one'"/>
					<Script code="picked := 'two'"/>
					<Script code="picked := 'other'"/>
				</Switch2>
			</Sequence></BehaviorTree></root>`)
			if err != nil || s != Success {
				t.Fatalf("got %v, %v; want SUCCESS", s, err)
			}
			js, err := tree.Blackboard().MarshalJSON()
			if err != nil || string(js) != tc.bb {
				t.Errorf("blackboard %s, %v; want %s", js, err, tc.bb)
			}
		})
	}
}

// TestNumberLikeStrings checks that a script assigning a number-like string to an entry
// holding a number stores the number, and that other text is an error naming the entry.
func TestNumberLikeStrings(t *testing.T) {
	tree, _, err := tickOnce(t, `<Script code="k := 3; k = '12'"/>`)
	if k := tree.Blackboard().Entry("k").Load(); err != nil || k.Kind() != blackboard.KindInt || k.Int() != 12 {
		t.Errorf("k = %#v, %v; want 12", k, err)
	}
	_, _, err = tickOnce(t, `<Script code="k := 3; k = 'abc'"/>`)
	want := `node Script::1 (Script): script "k := 3; k = 'abc'": cannot assign string "abc" to "k": entry "k": cannot assign string "abc" to an entry holding int64 (not a number)`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// position2D is the user type of BehaviorTree.CPP's tutorial 3 ("generic ports"):
// UnmarshalText plays the reference's convertFromString, parsing "x;y".
type position2D struct{ X, Y float64 }

func (p *position2D) UnmarshalText(b []byte) error {
	x, y, ok := strings.Cut(string(b), ";")
	if !ok {
		return fmt.Errorf("invalid input %q: want x;y", b)
	}
	var err error
	if p.X, err = strconv.ParseFloat(x, 64); err == nil {
		p.Y, err = strconv.ParseFloat(y, 64)
	}
	return err
}

// pose2D is the user type of tutorial 6: "x;y;theta".
type pose2D struct{ X, Y, Theta float64 }

func (p *pose2D) UnmarshalText(b []byte) error {
	parts := strings.Split(string(b), ";")
	if len(parts) != 3 {
		return fmt.Errorf("invalid input %q: want x;y;theta", b)
	}
	var v [3]float64
	for i, s := range parts {
		var err error
		if v[i], err = strconv.ParseFloat(s, 64); err != nil {
			return err
		}
	}
	*p = pose2D{v[0], v[1], v[2]}
	return nil
}

// userTypeFactory registers the nodes of tutorials 3 and 6, which print to out.
func userTypeFactory(t *testing.T, out *strings.Builder) *Factory {
	t.Helper()
	f := NewFactory()
	calculateGoal := NewAction("CalculateGoal", func(n *Node) (Status, error) {
		return Success, Set(n, "goal", position2D{1.1, 2.3})
	}, OutputPort[position2D]("goal", ""))
	printTarget := NewAction("PrintTarget", func(n *Node) (Status, error) {
		goal, err := Get[position2D](n, "target")
		if err != nil {
			return Failure, err
		}
		fmt.Fprintf(out, "Target positions: [ %.1f, %.1f ]\n", goal.X, goal.Y)
		return Success, nil
	}, InputPort[position2D]("target", "Simply print the target on console..."))
	moveBase := NewAction("MoveBase", func(n *Node) (Status, error) {
		goal, err := Get[pose2D](n, "goal")
		if err != nil {
			return Failure, err
		}
		fmt.Fprintf(out, "[ MoveBase: SEND REQUEST ]. goal: x=%.1f y=%.1f theta=%.1f\n", goal.X, goal.Y, goal.Theta)
		return Success, nil
	}, InputPort[pose2D]("goal", ""))
	saySomething := NewAction("SaySomething", func(n *Node) (Status, error) {
		msg, err := Get[string](n, "message")
		fmt.Fprintf(out, "Robot says: %s\n", msg)
		return Success, err
	}, InputPort[string]("message", ""))
	for _, m := range []*Model{calculateGoal, printTarget, moveBase, saySomething} {
		if err := f.Register(m); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// TestScriptsWithUserTypes ports BehaviorTree.CPP's tutorials 3 and 6: a script
// assigns a string to an entry of a user type (converted by UnmarshalText), and the
// assignment's value — the entry's new value — is the script's value.
func TestScriptsWithUserTypes(t *testing.T) {
	for _, tc := range []struct{ name, xml, want string }{
		{"t03 generic ports", `<root BTCPP_format="4"><BehaviorTree ID="MainTree">
			<Sequence name="root">
				<CalculateGoal goal="{GoalPosition}"/>
				<PrintTarget target="{GoalPosition}"/>
				<Script code="OtherGoal='-1;3'"/>
				<PrintTarget target="{OtherGoal}"/>
				<Script code=" OtherGoal:='-2;4' "/>
				<PrintTarget target="{OtherGoal}"/>
			</Sequence></BehaviorTree></root>`,
			"Target positions: [ 1.1, 2.3 ]\nTarget positions: [ -1.0, 3.0 ]\nTarget positions: [ -2.0, 4.0 ]\n"},
		{"t06 subtree port remapping", `<root BTCPP_format="4">
			<BehaviorTree ID="MainTree"><Sequence>
				<Script code=" move_goal='1;2;3' "/>
				<SubTree ID="MoveRobot" target="{move_goal}" result="{move_result}"/>
				<SaySomething message="{move_result}"/>
			</Sequence></BehaviorTree>
			<BehaviorTree ID="MoveRobot"><Fallback>
				<Sequence>
					<MoveBase goal="{target}"/>
					<Script code=" result:='goal reached' "/>
				</Sequence>
				<ForceFailure><Script code=" result:='error' "/></ForceFailure>
			</Fallback></BehaviorTree></root>`,
			"[ MoveBase: SEND REQUEST ]. goal: x=1.0 y=2.0 theta=3.0\nRobot says: goal reached\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			_, s, err := loadAndTick(t, userTypeFactory(t, &out), "MainTree", tc.xml)
			if err != nil || s != Success {
				t.Fatalf("got %v, %v; want SUCCESS", s, err)
			}
			if out.String() != tc.want {
				t.Errorf("printed\n%s\nwant\n%s", out.String(), tc.want)
			}
		})
	}
}

// TestScriptsMoveUserValues checks that a script copies a value of any type from one
// entry to another (the reference copies any Any), compares two for equality, and that
// arithmetic and ordering on them fail naming the operator and the types.
func TestScriptsMoveUserValues(t *testing.T) {
	run := func(code string) (*Tree, Status, error) {
		var out strings.Builder
		return loadAndTick(t, userTypeFactory(t, &out), "", `<root BTCPP_format="4"><BehaviorTree ID="T"><Sequence>
			<CalculateGoal goal="{first_point}"/>
			<Script code="`+code+`"/>
		</Sequence></BehaviorTree></root>`)
	}
	tree, s, err := run("other_point := first_point; same := other_point == first_point; differ := other_point != first_point")
	if err != nil || s != Success {
		t.Fatalf("got %v, %v; want SUCCESS", s, err)
	}
	bb := tree.Blackboard()
	got, err := blackboard.Get[position2D](bb.Entry("other_point"))
	if err != nil || got != (position2D{1.1, 2.3}) {
		t.Errorf("other_point = %v, %v; want {1.1 2.3}", got, err)
	}
	same, err1 := blackboard.Get[bool](bb.Entry("same"))
	differ, err2 := blackboard.Get[bool](bb.Entry("differ"))
	if !same || differ || err1 != nil || err2 != nil {
		t.Errorf("same = %v, %v; differ = %v, %v; want true and false", same, err1, differ, err2)
	}
	// The copy keeps its type: assigning a number to it is refused by the entry.
	_, _, err = run("other_point := first_point; other_point = 3")
	if want := `cannot assign int 3 to "other_point"`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v; want an error containing %q", err, want)
	}
	for code, want := range map[string]string{
		"first_point + 1":          "operator + not allowed between bt.position2D and int",
		"first_point &lt; 'a'":     "operator < needs numbers or strings, got bt.position2D and string",
		"first_point == 'a'":       `cannot compare bt.position2D {1.1 2.3} with string "a"`,
		"first_point ? 1 : 2":      "condition of ?: needs a number, a boolean or a string, got bt.position2D {1.1 2.3}",
		"x := 1; x += first_point": `operator += not allowed between int and bt.position2D: "x" holds int 1`,
	} {
		_, _, err := run(code)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v; want an error containing %q", code, err, want)
		}
	}
}

// TestScriptCopyThenSetBlackboard ports BehaviorTree.CPP's
// BlackboardTest.SetBlackboard_Upd_Ts_SeqId: a script copies a struct entry into a new
// one, and SetBlackboard then overwrites the copy with another struct entry, which
// counts as a new write.
func TestScriptCopyThenSetBlackboard(t *testing.T) {
	f := NewFactory()
	if err := f.LoadString("t.xml", `<root BTCPP_format="4"><BehaviorTree ID="MainTree"><Sequence>
		<Script code="other_point:=first_point"/>
		<SetBlackboard value="{second_point}" output_key="other_point"/>
	</Sequence></BehaviorTree></root>`); err != nil {
		t.Fatal(err)
	}
	tree, err := f.NewTree("MainTree")
	if err != nil {
		t.Fatal(err)
	}
	bb := tree.Blackboard()
	for key, p := range map[string]position2D{"first_point": {2, 2}, "second_point": {3, 3}} {
		if err := bb.Entry(key).Set(blackboard.ValueOf(p)); err != nil {
			t.Fatal(err)
		}
	}
	var seqs []uint64
	tree.Root().Child(0).SetPostTick(func(n *Node, s Status) Status {
		seqs = append(seqs, bb.Entry("other_point").Seq())
		return s
	})
	if s, err := tree.TickOnce(); err != nil || s != Success {
		t.Fatalf("got %v, %v; want SUCCESS", s, err)
	}
	got, err := blackboard.Get[position2D](bb.Entry("other_point"))
	if err != nil || got != (position2D{3, 3}) || len(seqs) != 1 || bb.Entry("other_point").Seq() <= seqs[0] {
		t.Errorf("other_point = %v, %v, write counts %v then %d; want {3 3} written twice", got, err, seqs, bb.Entry("other_point").Seq())
	}
}
