package bt_test

import (
	"log/slog"
	"strings"
	"sync"
	"testing"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
	"github.com/gobt/bt/btxml"
)

// quietFactory is a factory that keeps its notes without logging them.
func quietFactory() *Factory {
	f := NewFactory()
	f.SetLogger(slog.New(slog.DiscardHandler))
	return f
}

// notes returns the notes of f, one per line.
func notes(f *Factory) string {
	var b strings.Builder
	for _, n := range f.Notes() {
		b.WriteString(n.String() + "\n")
	}
	return b.String()
}

// TestUserNodeHidesBehaviacBuiltin: a program migrating from BehaviorTree.CPP may have
// node types named as the builtins bt adds (behaviac's Log, Loop …); registering one
// hides the builtin, with a note. BehaviorTree.CPP's own builtin IDs stay reserved.
func TestUserNodeHidesBehaviacBuiltin(t *testing.T) {
	f := quietFactory()
	var logged []string
	logAction := NewAction("Log", func(n *Node) Status {
		msg, _ := Get[string](n, "msg")
		logged = append(logged, msg)
		return Success
	}, InputPort[string]("msg", "what to log"))
	if err := f.Register(logAction, NewCondition("AlwaysRunning", func() bool { return false })); err != nil {
		t.Fatal(err)
	}
	if got, want := notes(f), `node type "Log" hides the builtin Decorator Log (not a BehaviorTree.CPP node)
node type "AlwaysRunning" hides the builtin Action AlwaysRunning (not a BehaviorTree.CPP node)
`; got != want {
		t.Errorf("notes:\n%s\nwant\n%s", got, want)
	}
	if m, _ := f.Model("Log"); m != logAction {
		t.Errorf("Model(Log) is not the user's")
	}
	if err := f.LoadString("t.xml", `<root BTCPP_format="4"><BehaviorTree ID="T">
<Fallback><AlwaysRunning/><Log msg="hello"/></Fallback></BehaviorTree></root>`); err != nil {
		t.Fatal(err)
	}
	tree, err := f.NewTree("")
	if err != nil {
		t.Fatal(err)
	}
	if s, err := tree.TickOnce(); s != Success || err != nil || len(logged) != 1 || logged[0] != "hello" {
		t.Errorf("tick: %v %v, logged %q", s, err, logged)
	}
	// A TreeNodesModel entry of another kind hides the builtin likewise.
	doc, err := btxml.Parse("m.xml", []byte(`<root BTCPP_format="4"><TreeNodesModel>
<Condition ID="Loop"/><Decorator ID="Time"/></TreeNodesModel></root>`))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.RegisterStandIns(doc.Models); err != nil {
		t.Fatal(err)
	}
	if m, _ := f.Model("Loop"); !m.StandIn() || m.Kind != KindCondition {
		t.Errorf("Loop: %+v", m)
	}
	if m, _ := f.Model("Time"); m.StandIn() {
		t.Errorf("Time: a stand-in of the same kind hid the builtin")
	}
	for _, id := range []string{"Log", "Sequence", "Inverter", "SubTree", "LoopInt", "SequenceStar"} {
		if err := f.Register(NewAction(id, func() Status { return Success })); err == nil ||
			err.Error() != `bt: node "`+id+`" is already registered` {
			t.Errorf("register %s: %v", id, err)
		}
	}
}

// TestRegisterChecksPortNames: a model's port names follow BehaviorTree.CPP's
// IsAllowedPortName, checked when the model is registered.
func TestRegisterChecksPortNames(t *testing.T) {
	for name, want := range map[string]string{
		"port name":  `bt: node "N": port name "port name": contains ' '`,
		"port.name":  `bt: node "N": port name "port.name": contains '.'`,
		"port<T>":    `bt: node "N": port name "port<T>": contains '<'`,
		"2nd":        `bt: node "N": port name "2nd" starts with a digit`,
		"ID":         `bt: node "N": port name "ID" is reserved: every node has that attribute`,
		"_onHalted":  `bt: node "N": port name "_onHalted" is reserved: every node has that attribute`,
		"_autoremap": `bt: node "N": port name "_autoremap" is reserved: every node has that attribute`,
	} {
		err := NewFactory().Register(NewAction("N", func() Status { return Success }, InputPort[int](name, "")))
		if err == nil || err.Error() != want {
			t.Errorf("%q: %v, want %s", name, err, want)
		}
	}
	err := NewFactory().Register(ModelOf[badPortTag]("B", KindAction))
	if err == nil || !strings.Contains(err.Error(), `field Goal: port name "goal.x": contains '.'`) {
		t.Errorf("ModelOf: %v", err)
	}
}

type badPortTag struct {
	Goal In[int] `port:"goal.x"`
}

func (*badPortTag) Tick(*Node) Status { return Success }

// TestSubtreesResolveWhenATreeIsCreated: a SubTree names its tree by ID, found when a
// tree is created (BehaviorTree.CPP's createTree), so documents load in any order; a
// missing subtree is an error of NewTree at the SubTree's position, unless a
// substitution rule replaces the SubTree node (the reference's
// SubTreeNodeSubstitution, issue 934).
func TestSubtreesResolveWhenATreeIsCreated(t *testing.T) {
	const parent = `<root BTCPP_format="4"><BehaviorTree ID="Parent">
  <Sequence>
    <SubTree ID="Child" name="child"/>
    <SubTree ID="Child"/>
  </Sequence></BehaviorTree></root>`
	const child = `<root BTCPP_format="4"><BehaviorTree ID="Child"><AlwaysSuccess/></BehaviorTree></root>`
	for _, order := range [][2]string{{parent, child}, {child, parent}} {
		f := NewFactory()
		for i, doc := range order {
			if err := f.LoadString([]string{"a.xml", "b.xml"}[i], doc); err != nil {
				t.Fatal(err)
			}
		}
		tree, err := f.NewTree("Parent")
		if err != nil {
			t.Fatal(err)
		}
		var paths []string
		for n := range tree.Nodes() {
			paths = append(paths, n.Path())
		}
		if got, want := strings.Join(paths, " "), "Sequence::1 child child/AlwaysSuccess::3 Child::4 Child::4/AlwaysSuccess::5"; got != want {
			t.Errorf("paths %s, want %s", got, want)
		}
		if s, err := tree.TickOnce(); s != Success || err != nil {
			t.Errorf("tick: %v %v", s, err)
		}
	}

	f := NewFactory()
	if err := f.LoadString("p.xml", parent); err != nil {
		t.Fatalf("a missing subtree is no load error: %v", err)
	}
	if err := f.LoadString("c.xml", strings.Replace(child, `"Child"`, `"Chlid"`, 1)); err != nil {
		t.Fatal(err)
	}
	_, err := f.NewTree("Parent")
	want := `p.xml:3:5: no tree "Child" to instantiate; did you mean "Chlid"?
p.xml:4:5: no tree "Child" to instantiate; did you mean "Chlid"?`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}

	// Rules replace SubTree nodes, by name (by default the tree's ID) or by path; the
	// subtree need not exist then.
	if err := f.SubstituteTestNode("child", TestNodeConfig{PostScript: "a := 1"}); err != nil {
		t.Fatal(err)
	}
	f.Substitute("Child::3", "AlwaysFailure")
	tree, err := f.NewTree("Parent")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for n := range tree.Nodes() {
		got = append(got, n.Path()+"="+n.ID())
	}
	if g, w := strings.Join(got, " "), "Sequence::1=Sequence child=SubTree Child::3=SubTree"; g != w {
		t.Errorf("nodes %s, want %s", g, w)
	}
	if s, err := tree.TickOnce(); s != Failure || err != nil {
		t.Errorf("tick: %v %v", s, err)
	}
	if v := tree.Blackboard().Entry("a").Load().Any(); v != int64(1) {
		t.Errorf("a = %v, want the TestNode's 1", v)
	}
	f.ClearSubstitutions()
	f.Substitute("SubTree", "Sequence")
	if _, err := f.NewTree("Parent"); err == nil || !strings.Contains(err.Error(), `substitution rule "SubTree" for child: a SubTree can only be replaced by a leaf, not a Control`) {
		t.Errorf("a SubTree replaced by a control: %v", err)
	}
}

// TestSubtreeCycleAcrossDocuments: a subtree that instantiates itself through trees of
// several documents is found when the tree is created.
func TestSubtreeCycleAcrossDocuments(t *testing.T) {
	f := NewFactory()
	if err := f.LoadString("a.xml", `<root BTCPP_format="4"><BehaviorTree ID="A"><SubTree ID="B"/></BehaviorTree></root>`); err != nil {
		t.Fatal(err)
	}
	if err := f.LoadString("b.xml", `<root BTCPP_format="4"><BehaviorTree ID="B"><Inverter><SubTree ID="A"/></Inverter></BehaviorTree></root>`); err != nil {
		t.Fatal(err)
	}
	_, err := f.NewTree("A")
	want := `b.xml:1:55: subtree "A" instantiates itself: A → B → A`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// TestReloadReplacesATree: loading a tree ID again replaces its definition, so that a
// program can reload an edited file; trees already created keep theirs, and what the
// factory keeps of the old definition (linked subtrees, fingerprints) is not reused.
func TestReloadReplacesATree(t *testing.T) {
	const main = `<root BTCPP_format="4"><BehaviorTree ID="Main"><SubTree ID="Sub"/></BehaviorTree></root>`
	sub := func(leaf string) string {
		return `<root BTCPP_format="4"><BehaviorTree ID="Sub"><` + leaf + `/></BehaviorTree></root>`
	}
	f := NewFactory()
	for _, doc := range []string{main, sub("AlwaysSuccess")} {
		if err := f.LoadString("t.xml", doc); err != nil {
			t.Fatal(err)
		}
	}
	before, err := f.NewTree("Main")
	if err != nil {
		t.Fatal(err)
	}
	saved, err := before.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if err := f.LoadString("t.xml", sub("AlwaysFailure")); err != nil {
		t.Fatalf("loading a tree again: %v", err)
	}
	after, err := f.NewTree("Main")
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := before.TickOnce(); s != Success {
		t.Errorf("the tree created before: %v, want Success", s)
	}
	if s, _ := after.TickOnce(); s != Failure {
		t.Errorf("the tree created after: %v, want Failure", s)
	}
	if spec, _ := f.Definition("Sub"); spec.Model().ID != "AlwaysFailure" {
		t.Errorf("Definition(Sub) is %s", spec.Model().ID)
	}
	if err := after.Restore(saved); err == nil || !strings.Contains(err.Error(), "fingerprint") {
		t.Errorf("restoring the old definition's snapshot: %v", err)
	}
	if again, _ := f.NewTree("Main"); again.Restore(saved) == nil {
		t.Error("a tree built after the reload takes the old definition's snapshot")
	}
	// Two trees with one ID in one document stay an error.
	f2 := NewFactory()
	doc, _ := btxml.Parse("d.xml", []byte(sub("AlwaysSuccess")))
	doc.Trees = append(doc.Trees, doc.Trees[0])
	if err := f2.LoadDocument(doc); err == nil || !strings.Contains(err.Error(), `tree "Sub" is defined twice in the document (first at d.xml:1:24)`) {
		t.Errorf("one ID twice in one document: %v", err)
	}
}

// TestSubtreeModelsApplyWhenATreeIsCreated: the ports the TreeNodesModel of a subtree
// declares apply to its SubTree nodes when a tree is created, whichever document
// declares them: a port not remapped takes the model's default, and one without a
// default is an error of NewTree at the SubTree.
func TestSubtreeModelsApplyWhenATreeIsCreated(t *testing.T) {
	f := NewFactory()
	if err := f.LoadString("main.xml", `<root BTCPP_format="4"><BehaviorTree ID="Main">
  <Sequence>
    <SubTree ID="Move" speed="{fast}"/>
    <SubTree ID="Move" name="slow"/>
  </Sequence></BehaviorTree></root>`); err != nil {
		t.Fatal(err)
	}
	if err := f.LoadString("move.xml", `<root BTCPP_format="4">
  <BehaviorTree ID="Move"><Script code="said := speed"/></BehaviorTree>
  <TreeNodesModel><SubTree ID="Move"><input_port name="speed" default="2"/><input_port name="limit"/></SubTree></TreeNodesModel>
</root>`); err != nil {
		t.Fatal(err)
	}
	_, err := f.NewTree("Main")
	want := `main.xml:3:5: the TreeNodesModel of subtree "Move" declares the port "limit" without a default: remap it
main.xml:4:5: the TreeNodesModel of subtree "Move" declares the port "limit" without a default: remap it`
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
	if err := f.LoadString("move.xml", `<root BTCPP_format="4">
  <BehaviorTree ID="Move"><Script code="said := speed"/></BehaviorTree>
  <TreeNodesModel><SubTree ID="Move"><input_port name="speed" default="2"/></SubTree></TreeNodesModel>
</root>`); err != nil {
		t.Fatal(err)
	}
	tree, err := f.NewTree("Main", WithBlackboard(func() *blackboard.Blackboard {
		bb := blackboard.New()
		_ = bb.Entry("fast").Set(blackboard.Int(9))
		return bb
	}()))
	if err != nil {
		t.Fatal(err)
	}
	if s, err := tree.TickOnce(); s != Success || err != nil {
		t.Fatalf("tick: %v %v", s, err)
	}
	var said []string
	for n := range tree.Nodes() {
		if n.ID() == "Script" {
			said = append(said, n.Blackboard().Entry("said").Load().String())
		}
	}
	if got := strings.Join(said, " "); got != "9 2" {
		t.Errorf("the subtrees said %s, want 9 (remapped) 2 (the model's default)", got)
	}
}

// TestNewTreeConcurrently: building trees from a configured factory is safe from
// several goroutines, also the first builds, which link the definitions (run with
// -race).
func TestNewTreeConcurrently(t *testing.T) {
	f := NewFactory()
	for i, doc := range []string{
		`<root BTCPP_format="4"><BehaviorTree ID="Main"><Sequence><SubTree ID="A"/><SubTree ID="B" name="b"/></Sequence></BehaviorTree></root>`,
		`<root BTCPP_format="4"><BehaviorTree ID="A"><SubTree ID="B"/></BehaviorTree><BehaviorTree ID="B"><AlwaysSuccess/></BehaviorTree></root>`,
	} {
		if err := f.LoadString([]string{"m.xml", "ab.xml"}[i], doc); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for g := range errs {
		wg.Go(func() {
			for _, id := range []string{"Main", "A", "B", "Main"} {
				tree, err := f.NewTree(id)
				if err == nil {
					_, err = tree.TickOnce()
					_, _ = f.Definition(id)
				}
				if err != nil {
					errs[g] = err
					return
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}
