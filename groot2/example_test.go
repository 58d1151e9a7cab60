package groot2_test

import (
	"context"
	"fmt"

	"github.com/gobt/bt"
	"github.com/gobt/bt/groot2"
)

// A program publishes its tree while it runs; Groot2 connects to the port (in its
// "Monitor" mode) and follows the tree live. Here only this machine may connect.
func Example() {
	f := bt.NewFactory()
	err := f.LoadString("patrol.xml", `
		<root BTCPP_format="4">
		    <BehaviorTree ID="Patrol">
		        <Sequence>
		            <Script code="laps := 0"/>
		            <Repeat num_cycles="3">
		                <Script code="laps += 1"/>
		            </Repeat>
		        </Sequence>
		    </BehaviorTree>
		</root>`)
	if err != nil {
		panic(err)
	}
	tree, err := f.NewTree("Patrol")
	if err != nil {
		panic(err)
	}
	pub, err := groot2.New(tree, &groot2.Options{Host: "127.0.0.1", Port: 21667})
	if err != nil {
		panic(err)
	}
	defer pub.Close()
	fmt.Println("Groot2 can connect to port", pub.Port())
	s, err := tree.TickWhileRunning(context.Background(), 0)
	laps, _ := tree.Blackboard().Entry("laps").Load().MarshalJSON()
	fmt.Println(s, err, "laps:", string(laps))
	// Output:
	// Groot2 can connect to port 21667
	// SUCCESS <nil> laps: 3
}
