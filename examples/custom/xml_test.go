package main

import (
	"bytes"
	"fmt"
	"regexp"
	"testing"

	"github.com/gobt/bt/btxml"
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

// The bt command checks custom.xml without the Go nodes, from its TreeNodesModel:
// nothing to say.
func Example_check() {
	btCommand("check", "custom.xml")
	// Output:
}

// A dry run of the errand without the Go nodes: the substitution rules of
// dry_run.json replace them with TestNodes (and AlwaysSuccess). The battery is low,
// so the Charge branch is taken.
func Example_dryRun() {
	btCommand("run", "--log", "--mock", "dry_run.json", "custom.xml")
	// Output:
	// Sequence: IDLE -> RUNNING
	// EnsureCharged: IDLE -> RUNNING
	// IsBatteryOK: IDLE -> FAILURE
	// Charge: IDLE -> SUCCESS
	// IsBatteryOK: FAILURE -> IDLE
	// Charge: SUCCESS -> IDLE
	// EnsureCharged: RUNNING -> SUCCESS
	// PlanRoute: IDLE -> SUCCESS
	// FollowRoute: IDLE -> SUCCESS
	// Deliver: IDLE -> SUCCESS
	// EnsureCharged: SUCCESS -> IDLE
	// PlanRoute: SUCCESS -> IDLE
	// FollowRoute: SUCCESS -> IDLE
	// Deliver: SUCCESS -> IDLE
	// Sequence: RUNNING -> SUCCESS
	// Sequence: SUCCESS -> IDLE
	// tick 1 SUCCESS
	// blackboard {"battery":60,"goal":null,"position":"kitchen","route":["dock","hall","kitchen"]}
}

// TestModelsInXML checks that the TreeNodesModel of custom.xml is the one the program
// exports, so that the file does not drift from the code.
func TestModelsInXML(t *testing.T) {
	var exported bytes.Buffer
	if err := writeModels(&exported); err != nil {
		t.Fatal(err)
	}
	want, err := btxml.Parse("exported", exported.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	got, err := btxml.Parse("custom.xml", []byte(errandXML))
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	if err := btxml.WriteModels(&a, got.Models); err != nil {
		t.Fatal(err)
	}
	if err := btxml.WriteModels(&b, want.Models); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Errorf("the TreeNodesModel of custom.xml:\n%s\ndiffers from the one of the nodes (go run ./examples/custom -models):\n%s", &a, &b)
	}
}
