package bt_test

import (
	"strings"
	"testing"

	. "github.com/gobt/bt"
)

// Print writes BehaviorTree.CPP's printTreeRecursively format (tutorial 5), a
// SubTree followed by its tree; PrintStatus adds each node's status.
func TestTreePrint(t *testing.T) {
	f := NewFactory()
	err := f.LoadString("t.xml", `<root BTCPP_format="4" main_tree_to_execute="MainTree">
		<BehaviorTree ID="MainTree"><Sequence>
			<Fallback><Inverter><AlwaysSuccess name="IsDoorClosed"/></Inverter><SubTree ID="DoorClosed"/></Fallback>
			<AlwaysRunning name="PassThroughDoor"/>
		</Sequence></BehaviorTree>
		<BehaviorTree ID="DoorClosed"><Fallback name="tryOpen">
			<AlwaysFailure name="OpenDoor"/><AlwaysSuccess name="SmashDoor"/>
		</Fallback></BehaviorTree></root>`)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := f.NewTree("")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := tree.Print(&b); err != nil {
		t.Fatal(err)
	}
	want := `----------------
Sequence
   Fallback
      Inverter
         IsDoorClosed
      DoorClosed
         tryOpen
            OpenDoor
            SmashDoor
   PassThroughDoor
----------------
`
	if b.String() != want {
		t.Errorf("Print:\n%s\nwant\n%s", b.String(), want)
	}
	tree.TickOnce()
	b.Reset()
	if err := tree.PrintStatus(&b); err != nil {
		t.Fatal(err)
	}
	want = `----------------
Sequence (RUNNING)
   Fallback (SUCCESS)
      Inverter (IDLE)
         IsDoorClosed (IDLE)
      DoorClosed (IDLE)
         tryOpen (IDLE)
            OpenDoor (IDLE)
            SmashDoor (IDLE)
   PassThroughDoor (RUNNING)
----------------
`
	if b.String() != want {
		t.Errorf("PrintStatus:\n%s\nwant\n%s", b.String(), want)
	}
}
