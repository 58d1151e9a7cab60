package main

import (
	"bytes"
	"fmt"
	"os"
	"regexp"

	"github.com/gobt/bt/internal/cli"
)

// btCommand runs the bt command and prints its output without the timestamps of --log,
// which depend on the machine's speed, and with "path: " for --log's padded path.
func btCommand(args ...string) {
	var out bytes.Buffer
	if code := cli.Main(args, &out, os.Stderr); code != 0 {
		fmt.Println("exit status", code)
	}
	fmt.Print(regexp.MustCompile(`(?m)^\[\d+\.\d+\]: (\S+) +`).ReplaceAllString(out.String(), "$1: "))
}

// The same sniper in XML, run by the bt command: the enemy stays in sight.
func Example_xml() {
	btCommand("run", "sniper.xml")
	// Output:
	// tick 1 RUNNING
	// tick 2 RUNNING
	// tick 3 SUCCESS
	// blackboard {"distance":0,"hides_at":0,"shots":1,"tick":3}
}

// The enemy hides at tick 3: IsEnemyVisible fails and the approach is halted.
func Example_xmlEnemyHides() {
	btCommand("run", "--log", "--main", "EnemyHides", "sniper.xml")
	// Output:
	// Sequence::1: IDLE -> RUNNING
	// World: IDLE -> SUCCESS
	// Engage::3: IDLE -> RUNNING
	// Engage::3/ReactiveSequence::4: IDLE -> RUNNING
	// Engage::3/IsEnemyVisible: IDLE -> SUCCESS
	// Engage::3/ApproachEnemy: IDLE -> RUNNING
	// Engage::3/KeepRunningUntilFailure::7: IDLE -> RUNNING
	// Engage::3/Step: IDLE -> SUCCESS
	// Engage::3/Step: SUCCESS -> IDLE
	// Engage::3/IsEnemyVisible: SUCCESS -> IDLE
	// tick 1 RUNNING
	// Engage::3/IsEnemyVisible: IDLE -> SUCCESS
	// Engage::3/Step: IDLE -> SUCCESS
	// Engage::3/Step: SUCCESS -> IDLE
	// Engage::3/IsEnemyVisible: SUCCESS -> IDLE
	// tick 2 RUNNING
	// Engage::3/IsEnemyVisible: IDLE -> FAILURE
	// Engage::3/IsEnemyVisible: FAILURE -> IDLE
	// Engage::3/KeepRunningUntilFailure::7: RUNNING -> IDLE
	// Engage::3/ApproachEnemy: RUNNING -> IDLE
	// Engage::3/ReactiveSequence::4: RUNNING -> FAILURE
	// Engage::3/ReactiveSequence::4: FAILURE -> IDLE
	// Engage::3: RUNNING -> FAILURE
	// World: SUCCESS -> IDLE
	// Engage::3: FAILURE -> IDLE
	// Sequence::1: RUNNING -> FAILURE
	// Sequence::1: FAILURE -> IDLE
	// tick 3 FAILURE
	// blackboard {"distance":1,"hides_at":3,"shots":0,"tick":3}
}
