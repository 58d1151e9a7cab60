package fallbacks_test

import (
	"bytes"
	"fmt"
	"os"
	"regexp"

	"github.com/gobt/bt/internal/cli"
)

// bt runs the bt command and prints its output without the timestamps of --log,
// which depend on the machine's speed.
func bt(args ...string) {
	var out bytes.Buffer
	if code := cli.Main(args, &out, os.Stderr); code != 0 {
		fmt.Println("exit status", code)
	}
	fmt.Print(regexp.MustCompile(`(?m)^\[\d+\.\d+s\] `).ReplaceAllString(out.String(), ""))
}

// Fallback tries IsDoorOpen and UseKey once, then stays with RamDoor for its four
// blows.
func Example_plain() {
	bt("run", "--exactly-once", "--log", "--main", "Plain", "fallbacks.xml")
	// Output:
	// Sequence::1: IDLE -> RUNNING
	// World: IDLE -> SUCCESS
	// GetThrough: IDLE -> RUNNING
	// IsDoorOpen: IDLE -> FAILURE
	// UseKey: IDLE -> FAILURE
	// RamDoor: IDLE -> RUNNING
	// KeepRunningUntilFailure::7: IDLE -> RUNNING
	// Blow: IDLE -> SUCCESS
	// Blow: SUCCESS -> IDLE
	// tick 1 RUNNING
	// Blow: IDLE -> SUCCESS
	// Blow: SUCCESS -> IDLE
	// tick 2 RUNNING
	// Blow: IDLE -> SUCCESS
	// Blow: SUCCESS -> IDLE
	// tick 3 RUNNING
	// Blow: IDLE -> FAILURE
	// KeepRunningUntilFailure::7: RUNNING -> FAILURE
	// Blow: FAILURE -> IDLE
	// RamDoor: RUNNING -> SUCCESS
	// KeepRunningUntilFailure::7: FAILURE -> IDLE
	// IsDoorOpen: FAILURE -> IDLE
	// UseKey: FAILURE -> IDLE
	// RamDoor: SUCCESS -> IDLE
	// GetThrough: RUNNING -> SUCCESS
	// World: SUCCESS -> IDLE
	// GetThrough: SUCCESS -> IDLE
	// Sequence::1: RUNNING -> SUCCESS
	// Sequence::1: SUCCESS -> IDLE
	// tick 4 SUCCESS
	// blackboard {"blows":4,"checks":1,"key_tries":1}
}

// AsyncFallback yields after each child that failed at once: with --exactly-once each
// yield is a tick of its own, so the same work takes six ticks.
func Example_async() {
	bt("run", "--exactly-once", "--log", "--main", "Async", "fallbacks.xml")
	// Output:
	// Sequence::1: IDLE -> RUNNING
	// World: IDLE -> SUCCESS
	// GetThrough: IDLE -> RUNNING
	// IsDoorOpen: IDLE -> FAILURE
	// tick 1 RUNNING
	// UseKey: IDLE -> FAILURE
	// tick 2 RUNNING
	// RamDoor: IDLE -> RUNNING
	// KeepRunningUntilFailure::7: IDLE -> RUNNING
	// Blow: IDLE -> SUCCESS
	// Blow: SUCCESS -> IDLE
	// tick 3 RUNNING
	// Blow: IDLE -> SUCCESS
	// Blow: SUCCESS -> IDLE
	// tick 4 RUNNING
	// Blow: IDLE -> SUCCESS
	// Blow: SUCCESS -> IDLE
	// tick 5 RUNNING
	// Blow: IDLE -> FAILURE
	// KeepRunningUntilFailure::7: RUNNING -> FAILURE
	// Blow: FAILURE -> IDLE
	// RamDoor: RUNNING -> SUCCESS
	// KeepRunningUntilFailure::7: FAILURE -> IDLE
	// IsDoorOpen: FAILURE -> IDLE
	// UseKey: FAILURE -> IDLE
	// RamDoor: SUCCESS -> IDLE
	// GetThrough: RUNNING -> SUCCESS
	// World: SUCCESS -> IDLE
	// GetThrough: SUCCESS -> IDLE
	// Sequence::1: RUNNING -> SUCCESS
	// Sequence::1: SUCCESS -> IDLE
	// tick 6 SUCCESS
	// blackboard {"blows":4,"checks":1,"key_tries":1}
}

// With tickOnce, bt run's default, the yields of AsyncFallback are re-ticked within
// the tick: the same four ticks as Fallback.
func Example_asyncTickOnce() {
	bt("run", "--main", "Async", "fallbacks.xml")
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
	bt("run", "--exactly-once", "--log", "--main", "Reactive", "fallbacks.xml")
	// Output:
	// Sequence::1: IDLE -> RUNNING
	// World: IDLE -> SUCCESS
	// GetThrough: IDLE -> RUNNING
	// IsDoorOpen: IDLE -> FAILURE
	// UseKey: IDLE -> FAILURE
	// RamDoor: IDLE -> RUNNING
	// KeepRunningUntilFailure::7: IDLE -> RUNNING
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
	// KeepRunningUntilFailure::7: RUNNING -> IDLE
	// RamDoor: RUNNING -> IDLE
	// GetThrough: RUNNING -> SUCCESS
	// World: SUCCESS -> IDLE
	// GetThrough: SUCCESS -> IDLE
	// Sequence::1: RUNNING -> SUCCESS
	// Sequence::1: SUCCESS -> IDLE
	// tick 3 SUCCESS
	// blackboard {"blows":2,"checks":3,"key_tries":2}
}
