package btcpp_test

// Tutorial 16 (t16_global_blackboard.cpp): a "global" blackboard, the parent of the
// tree's root blackboard, reached from every subtree without remapping by keys that
// start with "@".

import (
	"fmt"

	"github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
)

const t16XML = `
<root BTCPP_format="4">

  <BehaviorTree ID="MainTree">
    <Sequence>
      <PrintNumber name="main_print" val="{@value}" />
      <SubTree ID="MySub"/>
    </Sequence>
  </BehaviorTree>

  <BehaviorTree ID="MySub">
    <Sequence>
      <PrintNumber name="sub_print" val="{@value}" />
      <Script code="@value_sqr := @value * @value" />
    </Sequence>
  </BehaviorTree>
</root>
`

// PrintNumber prints its integer input port "val".
type PrintNumber struct {
	Val bt.In[int] `port:"val"`
}

func (p *PrintNumber) Tick(n *bt.Node) bt.Status {
	val, err := p.Val.Get()
	if err != nil {
		n.Abort(err)
		return bt.Failure
	}
	fmt.Printf("[%s] val: %d\n", n.Name(), val)
	return bt.Success
}

func Example_t16GlobalBlackboard() {
	factory := bt.NewFactory()
	must(factory.Register(bt.ModelOf[PrintNumber]("PrintNumber", bt.KindAction)))
	must(factory.LoadString("t16.xml", t16XML))

	// Nobody owns this blackboard.
	global := blackboard.New()
	// This one is owned by MainTree; its parent is global.
	root := global.NewChild(false)

	tree, err := factory.NewTree("MainTree", bt.WithBlackboard(root))
	must(err)

	// We can interact directly with the global blackboard.
	for i := 1; i <= 3; i++ {
		must(blackboard.Put(global.Entry("value"), i))
		_, err := tree.TickOnce()
		must(err)
		valueSqr, err := blackboard.Get[int](global.Entry("value_sqr"))
		must(err)
		fmt.Printf("[While loop] value: %d value_sqr: %d\n\n", i, valueSqr)
	}

	// Output:
	// [main_print] val: 1
	// [sub_print] val: 1
	// [While loop] value: 1 value_sqr: 1
	//
	// [main_print] val: 2
	// [sub_print] val: 2
	// [While loop] value: 2 value_sqr: 4
	//
	// [main_print] val: 3
	// [sub_print] val: 3
	// [While loop] value: 3 value_sqr: 9
}
