package bt_test

import (
	"fmt"
	"time"

	"github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

// A tree saved while its Delay waits, and restored in a tree built anew from the same
// definition, with another clock: the Delay waits for the rest of its time, and the
// Sequence resumes at its second child.
func ExampleTree_Snapshot() {
	patrol := bt.Sequence(
		bt.Script("waypoint := 1"),
		bt.Delay(500*time.Millisecond, bt.Script("waypoint += 1")),
		bt.Script("done := true"),
	)
	clock := bttest.NewClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	tree, _ := bt.NewTree(patrol, bt.WithClock(clock))
	tree.TickOnce()
	clock.Advance(200 * time.Millisecond)

	snap, err := tree.Snapshot()
	if err != nil {
		panic(err)
	}
	data, _ := snap.MarshalJSON() // or MarshalBinary
	fmt.Printf("%s", data)

	// Later, or in another process:
	saved, err := bt.ReadSnapshot(data)
	if err != nil {
		panic(err)
	}
	later := bttest.NewClock(time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC))
	again, _ := bt.NewTree(patrol, bt.WithClock(later))
	if err := again.Restore(saved); err != nil {
		panic(err)
	}
	status, _ := again.TickOnce()
	fmt.Println(status)
	later.Advance(300 * time.Millisecond)
	status, _ = again.TickOnce()
	js, _ := again.Blackboard().MarshalJSON()
	fmt.Println(status, string(js))
	// Output:
	// {
	//   "format": "bt snapshot",
	//   "version": 1,
	//   "fingerprint": "sha256:dd01da98bd5ac39175f209d109bf58f3",
	//   "nodes": 5,
	//   "taken": "2026-01-02T03:04:05.2Z",
	//   "state": [
	//     {"uid": 1, "path": "Sequence::1", "status": "RUNNING", "child": 1},
	//     {"uid": 2, "path": "Script::2", "status": "SUCCESS"},
	//     {"uid": 3, "path": "Delay::3", "status": "RUNNING", "started": true, "timer": "300ms"}
	//   ],
	//   "blackboards": [
	//     {"path": "", "entries": [
	//       {"key": "waypoint", "type": "int64", "value": 1, "seq": 1}
	//     ]}
	//   ]
	// }
	// RUNNING
	// SUCCESS {"done":true,"waypoint":2}
}
