package behaviac_test

import (
	"os"

	"github.com/gobt/bt/internal/cli"
)

func Example() {
	cli.Main([]string{"run", "behaviac.xml"}, os.Stdout, os.Stderr)
	// Output:
	// tick 1 RUNNING
	// tick 2 RUNNING
	// log INFO Announce: patrol done
	// tick 3 RUNNING
	// log INFO Ears: heard a noise
	// tick 4 RUNNING
	// log INFO Eyes: aimed
	// log INFO Radio: calling for help
	// tick 5 RUNNING
	// log INFO Radio: calling for help
	// tick 6 RUNNING
	// tick 7 RUNNING
	// tick 8 RUNNING
	// tick 9 RUNNING
	// log INFO Trigger: four shots fired
	// log INFO Magazine: reloading
	// log INFO Magazine: reloading
	// tick 10 SUCCESS
	// blackboard {"calls":2,"jams":1,"noise":2,"reloads":2,"rounds":3,"shots":4}
}

// With --exactly-once, RetryUntilSuccessful's retry after the failed reload takes a
// tick of its own.
func Example_exactlyOnce() {
	cli.Main([]string{"run", "--exactly-once", "behaviac.xml"}, os.Stdout, os.Stderr)
	// Output:
	// tick 1 RUNNING
	// tick 2 RUNNING
	// log INFO Announce: patrol done
	// tick 3 RUNNING
	// log INFO Ears: heard a noise
	// tick 4 RUNNING
	// log INFO Eyes: aimed
	// log INFO Radio: calling for help
	// tick 5 RUNNING
	// log INFO Radio: calling for help
	// tick 6 RUNNING
	// tick 7 RUNNING
	// tick 8 RUNNING
	// tick 9 RUNNING
	// log INFO Trigger: four shots fired
	// log INFO Magazine: reloading
	// tick 10 RUNNING
	// log INFO Magazine: reloading
	// tick 11 SUCCESS
	// blackboard {"calls":2,"jams":1,"noise":2,"reloads":2,"rounds":3,"shots":4}
}
