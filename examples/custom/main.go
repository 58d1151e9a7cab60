// Custom registers nodes written in Go — in each of the ways bt offers — and runs the
// tree of custom.xml, which is embedded in the program, with them:
//
//	IsBatteryOK  a plain function (NewCondition) reading two input ports
//	Charge       a stateful action (NewStateful): OnStart, OnRunning, OnHalted
//	PlanRoute    an asynchronous action (NewAsync): a goroutine under a context
//	FollowRoute  a struct whose tagged fields are its ports (ModelOf), one leg per tick,
//	             told by OnStart when it starts a route
//	Deliver      a plain function (NewAction)
//
// Between ticks the program reads the blackboard, as a game loop would, to report
// where the robot is.
//
//	go run ./examples/custom            run the errand
//	go run ./examples/custom -models    print the TreeNodesModel of the custom nodes
//	                                    (for Groot2, or for bt check -models)
package main

import (
	"context"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
)

//go:embed custom.xml
var errandXML string

func main() {
	models := flag.Bool("models", false, "print the TreeNodesModel XML of the custom nodes and exit")
	flag.Parse()
	var err error
	if *models {
		err = writeModels(os.Stdout)
	} else {
		err = run(os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// nodes returns the custom node types; they report to out.
func nodes(out io.Writer) []*bt.Model {
	return []*bt.Model{
		bt.NewCondition("IsBatteryOK", func(n *bt.Node) (bool, error) {
			level, err := bt.Get[int](n, "level")
			if err != nil {
				return false, err
			}
			least, err := bt.Get[int](n, "min")
			if err != nil {
				return false, err
			}
			fmt.Fprintf(out, "IsBatteryOK: %d%%, at least %d%% wanted\n", level, least)
			return level >= least, nil
		},
			bt.InputPort[int]("level", "the battery level, in percent"),
			bt.InputPort[int]("min", "the lowest level that is fine").WithDefault("30"),
		),
		bt.NewStateful("Charge", func() bt.StatefulAction { return &charger{out: out} },
			bt.InOutPort[int]("level", "the battery level, in percent"),
			bt.InputPort[int]("until", "the level to charge to").WithDefault("100"),
		),
		bt.NewAsync("PlanRoute", func(ctx context.Context, n *bt.Node) (bt.Status, error) {
			to, err := bt.Get[string](n, "to")
			if err != nil {
				return bt.Failure, err
			}
			fmt.Fprintf(out, "PlanRoute: planning a route to the %s, in the background\n", to)
			route := []string{"dock", "hall", "corridor", to}
			if ctx.Err() != nil { // halted: give up
				return bt.Failure, nil
			}
			return bt.Success, bt.Set(n, "route", route)
		},
			bt.InputPort[string]("to", "where to go"),
			bt.OutputPort[[]string]("route", "the places to pass, from here to there"),
		),
		bt.ModelOf[FollowRoute]("FollowRoute", bt.KindAction),
		bt.NewAction("Deliver", func(n *bt.Node) (bt.Status, error) {
			parcel, err := bt.Get[string](n, "parcel")
			if err != nil {
				return bt.Failure, err
			}
			at, err := bt.Get[string](n, "at")
			if err != nil {
				return bt.Failure, err
			}
			fmt.Fprintf(out, "Deliver: %s delivered in the %s\n", parcel, at)
			return bt.Success, nil
		},
			bt.InputPort[string]("parcel", "what to deliver"),
			bt.InputPort[string]("at", "where the robot is"),
		),
	}
}

// charger is the stateful Charge action: it knows when charging starts, goes on and
// is interrupted.
type charger struct {
	out io.Writer
}

func (c *charger) OnStart(n *bt.Node) bt.Status {
	level, err := bt.Get[int](n, "level")
	if err != nil {
		n.Abort(err)
	}
	fmt.Fprintf(c.out, "Charge: plugged in at %d%%\n", level)
	return bt.Running
}

// OnRunning charges 20% per tick.
func (c *charger) OnRunning(n *bt.Node) bt.Status {
	level, err := bt.Get[int](n, "level")
	if err == nil {
		err = bt.Set(n, "level", level+20)
	}
	until, err2 := bt.Get[int](n, "until")
	if err := errors.Join(err, err2); err != nil {
		n.Abort(err)
	}
	fmt.Fprintf(c.out, "Charge: %d%%\n", level+20)
	if level+20 < until {
		return bt.Running
	}
	return bt.Success
}

func (c *charger) OnHalted(*bt.Node) { fmt.Fprintln(c.out, "Charge: unplugged early") }

// FollowRoute drives along a route, one leg per tick; each leg costs 5% of battery.
// Its ports are its tagged fields.
type FollowRoute struct {
	Route   bt.In[[]string] `port:"route" help:"the places to pass"`
	At      bt.Out[string]  `port:"at" help:"where the robot is"`
	Battery bt.InOut[int]   `port:"battery" help:"the battery level, in percent"`

	leg int // the place reached, an index in the route
}

// OnStart is called instead of Tick when the node starts afresh: the route begins at
// its first place.
func (f *FollowRoute) OnStart(n *bt.Node) bt.Status {
	f.leg = 0
	return f.Tick(n)
}

func (f *FollowRoute) Tick(n *bt.Node) bt.Status {
	route, err := f.Route.Get()
	if err != nil {
		n.Abort(err)
	}
	f.leg++
	if f.leg >= len(route) {
		return bt.Success
	}
	level, err := f.Battery.Get()
	if err == nil {
		err = errors.Join(f.Battery.Set(level-5), f.At.Set(route[f.leg]))
	}
	if err != nil {
		n.Abort(err)
	}
	if f.leg == len(route)-1 {
		return bt.Success
	}
	return bt.Running
}

// run runs the errand, printing what the robot does.
func run(out io.Writer) error {
	f := bt.NewFactory()
	if err := f.Register(nodes(out)...); err != nil {
		return err
	}
	if err := f.LoadString("custom.xml", errandXML); err != nil {
		return err
	}
	tree, err := f.NewTree("")
	if err != nil {
		return err
	}
	bb := tree.Blackboard()
	if err := errors.Join(
		blackboard.Put(bb.Entry("battery"), 20),
		blackboard.Put(bb.Entry("goal"), "kitchen"),
	); err != nil {
		return err
	}
	position := bb.Entry("position")
	last := ""
	for {
		status, err := tree.TickOnce()
		if err != nil {
			return err
		}
		if at, err := blackboard.Get[string](position); err == nil && at != last {
			fmt.Fprintf(out, "(after the tick, the robot is in the %s)\n", at)
			last = at
		}
		if status != bt.Running {
			battery, _ := blackboard.Get[int](bb.Entry("battery"))
			fmt.Fprintf(out, "%s, battery at %d%%\n", status, battery)
			return nil
		}
		// Wait for the next tick; PlanRoute's goroutine wakes the tree up when done.
		if _, err := tree.Sleep(context.Background(), 10*time.Millisecond); err != nil {
			return err
		}
	}
}

// writeModels writes the TreeNodesModel of the custom nodes.
func writeModels(out io.Writer) error {
	f := bt.NewFactory()
	if err := f.Register(nodes(out)...); err != nil {
		return err
	}
	return f.WriteModels(out, false)
}
