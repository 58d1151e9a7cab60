//go:build btcpp_pending

// Waits for issue 30 item 16 (Tree.Print, the reference's printTreeRecursively): the
// tree runs today, but printing it is all this tutorial outputs.

package btcpp_test

// Tutorial 5 (t05_crossdoor.cpp): Fallback, decorators and subtrees: a robot crosses a
// door that is closed and locked. The reference prints nothing but the tree: the
// output below is what printTreeRecursively writes (names, three spaces per level;
// a SubTree without a name is named after its tree).

import (
	"context"
	"os"

	"github.com/gobt/bt"
)

const t05XML = `
<root BTCPP_format="4">

    <BehaviorTree ID="MainTree">
        <Sequence>
            <Fallback>
                <Inverter>
                    <IsDoorClosed/>
                </Inverter>
                <SubTree ID="DoorClosed"/>
            </Fallback>
            <PassThroughDoor/>
        </Sequence>
    </BehaviorTree>

    <BehaviorTree ID="DoorClosed">
        <Fallback>
            <OpenDoor/>
            <RetryUntilSuccessful num_attempts="5">
                <PickLock/>
            </RetryUntilSuccessful>
            <SmashDoor/>
        </Fallback>
    </BehaviorTree>

</root>
`

func Example_t05Crossdoor() {
	factory := bt.NewFactory()
	crossDoor := NewCrossDoor()
	must(crossDoor.RegisterNodes(factory))

	// This document holds several trees: load it, then build the one wanted by ID.
	must(factory.LoadString("t05.xml", t05XML))
	tree, err := factory.NewTree("MainTree")
	must(err)

	// Print the tree.
	// API: tree.Print(w) (issue 30 item 16), writing what printTreeRecursively writes.
	must(tree.Print(os.Stdout))

	// Tick until the tree completes.
	_, err = tree.TickWhileRunning(context.Background(), 0)
	must(err)

	// Output:
	// ----------------
	// Sequence
	//    Fallback
	//       Inverter
	//          IsDoorClosed
	//       DoorClosed
	//          Fallback
	//             OpenDoor
	//             RetryUntilSuccessful
	//                PickLock
	//             SmashDoor
	//    PassThroughDoor
	// ----------------
}
