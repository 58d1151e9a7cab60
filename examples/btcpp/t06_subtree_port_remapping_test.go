package btcpp_test

// Tutorial 6 (t06_subtree_port_remapping.cpp): a SubTree's ports are "soft links"
// between entries of the subtree's blackboard (internal) and of its parent's
// (external); each tree and subtree has a blackboard of its own.
//
// The reference's "Expected output" comment is stale: it leaves out what the nodes
// print, and debugMessage (4.10) also writes the type of a remapped entry after each
// remapping line. The output below is what its code prints, but for the order of the
// lines, which the reference takes from hash maps (unordered_map) and the Go dump
// sorts.

import (
	"fmt"
	"os"
	"time"

	"github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

const t06XML = `
<root BTCPP_format="4">

    <BehaviorTree ID="MainTree">
        <Sequence>
            <Script code=" move_goal='1;2;3' " />
            <SubTree ID="MoveRobot" target="{move_goal}" result="{move_result}" />
            <SaySomething message="{move_result}"/>
        </Sequence>
    </BehaviorTree>

    <BehaviorTree ID="MoveRobot">
        <Fallback>
            <Sequence>
                <MoveBase  goal="{target}"/>
                <Script code=" result:='goal reached' " />
            </Sequence>
            <ForceFailure>
                <Script code=" result:='error' " />
            </ForceFailure>
        </Fallback>
    </BehaviorTree>

</root>
`

func Example_t06SubtreePortRemapping() {
	factory := bt.NewFactory()
	must(factory.Register(
		bt.ModelOf[SaySomething]("SaySomething", bt.KindAction),
		MoveBaseModel,
	))
	must(factory.LoadString("t06.xml", t06XML))

	clock := bttest.NewClock(time.Time{})
	tree, err := factory.NewTree("MainTree", bt.WithClock(clock))
	must(err)
	_, err = tickWhileRunning(tree, clock, 10*time.Millisecond)
	must(err)

	// Let's look at the blackboards of the tree and of its subtree: the reference's
	// tree.subtrees[0] and [1].
	scopes := tree.Subtrees()
	fmt.Println("\n------ First BB ------")
	// The reference's debugMessage, which prints "move_goal (Pose2D)" and
	// "(std::string)": bt's Dump names Go types and adds the values.
	must(scopes[0].Blackboard.Dump(os.Stdout))
	fmt.Println("\n------ Second BB------")
	must(scopes[1].Blackboard.Dump(os.Stdout))

	// Output:
	// [ MoveBase: SEND REQUEST ]. goal: x=1.0 y=2.0 theta=3.0
	// [ MoveBase: FINISHED ]
	// Robot says: goal reached
	//
	// ------ First BB ------
	// move_goal (btcpp_test.Pose2D) = {1 2 3}
	// move_result (string) = "goal reached"
	//
	// ------ Second BB------
	// [result] remapped to port of parent tree [move_result] (string) = "goal reached"
	// [target] remapped to port of parent tree [move_goal] (btcpp_test.Pose2D) = {1 2 3}
}
