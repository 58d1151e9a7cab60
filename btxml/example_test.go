package btxml_test

import (
	"fmt"
	"os"
	"strings"
	"testing/fstest"

	"github.com/gobt/bt/btxml"
)

func ExampleParse() {
	src := `<root BTCPP_format="4" main_tree_to_execute="Main">
  <BehaviorTree ID="Main">
    <Sequence name="patrol">
      <MoveTo goal="{waypoint}"/>
      <Action ID="Say" message="done"/>
    </Sequence>
  </BehaviorTree>
</root>`
	doc, err := btxml.Parse("patrol.xml", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	root := doc.Trees[0].Root
	fmt.Println(doc.MainTree, "format", doc.Format)
	for _, e := range root.Children {
		fmt.Printf("%s at %s (written <%s>)\n", e.ID, e.Pos, e.Tag)
		for _, a := range e.Attrs {
			fmt.Printf("  %s=%q, value at %s\n", a.Name, a.Value, a.ValuePos())
		}
	}
	// Output:
	// Main format 4
	// MoveTo at patrol.xml:4:7 (written <MoveTo>)
	//   goal="{waypoint}", value at patrol.xml:4:21
	// Say at patrol.xml:5:7 (written <Action>)
	//   message="done", value at patrol.xml:5:33
}

func ExampleParse_errors() {
	src := `<root BTCPP_format="4">
  <BehaviorTree ID="Main">
    <Sequence ID="x">
      <Action/>
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="bad.name"><AlwaysSuccess/></BehaviorTree>
</root>`
	_, err := btxml.Parse("trees.xml", []byte(src))
	fmt.Println(err)
	// Output:
	// trees.xml:3:15: attribute ID is not allowed in <Sequence> (only <Action>, <Condition>, <Control>, <Decorator> and <SubTree> take one)
	// trees.xml:4:7: <Action> needs an ID attribute
	// trees.xml:7:21: invalid tree ID "bad.name": contains '.'
}

func ExampleLoad() {
	fsys := fstest.MapFS{
		"main.xml": {Data: []byte(`<root BTCPP_format="4" main_tree_to_execute="Main">
  <include path="lib/walk.xml"/>
  <BehaviorTree ID="Main"><SubTree ID="Walk"/></BehaviorTree>
</root>`)},
		"lib/walk.xml": {Data: []byte(`<root BTCPP_format="4">
  <BehaviorTree ID="Walk"><MoveTo/></BehaviorTree>
</root>`)},
	}
	// os.DirFS("trees") works the same way for files on disk.
	doc, err := btxml.Load(fsys, "main.xml")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range doc.Trees {
		fmt.Println(t.ID, "from", t.Pos)
	}
	// Output:
	// Walk from lib/walk.xml:2:3
	// Main from main.xml:3:3
}

func ExampleWrite() {
	src := `<root main_tree_to_execute="Main" BTCPP_format="4"><BehaviorTree ID="Main">
<Control ID="Fallback"><Condition ID="IsDoorOpen"/><Script code="tries := tries + 1;
log := 'again'"/></Control></BehaviorTree></root>`
	doc, err := btxml.Parse("", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := btxml.Write(os.Stdout, doc); err != nil {
		fmt.Println(err)
	}
	// Output:
	// <root BTCPP_format="4" main_tree_to_execute="Main">
	//     <BehaviorTree ID="Main">
	//         <Fallback>
	//             <IsDoorOpen/>
	//             <Script code="tries := tries + 1;&#10;log := 'again'"/>
	//         </Fallback>
	//     </BehaviorTree>
	// </root>
}

// Comments are kept where they were written: before an element, after it on its
// line, inside it after its last child.
func ExampleComments() {
	src := `<!-- Patrol, then rest. -->
<root BTCPP_format="4">
  <BehaviorTree ID="Main">
    <Sequence>
      <!-- the long way round -->
      <MoveTo goal="{far}"/> <!-- slow -->
      <Rest/>
      <!-- nothing after resting -->
    </Sequence>
  </BehaviorTree>
</root>`
	doc, err := btxml.Parse("patrol.xml", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	move := doc.Trees[0].Root.Children[0]
	fmt.Printf("%q %q at %s\n", move.Comments.Before[0].Text, move.Comments.After[0].Text, move.Comments.After[0].Pos)
	btxml.Write(os.Stdout, doc)
	// Output:
	// " the long way round " " slow " at patrol.xml:6:30
	// <!-- Patrol, then rest. -->
	// <root BTCPP_format="4">
	//     <BehaviorTree ID="Main">
	//         <Sequence>
	//             <!-- the long way round -->
	//             <MoveTo goal="{far}"/> <!-- slow -->
	//             <Rest/>
	//             <!-- nothing after resting -->
	//         </Sequence>
	//     </BehaviorTree>
	// </root>
}

func ExampleWriteModels() {
	models := []*btxml.Model{
		{Kind: "Action", ID: "MoveTo", Ports: []btxml.PortModel{
			{Dir: btxml.DirInput, Name: "goal", Type: "Pose2D", Description: "where to go"},
			{Dir: btxml.DirInput, Name: "speed", Type: "double", Default: "0.5", HasDefault: true},
		}},
		{Kind: "Condition", ID: "IsDoorOpen"},
	}
	if err := btxml.WriteModels(os.Stdout, models); err != nil {
		fmt.Println(err)
	}
	// Output:
	// <root BTCPP_format="4">
	//     <TreeNodesModel>
	//         <Condition ID="IsDoorOpen"/>
	//         <Action ID="MoveTo">
	//             <input_port name="goal" type="Pose2D">where to go</input_port>
	//             <input_port name="speed" type="double" default="0.5"/>
	//         </Action>
	//     </TreeNodesModel>
	// </root>
}

func ExampleUpgrade() {
	src := `<root main_tree_to_execute="Main">
  <BehaviorTree ID="Main">
    <SequenceStar>
      <RetryUntilSuccesful num_attempts="3"><Charge/></RetryUntilSuccesful>
      <SubTree ID="Dock" station="dock_pose" __shared_blackboard="true"/>
    </SequenceStar>
  </BehaviorTree>
  <BehaviorTree ID="Dock"><Approach target="{station}"/></BehaviorTree>
</root>`
	doc, err := btxml.Parse("old.xml", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("format", doc.Format)
	for _, n := range btxml.Upgrade(doc) {
		fmt.Println("note:", n)
	}
	btxml.Write(os.Stdout, doc)
	// Output:
	// format 3
	// note: old.xml:5:46: __shared_blackboard became _autoremap: the subtree sees the parent's keys by name, but writes to keys that start with '_' stay local
	// <root BTCPP_format="4" main_tree_to_execute="Main">
	//     <BehaviorTree ID="Main">
	//         <SequenceWithMemory>
	//             <RetryUntilSuccessful num_attempts="3">
	//                 <Charge/>
	//             </RetryUntilSuccessful>
	//             <SubTree ID="Dock" station="{dock_pose}" _autoremap="true"/>
	//         </SequenceWithMemory>
	//     </BehaviorTree>
	//     <BehaviorTree ID="Dock">
	//         <Approach target="{station}"/>
	//     </BehaviorTree>
	// </root>
}

func ExampleLimits() {
	deep := `<root BTCPP_format="4"><BehaviorTree ID="T">` + strings.Repeat("<Inverter>", 10) +
		"<AlwaysSuccess/>" + strings.Repeat("</Inverter>", 10) + "</BehaviorTree></root>"
	_, err := btxml.Limits{MaxDepth: 8}.Parse("deep.xml", []byte(deep))
	fmt.Println(err)
	// Output:
	// deep.xml:1:125: tree nested deeper than 8 levels
}

func ExampleValidName() {
	for _, id := range []string{"Patrol", "go.home", "root"} {
		fmt.Println(id, btxml.ValidName(id))
	}
	// Output:
	// Patrol <nil>
	// go.home contains '.'
	// root "root" is reserved
}
