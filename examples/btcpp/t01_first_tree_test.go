package btcpp_test

// Tutorial 1 (t01_build_your_first_tree.cpp): custom actions and conditions, and a tree
// loaded from XML.
//
// The reference loads its nodes either from a plugin (a shared library opened with
// registerFromPlugin, its default) or, with MANUAL_STATIC_LINKING, registers them one
// by one. Go has no equivalent of loading node types from a shared library at run
// time (package plugin is not meant for it, and bt does not use it): a Go program links
// its nodes in, which is the static path below. RegisterNodes (sample_nodes_test.go)
// is what the plugin would register.

import (
	"context"

	"github.com/gobt/bt"
)

const t01XML = `
 <root BTCPP_format="4" >

     <BehaviorTree ID="MainTree">
        <Sequence name="root_sequence">
            <CheckBattery   name="battery_ok"/>
            <OpenGripper    name="open_gripper"/>
            <ApproachObject name="approach_object"/>
            <CloseGripper   name="close_gripper"/>
        </Sequence>
     </BehaviorTree>

 </root>
`

func Example_t01BuildYourFirstTree() {
	// We use the Factory to register our custom nodes.
	factory := bt.NewFactory()

	// The recommended way to create a node type with ports is a struct whose fields
	// are its ports; ApproachObject has none.
	// Registering a simple condition from a function:
	// Methods of a value can be simple actions too.
	gripper := &GripperInterface{}
	must(factory.Register(
		bt.ModelOf[ApproachObject]("ApproachObject", bt.KindAction),
		bt.NewCondition("CheckBattery", CheckBattery),
		bt.NewAction("OpenGripper", gripper.Open),
		bt.NewAction("CloseGripper", gripper.Close),
	))

	// Trees are created at deployment time (once, at the beginning).
	must(factory.LoadString("t01.xml", t01XML))
	tree, err := factory.NewTree("")
	must(err)

	// To execute a tree you tick it: here the whole Sequence runs in one tick,
	// because every child returns SUCCESS.
	_, err = tree.TickWhileRunning(context.Background(), 0)
	must(err)

	// Output:
	// [ Battery: OK ]
	// GripperInterface::open
	// ApproachObject: approach_object
	// GripperInterface::close
}

// The same tree with the nodes the reference's plugin registers (DummyNodes::RegisterNodes).
func Example_t01RegisterNodes() {
	factory := bt.NewFactory()
	must(RegisterNodes(factory))
	must(factory.LoadString("t01.xml", t01XML))
	tree, err := factory.NewTree("")
	must(err)
	_, err = tree.TickWhileRunning(context.Background(), 0)
	must(err)

	// Output:
	// [ Battery: OK ]
	// GripperInterface::open
	// ApproachObject: approach_object
	// GripperInterface::close
}
