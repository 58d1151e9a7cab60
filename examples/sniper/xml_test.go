package main

import (
	"bytes"
	"fmt"
	"os"
	"regexp"

	"github.com/gobt/bt/internal/cli"
)

// btCommand runs the bt command and prints its output without the timestamps of --log,
// which depend on the machine's speed, and with "name: " for --log's padded name.
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
	// Sequence: IDLE -> RUNNING
	// World: IDLE -> SUCCESS
	// Engage: IDLE -> RUNNING
	// ReactiveSequence: IDLE -> RUNNING
	// IsEnemyVisible: IDLE -> SUCCESS
	// ApproachEnemy: IDLE -> RUNNING
	// KeepRunningUntilFailure: IDLE -> RUNNING
	// Step: IDLE -> SUCCESS
	// Step: SUCCESS -> IDLE
	// IsEnemyVisible: SUCCESS -> IDLE
	// tick 1 RUNNING
	// IsEnemyVisible: IDLE -> SUCCESS
	// Step: IDLE -> SUCCESS
	// Step: SUCCESS -> IDLE
	// IsEnemyVisible: SUCCESS -> IDLE
	// tick 2 RUNNING
	// IsEnemyVisible: IDLE -> FAILURE
	// IsEnemyVisible: FAILURE -> IDLE
	// KeepRunningUntilFailure: RUNNING -> IDLE
	// ApproachEnemy: RUNNING -> IDLE
	// ReactiveSequence: RUNNING -> FAILURE
	// ReactiveSequence: FAILURE -> IDLE
	// Engage: RUNNING -> FAILURE
	// World: SUCCESS -> IDLE
	// Engage: FAILURE -> IDLE
	// Sequence: RUNNING -> FAILURE
	// Sequence: FAILURE -> IDLE
	// tick 3 FAILURE
	// blackboard {"distance":1,"hides_at":3,"shots":0,"tick":3}
}
