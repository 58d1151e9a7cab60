package bt

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gobt/bt/btxml"
)

// TestFlattenErrors checks the definitions NewTree refuses before building anything.
func TestFlattenErrors(t *testing.T) {
	wide := make([]*Spec, maxWide+1)
	for i := range wide {
		wide[i] = AlwaysSuccess()
	}
	for _, tc := range []struct {
		name string
		root *Spec
		want string
	}{
		{"nil child", Sequence(AlwaysSuccess(), nil), "bt: child 2 of Sequence is nil"},
		{"nil root", nil, "bt: no root spec"},
		{"no model", Sequence(&Spec{}), "bt: a spec has no model (the Spec of a nil *Model, or a Spec not made with Model.Spec or the functions of package bt)"},
		{"subtree without root", Sequence(SubTree("Empty", nil)), `bt: subtree "Empty" has no root`},
		{"too many children", Sequence(wide...), "bt: Sequence has more than 65535 children or ports"},
		{"too many nodes", Sequence(Sequence(wide[:maxNodes/2]...), Sequence(wide[:maxNodes/2]...)),
			"bt: the tree has more than 65535 nodes, the most a tree may have"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewTree(tc.root)
			if err == nil || err.Error() != tc.want {
				t.Errorf("got %v, want %s", err, tc.want)
			}
		})
	}
}

// TestSharedGoSubTree checks that a subtree defined in Go and instantiated twice is
// flattened once and built twice, each instance with its own nodes.
func TestSharedGoSubTree(t *testing.T) {
	sub := SubTree("Step", Sequence(AlwaysSuccess(), AlwaysSuccess()))
	root := Sequence(sub, sub)
	d, err := flatten(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.defs.nodes) != 1+2+3 || d.size != 1+2*4 {
		t.Errorf("%d records for %d nodes, want 6 for 9", len(d.defs.nodes), d.size)
	}
	tree, err := NewTree(root)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for n := range tree.Nodes() {
		paths = append(paths, n.Path())
	}
	want := "Sequence::1 Step::2 Step::2/Sequence::3 Step::2/AlwaysSuccess::4 Step::2/AlwaysSuccess::5 " +
		"Step::6 Step::6/Sequence::7 Step::6/AlwaysSuccess::8 Step::6/AlwaysSuccess::9"
	if got := strings.Join(paths, " "); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestSpecOfLoadedNode checks the Spec a node built from XML gives: the one its element
// describes, the same for every tree of the definition, whichever goroutine asks first.
func TestSpecOfLoadedNode(t *testing.T) {
	f := NewFactory()
	if err := f.LoadString("specs.xml", `<root BTCPP_format="4">
<BehaviorTree ID="Main">
  <Sequence>
    <Script name="init" code="x := 1" _onSuccess="y := 2"/>
    <SubTree ID="Sub" v="{x}"/>
  </Sequence>
</BehaviorTree>
<BehaviorTree ID="Sub"><AlwaysSuccess name="leaf"/></BehaviorTree>
</root>`); err != nil {
		t.Fatal(err)
	}
	trees := make([]*Tree, 4)
	for i := range trees {
		var err error
		if trees[i], err = f.NewTree("Main"); err != nil {
			t.Fatal(err)
		}
	}
	specs := make([][]*Spec, len(trees))
	var wg sync.WaitGroup
	for i, tree := range trees {
		wg.Go(func() {
			for n := range tree.Nodes() {
				specs[i] = append(specs[i], n.Spec())
			}
		})
	}
	wg.Wait()
	for n := range trees[0].Nodes() {
		if n.Pos() != n.Spec().Pos() {
			t.Errorf("%s: Pos %s, its Spec's %s", n.Path(), n.Pos(), n.Spec().Pos())
		}
	}
	for i := range specs[1:] {
		for j, s := range specs[i+1] {
			if s != specs[0][j] {
				t.Errorf("tree %d, node %d: another Spec than tree 0's", i+1, j+1)
			}
		}
	}
	var got []string
	for _, s := range specs[0] {
		line := s.Model().ID + " " + s.Name() + " " + s.Pos().String()
		for _, p := range []string{"code", "v"} {
			if v, ok := s.Port(p); ok {
				line += " " + p + "=" + v
			}
		}
		got = append(got, line+" "+string(rune('0'+len(s.Children()))))
	}
	want := []string{
		"Sequence  specs.xml:3:3 2",
		"Script init specs.xml:4:5 code=x := 1 0",
		"SubTree  specs.xml:5:5 v={x} 0",
		"AlwaysSuccess leaf specs.xml:8:24 0",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if sub := specs[0][2].subtree(); sub == nil || sub.id != "Sub" || sub.rootSpec() != specs[0][3] {
		t.Errorf("the SubTree's Spec does not lead to the subtree's")
	}
	if src, ok := specs[0][1].CondScript(OnSuccess); !ok || src != "y := 2" {
		t.Errorf("the Script's Spec has _onSuccess %q, %v; want \"y := 2\"", src, ok)
	}
	if id := specs[0][2].SubTreeID(); id != "Sub" {
		t.Errorf("the SubTree's Spec has SubTreeID %q, want \"Sub\"", id)
	}
}

// TestLargestTree builds a tree of maxNodes nodes, whose slots, UIDs and child counts
// use every value the 16 bits of a node's meta hold.
func TestLargestTree(t *testing.T) {
	leaves := make([]*Spec, maxNodes-1)
	for i := range leaves {
		leaves[i] = AlwaysSuccess()
	}
	leaves[len(leaves)-1] = AlwaysSuccess().Named("last")
	tree, err := NewTree(Sequence(leaves...))
	if err != nil {
		t.Fatal(err)
	}
	root := tree.Root()
	last := root.Child(root.NumChildren() - 1)
	if tree.Len() != maxNodes || root.NumChildren() != maxNodes-1 || last.UID() != maxNodes || last.Name() != "last" {
		t.Errorf("%d nodes, %d children, the last %s with UID %d", tree.Len(), root.NumChildren(), last.Name(), last.UID())
	}
	if tree.Node(maxNodes) != last {
		t.Errorf("Node(%d) is not the last child", maxNodes)
	}
	if s, err := tree.TickOnce(); err != nil || s != Success {
		t.Errorf("got %v, %v; want SUCCESS", s, err)
	}
}

// TestTooWideElement checks that a document whose node has more children than a record
// can count is refused with the node's position, not truncated.
func TestTooWideElement(t *testing.T) {
	kids := make([]*btxml.Element, maxWide+1)
	for i := range kids {
		kids[i] = &btxml.Element{Tag: "AlwaysSuccess", ID: "AlwaysSuccess", Pos: btxml.Pos{File: "wide.xml", Line: int32(i + 3), Col: 5}}
	}
	doc := &btxml.Document{File: "wide.xml", Format: 4, Trees: []*btxml.Tree{{ID: "Main", Format: 4,
		Root: &btxml.Element{Tag: "Sequence", ID: "Sequence", Children: kids, Pos: btxml.Pos{File: "wide.xml", Line: 2, Col: 3}}}}}
	err := NewFactory().LoadDocument(doc)
	want := "wide.xml:2:3: Sequence has 65536 children, more than the 65535 a node may have"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// TestNewTreeKeepsDefinition checks that the trees of one root share the definition
// the first NewTree made, whichever goroutines build them.
func TestNewTreeKeepsDefinition(t *testing.T) {
	root := Sequence(Inverter(AlwaysFailure()), SubTree("Sub", Fallback(AlwaysFailure(), AlwaysSuccess())))
	trees := make([]*Tree, 8)
	var wg sync.WaitGroup
	for i := range trees {
		wg.Go(func() {
			var err error
			if trees[i], err = NewTree(root); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	kept := root.flat.Load()
	if kept == nil {
		t.Fatal("NewTree kept no definition")
	}
	again, err := NewTree(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, tree := range append(trees, again) {
		if tree.Len() != 7 {
			t.Errorf("%d nodes, want 7", tree.Len())
		}
		if s, err := tree.TickOnce(); err != nil || s != Success {
			t.Errorf("got %v, %v; want SUCCESS", s, err)
		}
	}
	if again.Root().meta.scope.defs != kept.defs {
		t.Errorf("a later tree was built from another definition")
	}
}

// TestFileIndex checks the file table of a definition: a file named again right away
// keeps its index, and once the table is full a name it holds is still found.
func TestFileIndex(t *testing.T) {
	d := newDefs()
	if a, b, c := d.file("a.xml"), d.file("a.xml"), d.file(""); a != 1 || b != 1 || c != 2 {
		t.Errorf("indexes %d %d %d, want 1 1 2", a, b, c)
	}
	for len(d.files) <= maxWide {
		d.file(strconv.Itoa(len(d.files)))
	}
	if got := d.file("a.xml"); got != 1 {
		t.Errorf("a.xml in a full table: %d, want 1", got)
	}
	if got := d.file("new.xml"); got != 0 || len(d.files) != maxWide+1 {
		t.Errorf("a new name in a full table: %d, %d names; want 0 and %d", got, len(d.files), maxWide+1)
	}
}

// TestDocumentSwitchingFiles checks that a document made by hand whose nodes switch
// files more often than a record can count is refused rather than given wrong positions.
func TestDocumentSwitchingFiles(t *testing.T) {
	half := func() *btxml.Element {
		kids := make([]*btxml.Element, maxWide/2+2)
		for i := range kids {
			kids[i] = &btxml.Element{Tag: "AlwaysSuccess", ID: "AlwaysSuccess",
				Pos: btxml.Pos{File: []string{"a.xml", "b.xml"}[i%2], Line: 1, Col: 1}}
		}
		return &btxml.Element{Tag: "Sequence", ID: "Sequence", Children: kids}
	}
	root := &btxml.Element{Tag: "Sequence", ID: "Sequence", Children: []*btxml.Element{half(), half()}}
	doc := &btxml.Document{File: "main.xml", Format: 4, Trees: []*btxml.Tree{{ID: "Main", Format: 4, Root: root}}}
	err := NewFactory().LoadDocument(doc)
	if err == nil || err.Error() != "main.xml: the nodes switch files more than 65535 times" {
		t.Errorf("got %v", err)
	}
}

// TestDefinitionRoundTrip checks, on the documents of testdata, that a tree built from
// a factory's Definition through NewTree — specs made from records, flattened into
// records again — has the nodes of the tree the factory builds.
func TestDefinitionRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("testdata/fuzzseed/*.xml")
	files = append(files, "testdata/catalogue.xml")
	trees := 0
	for _, file := range files {
		f := NewFactory()
		if err := f.LoadFile(file); err != nil {
			continue // a document for nodes that are registered elsewhere
		}
		for _, id := range f.TreeIDs() {
			want, err := f.NewTree(id)
			if err != nil {
				continue
			}
			root, err := f.Definition(id)
			if err != nil {
				t.Fatal(err)
			}
			got, err := NewTree(root)
			if err != nil {
				t.Errorf("%s, %s: %v", file, id, err)
				continue
			}
			if d, w := describe(got), describe(want); d != w {
				t.Errorf("%s, %s: built from its Definition:\n%s\nby the factory:\n%s", file, id, d, w)
			}
			trees++
		}
	}
	if trees < 10 {
		t.Errorf("only %d trees compared", trees)
	}
}

// describe lists a tree's nodes with what a node tells of itself.
func describe(tree *Tree) string {
	var b strings.Builder
	for n := range tree.Nodes() {
		fmt.Fprintf(&b, "%d %s %s %s %s %d\n", n.UID(), n.Path(), n.ID(), n.Kind(), n.Pos(), n.NumChildren())
	}
	return b.String()
}

// TestSpecIntrospection: a Spec tells its ports in the order they were set, the text
// of its scripted pre/post conditions (not of Go ones) and the tree a SubTree
// instantiates; a Tree tells the ID it was built from.
func TestSpecIntrospection(t *testing.T) {
	sub := SubTree("Grasp", AlwaysSuccess()).With("object", "{target}").With("force", "2.5")
	set := SetBlackboard("{x}", "3").Script(SkipIf, "x > 2").Pre(FailureIf, func(*Node) bool { return false })
	var got []string
	for name, value := range sub.Ports() {
		got = append(got, name+"="+value)
	}
	for name, value := range set.Ports() {
		got = append(got, name+"="+value)
		break // the iterator stops when asked
	}
	if want := "object={target} force=2.5 output_key={x}"; strings.Join(got, " ") != want {
		t.Errorf("Ports: %q, want %q", strings.Join(got, " "), want)
	}
	if src, ok := set.CondScript(SkipIf); !ok || src != "x > 2" {
		t.Errorf("CondScript(SkipIf) = %q, %v", src, ok)
	}
	for _, h := range []Cond{FailureIf, OnHalted, numConds} {
		if src, ok := set.CondScript(h); ok || src != "" {
			t.Errorf("CondScript(%s) = %q, %v; want none", h, src, ok)
		}
	}
	if src, ok := sub.CondScript(SkipIf); ok {
		t.Errorf("a spec without conditions has CondScript %q", src)
	}
	if sub.SubTreeID() != "Grasp" || set.SubTreeID() != "" {
		t.Errorf("SubTreeID: %q and %q, want \"Grasp\" and \"\"", sub.SubTreeID(), set.SubTreeID())
	}
	tree, err := NewTree(Sequence(sub, set))
	if err != nil {
		t.Fatal(err)
	}
	if tree.ID() != "" {
		t.Errorf("a tree built with NewTree has ID %q", tree.ID())
	}
	f := NewFactory()
	if err := f.LoadString("t.xml", `<root BTCPP_format="4"><BehaviorTree ID="Main"><AlwaysSuccess/></BehaviorTree></root>`); err != nil {
		t.Fatal(err)
	}
	if tree, err = f.NewTree(""); err != nil || tree.ID() != "Main" {
		t.Errorf("a tree built by a Factory: ID %q, %v; want \"Main\"", tree.ID(), err)
	}
}
