//go:build btcpp_pending

// Waits for issue 30 item 27 (the blackboards of a whole tree at once: backup and
// restore, JSON export and import, an empty scope exported as null).

package btcpp_test

// Tutorial 17 (t17_blackboard_backup.cpp): backing up the blackboards of a tree and
// restoring them, to run the tree again from its initial data without building it
// again; and saving them as JSON.
//
// The reference has no "Expected output" comment; the output below is what its code
// prints. ExportTreeToJSON names each scope after its subtree instance: "MainTree",
// and "Sub::6" for the SubTree without a name (its UID is 6). Sub's scope holds no
// entry of its own (val is remapped, the rest reaches MainTree's scope through
// _autoremap), so it is exported as null; nlohmann::json sorts the keys of an object.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/gobt/bt"
)

const t17XML = `
<root BTCPP_format="4">
  <BehaviorTree ID="MainTree">
    <Sequence>
      <Script code="val_A:= 'john' "/>
      <Script code="val_B:= 42 "/>
      <SaySomething message="{val_A}" />
      <SaySomething message="hello world" />
      <SubTree ID="Sub" val="{val_A}" _autoremap="true" />
      <SaySomething message="{reply}" />
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="Sub">
    <Sequence>
      <SaySomething message="{val}" />
      <SaySomething message="{val_B}" />
      <Script code="reply:= 'done' "/>
    </Sequence>
  </BehaviorTree>
</root>
`

func Example_t17BlackboardBackup() {
	factory := bt.NewFactory()
	must(factory.Register(bt.ModelOf[SaySomething]("SaySomething", bt.KindAction)))
	must(factory.LoadString("t17.xml", t17XML))
	tree, err := factory.NewTree("MainTree")
	must(err)

	// Keep a copy of the blackboards in memory, to reset them to their initial
	// state: cheaper, most of the time, than building the tree again.
	// API: bt.BlackboardBackup(tree *bt.Tree) []*blackboard.Blackboard (issue 30 item 27).
	backupBeforeTick := bt.BlackboardBackup(tree)
	_, err = tree.TickWhileRunning(context.Background(), 0)
	must(err)

	// Restore the blackboards as they were.
	// API: bt.BlackboardRestore(backup []*blackboard.Blackboard, tree *bt.Tree) error.
	must(bt.BlackboardRestore(backupBeforeTick, tree))
	_, err = tree.TickWhileRunning(context.Background(), 0)
	must(err)

	// Or save the values of the blackboards, to a file for instance, as JSON.
	// API: bt.ExportTreeToJSON(tree *bt.Tree) ([]byte, error).
	jsonAfterTick, err := bt.ExportTreeToJSON(tree)
	must(err)
	var indented bytes.Buffer
	must(json.Indent(&indented, jsonAfterTick, "", "  ")) // nlohmann's dump(2)
	fmt.Printf("--- blackboard serialized as JSON: ----\n%s\n", indented.String())

	// And restore them from the JSON.
	// API: bt.ImportTreeFromJSON(data []byte, tree *bt.Tree) error.
	must(bt.ImportTreeFromJSON(jsonAfterTick, tree))

	// Output:
	// Robot says: john
	// Robot says: hello world
	// Robot says: john
	// Robot says: 42
	// Robot says: done
	// Robot says: john
	// Robot says: hello world
	// Robot says: john
	// Robot says: 42
	// Robot says: done
	// --- blackboard serialized as JSON: ----
	// {
	//   "MainTree": {
	//     "reply": "done",
	//     "val_A": "john",
	//     "val_B": 42
	//   },
	//   "Sub::6": null
	// }
}
