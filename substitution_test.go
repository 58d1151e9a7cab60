package bt_test

import (
	"strings"
	"testing"
	"time"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
	"github.com/gobt/bt/bttest"
	"github.com/gobt/bt/btxml"
)

func TestTestNode(t *testing.T) {
	yes := true
	ms := time.Millisecond
	count := func(r *bttest.Recorder) *Spec { return Script("s := 0; f := 0; p := 0") }
	_ = count
	bttest.Run(t, []bttest.Case{
		{Name: "default: success at once", Tree: func(*bttest.Recorder) *Spec { return TestNode(TestNodeConfig{}) },
			Steps: []bttest.Step{bttest.Tick(Success, "", "I")}},
		{Name: "success runs success_script, then post_script", Tree: func(*bttest.Recorder) *Spec {
			return TestNode(TestNodeConfig{SuccessScript: "r := 'S'", FailureScript: "r := 'F'", PostScript: "r := r .. 'p'"})
		}, Steps: []bttest.Step{bttest.Tick(Success, "", "I").Then(bttest.EntryIs("r", "Sp"))}},
		{Name: "failure runs failure_script, then post_script", Tree: func(*bttest.Recorder) *Spec {
			return TestNode(TestNodeConfig{ReturnStatus: Failure, SuccessScript: "r := 'S'", FailureScript: "r := 'F'", PostScript: "r := r .. 'p'"})
		}, Steps: []bttest.Step{bttest.Tick(Failure, "", "I").Then(bttest.EntryIs("r", "Fp"))}},
		{Name: "skipped runs post_script only", Tree: func(*bttest.Recorder) *Spec {
			return TestNode(TestNodeConfig{ReturnStatus: Skipped, SuccessScript: "r := 'S'", PostScript: "p := 1"})
		}, Steps: []bttest.Step{bttest.Tick(Skipped, "", "I").Then(bttest.EntryIs("r", "")).Then(bttest.EntryIs("p", "1"))}},
		{Name: "return_status_script decides, with the status names", Tree: func(*bttest.Recorder) *Spec {
			return TestNode(TestNodeConfig{ReturnStatus: Failure, ReturnStatusScript: "fail ? FAILURE : 'SUCCESS'"})
		}, Steps: []bttest.Step{
			bttest.Tick(Success, "", "I").First(bttest.Assign("fail", blackboard.Bool(false))),
			bttest.Tick(Failure, "", "I").First(bttest.Assign("fail", blackboard.Bool(true))),
		}},
		{Name: "async_delay: running until the time is up", Tree: func(*bttest.Recorder) *Spec {
			return TestNode(TestNodeConfig{AsyncDelay: 100 * ms, PostScript: "p := 1"})
		}, Steps: []bttest.Step{
			bttest.Tick(Running, "", "R").Then(bttest.EntryIs("p", "")),
			bttest.Tick(Running, "", "R").After(50 * ms),
			bttest.Tick(Success, "", "I").After(50 * ms).First(woken(yes)).Then(bttest.EntryIs("p", "1")),
		}},
		{Name: "halt: no script runs; the next activation waits again", Tree: func(*bttest.Recorder) *Spec {
			return TestNode(TestNodeConfig{AsyncDelay: 100 * ms, PostScript: "p := 1"})
		}, Steps: []bttest.Step{
			bttest.Tick(Running, "", "R"), bttest.Halt("", "I").Then(bttest.EntryIs("p", "")),
			bttest.Tick(Running, "", "R").After(time.Second),
		}},
		{Name: "running is a status it may return", Tree: func(*bttest.Recorder) *Spec {
			return TestNode(TestNodeConfig{ReturnStatus: Running})
		}, Steps: []bttest.Step{bttest.Tick(Running, "", "R"), bttest.Tick(Running, "", "R")}},
		{Name: "in XML form", Tree: func(*bttest.Recorder) *Spec {
			return builtin("TestNode").Spec().With("return_status", "FAILURE").With("async_delay", "10")
		}, Steps: []bttest.Step{bttest.Tick(Running, "", "R"), bttest.Tick(Failure, "", "I").After(10 * ms)}},
	})
	tickError(t, TestNode(TestNodeConfig{ReturnStatusScript: "'IDLE'"}), "a TestNode cannot return IDLE")
	tickError(t, TestNode(TestNodeConfig{ReturnStatusScript: "7"}), "return_status_script: 7 is not a status")
	tickError(t, TestNode(TestNodeConfig{ReturnStatusScript: "'WIN'"}), `"WIN" is not a status`)
	tickError(t, builtin("TestNode").Spec().With("return_status", "IDLE"), "a TestNode cannot return IDLE")
	if _, err := NewTree(TestNode(TestNodeConfig{PostScript: "x :="})); err == nil {
		t.Error("a bad script was accepted")
	}
}

func TestWildcard(t *testing.T) {
	for _, c := range []struct {
		pattern, text string
		want          bool
	}{
		{"abc", "abc", true}, {"abc", "abd", false}, {"*", "", true}, {"*", "a/b::3", true},
		{"mysub/action_*", "mysub/action_1", true}, {"mysub/action_*", "other/action_1", false},
		{"*/Follow*", "nav/FollowPath::7", true}, {"a?c", "abc", true}, {"a?c", "ac", false},
		{"a*b*c", "axxbyyc", true}, {"a*b*c", "axxbyy", false}, {"*::?", "x/Foo::3", true},
		{"é?", "éà", true}, {"**a", "bba", true}, {"a*", "b", false},
		{"*", "*0", true}, {"a*", "a*b", true}, // a '*' in the text (found by FuzzWildcard)
	} {
		if got := Wildcard(c.pattern, c.text); got != c.want {
			t.Errorf("wildcard(%q, %q) = %v, want %v", c.pattern, c.text, got, c.want)
		}
	}
}

const substXML = `
<root BTCPP_format="4" main_tree_to_execute="Main">
  <BehaviorTree ID="Main">
    <Sequence>
      <Script code="log := ''"/>
      <Say name="hello" message="hi"/>
      <SubTree ID="Sub" name="mysub" _autoremap="true"/>
      <SubTree ID="Sub" name="other" _autoremap="true"/>
      <AlwaysFailure name="flaky" _onFailure="log := log .. 'F'"/>
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="Sub">
    <Sequence>
      <Say name="action_1" message="one"/>
      <Say message="two"/>
    </Sequence>
  </BehaviorTree>
</root>`

// say is a registered action that appends its message to the entry log.
var say = NewAction("Say", func(n *Node) (Status, error) {
	msg, err := Get[string](n, "message")
	if err != nil {
		return Failure, err
	}
	e := n.Blackboard().Entry("log")
	return Success, e.Assign(blackboard.String(e.Load().Str() + msg + ";"))
}, InputPort[string]("message", ""))

func TestSubstitutionRules(t *testing.T) {
	echo := NewAction("Echo", func(n *Node) (Status, error) {
		msg, err := Get[string](n, "message")
		e := n.Blackboard().Entry("log")
		return Success, errorsJoin(err, e.Assign(blackboard.String(e.Load().Str()+"echo "+msg+";")))
	}, InputPort[string]("message", ""))
	for _, c := range []struct {
		name   string
		rules  string
		want   Status
		log    string
		report string // the paths and IDs of the nodes, to check that substitutes keep them
	}{
		{name: "no rules", rules: `{}`, want: Failure, log: "hi;one;two;one;two;F"},
		{name: "by instance name", rules: `{"SubstitutionRules": {"hello": "Echo"}}`, want: Failure,
			log: "echo hi;one;two;one;two;F", report: "hello=Say"},
		{name: "by ID", rules: `{"SubstitutionRules": {"Say": "Echo"}}`, want: Failure,
			log: "echo hi;echo one;echo two;echo one;echo two;F"},
		{name: "by path pattern, per subtree instance", rules: `{"SubstitutionRules": {"mysub/action_*": "Echo"}}`, want: Failure,
			log: "hi;echo one;two;one;two;F", report: "mysub/action_1=Say mysub/Say::7=Say other/Say::11=Say"},
		{name: "a pattern passes over nodes of another shape", rules: `{"SubstitutionRules": {"mysub/*": "Echo"}}`, want: Failure,
			log: "hi;echo one;echo two;one;two;F", report: "mysub/Sequence::5=Sequence"},
		{name: "by exact path", rules: `{"SubstitutionRules": {"other/Say::11": "Echo"}}`, want: Failure,
			log: "hi;one;two;one;echo two;F"},
		{name: "TestNode config; the first matching rule wins", rules: `{
			"TestNodeConfigs": {"ok": {"return_status": "SUCCESS", "success_script": "log := log .. 'T'"},
			                    "no": {"return_status": "FAILURE"}},
			"SubstitutionRules": {"flaky": "ok", "fl*": "no"}}`, want: Success, log: "hi;one;two;one;two;T", report: "flaky=AlwaysFailure"},
		{name: "a pattern for every leaf", rules: `{
			"TestNodeConfigs": {"no": {"return_status": "FAILURE", "post_script": "log := 'mocked'"}},
			"SubstitutionRules": {"*": "no"}}`, want: Failure, log: "mocked"},
		{name: "async TestNode", rules: `{
			"TestNodeConfigs": {"slow": {"return_status": "SUCCESS", "async_delay": 100, "post_script": "log := log .. 'slow;'"}},
			"SubstitutionRules": {"action_1": "slow"}}`, want: Failure, log: "hi;slow;two;slow;two;F"},
	} {
		t.Run(c.name, func(t *testing.T) {
			clock := bttest.NewClock(epoch)
			tree := mockedTree(t, c.rules, substXML, say, echo, WithClock(clock))
			var (
				s   Status
				err error
			)
			for range 10 {
				if s, err = tree.TickOnce(); err != nil || s != Running {
					break
				}
				clock.Advance(100 * time.Millisecond)
			}
			if err != nil || s != c.want {
				t.Fatalf("got %v, %v; want %v", s, err, c.want)
			}
			if got := tree.Blackboard().Entry("log").Load().Str(); got != c.log {
				t.Errorf("log %q, want %q", got, c.log)
			}
			for _, pair := range strings.Fields(c.report) {
				path, id, _ := strings.Cut(pair, "=")
				found := false
				for n := range tree.Nodes() {
					if n.Path() == path {
						found = true
						if n.ID() != id {
							t.Errorf("%s: ID %q, want %q", path, n.ID(), id)
						}
					}
				}
				if !found {
					t.Errorf("no node %s", path)
				}
			}
		})
	}
}

// mockedTree builds the main tree of doc with the substitution rules of the JSON text
// rules and the node types models.
func mockedTree(t *testing.T, rules, doc string, models ...any) *Tree {
	t.Helper()
	f := NewFactory()
	var opts []Option
	for _, m := range models {
		switch m := m.(type) {
		case *Model:
			if err := f.Register(m); err != nil {
				t.Fatal(err)
			}
		case Option:
			opts = append(opts, m)
		}
	}
	if err := f.LoadSubstitutions([]byte(rules)); err != nil {
		t.Fatal(err)
	}
	if err := f.LoadString("t.xml", doc); err != nil {
		t.Fatal(err)
	}
	tree, err := f.NewTree("", opts...)
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

func errorsJoin(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func TestSubstituteInGo(t *testing.T) {
	f := NewFactory()
	if err := f.Register(say); err != nil {
		t.Fatal(err)
	}
	f.Substitute("hello", "AlwaysFailure")
	if err := f.SubstituteTestNode("hello", TestNodeConfig{SuccessScript: "log := 'mock'"}); err != nil {
		t.Fatal(err) // replaces the rule above
	}
	if err := f.SubstituteTestNode("x", TestNodeConfig{PostScript: "a ="}); err == nil {
		t.Error("a bad script was accepted")
	}
	if err := f.LoadString("subst.xml", substXML); err != nil {
		t.Fatal(err)
	}
	tree, err := f.NewTree("")
	if err != nil {
		t.Fatal(err)
	}
	if s, err := tree.TickOnce(); s != Failure || err != nil {
		t.Fatal(s, err)
	}
	if got := tree.Blackboard().Entry("log").Load().Str(); got != "mockone;two;one;two;F" {
		t.Errorf("log %q", got)
	}
	f.ClearSubstitutions()
	tree, _ = f.NewTree("")
	tree.TickOnce()
	if got := tree.Blackboard().Entry("log").Load().Str(); got != "hi;one;two;one;two;F" {
		t.Errorf("after ClearSubstitutions: log %q", got)
	}
	f.Substitute("hello", "SubTree")
	if _, err := f.NewTree(""); err == nil || !strings.Contains(err.Error(), `cannot be replaced by a SubTree`) {
		t.Errorf("SubTree substitute: %v", err)
	}
	f.Substitute("hello", "NoSuchNode")
	if _, err := f.NewTree(""); err == nil || !strings.Contains(err.Error(), `no node type "NoSuchNode"`) {
		t.Errorf("unknown substitute: %v", err)
	}
}

func TestLoadSubstitutionsErrors(t *testing.T) {
	for _, c := range []struct{ json, want string }{
		{`[`, "unexpected EOF"},
		{`{"Rules": {}}`, `unknown field "Rules"`},
		{`{"TestNodeConfigs": {"a": {"return_status": "MAYBE"}}}`, `TestNodeConfigs "a": return_status: "MAYBE" is not a status`},
		{`{"TestNodeConfigs": {"a": {"return_status": "IDLE"}}}`, `cannot return IDLE`},
		{`{"TestNodeConfigs": {"a": {"post_script": "x := 1"}}}`, `give return_status or return_status_script`},
		{`{"TestNodeConfigs": {"a": {"return_status": "SUCCESS", "post_script": "x :="}}}`, `post_script`},
		{`{"TestNodeConfigs": {"a": {"return_status": "SUCCESS", "delay": 3}}}`, `unknown field "delay"`},
		{`{"TestNodeConfigs": {"a": {"return_status": "SUCCESS", "async_delay": -3}}}`, `async_delay: -3ms is negative`},
		{`{"SubstitutionRules": {"a": 3}}`, `rule "a": the value must name`},
		{`{"SubstitutionRules": []}`, `want an object`},
	} {
		f := NewFactory()
		err := f.LoadSubstitutions([]byte(c.json))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.json, err, c.want)
		}
		if NumSubstitutions(f) != 0 {
			t.Errorf("%s: rules were added despite the error", c.json)
		}
	}
}

// TestDryRunNav2 runs a navigation tree written for Nav2, whose nodes are not linked
// in: substitution rules replace every one of them, and the tree shows which branches
// it takes.
func TestDryRunNav2(t *testing.T) {
	const nav2 = `
<root BTCPP_format="4" main_tree_to_execute="NavigateWithReplanning">
  <BehaviorTree ID="NavigateWithReplanning">
    <RecoveryNode number_of_retries="6" name="NavigateRecovery">
      <PipelineSequence name="NavigateWithReplanning">
        <RateController hz="1.0">
          <ComputePathToPose goal="{goal}" path="{path}" planner_id="GridBased"/>
        </RateController>
        <FollowPath path="{path}" controller_id="FollowPath"/>
      </PipelineSequence>
      <Sequence name="RecoveryActions">
        <ClearEntireCostmap name="ClearLocalCostmap" service_name="local_costmap/clear_entirely_local_costmap"/>
        <Wait wait_duration="5"/>
      </Sequence>
    </RecoveryNode>
  </BehaviorTree>
</root>`
	const rules = `{
  "TestNodeConfigs": {
    "planned": {"return_status": "SUCCESS", "success_script": "trace := trace .. 'plan;'"},
    "follow": {"return_status_script": "cleared ? SUCCESS : FAILURE", "async_delay": 500, "post_script": "trace := trace .. 'follow;'"},
    "clear": {"return_status": "SUCCESS", "success_script": "cleared := true; trace := trace .. 'clear;'"},
    "wait": {"return_status": "SUCCESS", "async_delay": 5000}
  },
  "SubstitutionRules": {
    "RecoveryNode": "Fallback",
    "PipelineSequence": "Sequence",
    "RateController": "ForceSuccess",
    "ComputePathToPose": "planned",
    "FollowPath": "follow",
    "ClearLocalCostmap": "clear",
    "Wait": "wait"
  }
}`
	f := NewFactory()
	if err := f.LoadString("nav2.xml", nav2); err == nil {
		t.Fatal("unregistered nodes were accepted without substitution rules")
	}
	if err := f.LoadSubstitutions([]byte(rules)); err != nil {
		t.Fatal(err)
	}
	if err := f.LoadString("nav2.xml", nav2); err != nil {
		t.Fatal(err)
	}
	clock := bttest.NewClock(epoch)
	bb := blackboard.New()
	bb.Entry("trace").Assign(blackboard.String(""))
	bb.Entry("cleared").Assign(blackboard.Bool(false))
	tree, err := f.NewTree("", WithClock(clock), WithBlackboard(bb))
	if err != nil {
		t.Fatal(err)
	}
	var statuses []string
	for range 20 {
		s, err := tree.TickOnce()
		if err != nil {
			t.Fatal(err)
		}
		statuses = append(statuses, bttest.Letter(s))
		if s != Running {
			break
		}
		clock.Advance(500 * time.Millisecond)
	}
	// plan, follow for 500ms (fails: not cleared), clear, wait 5s: the recovery
	// succeeds, so the Fallback succeeds.
	if got, want := strings.Join(statuses, ""), "RRRRRRRRRRRS"; got != want {
		t.Errorf("statuses %s, want %s", got, want)
	}
	if got := bb.Entry("trace").Load().Str(); got != "plan;follow;clear;" {
		t.Errorf("trace %q", got)
	}
	if _, ok := bb.Lookup("path"); !ok {
		t.Error(`the entry "path" of a substituted node's port was not created`)
	}
	for n := range tree.Nodes() {
		if n.Path() == "ClearLocalCostmap" && n.ID() != "ClearEntireCostmap" {
			t.Errorf("the substitute's ID is %q", n.ID())
		}
	}
}

func TestUnsubstitutedUnknownNode(t *testing.T) {
	f := NewFactory()
	if err := f.LoadSubstitutions([]byte(`{"SubstitutionRules": {"nav/*": "AlwaysSuccess"}}`)); err != nil {
		t.Fatal(err)
	}
	err := f.LoadString("t.xml", `<root BTCPP_format="4"><BehaviorTree ID="T"><Sequence><Teleport to="moon"/></Sequence></BehaviorTree></root>`)
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.NewTree("")
	if err == nil || !strings.Contains(err.Error(), `t.xml:1:`) || !strings.Contains(err.Error(), `unknown node "Teleport": no substitution rule replaced it`) {
		t.Errorf("got %v", err)
	}
}

// TestSubstituteStandIns: every node of a stand-in type that no rule replaces becomes a
// mock — leaves TestNodes, decorators pass their child's status, controls Sequences —
// so that a tree of custom nodes dry-runs without any rule.
func TestSubstituteStandIns(t *testing.T) {
	const doc = `<root BTCPP_format="4">
    <BehaviorTree ID="Main">
        <Sequence>
            <PipelineSequence>
                <RateController hz="1">
                    <MoveTo goal="kitchen" distance="{d}"/>
                </RateController>
                <IsBatteryOK/>
            </PipelineSequence>
            <Script code="done := true"/>
        </Sequence>
    </BehaviorTree>
    <TreeNodesModel>
        <Action ID="MoveTo">
            <input_port name="goal"/>
            <output_port name="distance" type="double"/>
        </Action>
        <Condition ID="IsBatteryOK"/>
        <Control ID="PipelineSequence"/>
        <Decorator ID="RateController"><input_port name="hz" type="double"/></Decorator>
    </TreeNodesModel>
</root>`
	for _, tc := range []struct {
		name   string
		cfg    *TestNodeConfig
		rules  map[string]string
		status Status
		bb     string
		err    string
	}{
		{name: "no substitutes: a stand-in fails the tick", err: "node PipelineSequence::2 (PipelineSequence): no implementation"},
		{name: "every leaf succeeds", cfg: &TestNodeConfig{}, status: Success, bb: `{"d":null,"done":true}`},
		{name: "every leaf fails", cfg: &TestNodeConfig{ReturnStatus: Failure}, status: Failure, bb: `{"d":null}`},
		{name: "a rule wins", cfg: &TestNodeConfig{}, rules: map[string]string{"IsBatteryOK": "AlwaysFailure"}, status: Failure, bb: `{"d":null}`},
		{name: "a decorator passes its child's status", cfg: &TestNodeConfig{ReturnStatus: Running}, status: Running, bb: `{"d":null}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := NewFactory()
			parsed, err := btxml.Parse("t.xml", []byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			if err := f.RegisterStandIns(parsed.Models); err != nil {
				t.Fatal(err)
			}
			for filter, id := range tc.rules {
				f.Substitute(filter, id)
			}
			if tc.cfg != nil {
				if err := f.SubstituteStandIns(*tc.cfg); err != nil {
					t.Fatal(err)
				}
			}
			if err := f.LoadDocument(parsed); err != nil {
				t.Fatal(err)
			}
			tree, err := f.NewTree("")
			if err != nil {
				t.Fatal(err)
			}
			s, err := tree.TickExactlyOnce()
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %v, %v; want an error containing %q", s, err, tc.err)
				}
				return
			}
			if s != tc.status || err != nil {
				t.Fatalf("got %v, %v; want %v", s, err, tc.status)
			}
			if js, _ := tree.Blackboard().MarshalJSON(); string(js) != tc.bb {
				t.Errorf("blackboard %s, want %s", js, tc.bb)
			}
			for n := range tree.Nodes() {
				if n.Spec().Model().StandIn() {
					t.Errorf("%s is still a stand-in", n.Path())
				}
				if n.ID() == "RateController" && n.Kind() != KindDecorator {
					t.Errorf("RateController became a %s", n.Kind())
				}
			}
		})
	}
	if err := NewFactory().SubstituteStandIns(TestNodeConfig{AsyncDelay: -1}); err == nil {
		t.Error("a negative delay was accepted")
	}
}

// TestSubstitutionsReadBack reads the rules back after LoadSubstitutions (the
// reference's substitutionRules()), in the order they are tried, as a copy.
func TestSubstitutionsReadBack(t *testing.T) {
	f := NewFactory()
	if err := f.LoadSubstitutions([]byte(`{
		"TestNodeConfigs": {"slow": {"return_status": "FAILURE", "async_delay": 200, "post_script": "n += 1"}},
		"SubstitutionRules": {"nav/*": "slow", "talk": "AlwaysSuccess"}}`)); err != nil {
		t.Fatal(err)
	}
	f.Substitute("talk", "AlwaysFailure") // replaces the rule of the same filter
	got := f.Substitutions()
	if len(got) != 2 {
		t.Fatalf("rules %+v, want 2", got)
	}
	if r := got[0]; r.Filter != "nav/*" || r.ID != "" || r.TestNode == nil ||
		*r.TestNode != (TestNodeConfig{ReturnStatus: Failure, AsyncDelay: 200 * time.Millisecond, PostScript: "n += 1"}) {
		t.Errorf("rule 0: %+v %+v", r, r.TestNode)
	}
	if r := got[1]; r.Filter != "talk" || r.ID != "AlwaysFailure" || r.TestNode != nil {
		t.Errorf("rule 1: %+v", r)
	}
	got[0].TestNode.ReturnStatus = Success
	got[1].ID = "x"
	if again := f.Substitutions(); again[0].TestNode.ReturnStatus != Failure || again[1].ID != "AlwaysFailure" {
		t.Errorf("changing the copy changed the factory: %+v", again)
	}
}

// TestMockABranch: a rule may replace a node with children — the "counting" Sequence
// of BehaviorTree.CPP's tutorial 15 — by a TestNode or a leaf type, which drops its
// children; a decorator may be mocked likewise. A leaf still cannot become a control.
func TestMockABranch(t *testing.T) {
	const doc = `<root BTCPP_format="4"><BehaviorTree ID="Main">
    <Sequence>
      <Script code="log := ''"/>
      <Sequence name="counting">
        <Say message="1"/>
        <Say message="2"/>
      </Sequence>
      <Inverter name="flip"><Say message="3"/></Inverter>
      <Say message="end"/>
    </Sequence></BehaviorTree></root>`
	for _, c := range []struct {
		name, rules string
		want        Status
		log, paths  string
	}{
		{"no rules", `{}`, Failure, "1;2;3;",
			"Sequence::1 Script::2 counting Say::4 Say::5 flip Say::7 Say::8"},
		{"a branch by a TestNode, a decorator by a leaf type", `{
			"TestNodeConfigs": {"NoCounting": {"return_status": "SUCCESS", "post_script": "log := log .. 'mock;'"}},
			"SubstitutionRules": {"counting": "NoCounting", "flip": "AlwaysSuccess"}}`, Success, "mock;end;",
			"Sequence::1 Script::2 counting flip Say::5"},
		{"by ID", `{"SubstitutionRules": {"Inverter": "AlwaysSuccess"}}`, Success, "1;2;end;",
			"Sequence::1 Script::2 counting Say::4 Say::5 flip Say::7"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tree := mockedTree(t, c.rules, doc, say)
			var paths []string
			for n := range tree.Nodes() {
				paths = append(paths, n.Path())
			}
			if got := strings.Join(paths, " "); got != c.paths {
				t.Errorf("paths %s\nwant  %s", got, c.paths)
			}
			s, err := tree.TickOnce()
			if err != nil || s != c.want {
				t.Fatalf("got %v, %v; want %v", s, err, c.want)
			}
			if got := tree.Blackboard().Entry("log").Load().Str(); got != c.log {
				t.Errorf("log %q, want %q", got, c.log)
			}
		})
	}
	f := NewFactory()
	if err := f.Register(say); err != nil {
		t.Fatal(err)
	}
	f.Substitute("Say", "Sequence")
	if err := f.LoadString("t.xml", doc); err != nil {
		t.Fatal(err)
	}
	if _, err := f.NewTree(""); err == nil || !strings.Contains(err.Error(), "t.xml:5:9: node Say::4 (Say): Say is a Control: it needs at least one child") {
		t.Errorf("a leaf replaced by a control: %v", err)
	}
}
