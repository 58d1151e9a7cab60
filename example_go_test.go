package bt_test

import (
	"fmt"
	"time"

	"github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

// MoveTo is a node type written as a struct: its tagged fields are its ports, bound
// when the tree is built.
type MoveTo struct {
	Goal  bt.In[string]   `port:"goal,required" help:"where to go"`
	Speed bt.In[float64]  `port:"speed" default:"0.5" help:"metres per tick"`
	Left  bt.Out[float64] `port:"distance_left" help:"how far it still is"`

	left float64 // the distance still to go in this run
}

// OnStart is called instead of Tick when the node starts a run (optional: bt.Starter).
func (m *MoveTo) OnStart(n *bt.Node) bt.Status {
	goal, _ := m.Goal.Get()
	fmt.Println("MoveTo: off to the", goal)
	m.left = 1.0
	return m.Tick(n)
}

func (m *MoveTo) Tick(n *bt.Node) bt.Status {
	speed, err := m.Speed.Get()
	if err != nil {
		n.Abort(err)
	}
	m.left = max(m.left-speed, 0)
	if err := m.Left.Set(m.left); err != nil {
		n.Abort(err)
	}
	if m.left > 0 {
		return bt.Running
	}
	return bt.Success
}

// A node type implemented by a struct (ModelOf): its ports come from its fields, and
// the same Model serves XML and Go.
func ExampleModelOf() {
	moveTo := bt.ModelOf[MoveTo]("MoveTo", bt.KindAction)
	f := bt.NewFactory()
	if err := f.Register(moveTo); err != nil {
		panic(err)
	}
	err := f.LoadString("move.xml", `
		<root BTCPP_format="4">
		    <BehaviorTree ID="Main">
		        <MoveTo goal="kitchen" distance_left="{left}"/>
		    </BehaviorTree>
		</root>`)
	if err != nil {
		panic(err)
	}
	tree, err := f.NewTree("")
	if err != nil {
		panic(err)
	}
	for {
		s, err := tree.TickOnce()
		if err != nil {
			panic(err)
		}
		left, _ := tree.Blackboard().Entry("left").Load().MarshalJSON()
		fmt.Println(s, "left:", string(left))
		if s != bt.Running {
			break
		}
	}
	// In Go, WithValue sets ports to Go values, checked against their types.
	_, err = bt.NewTree(moveTo.Spec().With("goal", "hall").WithValue("speed", "fast"))
	fmt.Println(err)
	// Output:
	// MoveTo: off to the kitchen
	// RUNNING left: 0.5
	// SUCCESS left: 0.0
	// node MoveTo::1 (MoveTo): port "speed": cannot parse "fast" as float64: invalid syntax
}

// A subtree has a blackboard of its own: its ports are remapped to the parent's
// entries ("{key}") or set to values, and nothing else leaks out.
func ExampleSubTree() {
	greet := bt.Sequence(
		bt.Script("line := greeting .. ', ' .. who"),
		bt.Script("said := line"),
	)
	tree, err := bt.NewTree(bt.Sequence(
		bt.Script("name := 'Ada'"),
		bt.SubTree("Greet", greet).
			With("who", "{name}").          // reads the parent's name
			WithValue("greeting", "Hello"). // a value of the subtree's own
			With("said", "{reply}"),        // writes the parent's reply
	))
	if err != nil {
		panic(err)
	}
	if _, err := tree.TickOnce(); err != nil {
		panic(err)
	}
	js, _ := tree.Blackboard().MarshalJSON()
	fmt.Println(string(js)) // line stayed in the subtree
	// Output:
	// {"name":"Ada","reply":"Hello, Ada"}
}

// Trees read time from their clock. A manual clock (package bttest) makes a test with
// timers exact, without sleeping.
func ExampleWithClock() {
	clock := bttest.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	tree, err := bt.NewTree(
		bt.Timeout(time.Second, bt.AlwaysRunning()),
		bt.WithClock(clock),
	)
	if err != nil {
		panic(err)
	}
	s, _ := tree.TickOnce()
	fmt.Println(s)
	clock.Advance(999 * time.Millisecond)
	s, _ = tree.TickOnce()
	fmt.Println(s)
	clock.Advance(time.Millisecond) // the timeout's timer fires and wakes the tree up
	s, _ = tree.TickOnce()
	fmt.Println(s)
	// Output:
	// RUNNING
	// RUNNING
	// FAILURE
}
