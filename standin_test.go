package bt

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/gobt/bt/btxml"
)

const standInModels = `<root BTCPP_format="4">
    <TreeNodesModel>
        <Action ID="MoveTo">
            <input_port name="goal" type="Pose2D">where to go</input_port>
            <input_port name="speed" type="double" default="0.5"/>
            <output_port name="distance" type="double"/>
            <description>Drives to goal.</description>
        </Action>
        <Condition ID="IsBatteryOK"/>
        <Control ID="PipelineSequence"/>
        <Decorator ID="RateController">
            <input_port name="hz" type="double" default="10"/>
        </Decorator>
        <SubTree ID="Walk">
            <input_port name="target"/>
        </SubTree>
        <Control ID="Sequence"/>
    </TreeNodesModel>
</root>`

func standInFactory(t *testing.T, models string) (*Factory, error) {
	t.Helper()
	doc, err := btxml.Parse("models.xml", []byte(models))
	if err != nil {
		t.Fatal(err)
	}
	f := NewFactory()
	return f, f.RegisterStandIns(doc.Models)
}

func TestRegisterStandIns(t *testing.T) {
	f, err := standInFactory(t, standInModels)
	if err != nil {
		t.Fatal(err)
	}
	m, ok := f.Model("MoveTo")
	if !ok || m.Kind != KindAction || m.Description != "Drives to goal." || len(m.Ports) != 3 {
		t.Fatalf("MoveTo = %+v", m)
	}
	if p := m.Ports[1]; p.Name != "speed" || p.Type != typeOf[float64]() || p.TypeName != "double" || !p.HasDefault || p.Default != "0.5" {
		t.Errorf("speed = %+v", p)
	}
	if p := m.Ports[0]; p.Type != nil || p.TypeName != "Pose2D" || p.Description != "where to go" {
		t.Errorf("goal = %+v", p)
	}
	if p := m.Ports[2]; p.Dir != DirOutput {
		t.Errorf("distance = %+v", p)
	}
	if _, ok := f.Model("Walk"); ok {
		t.Error("a SubTree entry was registered as a node type")
	}
	if m, _ := f.Model("Sequence"); m != sequenceModel {
		t.Error("the builtin Sequence was replaced")
	}
	var out strings.Builder
	if err := f.WriteModels(&out, false); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<Action ID="MoveTo">`, `type="Pose2D"`, `<Decorator ID="RateController">`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("WriteModels lacks %s:\n%s", want, out.String())
		}
	}
}

func TestStandInsCheckTrees(t *testing.T) {
	for _, tc := range []struct {
		name, tree, err string
	}{
		{"valid", `<PipelineSequence><IsBatteryOK/><RateController hz="5"><MoveTo goal="1;2" distance="{d}"/></RateController></PipelineSequence>`, ""},
		{"children of an action", `<MoveTo goal="x"><IsBatteryOK/></MoveTo>`, "t.xml:3:9: MoveTo is a leaf (Action): it has no children, found 1"},
		{"decorator without child", `<RateController/>`, "t.xml:3:9: RateController is a Decorator: it has exactly one child, found 0"},
		{"unknown port", `<MoveTo gaol="x"/>`, `t.xml:3:17: MoveTo has no port "gaol"; did you mean "goal"?`},
		{"bad literal", `<MoveTo speed="fast"/>`, `t.xml:3:24: port "speed"`},
		{"literal output", `<MoveTo distance="3"/>`, `output port "distance" must name a blackboard entry`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := standInFactory(t, standInModels)
			if err != nil {
				t.Fatal(err)
			}
			err = f.LoadString("t.xml", "<root BTCPP_format=\"4\">\n    <BehaviorTree ID=\"Main\">\n        "+tc.tree+"\n    </BehaviorTree>\n</root>")
			switch {
			case tc.err == "" && err != nil:
				t.Fatal(err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("error = %v, want %s", err, tc.err)
			}
		})
	}
}

func TestStandInTickFails(t *testing.T) {
	f, err := standInFactory(t, standInModels)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.LoadString("t.xml", `<root BTCPP_format="4"><BehaviorTree ID="Main"><Sequence><AlwaysSuccess/><MoveTo name="drive" goal="a"/></Sequence></BehaviorTree></root>`); err != nil {
		t.Fatal(err)
	}
	tree, err := f.NewTree("")
	if err != nil {
		t.Fatal(err)
	}
	_, err = tree.TickOnce()
	var ne *NodeError
	if !errors.As(err, &ne) || ne.Path != "drive" || ne.ID != "MoveTo" || !errors.Is(err, errStandIn) {
		t.Fatalf("error = %v, want the stand-in error naming drive", err)
	}
}

func TestRegisterStandInsErrors(t *testing.T) {
	_, err := standInFactory(t, `<root BTCPP_format="4">
    <TreeNodesModel>
        <Action ID="Fallback"/>
        <Action ID="Good"/>
        <Action ID="Bad">
            <input_port name="1st"/>
        </Action>
    </TreeNodesModel>
</root>`)
	want := "models.xml:3:9: Fallback is registered with kind Control, not Action\n" +
		`models.xml:6:13: node "Bad": port name "1st" starts with a digit`
	if err == nil || err.Error() != want {
		t.Fatalf("error =\n%v\nwant\n%s", err, want)
	}
	f, _ := standInFactory(t, `<root BTCPP_format="4"><TreeNodesModel><Action ID="Bad"><input_port name="1st"/></Action><Action ID="Good"/></TreeNodesModel></root>`)
	if _, ok := f.Model("Good"); ok {
		t.Error("a stand-in was registered although another entry failed")
	}
}

// TestStandInUnknownPortElement is the first reproduction of Nav2's models file: a model
// with a <bidirectional_port>, on a node no tree uses. The file loads, with a note; the
// port may be read and written, and is written back as it was read.
func TestStandInUnknownPortElement(t *testing.T) {
	const models = `<root BTCPP_format="4">
    <TreeNodesModel>
        <Control ID="PersistentSequence">
            <bidirectional_port name="current_child_idx" type="int">The index of the current child.</bidirectional_port>
        </Control>
    </TreeNodesModel>
</root>`
	doc, err := btxml.Parse("models.xml", []byte(models))
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Notes) != 1 || doc.Notes[0].String() != "models.xml:4:13: unknown port element <bidirectional_port> (want input_port, output_port or inout_port): read as a port of unknown direction" {
		t.Errorf("notes %v", doc.Notes)
	}
	f := NewFactory()
	if err := f.RegisterStandIns(doc.Models); err != nil {
		t.Fatal(err)
	}
	if err := f.LoadString("t.xml", `<root BTCPP_format="4"><BehaviorTree ID="Main"><AlwaysSuccess/></BehaviorTree></root>`); err != nil {
		t.Fatal(err)
	}
	if _, err := f.NewTree(""); err != nil {
		t.Fatal(err)
	}
	m, _ := f.Model("PersistentSequence")
	if p := m.Ports[0]; p.Dir != DirInOut || p.Type != typeOf[int32]() {
		t.Errorf("port %+v", p)
	}
	for i, use := range []string{`current_child_idx="{i}"`, `current_child_idx="2"`} {
		if err := f.LoadString("u.xml", fmt.Sprintf(`<root BTCPP_format="4"><BehaviorTree ID="Use%d"><PersistentSequence %s><AlwaysSuccess/></PersistentSequence></BehaviorTree></root>`, i, use)); err != nil {
			t.Errorf("%s: %v", use, err)
		}
	}
	var out strings.Builder
	if err := f.WriteModels(&out, false); err != nil {
		t.Fatal(err)
	}
	if want := `<bidirectional_port name="current_child_idx" type="int">The index of the current child.</bidirectional_port>`; !strings.Contains(out.String(), want) {
		t.Errorf("WriteModels lacks %s:\n%s", want, out.String())
	}
}

// TestStandInDefaultIsDocumentation is the second reproduction of Nav2's models file: a
// double port whose default is not a number. The default documents the implementation,
// which is not linked: a tree that leaves the port unset builds, the factory notes the
// default at the port, and a value the tree writes is still checked.
func TestStandInDefaultIsDocumentation(t *testing.T) {
	const models = `<root BTCPP_format="4">
    <TreeNodesModel>
        <Action ID="TruncatePathLocal">
            <input_port name="max_robot_pose_search_dist" type="double" default="numeric_limits&lt;double&gt;::infinity()"/>
            <input_port name="distance_forward" type="double" default="8.0"/>
        </Action>
    </TreeNodesModel>
</root>`
	f, err := standInFactory(t, models)
	if err != nil {
		t.Fatal(err)
	}
	want := `models.xml:4:13: TruncatePathLocal: the default of port "max_robot_pose_search_dist", "numeric_limits<double>::infinity()", is not a double: kept as documentation, not used`
	if len(f.Notes()) != 1 || f.Notes()[0].String() != want {
		t.Errorf("notes %v, want %s", f.Notes(), want)
	}
	if err := f.LoadString("t.xml", `<root BTCPP_format="4"><BehaviorTree ID="Main"><TruncatePathLocal/></BehaviorTree></root>`); err != nil {
		t.Fatal(err)
	}
	if _, err := f.NewTree(""); err != nil {
		t.Fatal(err)
	}
	err = f.LoadString("u.xml", `<root BTCPP_format="4"><BehaviorTree ID="Use"><TruncatePathLocal distance_forward="far"/></BehaviorTree></root>`)
	if want := `u.xml:1:84: port "distance_forward": cannot parse "far" as float64: invalid syntax`; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}

// TestNav2ShapedModels loads testdata's trimmed models file in the shape of Nav2's, and
// builds a tree in the shape of Nav2's navigation trees with it: notes, no errors.
func TestNav2ShapedModels(t *testing.T) {
	doc, err := btxml.Load(os.DirFS("testdata"), "nav2-shaped-TreeNodesModel.xml")
	if err != nil {
		t.Fatal(err)
	}
	f := NewFactory()
	if err := f.RegisterStandIns(doc.Models); err != nil {
		t.Fatal(err)
	}
	if err := f.Load(os.DirFS("testdata"), "nav2-shaped-navigate.xml"); err != nil {
		t.Fatal(err)
	}
	tree, err := f.NewTree("")
	if err != nil {
		t.Fatal(err)
	}
	if tree.Len() != 15 {
		t.Errorf("%d nodes", tree.Len())
	}
	var notes []string
	for _, n := range append(doc.Notes, f.Notes()...) {
		notes = append(notes, n.String())
	}
	want := []string{
		"nav2-shaped-TreeNodesModel.xml:66:7: unknown port element <bidirectional_port> (want input_port, output_port or inout_port): read as a port of unknown direction",
		`nav2-shaped-TreeNodesModel.xml:33:7: TruncatePathLocal: the default of port "max_robot_pose_search_dist", "numeric_limits<double>::infinity()", is not a double: kept as documentation, not used`,
	}
	if strings.Join(notes, "\n") != strings.Join(want, "\n") {
		t.Errorf("notes:\n%s\nwant\n%s", strings.Join(notes, "\n"), strings.Join(want, "\n"))
	}
}
