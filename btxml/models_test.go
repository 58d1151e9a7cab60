package btxml

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
)

const referenceModels = "testdata/models/btcpp-4.10-TreeNodesModel.xml"

// TestReferenceModels parses the TreeNodesModel that BehaviorTree.CPP 4.10
// writes for its builtin nodes and checks every model and port.
func TestReferenceModels(t *testing.T) {
	data, err := os.ReadFile(referenceModels)
	if err != nil {
		t.Fatal(err)
	}
	d := mustParse(t, "ref.xml", string(data))
	if len(d.Models) != 42 || len(d.Trees) != 0 {
		t.Fatalf("%d models, %d trees", len(d.Models), len(d.Trees))
	}
	// One line per model, "Kind ID", then a line per port.
	var b strings.Builder
	ports := 0
	for _, m := range d.Models {
		fmt.Fprintf(&b, "%s %s\n", m.Kind, m.ID)
		for _, p := range m.Ports {
			ports++
			def := "-"
			if p.HasDefault {
				def = fmt.Sprintf("%q", p.Default)
			}
			fmt.Fprintf(&b, "\t%s %s type=%q default=%s %q\n", p.Dir, p.Name, p.Type, def, p.Description)
		}
	}
	if ports != 58 {
		t.Errorf("%d ports, want 58", ports)
	}
	golden(t, "testdata/models/btcpp-4.10-TreeNodesModel.summary", []byte(b.String()))

	// A few facts, checked by hand against the file.
	loop := d.Model("LoopBool")
	want := []PortModel{
		{Dir: DirOutput, Name: "value", Type: "bool", Pos: lc2("ref.xml", 17, 13)},
		{Dir: DirInput, Name: "if_empty", Type: "BT::NodeStatus", Default: "SUCCESS", HasDefault: true,
			Description: "Status to return if queue is empty: SUCCESS, FAILURE, SKIPPED", Pos: lc2("ref.xml", 18, 13)},
		{Dir: DirInOut, Name: "queue", Type: "BT::AnyTypeAllowed", Pos: lc2("ref.xml", 19, 13)},
	}
	if loop == nil || loop.Kind != "Decorator" || fmt.Sprint(loop.Ports) != fmt.Sprint(want) {
		t.Errorf("LoopBool = %+v", loop)
	}
	if m := d.Model("SubTree"); m == nil || m.Kind != "SubTree" || m.Ports[0].Name != "_autoremap" || m.Ports[0].Default != "false" {
		t.Errorf("SubTree = %+v", m)
	}
	if m := d.Model("AlwaysFailure"); m == nil || m.Kind != "Action" || m.Ports != nil || m.Pos != lc2("ref.xml", 3, 9) {
		t.Errorf("AlwaysFailure = %+v", m)
	}
}

func lc2(file string, line, col int32) Pos { return Pos{File: file, Line: line, Col: col} }

// TestWriteModelsReference checks that WriteModels reproduces the file
// BehaviorTree.CPP wrote (its models are sorted by ID; the ports keep the
// order of the file).
func TestWriteModelsReference(t *testing.T) {
	data, err := os.ReadFile(referenceModels)
	if err != nil {
		t.Fatal(err)
	}
	d := mustParse(t, "ref.xml", string(data))
	var b bytes.Buffer
	if err := WriteModels(&b, d.Models); err != nil {
		t.Fatal(err)
	}
	want := strings.TrimRight(string(data), "\n") + "\n"
	if b.String() != want {
		t.Errorf("WriteModels differs from the reference:\n%s", b.String())
	}
}

func TestWriteModels(t *testing.T) {
	models := []*Model{
		{Kind: "Decorator", ID: "Zeta", Ports: []PortModel{{Dir: DirInput, Name: "z"}}},
		{Kind: "Action", ID: "Alpha",
			Ports: []PortModel{
				{Dir: DirOutput, Name: "out", Type: "double", Description: "a < b & c"},
				{Dir: DirInput, Name: "in", Default: "", HasDefault: true},
				{Dir: DirInOut, Name: "io", Default: "{x}"},
			},
			Description: "Does\nthings.",
			Metadata:    []Attr{{Name: "group", Value: "demo"}, {Name: "color", Value: "\"red\""}},
			Attrs:       []Attr{{Name: "editable", Value: "true"}},
		},
		{Kind: "Control", ID: "Mid"},
	}
	var b bytes.Buffer
	if err := WriteModels(&b, models); err != nil {
		t.Fatal(err)
	}
	want := `<root BTCPP_format="4">
    <TreeNodesModel>
        <Action ID="Alpha" editable="true">
            <output_port name="out" type="double">a &lt; b &amp; c</output_port>
            <input_port name="in" default=""/>
            <inout_port name="io" default="{x}"/>
            <description>Does
things.</description>
            <MetadataFields>
                <Metadata group="demo"/>
                <Metadata color="&quot;red&quot;"/>
            </MetadataFields>
        </Action>
        <Control ID="Mid"/>
        <Decorator ID="Zeta">
            <input_port name="z"/>
        </Decorator>
    </TreeNodesModel>
</root>
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	if models[0].ID != "Zeta" {
		t.Error("WriteModels reordered its argument")
	}
	d := mustParse(t, "", b.String())
	if a := d.Model("Alpha"); a.Description != "Does\nthings." || a.Ports[0].Description != "a < b & c" ||
		!a.Ports[1].HasDefault || a.Ports[2].Default != "{x}" || a.Metadata[1].Value != `"red"` {
		t.Errorf("read back: %s", dump(a))
	}

	b.Reset()
	if err := WriteModels(&b, nil); err != nil || b.String() != "<root BTCPP_format=\"4\">\n    <TreeNodesModel/>\n</root>\n" {
		t.Errorf("no models: %q, %v", b.String(), err)
	}
}

func TestDescriptionText(t *testing.T) {
	src := "<root BTCPP_format=\"4\"><TreeNodesModel><Action ID=\"A\">" +
		"<input_port name=\"a\">\r\n  <![CDATA[x\r\ny<\r]]><!-- c --> &amp;&#13;z\r\n</input_port>" +
		"</Action></TreeNodesModel></root>"
	d := mustParse(t, "", src)
	if got, want := d.Models[0].Ports[0].Description, "x\ny<\n &\rz"; got != want {
		t.Errorf("description %q, want %q", got, want)
	}
	checkRoundTrip(t, d)

	// White space between comments is text too.
	src = "<root BTCPP_format=\"4\"><TreeNodesModel><Action ID=\"A\">" +
		"<description> a<!-- c --> <!-- d -->b </description></Action></TreeNodesModel></root>"
	if got, want := mustParse(t, "", src).Models[0].Description, "a b"; got != want {
		t.Errorf("description %q, want %q", got, want)
	}
}

// TestPortRequired: required="true" is read and written back; another value is an
// error at the value.
func TestPortRequired(t *testing.T) {
	src := `<root BTCPP_format="4">
    <TreeNodesModel>
        <Action ID="MoveTo">
            <input_port name="goal" type="std::string" required="true"/>
            <input_port name="speed" required="false"/>
        </Action>
    </TreeNodesModel>
</root>
`
	doc, err := Parse("m.xml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if ps := doc.Models[0].Ports; !ps[0].Required || ps[1].Required {
		t.Errorf("required: %v, %v", ps[0].Required, ps[1].Required)
	}
	var b strings.Builder
	if err := WriteModels(&b, doc.Models); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `<input_port name="goal" type="std::string" required="true"/>`) ||
		!strings.Contains(b.String(), `<input_port name="speed"/>`) {
		t.Errorf("written:\n%s", b.String())
	}
	_, err = Parse("m.xml", []byte(strings.Replace(src, `required="true"`, `required="yes"`, 1)))
	if err == nil || err.Error() != `m.xml:4:66: required="yes": want true or false` {
		t.Errorf("required=\"yes\": %v", err)
	}
}
