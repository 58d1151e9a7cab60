package main

import (
	"bytes"
	"fmt"
	"regexp"

	"github.com/gobt/bt/internal/cli"
)

// btCommand runs the bt command and prints its output, and its exit status if it
// failed, without the timestamps of --log, which depend on the machine's speed, and
// with "name: " for --log's padded name.
func btCommand(args ...string) {
	var out bytes.Buffer
	if code := cli.Main(args, &out, &out); code != 0 {
		fmt.Println("exit status", code)
	}
	fmt.Print(regexp.MustCompile(`(?m)^\[\d+\.\d+\]: (\S+) +`).ReplaceAllString(out.String(), "$1: "))
}

// The bt command checks the tree against the models of its Nav2 nodes: all is well.
func Example_check() {
	btCommand("check", "--models", "nav2_models.xml", "navigate.xml")
	// Output:
}

// Without implementations the tree cannot run: run names the nodes that have none.
func Example_noImplementation() {
	btCommand("run", "--models", "nav2_models.xml", "--main", "Recover", "navigate.xml")
	// Output:
	// exit status 1
	// error navigate.xml:37:13: node GoalUpdated has no implementation, only a TreeNodesModel: dry-run it with --mock-all, or with substitution rules (--mock RULES.json)
	// error navigate.xml:38:13: node RecoveryActions (RoundRobin) has no implementation, only a TreeNodesModel: dry-run it with --mock-all, or with substitution rules (--mock RULES.json)
	// error navigate.xml:39:17: node ClearBothCostmaps (ClearEntireCostmap) has no implementation, only a TreeNodesModel: dry-run it with --mock-all, or with substitution rules (--mock RULES.json)
	// error navigate.xml:40:17: node Spin has no implementation, only a TreeNodesModel: dry-run it with --mock-all, or with substitution rules (--mock RULES.json)
	// error navigate.xml:41:17: node Wait has no implementation, only a TreeNodesModel: dry-run it with --mock-all, or with substitution rules (--mock RULES.json)
	// error navigate.xml:42:17: node BackUp has no implementation, only a TreeNodesModel: dry-run it with --mock-all, or with substitution rules (--mock RULES.json)
}

// --mock-all dry-runs it with one flag: leaves succeed, RateController passes its
// child's status, the controls are Sequences.
func Example_mockAll() {
	btCommand("run", "--models", "nav2_models.xml", "--mock-all", "navigate.xml")
	// Output:
	// tick 1 SUCCESS
	// blackboard {"goal":null,"path":null}
}

// dry_run.json gives a few nodes a behavior — planning writes a path to the goal (which
// --set gives), following it fails, RecoveryNode is a Fallback, so the recovery runs —
// and --mock-all mocks the rest.
func Example_dryRun() {
	btCommand("run", "--models", "nav2_models.xml", "--mock-all", "--mock", "dry_run.json", "--set", "goal=kitchen", "--log", "navigate.xml")
	// Output:
	// NavigateRecovery: IDLE -> RUNNING
	// NavigateWithReplanning: IDLE -> RUNNING
	// RateController: IDLE -> RUNNING
	// Plan: IDLE -> RUNNING
	// ComputePathToPose: IDLE -> SUCCESS
	// ComputePathToPose: SUCCESS -> IDLE
	// Plan: RUNNING -> SUCCESS
	// RateController: RUNNING -> SUCCESS
	// Plan: SUCCESS -> IDLE
	// Follow: IDLE -> RUNNING
	// FollowPath: IDLE -> FAILURE
	// ClearLocalCostmap: IDLE -> SUCCESS
	// FollowPath: FAILURE -> IDLE
	// ClearLocalCostmap: SUCCESS -> IDLE
	// Follow: RUNNING -> SUCCESS
	// RateController: SUCCESS -> IDLE
	// Follow: SUCCESS -> IDLE
	// NavigateWithReplanning: RUNNING -> SUCCESS
	// NavigateWithReplanning: SUCCESS -> IDLE
	// NavigateRecovery: RUNNING -> SUCCESS
	// NavigateRecovery: SUCCESS -> IDLE
	// tick 1 SUCCESS
	// blackboard {"blocked":true,"goal":"kitchen","path":"dock;hall;kitchen"}
}
