package bt_test

import (
	"fmt"

	"github.com/gobt/bt"
)

// Fault injection in a test: the battery check fails, whatever the battery says, and
// the test sees the tree fall back to charging — without a mock of the battery.
func ExampleNode_SetPreTick() {
	f := bt.NewFactory()
	if err := f.Register(bt.NewCondition("BatteryOK", func() bool { return true })); err != nil {
		panic(err)
	}
	err := f.LoadString("robot.xml", `
		<root BTCPP_format="4">
		    <BehaviorTree ID="Main">
		        <Fallback>
		            <Sequence>
		                <BatteryOK/>
		                <Script code="task := 'work'"/>
		            </Sequence>
		            <Script code="task := 'charge'"/>
		        </Fallback>
		    </BehaviorTree>
		</root>`)
	if err != nil {
		panic(err)
	}
	tree, err := f.NewTree("Main")
	if err != nil {
		panic(err)
	}
	run := func() {
		s, err := tree.TickOnce()
		if err != nil {
			panic(err)
		}
		task, _ := tree.Blackboard().Entry("task").Load().MarshalJSON()
		fmt.Println(s, "task:", string(task))
	}
	var battery *bt.Node
	for n := range tree.Nodes() {
		if n.ID() == "BatteryOK" {
			battery = n
		}
	}
	run()
	battery.SetPreTick(func(*bt.Node) bt.Status { return bt.Failure }) // not ticked: fails
	run()
	battery.SetPreTick(nil)
	run()
	// Output:
	// SUCCESS task: "work"
	// SUCCESS task: "charge"
	// SUCCESS task: "work"
}

// Another goroutine — a debugger, a test driver — changes a tree that ticks through
// Tree.Do: the function runs on the ticking goroutine, before the next tick.
func ExampleTree_Do() {
	tree, err := bt.NewTree(bt.Sequence(bt.AlwaysSuccess(), bt.AlwaysSuccess()))
	if err != nil {
		panic(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		tree.Do(func() {
			tree.Node(3).SetPostTick(func(_ *bt.Node, s bt.Status) bt.Status { return bt.Failure })
		})
	}()
	<-done
	s, _ := tree.TickOnce()
	fmt.Println(s)
	// Output:
	// FAILURE
}
