package main

import (
	"os"

	"github.com/gobt/bt/internal/cli"
)

func Example() {
	if err := run(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// tick 1 => RUNNING
	//     World SUCCESS
	//     Round SUCCESS
	// tick 2 => RUNNING
	//     Round SUCCESS
	// tick 3 => RUNNING
	//     Round SUCCESS
	//     Patrol SUCCESS
	//     Announce: "patrol done"
	//     HearNoise FAILURE
	// tick 4 => RUNNING
	//     HearNoise SUCCESS
	//     Listen SUCCESS
	//     Ears: "heard a noise"
	//     IsQuiet FAILURE
	//     NotQuiet SUCCESS
	// tick 5 => RUNNING
	//     Aim SUCCESS
	//     Eyes: "aimed"
	//     Call SUCCESS
	//     Radio: "calling for help"
	//     AtMostTwice SUCCESS
	// tick 6 => RUNNING
	//     Call SUCCESS
	//     Radio: "calling for help"
	//     AtMostTwice SUCCESS
	// tick 7 => RUNNING
	//     AtMostTwice FAILURE
	//     AskThreeTimes SUCCESS
	//     Shoot SUCCESS
	//     Rifle SUCCESS
	// tick 8 => RUNNING
	//     Shoot SUCCESS
	//     Rifle SUCCESS
	// tick 9 => RUNNING
	//     Shoot SUCCESS
	//     Rifle FAILURE
	// tick 10 => SUCCESS
	//     Shoot SUCCESS
	//     Rifle SUCCESS
	//     FireFourTimes SUCCESS
	//     Trigger: "four shots fired"
	//     Load SUCCESS
	//     Reload FAILURE
	//     Magazine: "reloading"
	//     Load SUCCESS
	//     Reload SUCCESS
	//     Magazine: "reloading"
}

// The sentry run by the bt command: tick lines, what the Log nodes say, and the
// counters on the blackboard at the end.
func Example_command() {
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
func Example_commandExactlyOnce() {
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
