//go:build btcpp_pending

// Waits for issue 30 item 1 (a script assigns a user type through UnmarshalText and
// reads the value back): today the Script fails with "cannot read "OtherGoal": the entry
// "OtherGoal" holds a btcpp_test.Position2D, which scripts cannot use".

package btcpp_test

// Tutorial 3 (t03_generic_ports.cpp): ports of a type of one's own. The reference
// specializes convertFromString<Position2D>; in Go the type implements
// encoding.TextUnmarshaler, which bt uses to read XML text and strings into it
// (Position2D and its UnmarshalText are in sample_nodes_test.go, since tutorial 11
// uses the type too).

import (
	"context"
	"fmt"

	"github.com/gobt/bt"
)

// CalculateGoal writes a Position2D to its output port "goal".
type CalculateGoal struct {
	Goal bt.Out[Position2D] `port:"goal"`
}

func (c *CalculateGoal) Tick(n *bt.Node) bt.Status {
	if err := c.Goal.Set(Position2D{X: 1.1, Y: 2.3}); err != nil {
		n.Abort(err)
	}
	return bt.Success
}

// PrintTarget prints the Position2D of its input port "target".
type PrintTarget struct {
	Target bt.In[Position2D] `port:"target" help:"Simply print the target on console..."`
}

func (p *PrintTarget) Tick(n *bt.Node) bt.Status {
	goal, err := p.Target.Get()
	if err != nil {
		n.Abort(fmt.Errorf("error reading port [target]: %w", err))
		return bt.Failure
	}
	fmt.Printf("Target positions: [ %.1f, %.1f ]\n", goal.X, goal.Y)
	return bt.Success
}

// The tree: CalculateGoal writes GoalPosition, PrintTarget prints it; the Script
// writes the text "-1;3" to OtherGoal, converted to a Position2D under the hood (the
// entry's type is Position2D, which PrintTarget's port declared), and PrintTarget
// prints it.
const t03XML = `
 <root BTCPP_format="4" >
     <BehaviorTree ID="MainTree">
        <Sequence name="root">
            <CalculateGoal   goal="{GoalPosition}" />
            <PrintTarget     target="{GoalPosition}" />
            <Script          code="OtherGoal='-1;3'" />
            <PrintTarget     target="{OtherGoal}" />
        </Sequence>
     </BehaviorTree>
 </root>
`

func Example_t03GenericPorts() {
	factory := bt.NewFactory()
	must(factory.Register(
		bt.ModelOf[CalculateGoal]("CalculateGoal", bt.KindAction),
		bt.ModelOf[PrintTarget]("PrintTarget", bt.KindAction),
	))
	must(factory.LoadString("t03.xml", t03XML))
	tree, err := factory.NewTree("")
	must(err)
	_, err = tree.TickWhileRunning(context.Background(), 0)
	must(err)

	// Output:
	// Target positions: [ 1.1, 2.3 ]
	// Converting string: "-1;3"
	// Target positions: [ -1.0, 3.0 ]
}
