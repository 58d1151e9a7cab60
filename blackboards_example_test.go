package bt_test

import (
	"fmt"
	"os"

	"github.com/gobt/bt"
)

// The tree of BehaviorTree.CPP's tutorial 6: a subtree whose ports are remapped to the
// main tree's entries.
const t06XML = `<root BTCPP_format="4">
  <BehaviorTree ID="MainTree">
    <Sequence>
      <Script code=" move_goal:='1;2;3' " />
      <SubTree ID="MoveRobot" target="{move_goal}" result="{move_result}" />
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="MoveRobot">
    <Sequence>
      <AlwaysSuccess name="MoveBase"/>
      <Script code=" result:='goal reached' " />
    </Sequence>
  </BehaviorTree>
</root>`

func t06Tree() *bt.Tree {
	f := bt.NewFactory()
	if err := f.LoadString("t06.xml", t06XML); err != nil {
		panic(err)
	}
	tree, err := f.NewTree("MainTree")
	if err != nil {
		panic(err)
	}
	return tree
}

// Each blackboard scope of a tree, with its entries and remappings (BT.CPP's
// tutorial 6, debugMessage).
func ExampleTree_Subtrees() {
	tree := t06Tree()
	tree.TickOnce()
	for _, s := range tree.Subtrees() {
		fmt.Printf("------ %s %q ------\n", s.TreeID, s.InstanceName)
		s.Blackboard.Dump(os.Stdout)
	}
	// Output:
	// ------ MainTree "" ------
	// move_goal (string) = "1;2;3"
	// move_result (string) = "goal reached"
	// ------ MoveRobot "MoveRobot::3" ------
	// [result] remapped to port of parent tree [move_result] (string) = "goal reached"
	// [target] remapped to port of parent tree [move_goal] (string) = "1;2;3"
}

// Every blackboard of a tree backed up and restored, and written as JSON (BT.CPP's
// tutorial 17): a scope without entries is null.
func ExampleExportTreeToJSON() {
	tree := t06Tree()
	backup := bt.BlackboardBackup(tree)
	tree.TickOnce()
	data, _ := bt.ExportTreeToJSON(tree)
	fmt.Println(string(data))

	bt.BlackboardRestore(backup, tree)
	data, _ = bt.ExportTreeToJSON(tree)
	fmt.Println(string(data))
	// Output:
	// {"MainTree":{"move_goal":"1;2;3","move_result":"goal reached"},"MoveRobot::3":null}
	// {"MainTree":null,"MoveRobot::3":null}
}

// Print writes the tree as BT.CPP's printTreeRecursively does (tutorial 5).
func ExampleTree_Print() {
	t06Tree().Print(os.Stdout)
	// Output:
	// ----------------
	// Sequence
	//    Script
	//    MoveRobot
	//       Sequence
	//          MoveBase
	//          Script
	// ----------------
}
