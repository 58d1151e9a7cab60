package btxml

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUpgradeGolden upgrades each testdata/upgrade/NAME.xml (format 3) and
// compares the result with NAME.want.xml and the notes with NAME.notes.
func TestUpgradeGolden(t *testing.T) {
	for _, file := range xmlFiles(t, "testdata/upgrade") {
		base := strings.TrimSuffix(file, ".xml")
		t.Run(filepath.Base(base), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			d := mustParse(t, "", string(data))
			if d.Format != 3 {
				t.Fatalf("Format %d, want 3", d.Format)
			}
			before := positions(d)
			notes := Upgrade(d)
			var b strings.Builder
			for _, n := range notes {
				b.WriteString(n.String() + "\n")
			}
			golden(t, base+".notes", []byte(b.String()))
			out := mustWrite(t, d)
			golden(t, base+".want.xml", out)
			if d.Format != 4 {
				t.Errorf("Format %d after Upgrade", d.Format)
			}
			if after := positions(d); after != before {
				t.Errorf("positions changed:\n%s\n---\n%s", before, after)
			}
			d2 := mustParse(t, "", string(out))
			if d2.Format != 4 {
				t.Errorf("upgraded file reads as format %d", d2.Format)
			}
			if notes := Upgrade(d2); notes != nil {
				t.Errorf("second Upgrade gave notes %v", notes)
			}
		})
	}
}

// positions lists the element positions of d, to check that Upgrade keeps them.
func positions(d *Document) string {
	var b strings.Builder
	var walk func(e *Element)
	walk = func(e *Element) {
		b.WriteString(e.Pos.String() + " " + e.IDPos().String() + "\n")
		for _, c := range e.Children {
			if c.Tag != "remap" {
				walk(c)
			}
		}
	}
	for _, t := range d.Trees {
		walk(t.Root)
	}
	return b.String()
}

func TestUpgradeFormat4(t *testing.T) {
	src := `<root BTCPP_format="4"><BehaviorTree ID="T"><SequenceStar><SubTree ID="X" a="b"/></SequenceStar></BehaviorTree></root>`
	d := mustParse(t, "", src)
	want := string(mustWrite(t, d))
	if notes := Upgrade(d); notes != nil {
		t.Errorf("notes %v", notes)
	}
	if got := string(mustWrite(t, d)); got != want {
		t.Errorf("Upgrade changed a format-4 document:\n%s", got)
	}
}

// TestUpgradeKeepsAttrsOfNeighbours checks that rewriting the attributes of
// one element does not write into the shared storage of the next.
func TestUpgradeKeepsAttrsOfNeighbours(t *testing.T) {
	src := `<root BTCPP_format="3"><BehaviorTree ID="T"><S>` +
		`<SubTree ID="T2"><remap internal="a" external="b"/></SubTree><Next x="1"/>` +
		`</S></BehaviorTree><BehaviorTree ID="T2"><A/></BehaviorTree></root>`
	d := mustParse(t, "", src)
	Upgrade(d)
	kids := d.Trees[0].Root.Children
	if a, ok := kids[0].Attr("a"); !ok || a.Value != "{b}" {
		t.Errorf("SubTree attrs %v", kids[0].Attrs)
	}
	if len(kids[1].Attrs) != 1 || kids[1].Attrs[0].Name != "x" {
		t.Errorf("Next attrs %v", kids[1].Attrs)
	}
}

func TestDetectFormat(t *testing.T) {
	tests := []struct {
		body string
		want int
	}{
		{`<BehaviorTree ID="T"><Sequence><A/></Sequence></BehaviorTree>`, 4},
		{`<BehaviorTree ID="T"><RecoveryNode><A/><B/></RecoveryNode></BehaviorTree>`, 4},
		{`<BehaviorTree ID="T"><SubTree ID="X" goal="goal"/></BehaviorTree>`, 4},
		{`<BehaviorTree ID="T"><S><SequenceStar><A/></SequenceStar></S></BehaviorTree>`, 3},
		{`<BehaviorTree ID="T"><Control ID="FallbackStar"><A/></Control></BehaviorTree>`, 3},
		{`<BehaviorTree ID="T"><RetryUntilSuccesful><A/></RetryUntilSuccesful></BehaviorTree>`, 3},
		{`<BehaviorTree ID="T"><BlackboardCheckString><A/></BlackboardCheckString></BehaviorTree>`, 3},
		{`<BehaviorTree ID="T"><SubTreePlus ID="X"/></BehaviorTree>`, 3},
		{`<BehaviorTree ID="T"><SubTree ID="X" __shared_blackboard="true"/></BehaviorTree>`, 3},
		{`<BehaviorTree ID="T"><SubTree ID="X" __autoremap="true"/></BehaviorTree>`, 3},
		{`<BehaviorTree ID="T"><SubTree ID="X"><remap internal="a" external="b"/></SubTree></BehaviorTree>`, 3},
		{`<BehaviorTree ID="T"><Parallel success_threshold="1"><A/></Parallel></BehaviorTree>`, 3},
		{`<BehaviorTree ID="T"><A goal="${goal}"/></BehaviorTree>`, 3},
		{`<TreeNodesModel><Control ID="SequenceStar"/></TreeNodesModel>`, 3},
	}
	for _, tt := range tests {
		d, err := Parse("", []byte("<root>"+tt.body+"</root>"))
		if err != nil {
			t.Errorf("%s: %v", tt.body, err)
			continue
		}
		if d.Format != tt.want {
			t.Errorf("%s: Format %d, want %d", tt.body, d.Format, tt.want)
		}
	}
}

func TestScriptOperand(t *testing.T) {
	tests := []struct {
		v, kind, want string
		ok            bool
	}{
		{"{a}", "Int", "a", true},
		{" { @a_1 } ", "String", "@a_1", true},
		{"{a@}", "Int", "", false},
		{"{1a}", "Int", "", false},
		{"{}", "Int", "", false},
		{"-12", "Int", "-12", true},
		{"1.5", "Int", "", false},
		{"1.5e-3", "Double", "1.5e-3", true},
		{"-2", "Double", "-2", true},
		{"1.", "Double", "", false},
		{"1e", "Double", "", false},
		{"0x10", "Double", "", false},
		{"NaN", "Double", "", false},
		{"auto mode", "String", "'auto mode'", true},
		{"it's", "String", "", false},
	}
	for _, tt := range tests {
		got, ok := scriptOperand(tt.v, tt.kind)
		if ok != tt.ok || ok && got != tt.want {
			t.Errorf("scriptOperand(%q, %s) = %q, %v; want %q, %v", tt.v, tt.kind, got, ok, tt.want, tt.ok)
		}
	}
}

func TestUpgradeNil(t *testing.T) {
	if Upgrade(nil) != nil {
		t.Error("Upgrade(nil) gave notes")
	}
	d := &Document{Format: 3, Trees: []*Tree{nil, {ID: "T", Root: &Element{Tag: "SubTree", ID: "X", Children: []*Element{nil}}}}, Models: []*Model{nil}}
	Upgrade(d)
	if d.Format != 4 {
		t.Errorf("Format %d", d.Format)
	}
}

// TestUpgradeNodeNamedLikeItsTree checks that a compact element named after the tree it
// is in, or with children, stays a node: a tree cannot instantiate itself, nor a
// subtree have children (Nav2's format-3 trees have <BackUp/> in a tree BackUp).
func TestUpgradeNodeNamedLikeItsTree(t *testing.T) {
	src := `<root BTCPP_format="3"><BehaviorTree ID="BackUp"><Sequence><BackUp distance="0.3"/><Spin/></Sequence></BehaviorTree>` +
		`<BehaviorTree ID="Spin"><Spin><A/></Spin></BehaviorTree></root>`
	d := mustParse(t, "", src)
	Upgrade(d)
	kids := d.Trees[0].Root.Children
	if kids[0].Tag != "BackUp" || kids[0].Attrs[0].Value != "0.3" {
		t.Errorf("BackUp became %s %v", kids[0].Tag, kids[0].Attrs)
	}
	if kids[1].Tag != "SubTree" || kids[1].ID != "Spin" {
		t.Errorf("a reference to the tree Spin stays %s", kids[1].Tag)
	}
	if spin := d.Trees[1].Root; spin.Tag != "Spin" {
		t.Errorf("the node Spin with a child became %s", spin.Tag)
	}
}

// TestUpgradeRemapNotAName: a <remap> whose internal name could not be an attribute's
// name is left as it is, with a note, so that the document can still be written.
func TestUpgradeRemapNotAName(t *testing.T) {
	d := mustParse(t, "t.xml", `<root BTCPP_format="3"><BehaviorTree ID="T">`+
		`<SubTree ID="X"><remap internal="0" external="b"/></SubTree></BehaviorTree></root>`)
	notes := Upgrade(d)
	sub := d.Trees[0].Root
	if len(sub.Children) != 1 || sub.Children[0].Tag != "remap" || len(sub.Attrs) != 0 {
		t.Errorf("the SubTree after the upgrade: attrs %v, children %d", sub.Attrs, len(sub.Children))
	}
	if len(notes) != 1 || !strings.Contains(notes[0].Msg, `<remap internal="0">: a port name must be an XML name`) {
		t.Errorf("notes %v", notes)
	}
	mustWrite(t, d)
}
