package btcpp_test

// Tutorial 11 (t11_groot_howto.cpp): tutorial 5's door again, made visible in Groot2:
// the TreeNodesModel of the custom nodes, the tree as XML, a live Groot2Publisher and
// two loggers writing files Groot2 replays.
//
// What the root module ports: the models (Factory.WriteModels), the tree as XML
// (btlog.WriteTreeXML), FileLogger2 (btlog.NewFile, or CreateFile for a file) and
// MinitraceLogger (btlog.NewTrace). Not here:
//   - Groot2Publisher is module github.com/gobt/bt/groot2, a module of its own (it
//     brings a ZeroMQ implementation, which bt itself does not depend on):
//     groot2.New(tree, nil) after the tree is built, as the reference's
//     BT::Groot2Publisher publisher(tree, 1667), and pub.Close() at the end.
//   - The reference's SQLite logger (ex03_sqlite_log.cpp) is a later issue.
//   - BT_JSON_CONVERTER and RegisterJsonDefinition, which teach the reference's
//     blackboard how to write Position2D and Waypoint as JSON for Groot2, have no
//     counterpart: Go's encoding/json writes any struct with exported fields.
//
// The output differs from the reference's in the XML, on purpose or because it cannot
// be the same: the reference calls WriteTreeToXML(tree, false, false), without UIDs,
// full paths and builtin models, which btlog.WriteTreeXML always writes (it is the
// shape .btlog files and Groot2 need; bt has no option to leave them out: reported to
// the lead); the reference's attributes follow a hash map (unordered_map), bt's the
// order of the XML; and the reference's models name C++ types (std::vector<double>).
// The loop runs forever in the reference ("Start", a run, two seconds of sleep); here
// it runs twice, without sleeping.

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"

	"github.com/gobt/bt"
	"github.com/gobt/bt/btlog"
)

// Waypoint is a custom type that Groot2 shows in the blackboard.
type Waypoint struct {
	Name     string     `json:"name"`
	Position Position2D `json:"position"`
	Speed    float64    `json:"speed"`
}

// UpdatePosition moves a Position2D on the blackboard at each tick, and writes
// vectors (the reference's reproduction of Groot2 issues 55 and 77).
type UpdatePosition struct {
	Pos       bt.Out[Position2D] `port:"pos"`
	VecDouble bt.Out[[]float64]  `port:"vec_double" help:"Vector of doubles"`
	VecString bt.Out[[]string]   `port:"vec_string" help:"Vector of strings"`
	Waypoints bt.Out[[]Waypoint] `port:"waypoints" help:"Vector of waypoints"`

	pos            Position2D
	executionCount int
}

func (u *UpdatePosition) Tick(n *bt.Node) bt.Status {
	u.pos.X += 0.2
	u.pos.Y += 0.1
	// An offset in [-r, +r].
	offset := func(r float64) float64 { return (rand.Float64() - 0.5) * 2 * r }
	// Two waypoints in even executions, three in odd ones.
	waypoints := []Waypoint{{"start", Position2D{offset(5), offset(5)}, 1 + offset(0.3)}}
	if u.executionCount%2 == 1 {
		waypoints = append(waypoints, Waypoint{"checkpoint", Position2D{50 + offset(15), 25 + offset(15)}, 2 + offset(0.5)})
	}
	waypoints = append(waypoints, Waypoint{"goal", Position2D{100 + offset(10), 50 + offset(10)}, 0.5 + offset(0.2)})
	u.executionCount++
	for _, err := range []error{
		u.Pos.Set(u.pos),
		u.VecDouble.Set([]float64{1.1, 2.2, 3.3, 4.4, 5.5}),
		u.VecString.Set([]string{"hello", "world", "test"}),
		u.Waypoints.Set(waypoints),
	} {
		if err != nil {
			n.Abort(err)
			return bt.Failure
		}
	}
	return bt.Success
}

const t11XML = `
<root BTCPP_format="4">

  <BehaviorTree ID="MainTree">
    <Sequence>
      <Script code="door_open:=false" />
      <UpdatePosition pos="{pos_2D}" vec_double="{doubles}" vec_string="{strings}" waypoints="{waypoints}"/>
      <Fallback>
        <Inverter>
          <IsDoorClosed/>
        </Inverter>
        <SubTree ID="DoorClosed" _autoremap="true" door_open="{door_open}"/>
      </Fallback>
      <PassThroughDoor/>
    </Sequence>
  </BehaviorTree>

  <BehaviorTree ID="DoorClosed">
    <Fallback name="tryOpen" _onSuccess="door_open:=true">
      <OpenDoor/>
        <RetryUntilSuccessful num_attempts="5">
          <PickLock/>
        </RetryUntilSuccessful>
      <SmashDoor/>
    </Fallback>
  </BehaviorTree>

</root>
`

func Example_t11GrootHowto() {
	factory := bt.NewFactory()

	// Nodes registration, as usual.
	crossDoor := NewCrossDoor()
	must(crossDoor.RegisterNodes(factory))
	must(factory.Register(bt.ModelOf[UpdatePosition]("UpdatePosition", bt.KindAction)))

	// Groot2 needs the models of the registered nodes; they need not be written by
	// hand (the reference's writeTreeNodesModelXML).
	var models bytes.Buffer
	must(factory.WriteModels(&models, false))

	must(factory.LoadString("t11.xml", t11XML))
	tree, err := factory.NewTree("MainTree")
	must(err)

	fmt.Println("----------- XML file  ----------")
	must(btlog.WriteTreeXML(os.Stdout, tree))
	fmt.Println("--------------------------------")

	// Two loggers that record the transitions, both in formats Groot2 reads:
	// FileLogger2 (btlog.CreateFile(tree, "t11_groot_howto.btlog") for a file) and
	// the Chrome trace of MinitraceLogger.
	var btlogFile, minitrace bytes.Buffer
	logger2, err := btlog.NewFile(tree, &btlogFile)
	must(err)
	minilog, err := btlog.NewTrace(tree, &minitrace, nil)
	must(err)

	for range 2 {
		fmt.Println("Start")
		crossDoor.Reset()
		_, err := tree.TickWhileRunning(context.Background(), 0)
		must(err)
	}
	must(logger2.Close())
	must(minilog.Close())

	// What the file logger recorded reads back, as Groot2 and bt replay read it.
	_, err = btlog.Read(&btlogFile)
	must(err)

	// Output:
	// ----------- XML file  ----------
	// <root BTCPP_format="4">
	//     <BehaviorTree ID="MainTree" _fullpath="">
	//         <Sequence name="Sequence" _uid="1">
	//             <Script name="Script" _uid="2" code="door_open:=false"/>
	//             <UpdatePosition name="UpdatePosition" _uid="3" pos="{pos_2D}" vec_double="{doubles}" vec_string="{strings}" waypoints="{waypoints}"/>
	//             <Fallback name="Fallback" _uid="4">
	//                 <Inverter name="Inverter" _uid="5">
	//                     <IsDoorClosed name="IsDoorClosed" _uid="6"/>
	//                 </Inverter>
	//                 <SubTree ID="DoorClosed" _fullpath="DoorClosed::7" _uid="7" door_open="{door_open}"/>
	//             </Fallback>
	//             <PassThroughDoor name="PassThroughDoor" _uid="13"/>
	//         </Sequence>
	//     </BehaviorTree>
	//     <BehaviorTree ID="DoorClosed" _fullpath="DoorClosed::7">
	//         <Fallback name="tryOpen" _uid="8" _onSuccess="door_open:=true">
	//             <OpenDoor name="OpenDoor" _uid="9"/>
	//             <RetryUntilSuccessful name="RetryUntilSuccessful" _uid="10" num_attempts="5">
	//                 <PickLock name="PickLock" _uid="11"/>
	//             </RetryUntilSuccessful>
	//             <SmashDoor name="SmashDoor" _uid="12"/>
	//         </Fallback>
	//     </BehaviorTree>
	//     <TreeNodesModel>
	//         <Control ID="Fallback"/>
	//         <Decorator ID="Inverter"/>
	//         <Condition ID="IsDoorClosed"/>
	//         <Action ID="OpenDoor"/>
	//         <Action ID="PassThroughDoor"/>
	//         <Action ID="PickLock"/>
	//         <Decorator ID="RetryUntilSuccessful">
	//             <input_port name="num_attempts" type="int">how many failures to accept (-1: forever)</input_port>
	//         </Decorator>
	//         <Action ID="Script">
	//             <input_port name="code" type="std::string">the script to run</input_port>
	//         </Action>
	//         <Control ID="Sequence"/>
	//         <Condition ID="SmashDoor"/>
	//         <SubTree ID="SubTree">
	//             <input_port name="_autoremap" type="bool" default="false">remap every key of the subtree to the parent's key of the same name</input_port>
	//         </SubTree>
	//         <Action ID="UpdatePosition">
	//             <output_port name="pos" type="btcpp_test.Position2D"/>
	//             <output_port name="vec_double" type="std::vector&lt;double&gt;">Vector of doubles</output_port>
	//             <output_port name="vec_string" type="std::vector&lt;std::string&gt;">Vector of strings</output_port>
	//             <output_port name="waypoints" type="std::vector&lt;btcpp_test.Waypoint&gt;">Vector of waypoints</output_port>
	//         </Action>
	//     </TreeNodesModel>
	// </root>
	// --------------------------------
	// Start
	// Start
}
