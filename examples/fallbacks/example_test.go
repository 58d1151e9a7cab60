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

func Example() {
	if err := run(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// Fallback
	//   tick 1: IsDoorOpen FAILURE, UseKey FAILURE, blow 1 => RUNNING
	//   tick 2: blow 2 => RUNNING
	//   tick 3: blow 3 => RUNNING
	//   tick 4: blow 4 => SUCCESS
	// AsyncFallback
	//   tick 1: IsDoorOpen FAILURE => RUNNING
	//   tick 2: UseKey FAILURE => RUNNING
	//   tick 3: blow 1 => RUNNING
	//   tick 4: blow 2 => RUNNING
	//   tick 5: blow 3 => RUNNING
	//   tick 6: blow 4 => SUCCESS
	// AsyncFallback, with tickOnce
	//   tick 1: IsDoorOpen FAILURE, UseKey FAILURE, blow 1 => RUNNING
	//   tick 2: blow 2 => RUNNING
	//   tick 3: blow 3 => RUNNING
	//   tick 4: blow 4 => SUCCESS
	// ReactiveFallback
	//   tick 1: IsDoorOpen FAILURE, UseKey FAILURE, blow 1 => RUNNING
	//   tick 2: IsDoorOpen FAILURE, UseKey FAILURE, blow 2 => RUNNING
	//   tick 3: IsDoorOpen SUCCESS, RamDoor halted => SUCCESS
}

// The same trees run by the bt command. Fallback tries IsDoorOpen and UseKey once,
// then stays with RamDoor for its four blows: blows 4, checks 1, key_tries 1.
func Example_plain() {
	btCommand("run", "--exactly-once", "--main", "Plain", "fallbacks.xml")
	// Output:
	// tick 1 RUNNING
	// tick 2 RUNNING
	// tick 3 RUNNING
	// tick 4 SUCCESS
	// blackboard {"blows":4,"checks":1,"key_tries":1}
}

// AsyncFallback yields after each child that failed at once: with --exactly-once each
// yield is a tick of its own, so the same work takes six ticks.
func Example_async() {
	btCommand("run", "--exactly-once", "--main", "Async", "fallbacks.xml")
	// Output:
	// tick 1 RUNNING
	// tick 2 RUNNING
	// tick 3 RUNNING
	// tick 4 RUNNING
	// tick 5 RUNNING
	// tick 6 SUCCESS
	// blackboard {"blows":4,"checks":1,"key_tries":1}
}

// With tickOnce, bt run's default, the yields of AsyncFallback are re-ticked within
// the tick: the same four ticks as Fallback.
func Example_asyncTickOnce() {
	btCommand("run", "--main", "Async", "fallbacks.xml")
	// Output:
	// tick 1 RUNNING
	// tick 2 RUNNING
	// tick 3 RUNNING
	// tick 4 SUCCESS
	// blackboard {"blows":4,"checks":1,"key_tries":1}
}

// ReactiveFallback checks IsDoorOpen again on every tick (and tries UseKey again):
// when the door gives way, RamDoor is halted after two blows.
func Example_reactive() {
	btCommand("run", "--exactly-once", "--main", "Reactive", "fallbacks.xml")
	// Output:
	// tick 1 RUNNING
	// tick 2 RUNNING
	// tick 3 SUCCESS
	// blackboard {"blows":2,"checks":3,"key_tries":2}
}

// --log shows every status change: RamDoor goes from RUNNING to IDLE, halted, in the
// third tick.
func Example_reactiveLog() {
	btCommand("run", "--exactly-once", "--log", "--main", "Reactive", "fallbacks.xml")
	// Output:
	// Sequence: IDLE -> RUNNING
	// World: IDLE -> SUCCESS
	// GetThrough: IDLE -> RUNNING
	// IsDoorOpen: IDLE -> FAILURE
	// UseKey: IDLE -> FAILURE
	// RamDoor: IDLE -> RUNNING
	// KeepRunningUntilFailure: IDLE -> RUNNING
	// Blow: IDLE -> SUCCESS
	// Blow: SUCCESS -> IDLE
	// IsDoorOpen: FAILURE -> IDLE
	// UseKey: FAILURE -> IDLE
	// tick 1 RUNNING
	// IsDoorOpen: IDLE -> FAILURE
	// UseKey: IDLE -> FAILURE
	// Blow: IDLE -> SUCCESS
	// Blow: SUCCESS -> IDLE
	// IsDoorOpen: FAILURE -> IDLE
	// UseKey: FAILURE -> IDLE
	// tick 2 RUNNING
	// IsDoorOpen: IDLE -> SUCCESS
	// IsDoorOpen: SUCCESS -> IDLE
	// KeepRunningUntilFailure: RUNNING -> IDLE
	// RamDoor: RUNNING -> IDLE
	// GetThrough: RUNNING -> SUCCESS
	// World: SUCCESS -> IDLE
	// GetThrough: SUCCESS -> IDLE
	// Sequence: RUNNING -> SUCCESS
	// Sequence: SUCCESS -> IDLE
	// tick 3 SUCCESS
	// blackboard {"blows":2,"checks":3,"key_tries":2}
}
