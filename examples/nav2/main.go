// Nav2 runs navigate.xml, a navigation tree written for Nav2 (the ROS 2 navigation
// stack), in Go without Nav2: two of its nodes are written here, and the others are
// stand-ins made from their TreeNodesModel (nav2_models.xml) and dry-run by
// Factory.SubstituteStandIns.
//
//	ComputePathToPose  a plain function (NewAction) that "plans" a fixed path
//	FollowPath         a struct whose tagged fields are its ports (ModelOf), with an
//	                   OnStart method that is told each time the node starts afresh
//	RecoveryNode, RoundRobin  replaced by Fallbacks (substitution rules)
//	the others         replaced by TestNodes that succeed, and RateController by a
//	                   decorator that passes its child's status
//
//	go run ./examples/nav2
package main

import (
	"context"
	_ "embed"
	"fmt"
	"os"

	"github.com/gobt/bt"
	"github.com/gobt/bt/btxml"
)

//go:embed navigate.xml
var navigateXML string

//go:embed nav2_models.xml
var modelsXML string

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// FollowPath drives to the next waypoint of its path on every tick.
type FollowPath struct {
	Path       bt.In[[]string] `port:"path" help:"the waypoints to pass"`
	Controller bt.In[string]   `port:"controller_id" help:"the controller plugin to use"`

	next int // the waypoint to drive to
}

// OnStart is called instead of Tick when the node starts: on its first tick, and on
// the first after it completed or was halted.
func (f *FollowPath) OnStart(n *bt.Node) bt.Status {
	controller, _ := f.Controller.Get()
	fmt.Printf("FollowPath: starting with controller %s\n", controller)
	f.next = 0
	return f.Tick(n)
}

func (f *FollowPath) Tick(n *bt.Node) bt.Status {
	path, err := f.Path.Get()
	if err != nil {
		n.Abort(err)
	}
	fmt.Printf("FollowPath: at the %s\n", path[f.next])
	f.next++
	if f.next < len(path) {
		return bt.Running
	}
	return bt.Success
}

// run navigates, printing what the robot does.
func run() error {
	f := bt.NewFactory()
	follow := bt.ModelOf[FollowPath]("FollowPath", bt.KindAction)
	plan := bt.NewAction("ComputePathToPose", func(n *bt.Node) (bt.Status, error) {
		fmt.Println("ComputePathToPose: dock, hall, kitchen")
		return bt.Success, bt.Set(n, "path", []string{"dock", "hall", "kitchen"})
	},
		bt.InputPort[any]("goal", "where to go"),
		bt.OutputPort[[]string]("path", "the path planned to the goal"),
		bt.InputPort[string]("planner_id", "the planner plugin to use"),
	)
	if err := f.Register(plan, follow); err != nil {
		return err
	}
	models, err := btxml.Parse("nav2_models.xml", []byte(modelsXML))
	if err != nil {
		return err
	}
	// Stand-ins for the nodes not registered above; the controls that matter get
	// builtin counterparts, and everything else a mock.
	if err := f.RegisterStandIns(models.Models); err != nil {
		return err
	}
	f.Substitute("RecoveryNode", "Fallback")
	f.Substitute("RoundRobin", "Fallback")
	if err := f.SubstituteStandIns(bt.TestNodeConfig{ReturnStatus: bt.Success}); err != nil {
		return err
	}
	if err := f.LoadString("navigate.xml", navigateXML); err != nil {
		return err
	}
	tree, err := f.NewTree("")
	if err != nil {
		return err
	}
	tree.Subscribe(func(ev bt.StatusChange) { // what each node did, as it happened
		if ev.Status != bt.Idle {
			fmt.Printf("  %s (%s): %s\n", ev.Node.Name(), ev.Node.ID(), ev.Status)
		}
	})
	status, err := tree.TickWhileRunning(context.Background(), 0)
	fmt.Println(status)
	return err
}
