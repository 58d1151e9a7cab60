package btcpp_test

// Tutorial 15 (t15_nodes_mocking.cpp): substituting nodes with mocks, by rules given
// in Go or in a JSON file, applied when a tree is built.

import (
	"context"
	"fmt"
	"time"

	"github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

const t15XML = `
<root BTCPP_format="4">

  <BehaviorTree ID="MainTree">
    <Sequence>
      <SaySomething name="talk" message="hello world"/>

      <SubTree ID="MySub" name="mysub"/>

      <Script name="set_message" code="msg:= 'the original message' "/>
      <SaySomething message="{msg}"/>

      <Sequence name="counting">
        <SaySomething message="1"/>
        <SaySomething message="2"/>
        <SaySomething message="3"/>
      </Sequence>
    </Sequence>
  </BehaviorTree>

  <BehaviorTree ID="MySub">
    <Sequence>
      <AlwaysSuccess name="action_subA"/>
      <AlwaysSuccess name="action_subB"/>
    </Sequence>
  </BehaviorTree>

</root>
`

// t15Mocks registers the node types that stand in for others: DummyAction, and
// DummySaySomething, which reads the port "message" of the node it replaces. A
// substitute gets the replaced node's port values for the ports it declares, so it
// declares "message" (the reference's getInput reads any attribute of the XML).
func t15Mocks(factory *bt.Factory) {
	must(factory.Register(
		bt.NewAction("DummyAction", func(n *bt.Node) bt.Status {
			fmt.Println("DummyAction substituting node with fullPath():", n.Path())
			return bt.Success
		}),
		bt.NewAction("DummySaySomething", func(n *bt.Node) (bt.Status, error) {
			msg, err := bt.Get[string](n, "message")
			if err != nil {
				return bt.Failure, err
			}
			fmt.Println("DummySaySomething:", msg)
			return bt.Success, nil
		}, bt.InputPort[string]("message", "")),
	))
}

// t15Original builds and runs the tree as written, after printing the full path of
// every node.
func t15Original(factory *bt.Factory) bt.Status {
	tree, err := factory.NewTree("MainTree")
	must(err)

	fmt.Println("----- Nodes fullPath() -------")
	tree.Walk(func(n *bt.Node, depth int) bool {
		fmt.Println(n.Path())
		return true
	})

	fmt.Println("\n------ Output (original) ------")
	status, err := tree.TickWhileRunning(context.Background(), 0)
	must(err)
	return status
}

func Example_t15NodesMocking() {
	factory := bt.NewFactory()
	must(factory.Register(bt.ModelOf[SaySomething]("SaySomething", bt.KindAction)))
	must(factory.LoadString("t15.xml", t15XML))

	// What the original tree does.
	t15Original(factory)

	// Mock type 1: node types of one's own registered in the factory.
	t15Mocks(factory)

	// Mock type 2: TestNodes, configured. The JSON below is equivalent to these rules
	// given in Go (the reference's USE_JSON = false):
	//
	//	factory.Substitute("mysub/action_*", "DummyAction")
	//	factory.Substitute("talk", "DummySaySomething")
	//	factory.SubstituteTestNode("set_message", bt.TestNodeConfig{
	//		ReturnStatus: bt.Success,
	//		AsyncDelay:   2000 * time.Millisecond, // asynchronous: 2 s before it completes
	//		PostScript:   "msg := 'message SUBSTITUTED' ",
	//	})
	//	// we can also substitute entire branches, for instance the Sequence "counting"
	//	factory.SubstituteTestNode("counting", bt.TestNodeConfig{ReturnStatus: bt.Success})
	must(factory.LoadSubstitutions([]byte(`
    {
      "TestNodeConfigs": {
        "NewMessage": {
          "async_delay": 2000,
          "return_status": "SUCCESS",
          "post_script": "msg ='message SUBSTITUTED'"
        },
        "NoCounting": {
          "return_status": "SUCCESS"
        }
      },

      "SubstitutionRules": {
        "mysub/action_*": "DummyAction",
        "talk": "DummySaySomething",
        "set_message": "NewMessage",
        "counting": "NoCounting"
      }
    }`)))

	// All substitutions must be given BEFORE the tree is built: building it applies
	// them. The TestNode waits 2 s on the tree's clock: a manual one here.
	clock := bttest.NewClock(time.Time{})
	tree, err := factory.NewTree("MainTree", bt.WithClock(clock))
	must(err)
	fmt.Println("\n------ Output (substituted) ------")
	_, err = tickWhileRunning(tree, clock, 10*time.Millisecond)
	must(err)

	// Output:
	// ----- Nodes fullPath() -------
	// Sequence::1
	// talk
	// mysub
	// mysub/Sequence::4
	// mysub/action_subA
	// mysub/action_subB
	// set_message
	// SaySomething::8
	// counting
	// SaySomething::10
	// SaySomething::11
	// SaySomething::12
	//
	// ------ Output (original) ------
	// Robot says: hello world
	// Robot says: the original message
	// Robot says: 1
	// Robot says: 2
	// Robot says: 3
	//
	// ------ Output (substituted) ------
	// DummySaySomething: hello world
	// DummyAction substituting node with fullPath(): mysub/action_subA
	// DummyAction substituting node with fullPath(): mysub/action_subB
	// Robot says: message SUBSTITUTED
}
