package btcpp_test

// Tutorial 2 (t02_basic_ports.cpp): input and output ports. A Sequence of four actions:
// SaySomething and SaySomething2 read "message" from a literal or from the blackboard
// entry the_answer, which ThinkWhatToSay writes through its output port "text".

import (
	"context"

	"github.com/gobt/bt"
)

const t02XML = `
 <root BTCPP_format="4" >

     <BehaviorTree ID="MainTree">
        <Sequence name="root">
            <SaySomething     message="hello" />
            <SaySomething2    message="this works too" />
            <ThinkWhatToSay   text="{the_answer}"/>
            <SaySomething2    message="{the_answer}" />
        </Sequence>
     </BehaviorTree>

 </root>
`

// ThinkWhatToSay writes a value to its output port "text".
type ThinkWhatToSay struct {
	Text bt.Out[string] `port:"text"`
}

func (t *ThinkWhatToSay) Tick(n *bt.Node) bt.Status {
	if err := t.Text.Set("The answer is 42"); err != nil {
		n.Abort(err)
		return bt.Failure
	}
	return bt.Success
}

func Example_t02BasicPorts() {
	factory := bt.NewFactory()
	must(factory.Register(
		// SaySomething's port "message" is a field of its struct (providedPorts).
		bt.ModelOf[SaySomething]("SaySomething", bt.KindAction),
		// ThinkWhatToSay has an output port "text"; both are strings, so they connect.
		bt.ModelOf[ThinkWhatToSay]("ThinkWhatToSay", bt.KindAction),
		// A simple action declares its ports when it is registered.
		bt.NewAction("SaySomething2", SaySomethingSimple, bt.InputPort[string]("message", "")),
	))

	must(factory.LoadString("t02.xml", t02XML))
	tree, err := factory.NewTree("")
	must(err)
	_, err = tree.TickWhileRunning(context.Background(), 0)
	must(err)

	// Output:
	// Robot says: hello
	// Robot says: this works too
	// Robot says: The answer is 42
}
