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
