package btcpp_test

// Tutorial 15, strict failure (t15_nodes_mocking_strict_failure.cpp): the companion of
// tutorial 15 whose TestNode decides its status with a script; when it fails, the
// Sequence stops at once. Its rules are given in Go.
//
// The reference's "Expected output" comment leaves out the line "Robot says: message
// SUBSTITUTED": its TestNode runs success_script before it returns SUCCESS, and the
// SaySomething after it then prints msg, as in tutorial 15. The output below has it.

import (
	"fmt"
	"time"

	"github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
	"github.com/gobt/bt/bttest"
)

const t15StrictXML = `
<root BTCPP_format="4">

  <BehaviorTree ID="MainTree">
    <Sequence>
      <SaySomething name="talk" message="hello world"/>

      <SubTree ID="MySub" name="mysub"/>

      <Script name="set_mock_flag" code="mock_should_fail:= false"/>
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

func Example_t15NodesMockingStrictFailure() {
	factory := bt.NewFactory()
	must(factory.Register(bt.ModelOf[SaySomething]("SaySomething", bt.KindAction)))
	must(factory.LoadString("t15_strict.xml", t15StrictXML))

	status := t15Original(factory)
	fmt.Println("Original status:", status)

	t15Mocks(factory)
	factory.Substitute("mysub/action_*", "DummyAction")
	factory.Substitute("talk", "DummySaySomething")
	must(factory.SubstituteTestNode("set_message", bt.TestNodeConfig{
		ReturnStatusScript: "(mock_should_fail == true) ? FAILURE : SUCCESS",
		AsyncDelay:         2000 * time.Millisecond,
		SuccessScript:      "msg := 'message SUBSTITUTED' ",
		FailureScript:      "msg := 'message FAILURE branch' ",
	}))
	must(factory.SubstituteTestNode("counting", bt.TestNodeConfig{ReturnStatus: bt.Success}))

	bb := blackboard.New()
	clock := bttest.NewClock(time.Time{})
	tree, err := factory.NewTree("MainTree", bt.WithBlackboard(bb), bt.WithClock(clock))
	must(err)
	fmt.Println("\n------ Output (substituted, strict failure) ------")
	status, err = tickWhileRunning(tree, clock, 10*time.Millisecond)
	must(err)
	fmt.Println("Substituted status:", status)
	if e, ok := bb.Lookup("msg"); ok {
		msg, err := blackboard.Get[string](e)
		must(err)
		fmt.Println("Substituted final msg:", msg)
	}

	// If mock_should_fail is set to true in the XML above, the substituted status
	// becomes FAILURE and the final msg "message FAILURE branch".

	// Output:
	// ----- Nodes fullPath() -------
	// Sequence::1
	// talk
	// mysub
	// mysub/Sequence::4
	// mysub/action_subA
	// mysub/action_subB
	// set_mock_flag
	// set_message
	// SaySomething::9
	// counting
	// SaySomething::11
	// SaySomething::12
	// SaySomething::13
	//
	// ------ Output (original) ------
	// Robot says: hello world
	// Robot says: the original message
	// Robot says: 1
	// Robot says: 2
	// Robot says: 3
	// Original status: SUCCESS
	//
	// ------ Output (substituted, strict failure) ------
	// DummySaySomething: hello world
	// DummyAction substituting node with fullPath(): mysub/action_subA
	// DummyAction substituting node with fullPath(): mysub/action_subB
	// Robot says: message SUBSTITUTED
	// Substituted status: SUCCESS
	// Substituted final msg: message SUBSTITUTED
}
