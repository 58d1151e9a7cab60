package bt_test

import (
	"context"
	"fmt"
	"time"

	"github.com/gobt/bt"
)

// A tree written in Go: the builder functions read like the tree they build.
func Example() {
	visible := 3 // the enemy stays visible for three checks
	tree, err := bt.NewTree(
		bt.ReactiveSequence(
			bt.Condition("IsEnemyVisible", func() bool { visible--; return visible >= 0 }),
			bt.Action("Shoot", func() bt.Status { fmt.Println("bang"); return bt.Success }),
		),
	)
	if err != nil {
		panic(err)
	}
	for range 4 {
		s, _ := tree.TickOnce()
		fmt.Println(s)
	}
	// Output:
	// bang
	// SUCCESS
	// bang
	// SUCCESS
	// bang
	// SUCCESS
	// FAILURE
}

// A BehaviorTree.CPP XML tree with a custom action registered from a Go function.
func ExampleFactory() {
	f := bt.NewFactory()
	say := bt.NewAction("Say", func(n *bt.Node) (bt.Status, error) {
		msg, err := bt.Get[string](n, "message")
		fmt.Println(msg)
		return bt.Success, err
	}, bt.InputPort[string]("message", "what to say"))
	if err := f.Register(say); err != nil {
		panic(err)
	}
	err := f.LoadString("hello.xml", `
<root BTCPP_format="4">
  <BehaviorTree ID="Hello">
    <Sequence>
      <Script code="name := 'world'"/>
      <Say message="hello"/>
      <Say message="{name}"/>
    </Sequence>
  </BehaviorTree>
</root>`)
	if err != nil {
		panic(err)
	}
	tree, err := f.NewTree("Hello")
	if err != nil {
		panic(err)
	}
	s, err := tree.TickWhileRunning(context.Background(), 0)
	fmt.Println(s, err)
	// Output:
	// hello
	// world
	// SUCCESS <nil>
}

// Errors in a document come all at once, each with its position.
func ExampleFactory_LoadString_errors() {
	f := bt.NewFactory()
	err := f.LoadString("bad.xml", `<root BTCPP_format="4">
  <BehaviorTree ID="Main">
    <Sequnce>
      <Parallel success_count="two"><AlwaysSuccess/></Parallel>
    </Sequnce>
  </BehaviorTree>
</root>`)
	fmt.Println(err)
	// Output:
	// bad.xml:3:6: unknown node "Sequnce"; did you mean "Sequence"?
	// bad.xml:4:32: port "success_count": cannot parse "two" as int: invalid syntax
}

// An asynchronous action runs in a goroutine; halting the tree cancels its context and
// waits for it.
func ExampleNewAsync() {
	started := make(chan struct{})
	wait := bt.NewAsync("Wait", func(ctx context.Context, n *bt.Node) (bt.Status, error) {
		close(started)
		<-ctx.Done() // until halted
		fmt.Println("canceled")
		return bt.Failure, nil
	})
	tree, _ := bt.NewTree(wait.Spec())
	s, _ := tree.TickOnce()
	fmt.Println(s)
	<-started
	fmt.Println(tree.Halt())
	// Output:
	// RUNNING
	// canceled
	// <nil>
}

// A stateful action knows when it starts, runs and is halted.
func ExampleNewStateful() {
	tree, _ := bt.NewTree(bt.Stateful("Count", func() bt.StatefulAction { return &counter{} }))
	for range 4 {
		s, _ := tree.TickOnce()
		fmt.Print(s, " ")
	}
	fmt.Println()
	// Output: RUNNING RUNNING SUCCESS RUNNING
}

type counter struct{ n int }

func (c *counter) OnStart(*bt.Node) bt.Status { c.n = 0; return bt.Running }
func (c *counter) OnRunning(*bt.Node) bt.Status {
	if c.n++; c.n < 2 {
		return bt.Running
	}
	return bt.Success
}
func (c *counter) OnHalted(*bt.Node) {}

// Observers see every status change.
func ExampleTree_Subscribe() {
	tree, _ := bt.NewTree(bt.Sequence(bt.AlwaysSuccess().Named("a"), bt.AlwaysSuccess().Named("b")))
	tree.Subscribe(func(ev bt.StatusChange) {
		fmt.Printf("%s: %s -> %s\n", ev.Node.Name(), ev.Previous, ev.Status)
	})
	tree.TickOnce()
	// Output:
	// Sequence: IDLE -> RUNNING
	// a: IDLE -> SUCCESS
	// b: IDLE -> SUCCESS
	// a: SUCCESS -> IDLE
	// b: SUCCESS -> IDLE
	// Sequence: RUNNING -> SUCCESS
	// Sequence: SUCCESS -> IDLE
}

// A batch subscriber gets the changes of each tick when the tick ends: the node's UID
// and its previous and new statuses, and one time for the batch.
func ExampleTree_SubscribeBatch() {
	tree, _ := bt.NewTree(bt.Sequence(bt.AlwaysSuccess().Named("a"), bt.Inverter(bt.AlwaysFailure().Named("b"))))
	tree.SubscribeBatch(func(b bt.Batch) {
		fmt.Printf("tick %d, %d changes:\n", tree.Ticks(), len(b.Changes))
		for _, c := range b.Changes {
			fmt.Printf("  %s: %s -> %s\n", tree.Node(c.UID()).Name(), c.Previous(), c.Status())
		}
	})
	tree.TickOnce()
	// Output:
	// tick 1, 10 changes:
	//   Sequence: IDLE -> RUNNING
	//   a: IDLE -> SUCCESS
	//   Inverter: IDLE -> RUNNING
	//   b: IDLE -> FAILURE
	//   b: FAILURE -> IDLE
	//   Inverter: RUNNING -> SUCCESS
	//   a: SUCCESS -> IDLE
	//   Inverter: SUCCESS -> IDLE
	//   Sequence: RUNNING -> SUCCESS
	//   Sequence: SUCCESS -> IDLE
}

// Stop stops a tree from another goroutine — a signal handler, an HTTP handler — while
// a goroutine ticks it: the ticking goroutine halts it and returns ErrStopped.
func ExampleTree_Stop() {
	started := make(chan struct{})
	tree, _ := bt.NewTree(bt.Async("Navigate", func(ctx context.Context, n *bt.Node) (bt.Status, error) {
		close(started)
		<-ctx.Done() // Stop cancels the work at once
		fmt.Println("navigation canceled")
		return bt.Failure, nil
	}))
	go func() {
		<-started
		tree.Stop()
	}()
	s, err := tree.TickWhileRunning(context.Background(), time.Second)
	fmt.Println(s, err, tree.Status())
	// Output:
	// navigation canceled
	// RUNNING bt: the tree was stopped IDLE
}
