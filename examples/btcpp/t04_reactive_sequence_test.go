package btcpp_test

// Tutorial 4 (t04_reactive_sequence.cpp): Sequence and ReactiveSequence, and an
// asynchronous (stateful) action, MoveBase.
//
// The reference has no "Expected output" comment; the output below is what its code
// prints. MoveBase completes 220 ms after it started and the loop sleeps 100 ms between
// ticks (MoveBase's onRunning sleeps 10 ms more): the first tick starts MoveBase at
// 0 ms, the second finds it running at 110 ms, the third done at 220 ms. Here the tree
// runs on a manual clock, moved on by those 110 ms between ticks instead of sleeping.

import (
	"fmt"
	"testing"
	"time"

	"github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

const t04XMLSequence = `
 <root BTCPP_format="4" >

     <BehaviorTree ID="MainTree">
        <Sequence name="root">
            <BatteryOK/>
            <SaySomething   message="mission started..." />
            <MoveBase       goal="1;2;3"/>
            <SaySomething   message="mission completed!" />
        </Sequence>
     </BehaviorTree>

 </root>
`

const t04XMLReactive = `
 <root BTCPP_format="4" >

     <BehaviorTree ID="MainTree">
        <ReactiveSequence name="root">
            <BatteryOK/>
            <Sequence>
                <SaySomething   message="mission started..." />
                <MoveBase       goal="1;2;3"/>
                <SaySomething   message="mission completed!" />
            </Sequence>
        </ReactiveSequence>
     </BehaviorTree>

 </root>
`

// t04Factory returns a factory with the tutorial's nodes registered.
func t04Factory() *bt.Factory {
	factory := bt.NewFactory()
	must(factory.Register(
		bt.NewCondition("BatteryOK", CheckBattery),
		MoveBaseModel,
		bt.ModelOf[SaySomething]("SaySomething", bt.KindAction),
	))
	return factory
}

// t04 is the tutorial's main; factoryFor gives the factory that loads each document.
func t04(factoryFor func() *bt.Factory) {
	// Compare the state transitions and messages of the two trees: with a Sequence,
	// BatteryOK is ticked only once, as it succeeds; with a ReactiveSequence, at
	// every tick.
	for _, xml := range []string{t04XMLSequence, t04XMLReactive} {
		fmt.Print("\n------------ BUILDING A NEW TREE ------------\n\n")

		factory := factoryFor()
		must(factory.LoadString("t04.xml", xml))
		clock := bttest.NewClock(time.Time{})
		tree, err := factory.NewTree("MainTree", bt.WithClock(clock))
		must(err)

		// To run code between one tick and the next, write the loop yourself.
		status := bt.Idle
		for status != bt.Success {
			fmt.Println("--- ticking")
			status, err = tree.TickOnce()
			must(err)
			fmt.Printf("--- status: %s\n\n", status)

			// If still running, wait a little (tree.sleep(100 ms), plus MoveBase's 10).
			if status == bt.Running {
				clock.Advance(110 * time.Millisecond)
			}
		}
	}
}

// The output has two blank lines in a row, which an Example's "Output:" comment cannot
// hold, so this tutorial is a test.
//
// As in the reference, both documents are loaded into one factory, whose second
// MainTree replaces the first.
func TestT04ReactiveSequence(t *testing.T) {
	factory := t04Factory()
	got := captureStdout(t, func() { t04(func() *bt.Factory { return factory }) })
	if got != t04Want {
		t.Errorf("got:\n%s\nwant:\n%s", got, t04Want)
	}
}

const t04Want = `
------------ BUILDING A NEW TREE ------------

--- ticking
[ Battery: OK ]
Robot says: mission started...
[ MoveBase: SEND REQUEST ]. goal: x=1.0 y=2.0 theta=3.0
--- status: RUNNING

--- ticking
--- status: RUNNING

--- ticking
[ MoveBase: FINISHED ]
Robot says: mission completed!
--- status: SUCCESS


------------ BUILDING A NEW TREE ------------

--- ticking
[ Battery: OK ]
Robot says: mission started...
[ MoveBase: SEND REQUEST ]. goal: x=1.0 y=2.0 theta=3.0
--- status: RUNNING

--- ticking
[ Battery: OK ]
--- status: RUNNING

--- ticking
[ Battery: OK ]
[ MoveBase: FINISHED ]
Robot says: mission completed!
--- status: SUCCESS

`
