package btlog

import (
	"bytes"
	"slices"
	"testing"

	"github.com/gobt/bt"
)

// TestTreeXMLGolden writes the mission as XML with UIDs, reads the nodes back from it
// as a .btlog reader does, and loads it into a factory again: the same tree.
func TestTreeXMLGolden(t *testing.T) {
	tree := mission(t)
	var out bytes.Buffer
	if err := WriteTreeXML(&out, tree); err != nil {
		t.Fatal(err)
	}
	golden(t, "mission.uid.xml", out.Bytes())
	nodes, err := xmlNodes(out.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if want := nodesOf(tree); !slices.Equal(nodes, want) {
		t.Errorf("nodes read back:\n%+v\nthe tree's:\n%+v", nodes, want)
	}
	f := bt.NewFactory()
	if err := f.Register(moveTo); err != nil {
		t.Fatal(err)
	}
	if err := f.LoadString("mission.uid.xml", out.String()); err != nil {
		t.Fatal(err)
	}
	again, err := f.NewTree("Mission")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := nodesOf(again), nodesOf(tree); !slices.Equal(got, want) {
		t.Errorf("the tree loaded again:\n%+v\nwant\n%+v", got, want)
	}
}

// TestTreeXMLGo writes a tree built in Go: a subtree instantiated twice (two
// <BehaviorTree> elements with the same ID, as BehaviorTree.CPP writes them), ports set
// and defaulted, scripted conditions in BehaviorTree.CPP's order, a Go condition left
// out, and an action whose ID is not an XML name, in the explicit form.
func TestTreeXMLGo(t *testing.T) {
	grasp := bt.Sequence(bt.Script("gripped := true"), bt.AlwaysSuccess().Named("close"))
	odd := bt.NewAction("say hello", func() bt.Status { return bt.Success }, bt.InputPort[string]("text", "what to say").WithDefault("hello"))
	tree, err := bt.NewTree(bt.Sequence(
		bt.SubTree("Grasp", grasp).With("object", "{target}"),
		bt.SubTree("Grasp", grasp).Named("again"),
		odd.Spec().Script(bt.OnSuccess, "said := true").Script(bt.SkipIf, "quiet").
			Script(bt.OnHalted, "said := false").Pre(bt.While, func(*bt.Node) bool { return true }),
		bt.Action("Plain", func() bt.Status { return bt.Success }),
		bt.Repeat(2, bt.AlwaysSuccess()),
	))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := WriteTreeXML(&out, tree); err != nil {
		t.Fatal(err)
	}
	golden(t, "go.uid.xml", out.Bytes())
	nodes, err := xmlNodes(out.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if want := nodesOf(tree); !slices.Equal(nodes, want) {
		t.Errorf("nodes read back:\n%+v\nthe tree's:\n%+v", nodes, want)
	}
}

func TestTreeXMLErrors(t *testing.T) {
	tree, err := bt.NewTree(bt.AlwaysSuccess())
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteTreeXML(nil, tree); err == nil || err.Error() != "btlog: nil writer" {
		t.Errorf("nil writer: %v", err)
	}
	if err := WriteTreeXML(&bytes.Buffer{}, nil); err == nil || err.Error() != "btlog: nil tree" {
		t.Errorf("nil tree: %v", err)
	}
	var out bytes.Buffer
	if err := WriteTreeXML(&out, &bt.Tree{}); err != nil || out.String() != "<root BTCPP_format=\"4\"/>\n" {
		t.Errorf("an empty tree: %v\n%s", err, out.String())
	}
}

// TestSubTreeNamedLikeItsTree: a SubTree named like the tree it instantiates has the
// path S::UID, and its instance the path S, as in BehaviorTree.CPP; the XML says so,
// and the nodes read back from it, or from the reference's XML, hang under the SubTree.
func TestSubTreeNamedLikeItsTree(t *testing.T) {
	f := bt.NewFactory()
	err := f.LoadString("t.xml", `<root BTCPP_format="4" main_tree_to_execute="M">
		<BehaviorTree ID="M"><Sequence><SubTree ID="S" name="S"/></Sequence></BehaviorTree>
		<BehaviorTree ID="S"><AlwaysSuccess/></BehaviorTree></root>`)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := f.NewTree("")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := WriteTreeXML(&out, tree); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out.Bytes(), []byte(`<BehaviorTree ID="S" _fullpath="S">`)) {
		t.Errorf("the subtree's _fullpath is not S:\n%s", out.Bytes())
	}
	reference := `<root BTCPP_format="4"><BehaviorTree ID="M" _fullpath="">` +
		`<Sequence name="Sequence" _uid="1"><SubTree ID="S" _fullpath="S::2" _uid="2"/></Sequence></BehaviorTree>` +
		`<BehaviorTree ID="S" _fullpath="S"><AlwaysSuccess name="AlwaysSuccess" _uid="3"/></BehaviorTree></root>`
	for _, x := range [][]byte{out.Bytes(), []byte(reference)} {
		nodes, err := xmlNodes(x)
		if err != nil {
			t.Fatal(err)
		}
		if want := nodesOf(tree); !slices.Equal(nodes, want) {
			t.Errorf("nodes read back:\n%+v\nthe tree's:\n%+v", nodes, want)
		}
	}
}
