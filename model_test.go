package bt

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gobt/bt/btxml"
)

// TestBuiltinModelsMatchBehaviorTreeCPP compares the TreeNodesModel of every builtin
// node that BehaviorTree.CPP 4.10 also has with the one it writes (a copy of
// spec/reference/btcpp-4.10-TreeNodesModel.xml): IDs, kinds, port names, directions,
// types and defaults must be the same; descriptions are our own words.
func TestBuiltinModelsMatchBehaviorTreeCPP(t *testing.T) {
	ref := referenceModels(t)
	f := NewFactory()
	for _, want := range ref.Models {
		m, ok := f.Model(want.ID)
		if !ok {
			t.Errorf("%s: not registered", want.ID)
			continue
		}
		got := m.XML()
		if got.Kind != want.Kind {
			t.Errorf("%s: kind %s, want %s", want.ID, got.Kind, want.Kind)
		}
		if g, w := portSig(got.Ports), portSig(want.Ports); g != w {
			t.Errorf("%s: ports\n got  %s\n want %s", want.ID, g, w)
		}
	}
}

// referenceModels reads the TreeNodesModel that BehaviorTree.CPP 4.10 writes.
func referenceModels(t *testing.T) *btxml.Document {
	t.Helper()
	data, err := os.ReadFile("testdata/btcpp-4.10-TreeNodesModel.xml")
	if err != nil {
		t.Fatal(err)
	}
	ref, err := btxml.Parse("btcpp.xml", data)
	if err != nil {
		t.Fatal(err)
	}
	return ref
}

// portSig describes ports in a canonical order, descriptions left out.
func portSig(ps []btxml.PortModel) string {
	var ss []string
	for _, p := range ps {
		s := p.Dir + " " + p.Name + " : " + p.Type
		if p.HasDefault {
			s += " = " + p.Default
		}
		ss = append(ss, s)
	}
	slices.Sort(ss)
	return strings.Join(ss, "; ")
}

// writeModels registers ms in f and returns what WriteModels writes, builtins left out.
func writeModels(t *testing.T, f *Factory, ms ...*Model) *bytes.Buffer {
	t.Helper()
	if err := f.Register(ms...); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := f.WriteModels(&b, false); err != nil {
		t.Fatal(err)
	}
	return &b
}

func TestWriteModels(t *testing.T) {
	f := NewFactory()
	move := NewAction("MoveBase", func() Status { return Success },
		InputPort[float64]("speed", "how fast").WithDefault("0.5"),
		OutputPort[string]("result", "what happened"))
	b := writeModels(t, f, move, NewCondition("IsDocked", func() bool { return true }))
	want := `<root BTCPP_format="4">
    <TreeNodesModel>
        <Condition ID="IsDocked"/>
        <Action ID="MoveBase">
            <input_port name="speed" type="double" default="0.5">how fast</input_port>
            <output_port name="result" type="std::string">what happened</output_port>
        </Action>
    </TreeNodesModel>
</root>
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// TestHidableAreTheBuiltinsBehaviorTreeCPPLacks keeps the list of builtin IDs a user's
// node type may hide true: every builtin that BehaviorTree.CPP 4.10 does not have
// (its models, and SequenceStar, which it registers without writing a model), and no
// other.
func TestHidableAreTheBuiltinsBehaviorTreeCPPLacks(t *testing.T) {
	ref := referenceModels(t)
	theirs := map[string]bool{"SequenceStar": true}
	for _, m := range ref.Models {
		theirs[m.ID] = true
	}
	ours := map[string]bool{}
	for _, c := range catalogue {
		for _, m := range c.models {
			ours[m.ID] = true
			if hidable[m.ID] == theirs[m.ID] {
				t.Errorf("%s: hidable %v, a BehaviorTree.CPP builtin %v", m.ID, hidable[m.ID], theirs[m.ID])
			}
		}
	}
	for id := range hidable {
		if !ours[id] {
			t.Errorf("%s is hidable but no builtin", id)
		}
	}
}

// TestModelMetadata: a model's metadata (BehaviorTree.CPP's manifest metadata, its test
// BehaviorTreeFactory.ManifestMethod) is written as <MetadataFields> by WriteModels, in
// order, and read back by btxml and by RegisterStandIns; a key that is not an XML name
// is refused when the model is registered.
func TestModelMetadata(t *testing.T) {
	m := NewAction("ActionWithMetadata", func() Status { return Success }).
		WithMetadata("foo", "hello").WithMetadata("bar", "42 < 43 & \"x\"")
	b := writeModels(t, NewFactory(), m)
	want := `<root BTCPP_format="4">
    <TreeNodesModel>
        <Action ID="ActionWithMetadata">
            <MetadataFields>
                <Metadata foo="hello"/>
                <Metadata bar="42 &lt; 43 &amp; &quot;x&quot;"/>
            </MetadataFields>
        </Action>
    </TreeNodesModel>
</root>
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	doc, err := btxml.Parse("models.xml", b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	wantMD := []KeyValue{{"foo", "hello"}, {"bar", `42 < 43 & "x"`}}
	var read []KeyValue
	for _, a := range doc.Models[0].Metadata {
		read = append(read, KeyValue{a.Name, a.Value})
	}
	if !slices.Equal(read, wantMD) {
		t.Errorf("btxml read %v, want %v", read, wantMD)
	}
	g := NewFactory()
	if err := g.RegisterStandIns(doc.Models); err != nil {
		t.Fatal(err)
	}
	if s, ok := g.Model("ActionWithMetadata"); !ok || !slices.Equal(s.Metadata, wantMD) {
		t.Errorf("stand-in metadata %v, want %v", s.Metadata, wantMD)
	}
	bad := NewAction("Bad", func() Status { return Success }).WithMetadata("two words", "x")
	err = NewFactory().Register(bad)
	if want := `bt: node "Bad": metadata: `; err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), `"two words" is not an XML name`) {
		t.Errorf("got %v, want an error starting with %q", err, want)
	}
}

// TestModelsRoundTrip: the models a program writes carry everything loading its trees
// checks — required ports, defaults, types — so that stand-ins made from them (what
// "bt check --models" builds) accept and refuse the same trees as the program, with
// the same errors.
func TestModelsRoundTrip(t *testing.T) {
	nodes := []*Model{
		NewAction("MoveTo", func() Status { return Success },
			InputPort[string]("goal", "where to").Require(),
			InputPort[float64]("speed", "how fast"),
			InputPortDefault("tries", 3, "how many times"),
			InputPort[int8]("gear", "which gear"),
			InputPort[bool]("careful", "slowly").Require().WithDefault("true"),
			OutputPort[int]("done", "the distance driven")),
		NewCondition("IsReady", func() bool { return true }, InputPort[uint16]("level", "").Require(),
			InputPort[[]float64]("weights", "")),
	}
	program := NewFactory()
	b := writeModels(t, program, nodes...)
	doc, err := btxml.Parse("models.xml", b.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	checker := NewFactory()
	if err := checker.RegisterStandIns(doc.Models); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `<input_port name="goal" type="std::string" required="true">`) ||
		strings.Contains(b.String(), `name="careful" type="bool" default="true" required`) {
		t.Errorf("required ports not written as such:\n%s", b)
	}
	for _, tree := range []string{
		`<MoveTo goal="kitchen"/>`,
		`<MoveTo goal="{g}" speed="0.5" tries="2" gear="-3" careful="false" done="{d}"/>`,
		`<MoveTo/>`,
		`<MoveTo goal="x" speed="fast"/>`,
		`<MoveTo goal="x" tries="many"/>`,
		`<MoveTo goal="x" gear="300"/>`,
		`<MoveTo goal="x" careful="perhaps"/>`,
		`<MoveTo goal="x" done="3"/>`,
		`<MoveTo goal="x" colour="red"/>`,
		`<IsReady level="70000"/>`,
		`<IsReady/>`,
		`<IsReady level="1" weights="0.5;2"/>`,
		`<IsReady level="1" weights="0.5;heavy"/>`,
	} {
		xml := `<root BTCPP_format="4"><BehaviorTree ID="T">` + tree + `</BehaviorTree></root>`
		var errs [2]string
		for i, f := range []*Factory{program, checker} {
			err := f.LoadString("t.xml", xml)
			if err == nil {
				_, err = f.NewTree("T")
			}
			if err != nil {
				errs[i] = err.Error()
			}
		}
		// A models file's "int" is BehaviorTree.CPP's, 32 bits: checked as an int32,
		// which names itself so; Go's int takes more, the same text otherwise.
		errs[1] = strings.Replace(errs[1], " as int32:", " as int:", 1)
		if errs[0] != errs[1] {
			t.Errorf("%s:\n program: %s\n models:  %s", tree, errs[0], errs[1])
		}
	}
}
