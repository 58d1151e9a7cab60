package bt

import (
	"strings"
	"testing"

	"github.com/gobt/bt/blackboard"
)

// setter writes a value to an output port when ticked.
func setter(id string, v int) *Spec {
	m := NewAction(id, func(n *Node) (Status, error) {
		return Success, Set(n, "out", v)
	}, OutputPort[int]("out", "where to write"))
	return m.Spec()
}

func TestSubTreeRemapping(t *testing.T) {
	sub := Sequence(setter("SetA", 1).With("out", "{a}"), setter("SetB", 2).With("out", "{b}"), setter("SetC", 3).With("out", "{_c}"))
	for _, c := range []struct {
		name string
		spec *Spec
		want string // root blackboard keys
	}{
		{"explicit remapping", SubTree("Sub", sub).With("a", "{x}"), "x"},
		{"same name", SubTree("Sub", sub).With("a", "{=}"), "a"},
		{"autoremap, except _keys", SubTree("Sub", sub).AutoRemap(true), "a b"},
		{"private", SubTree("Sub", sub), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			tree, err := NewTree(c.spec)
			if err != nil {
				t.Fatal(err)
			}
			if s, err := tree.TickOnce(); s != Success || err != nil {
				t.Fatal(s, err)
			}
			if got := strings.Join(tree.Blackboard().Keys(), " "); got != c.want {
				t.Errorf("root keys %q, want %q", got, c.want)
			}
		})
	}
}

func TestSubTreeLiterals(t *testing.T) {
	var got []blackboard.Value
	read := NewAction("Read", func(n *Node) Status {
		for _, k := range []string{"i", "f", "s", "list"} {
			got = append(got, n.Blackboard().Entry(k).Load())
		}
		return Success
	})
	tree, err := NewTree(SubTree("Sub", read.Spec()).With("i", "42").With("f", "2.5").With("s", "true").With("list", "1;2;3"))
	if err != nil {
		t.Fatal(err)
	}
	tree.TickOnce()
	want := []blackboard.Value{blackboard.Int(42), blackboard.Float(2.5), blackboard.String("true"), blackboard.String("1;2;3")}
	for i := range want {
		if got[i].Kind() != want[i].Kind() || got[i].String() != want[i].String() {
			t.Errorf("%d: got %v, want %v", i, got[i], want[i])
		}
	}
}

func TestSubTreePaths(t *testing.T) {
	inner := Sequence(AlwaysSuccess())
	tree, err := NewTree(Sequence(SubTree("Walk", SubTree("Step", inner)), SubTree("Walk", inner).Named("second")))
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for n := range tree.Nodes() {
		paths = append(paths, n.Path())
	}
	if got := strings.Join(paths, " "); got != "Sequence::1 Walk::2 Walk::2/Step::3 Walk::2/Step::3/Sequence::4 Walk::2/Step::3/AlwaysSuccess::5 second second/Sequence::7 second/AlwaysSuccess::8" {
		t.Errorf("got %s", got)
	}
}

func TestSubTreeRecursionIsAnError(t *testing.T) {
	d := &treeDef{id: "Loop"}
	d.spec = Sequence(&Spec{model: subTreeModel, more: &specMore{sub: d}})
	_, err := NewTree(d.spec)
	if err == nil || !strings.Contains(err.Error(), `subtree "Loop" instantiates itself: Loop → Loop`) {
		t.Errorf("got %v", err)
	}
}

// TestSubTreeNamesAreUnique: two SubTrees of one tree with the same name would have
// the same path, so loading refuses them (BehaviorTree.CPP since Groot2's issue 56),
// nested ones too, naming both positions. Unnamed SubTrees, and the same name in two
// trees, are fine.
func TestSubTreeNamesAreUnique(t *testing.T) {
	const doc = `<root BTCPP_format="4">
<BehaviorTree ID="Main">
  <Sequence>
    <SubTree ID="Sub" name="arm"/>
    <Fallback>
      <SubTree ID="Sub"/>
      <SubTree ID="Sub"/>
      <SubTree ID="Other" name="arm"/>
    </Fallback>
  </Sequence>
</BehaviorTree>
<BehaviorTree ID="Sub"><SubTree ID="Other" name="arm"/></BehaviorTree>
<BehaviorTree ID="Other"><AlwaysSuccess/></BehaviorTree>
</root>`
	err := NewFactory().LoadString("t.xml", doc)
	want := `t.xml:8:27: two SubTrees of tree "Main" are named "arm", here and at 4:23: their instances would have the same path; give them different names`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	if err := NewFactory().LoadString("t.xml", strings.Replace(doc, `ID="Other" name="arm"`, `ID="Other" name="hand"`, 1)); err != nil {
		t.Error(err)
	}
}
