package btcpp_test

// Tutorial 14 (t14_subtree_model.cpp): a model for a subtree (since BehaviorTree.CPP
// 4.4), whose ports have defaults: the caller must remap only the ports that have none.
//
// The reference has no "Expected output" comment; it attaches a StdCoutLogger, whose
// lines are below in the order its nodes make the changes. StdCoutLogger prints the
// time as seconds since the Unix epoch and colours the statuses; btlog.Console does
// both when asked (ConsoleOptions.Absolute, Color), and here prints the seconds since
// it attached, on a manual clock, so that the output does not depend on when it runs.
//
// The reference's scripts hold a bare "&&" in an attribute, which its XML parser
// (tinyxml2) keeps; bt refuses it until issue 30 item 3 lands, so it is written
// "&amp;&amp;" here, as XML wants it (t14_subtree_model_pending_test.go loads the
// reference's text).

import (
	"os"
	"time"

	"github.com/gobt/bt"
	"github.com/gobt/bt/btlog"
	"github.com/gobt/bt/bttest"
)

// MySub's model: sub_in_value has the default value 42, sub_out_result is remapped to
// {out_result} by default; sub_in_name and sub_out_state have no default.
const t14XMLSubtree = `
<root BTCPP_format="4">

  <TreeNodesModel>
    <SubTree ID="MySub">
      <input_port name="sub_in_value" default="42"/>
      <input_port name="sub_in_name"/>
      <output_port name="sub_out_result" default="{out_result}"/>
      <output_port name="sub_out_state"/>
    </SubTree>
  </TreeNodesModel>

  <BehaviorTree ID="MySub">
    <Sequence>
      <ScriptCondition code="sub_in_value==42 &amp;&amp; sub_in_name=='john'" />
      <Script code="sub_out_result:=69; sub_out_state:='ACTIVE'" />
    </Sequence>
  </BehaviorTree>
</root>
`

// MainTree remaps only sub_in_name and sub_out_state.
const t14XMLMain = `
<root BTCPP_format="4">

  <BehaviorTree ID="MainTree">
    <Sequence>
      <Script code="in_name:= 'john' "/>
      <SubTree ID="MySub" sub_in_name="{in_name}"
                          sub_out_state="{out_state}"/>
      <ScriptCondition code=" out_result==69 &amp;&amp; out_state=='ACTIVE' " />
    </Sequence>
  </BehaviorTree>

</root>
`

// t14 is the tutorial's main, loading the two documents.
func t14(subtreeXML, mainXML string) {
	factory := bt.NewFactory()
	must(factory.LoadString("subtree.xml", subtreeXML))
	must(factory.LoadString("main.xml", mainXML))

	clock := bttest.NewClock(time.Now())
	tree, err := factory.NewTree("MainTree", bt.WithClock(clock))
	must(err)
	logger, err := btlog.NewConsole(tree, os.Stdout, nil)
	must(err)
	_, err = tickWhileRunning(tree, clock, 10*time.Millisecond)
	must(err)
	must(logger.Close())
}

func Example_t14SubtreeModel() {
	t14(t14XMLSubtree, t14XMLMain)

	// The sequence succeeds. The full remapping was:
	//
	//   sub_in_name    <-> {in_name}      specified by the caller, MainTree
	//   sub_in_value   <-> 42             the model's default
	//   sub_out_result <-> {out_result}   the model's default
	//   sub_out_state  <-> {out_state}    specified by the caller, MainTree

	// Output:
	// [0.000]: Sequence                  IDLE -> RUNNING
	// [0.000]: Script                    IDLE -> SUCCESS
	// [0.000]: MySub                     IDLE -> RUNNING
	// [0.000]: Sequence                  IDLE -> RUNNING
	// [0.000]: ScriptCondition           IDLE -> SUCCESS
	// [0.000]: Script                    IDLE -> SUCCESS
	// [0.000]: ScriptCondition           SUCCESS -> IDLE
	// [0.000]: Script                    SUCCESS -> IDLE
	// [0.000]: Sequence                  RUNNING -> SUCCESS
	// [0.000]: Sequence                  SUCCESS -> IDLE
	// [0.000]: MySub                     RUNNING -> SUCCESS
	// [0.000]: ScriptCondition           IDLE -> SUCCESS
	// [0.000]: Script                    SUCCESS -> IDLE
	// [0.000]: MySub                     SUCCESS -> IDLE
	// [0.000]: ScriptCondition           SUCCESS -> IDLE
	// [0.000]: Sequence                  RUNNING -> SUCCESS
	// [0.000]: Sequence                  SUCCESS -> IDLE
}
