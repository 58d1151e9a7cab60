//go:build btcpp_pending

// Waits for issue 30 item 24 (bt.LoopOf[T], the reference's LoopNode<T>, registered as
// LoopPose). The console logger's enableTransitionToIdle(false) (item 20) is a Filter
// of btlog.Console today.

package btcpp_test

// Tutorial 18 (t18_waypoints.cpp): looping over a queue, with LoopDouble and with a
// loop over a type of one's own, a queue of waypoints.
//
// The reference has no "Expected output" comment; the output below is what its code
// prints, interleaved with its StdCoutLogger's lines, which here are btlog.Console's
// without the transitions to IDLE. The reference's logger prints the time as seconds
// since the Unix epoch and colours the statuses; here the times count from when the
// logger attached, on a manual clock: 10 ms between ticks (tickWhileRunning's sleep)
// and 100 ms for UseWaypoint's work, as in the reference. UseWaypoint is a
// ThreadedAction, an asynchronous action (bt.NewAsync) here, which waits those 100 ms
// on the tree's clock.
//
// bt's loggers write in a goroutine of their own, so that a tick never waits for I/O,
// where StdCoutLogger prints as each change is made: a node whose own output must come
// in its place among the log's lines hands the log what the tick changed so far
// (Tree.Flush) and waits for it to be written (the logger's Flush) before it prints,
// and so does the tick loop below before it lets time pass.

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/gobt/bt"
	"github.com/gobt/bt/btlog"
	"github.com/gobt/bt/bttest"
)

// t18Log is the tutorial's logger, which PrintNumber flushes before it prints.
var t18Log *btlog.Console

// GenerateWaypoints writes a queue of five poses.
type GenerateWaypoints struct {
	Waypoints bt.Out[[]Pose2D] `port:"waypoints"`
}

func (g *GenerateWaypoints) Tick(n *bt.Node) bt.Status {
	var queue []Pose2D
	for i := range 5 {
		queue = append(queue, Pose2D{X: float64(i), Y: float64(i)})
	}
	if err := g.Waypoints.Set(queue); err != nil {
		n.Abort(err)
		return bt.Failure
	}
	return bt.Success
}

// PrintDouble is the tutorial's PrintNumber (tutorial 16 has another PrintNumber):
// it prints its input "value", a float64.
type PrintDouble struct {
	Value bt.In[float64] `port:"value"`
}

func (p *PrintDouble) Tick(n *bt.Node) bt.Status {
	value, err := p.Value.Get()
	if err != nil {
		return bt.Failure
	}
	n.Tree().Flush()
	must(t18Log.Flush())
	fmt.Println("PrintNumber:", value)
	return bt.Success
}

// NewUseWaypoint returns the UseWaypoint node type, an asynchronous action whose work
// takes 100 ms of clock.
func NewUseWaypoint(clock bt.Clock) *bt.Model {
	return bt.NewAsync("UseWaypoint", func(ctx context.Context, n *bt.Node) (bt.Status, error) {
		wp, err := bt.Get[Pose2D](n, "waypoint")
		if err != nil {
			return bt.Failure, nil
		}
		done := make(chan struct{})
		timer := clock.AfterFunc(100*time.Millisecond, func() { close(done) })
		select {
		case <-done:
		case <-ctx.Done():
			timer.Stop()
			return bt.Failure, nil
		}
		fmt.Printf("Using waypoint: %v/%v\n", wp.X, wp.Y)
		return bt.Success, nil
	}, bt.InputPort[Pose2D]("waypoint", ""))
}

const t18XML = `
 <root BTCPP_format="4" >
     <BehaviorTree ID="TreeA">
        <Sequence>
            <LoopDouble queue="1;2;3"  value="{number}">
              <PrintNumber value="{number}" />
            </LoopDouble>

            <GenerateWaypoints waypoints="{waypoints}" />
            <LoopPose queue="{waypoints}"  value="{wp}">
              <UseWaypoint waypoint="{wp}" />
            </LoopPose>
        </Sequence>
     </BehaviorTree>
 </root>
`

func Example_t18Waypoints() {
	clock := bttest.NewClock(time.Time{})
	factory := bt.NewFactory()
	must(factory.Register(
		// API: bt.LoopOf[T any](id string) *bt.Model (issue 30 item 24), the
		// reference's registerNodeType<LoopNode<Pose2D>>("LoopPose").
		bt.LoopOf[Pose2D]("LoopPose"),
		NewUseWaypoint(clock),
		bt.ModelOf[PrintDouble]("PrintNumber", bt.KindAction),
		bt.ModelOf[GenerateWaypoints]("GenerateWaypoints", bt.KindAction),
	))
	must(factory.LoadString("t18.xml", t18XML))
	tree, err := factory.NewTree("", bt.WithClock(clock))
	must(err)

	t18Log, err = btlog.NewConsole(tree, os.Stdout, &btlog.ConsoleOptions{
		// StdCoutLogger's enableTransitionToIdle(false).
		Filter: func(n *btlog.NodeInfo, prev, status bt.Status) bool { return status != bt.Idle },
	})
	must(err)
	defer t18Log.Close()

	// tickWhileRunning, on the manual clock.
	for {
		status, err := tree.TickOnce()
		must(err)
		must(t18Log.Flush())
		if status != bt.Running {
			break
		}
		if waiting := t18Working(tree); waiting {
			// UseWaypoint works 100 ms in its goroutine, then wakes the tree up.
			clock.Advance(100 * time.Millisecond)
			_, err = tree.Sleep(context.Background(), time.Hour)
			must(err)
		} else {
			clock.Advance(10 * time.Millisecond)
		}
	}

	// Output:
	// [0.000]: Sequence                  IDLE -> RUNNING
	// [0.000]: LoopDouble                IDLE -> RUNNING
	// PrintNumber: 1
	// [0.000]: PrintNumber               IDLE -> SUCCESS
	// PrintNumber: 2
	// [0.010]: PrintNumber               IDLE -> SUCCESS
	// PrintNumber: 3
	// [0.020]: PrintNumber               IDLE -> SUCCESS
	// [0.030]: LoopDouble                RUNNING -> SUCCESS
	// [0.030]: GenerateWaypoints         IDLE -> SUCCESS
	// [0.030]: LoopPose                  IDLE -> RUNNING
	// [0.030]: UseWaypoint               IDLE -> RUNNING
	// Using waypoint: 0/0
	// [0.130]: UseWaypoint               RUNNING -> SUCCESS
	// [0.140]: UseWaypoint               IDLE -> RUNNING
	// Using waypoint: 1/1
	// [0.240]: UseWaypoint               RUNNING -> SUCCESS
	// [0.250]: UseWaypoint               IDLE -> RUNNING
	// Using waypoint: 2/2
	// [0.350]: UseWaypoint               RUNNING -> SUCCESS
	// [0.360]: UseWaypoint               IDLE -> RUNNING
	// Using waypoint: 3/3
	// [0.460]: UseWaypoint               RUNNING -> SUCCESS
	// [0.470]: UseWaypoint               IDLE -> RUNNING
	// Using waypoint: 4/4
	// [0.570]: UseWaypoint               RUNNING -> SUCCESS
	// [0.580]: LoopPose                  RUNNING -> SUCCESS
	// [0.580]: Sequence                  RUNNING -> SUCCESS
}

// t18Working reports whether UseWaypoint's work is under way.
func t18Working(tree *bt.Tree) bool {
	for n := range tree.Nodes() {
		if n.ID() == "UseWaypoint" && n.Status() == bt.Running {
			return true
		}
	}
	return false
}
