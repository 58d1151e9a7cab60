package bt_test

import (
	"errors"
	"maps"
	"strings"
	"testing"
	"unsafe"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

// TestNodeSizes keeps a node to the 32 bytes a tick reads, half a cache line, and its
// meta to 16 (see Node and nodeMeta).
func TestNodeSizes(t *testing.T) {
	if s := unsafe.Sizeof(Node{}); s != 32 {
		t.Errorf("a Node takes %d bytes, want 32", s)
	}
	if s := SizeofNodeMeta; s != 16 {
		t.Errorf("a nodeMeta takes %d bytes, want 16", s)
	}
}

func TestDecoratorResetsCompletedChild(t *testing.T) {
	r := &bttest.Recorder{}
	tree, err := NewTree(Sequence(userPass.Spec(r.Leaf("A", "S")), r.Leaf("B", "R")))
	if err != nil {
		t.Fatal(err)
	}
	// A is reset by its decorator at once, although the Sequence is still running.
	bttest.Play(t, tree, r, bttest.TickOnce, []bttest.Step{{Want: Running, Log: "A:S B:R", States: "R S I R"}})
}

func TestSkippedIsNeverStored(t *testing.T) {
	r := &bttest.Recorder{}
	tree, err := NewTree(Sequence(r.Leaf("A", "R K"), r.Leaf("B", "R")))
	if err != nil {
		t.Fatal(err)
	}
	bttest.Play(t, tree, r, bttest.TickOnce, []bttest.Step{
		{Want: Running, Log: "A:R", States: "R R I"},
		{Want: Running, Log: "A:K B:R", States: "R I R"}, // A was Running, returned Skipped: now Idle
	})
}

func TestReturningIdleIsAnError(t *testing.T) {
	r := &bttest.Recorder{}
	tree, err := NewTree(Sequence(r.Leaf("A", "S"), r.Leaf("B", "I").Named("bad")))
	if err != nil {
		t.Fatal(err)
	}
	_, err = tree.TickOnce()
	var ne *NodeError
	if !errors.As(err, &ne) || ne.Path != "bad" || !strings.Contains(err.Error(), "returned IDLE") {
		t.Fatalf("got %v", err)
	}
}

func TestUIDsAndPaths(t *testing.T) {
	r := &bttest.Recorder{}
	tree, err := NewTree(Sequence(r.Leaf("A", "S"), Fallback(r.Leaf("B", "S").Named("bee"), r.Leaf("C", "S")).Named("fb")))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	tree.Walk(func(n *Node, depth int) bool {
		got = append(got, strings.Repeat(" ", depth)+n.Path()+"#"+string(rune('0'+n.UID())))
		return true
	})
	want := "Sequence::1#1| A::2#2| fb#3|  bee#4|  C::5#5"
	if s := strings.Join(got, "|"); s != want {
		t.Errorf("got %s\nwant %s", s, want)
	}
	if tree.Node(4).Name() != "bee" || tree.Node(0) != nil || tree.Node(6) != nil || tree.Len() != 5 {
		t.Error("Node by UID")
	}
	var skipped []string
	tree.Walk(func(n *Node, _ int) bool {
		skipped = append(skipped, n.Name())
		return n.Name() != "fb"
	})
	if s := strings.Join(skipped, " "); s != "Sequence A fb" {
		t.Errorf("Walk pruning: %s", s)
	}
}

// haltLogger is a user control that ticks its only child and logs its own Halt.
type haltLogger struct{ r *bttest.Recorder }

func (h haltLogger) Tick(n *Node) Status { return n.Child(0).Tick() }

func (h haltLogger) Halt(*Node) { h.r.Log("C:halt") }

func TestHaltOrder(t *testing.T) {
	r := &bttest.Recorder{}
	note := func(what string) func(*Node) { return func(*Node) { r.Log(what) } }
	control := &Model{ID: "C", Kind: KindControl, New: func(*NodeConfig) (Behavior, error) { return haltLogger{r}, nil }}
	tree, err := NewTree(control.Spec(r.Leaf("A", "R").Post(OnHalted, note("A.onHalted"))).Post(OnHalted, note("C.onHalted")))
	if err != nil {
		t.Fatal(err)
	}
	// A node's Halt runs before its children are halted, its _onHalted after theirs.
	bttest.Play(t, tree, r, bttest.TickOnce, []bttest.Step{{Want: Running, Log: "A:R"}, {Halt: true, Log: "C:halt A:halt A.onHalted C.onHalted"}})
}

// TestNodeAttributes: the attributes of a node that are neither ports nor read by the
// engine are kept, as BehaviorTree.CPP's other_attributes (its PortsTest.NonPorts),
// for nodes and SubTrees from XML and for specs built in Go.
func TestNodeAttributes(t *testing.T) {
	f := NewFactory()
	withPorts := NewAction("NodeWithPorts", func() Status { return Success }, InputPort[int]("in_port_B", ""))
	if err := f.Register(withPorts); err != nil {
		t.Fatal(err)
	}
	err := f.LoadString("attrs.xml", `<root BTCPP_format="4">
	  <BehaviorTree ID="Main">
	    <Sequence>
	      <Action ID="NodeWithPorts" name="NodeWithPortsName" in_port_B="66" _not_da_port="whateva" _skipIf="false"/>
	      <SubTree ID="Sub" _description="a subtree" _autoremap="true"/>
	    </Sequence>
	  </BehaviorTree>
	  <BehaviorTree ID="Sub"><AlwaysSuccess _uid="7"/></BehaviorTree>
	</root>`)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := f.NewTree("Main")
	if err != nil {
		t.Fatal(err)
	}
	all := func(seq func(func(string, string) bool)) map[string]string {
		m := map[string]string{}
		for k, v := range seq {
			m[k] = v
		}
		return m
	}
	for _, c := range []struct {
		n    *Node
		want map[string]string
	}{
		{tree.Node(2), map[string]string{"_not_da_port": "whateva"}},
		{tree.Node(3), map[string]string{"_description": "a subtree"}},
		{tree.Node(4), map[string]string{"_uid": "7"}},
		{tree.Node(1), map[string]string{}},
	} {
		if got := all(c.n.Attributes()); !maps.Equal(got, c.want) {
			t.Errorf("%s: attributes %v, want %v", c.n.Path(), got, c.want)
		}
		if got := all(c.n.Spec().Attributes()); !maps.Equal(got, c.want) {
			t.Errorf("%s: attributes of its Spec %v, want %v", c.n.Path(), got, c.want)
		}
	}
	if v, ok := tree.Node(2).Attribute("_not_da_port"); v != "whateva" || !ok {
		t.Errorf("Attribute: %q %v", v, ok)
	}
	for _, name := range []string{"in_port_B", "name", "_skipIf", "_none"} {
		if v, ok := tree.Node(2).Attribute(name); ok {
			t.Errorf("Attribute(%q) = %q, want none", name, v)
		}
	}
	spec := AlwaysSuccess().With("_note", "old").With("_note", "checked").With("_by", "me")
	goTree := mustTree(t, Inverter(spec))
	if got, want := all(goTree.Node(2).Attributes()), map[string]string{"_note": "checked", "_by": "me"}; !maps.Equal(got, want) {
		t.Errorf("a spec built in Go: attributes %v, want %v", got, want)
	}
}
