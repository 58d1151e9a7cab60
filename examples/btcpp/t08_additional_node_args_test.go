package btcpp_test

// Tutorial 8 (t08_additional_node_args.cpp): node types that take arguments besides
// their ports — through their constructor (Action_A) or an initialize method called
// once the tree is built (Action_B).
//
// The reference passes a non-copyable object to Action_A's constructor by reference
// (std::ref). A Go value is shared by passing its pointer, which needs no wrapper: the
// node keeps *NoCopyObj. A constructor with extra arguments is a closure over them in
// the Model's New function.

import (
	"context"
	"fmt"

	"github.com/gobt/bt"
)

// NoCopyObj stands for the reference's non-copyable object.
type NoCopyObj struct{ value int }

func (o *NoCopyObj) Value() int { return o.value }

// ActionA gets its arguments when it is built.
type ActionA struct {
	arg1 int
	arg2 string
	nc   *NoCopyObj
}

func (a *ActionA) Tick(n *bt.Node) bt.Status {
	fmt.Printf("%s: %d / %s / %d\n", n.Name(), a.arg1, a.arg2, a.nc.Value())
	return bt.Success
}

// NewActionA returns the Action_A node type, whose nodes are built with these arguments:
// registerNodeType<Action_A>("Action_A", 42, "hello world", std::ref(non_copyable)).
func NewActionA(argInt int, argStr string, nc *NoCopyObj) *bt.Model {
	return &bt.Model{
		ID:   "Action_A",
		Kind: bt.KindAction,
		New: func(*bt.NodeConfig) (bt.Behavior, error) {
			return &ActionA{arg1: argInt, arg2: argStr, nc: nc}, nil
		},
	}
}

// ActionB must be initialized once, before its first tick.
type ActionB struct {
	arg1 int
	arg2 string
}

func (b *ActionB) Initialize(argInt int, argStr string) {
	b.arg1, b.arg2 = argInt, argStr
}

func (b *ActionB) Tick(n *bt.Node) bt.Status {
	fmt.Printf("%s: %d / %s\n", n.Name(), b.arg1, b.arg2)
	return bt.Success
}

const t08XML = `
 <root BTCPP_format="4">
     <BehaviorTree>
        <Sequence>
            <Action_A/>
            <Action_B/>
        </Sequence>
     </BehaviorTree>
 </root>
`

func Example_t08AdditionalNodeArgs() {
	factory := bt.NewFactory()
	nonCopyable := &NoCopyObj{value: 88}

	// Pass the extra arguments to Action_A's constructor.
	must(factory.Register(
		NewActionA(42, "hello world", nonCopyable),
		// Action_B will require initialization.
		bt.ModelOf[ActionB]("Action_B", bt.KindAction),
	))

	must(factory.LoadString("t08.xml", t08XML))
	tree, err := factory.NewTree("")
	must(err)

	// Visit every node of the tree, and initialize the ActionB ones (applyVisitor
	// with a dynamic_cast in the reference; Walk and a type assertion here).
	tree.Walk(func(n *bt.Node, depth int) bool {
		if b, ok := n.Behavior().(*ActionB); ok {
			b.Initialize(69, "interesting_value")
		}
		return true
	})

	_, err = tree.TickWhileRunning(context.Background(), 0)
	must(err)

	// Output:
	// Action_A: 42 / hello world / 88
	// Action_B: 69 / interesting_value
}
