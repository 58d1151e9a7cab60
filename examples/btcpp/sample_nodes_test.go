package btcpp_test

// The nodes of BehaviorTree.CPP's sample_nodes/ folder (dummy_nodes, movebase_node and
// crossdoor_nodes), which several tutorials share, as a user would write them with bt.

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

// CheckBattery is dummy_nodes' CheckBattery, registered as a simple condition.
func CheckBattery() bool {
	fmt.Println("[ Battery: OK ]")
	return true
}

// CheckTemperature is dummy_nodes' CheckTemperature.
func CheckTemperature() bool {
	fmt.Println("[ Temperature: OK ]")
	return true
}

// SayHello is dummy_nodes' SayHello.
func SayHello() bt.Status {
	fmt.Println("Robot says: Hello World")
	return bt.Success
}

// GripperInterface is dummy_nodes' GripperInterface: its methods are registered as
// simple actions (the C++ binds them with std::bind, Go with method values).
type GripperInterface struct {
	opened bool
}

func (g *GripperInterface) Open() bt.Status {
	g.opened = true
	fmt.Println("GripperInterface::open")
	return bt.Success
}

func (g *GripperInterface) Close() bt.Status {
	fmt.Println("GripperInterface::close")
	g.opened = false
	return bt.Success
}

// ApproachObject is a node type of its own without ports (a SyncActionNode subclass in
// the reference): a struct whose pointer implements bt.Behavior.
type ApproachObject struct{}

func (*ApproachObject) Tick(n *bt.Node) bt.Status {
	fmt.Println("ApproachObject:", n.Name())
	return bt.Success
}

// SaySomething prints its input port "message" (a SyncActionNode with providedPorts in
// the reference; a struct with a port field here).
type SaySomething struct {
	Message bt.In[string] `port:"message"`
}

func (s *SaySomething) Tick(n *bt.Node) bt.Status {
	msg, err := s.Message.Get()
	if err != nil {
		n.Abort(fmt.Errorf("missing required input [message]: %w", err))
		return bt.Failure
	}
	fmt.Println("Robot says:", msg)
	return bt.Success
}

// SaySomethingSimple is the same as SaySomething for a simple action, whose ports are
// given when it is registered (bt.NewAction's ports, the reference's PortsList).
func SaySomethingSimple(n *bt.Node) (bt.Status, error) {
	msg, err := bt.Get[string](n, "message")
	if err != nil {
		return bt.Failure, fmt.Errorf("missing required input [message]: %w", err)
	}
	fmt.Println("Robot says:", msg)
	return bt.Success, nil
}

// RegisterNodes is DummyNodes::RegisterNodes (what the plugin registers).
func RegisterNodes(f *bt.Factory) error {
	grip := &GripperInterface{}
	return f.Register(
		bt.NewCondition("CheckBattery", CheckBattery),
		bt.NewCondition("CheckTemperature", CheckTemperature),
		bt.NewAction("SayHello", SayHello),
		bt.NewAction("OpenGripper", grip.Open),
		bt.NewAction("CloseGripper", grip.Close),
		bt.ModelOf[ApproachObject]("ApproachObject", bt.KindAction),
		bt.ModelOf[SaySomething]("SaySomething", bt.KindAction),
	)
}

// Pose2D is movebase_node's custom type. UnmarshalText is the reference's
// convertFromString<Pose2D>: three numbers separated by semicolons.
type Pose2D struct {
	X, Y, Theta float64
}

func (p *Pose2D) UnmarshalText(text []byte) error {
	parts := strings.Split(string(text), ";")
	if len(parts) != 3 {
		return fmt.Errorf("invalid input %q: want x;y;theta", text)
	}
	var err error
	for i, f := range []*float64{&p.X, &p.Y, &p.Theta} {
		if *f, err = strconv.ParseFloat(strings.TrimSpace(parts[i]), 64); err != nil {
			return err
		}
	}
	return nil
}

// MoveBase is movebase_node's MoveBaseAction, a StatefulActionNode: it pretends to
// reach its goal 220 ms after it started. It reads the time from the tree's clock, so
// that the tutorials run on a manual clock instead of sleeping (the reference's
// onRunning also sleeps 10 ms, which tickWhileRunning's period stands for here).
type MoveBase struct {
	goal       Pose2D
	completion time.Time
}

func NewMoveBase() bt.StatefulAction { return &MoveBase{} }

func (m *MoveBase) OnStart(n *bt.Node) bt.Status {
	goal, err := bt.Get[Pose2D](n, "goal")
	if err != nil {
		n.Abort(fmt.Errorf("missing required input [goal]: %w", err))
		return bt.Failure
	}
	m.goal = goal
	fmt.Printf("[ MoveBase: SEND REQUEST ]. goal: x=%.1f y=%.1f theta=%.1f\n", goal.X, goal.Y, goal.Theta)
	m.completion = n.Tree().Clock().Now().Add(220 * time.Millisecond)
	return bt.Running
}

func (m *MoveBase) OnRunning(n *bt.Node) bt.Status {
	if !n.Tree().Clock().Now().Before(m.completion) {
		fmt.Println("[ MoveBase: FINISHED ]")
		return bt.Success
	}
	return bt.Running
}

func (m *MoveBase) OnHalted(n *bt.Node) {
	fmt.Print("[ MoveBase: ABORTED ]")
}

// MoveBaseModel is the MoveBase node type, with its port.
var MoveBaseModel = bt.NewStateful("MoveBase", NewMoveBase, bt.InputPort[Pose2D]("goal", ""))

// CrossDoor is crossdoor_nodes' CrossDoor: a door that is closed and locked, which a
// robot opens, picks or smashes. The reference's nodes sleep 200 to 500 ms each to look
// busy; nothing depends on it, so these do not.
type CrossDoor struct {
	doorOpen     bool
	doorLocked   bool
	pickAttempts int
}

func NewCrossDoor() *CrossDoor { return &CrossDoor{doorLocked: true} }

func (c *CrossDoor) IsDoorClosed() bool    { return !c.doorOpen }
func (c *CrossDoor) PassThroughDoor() bool { return c.doorOpen }
func (c *CrossDoor) OpenDoor() bool {
	if c.doorLocked {
		return false
	}
	c.doorOpen = true
	return true
}

// PickLock succeeds at the fifth attempt (the reference says "3rd", but its counter
// only unlocks once it was above 3 before the attempt).
func (c *CrossDoor) PickLock() bool {
	if c.pickAttempts > 3 {
		c.doorLocked = false
		c.doorOpen = true
	}
	c.pickAttempts++
	return c.doorOpen
}

func (c *CrossDoor) SmashDoor() bool {
	c.doorLocked = false
	c.doorOpen = true
	return true
}

func (c *CrossDoor) Reset() {
	*c = CrossDoor{doorLocked: true}
}

// RegisterNodes registers the door's nodes, bound to c. The reference registers
// PassThroughDoor, OpenDoor and PickLock as actions and SmashDoor as a condition.
func (c *CrossDoor) RegisterNodes(f *bt.Factory) error {
	status := func(fn func() bool) func() bt.Status {
		return func() bt.Status {
			if fn() {
				return bt.Success
			}
			return bt.Failure
		}
	}
	return f.Register(
		bt.NewCondition("IsDoorClosed", c.IsDoorClosed),
		bt.NewAction("PassThroughDoor", status(c.PassThroughDoor)),
		bt.NewAction("OpenDoor", status(c.OpenDoor)),
		bt.NewAction("PickLock", status(c.PickLock)),
		bt.NewCondition("SmashDoor", c.SmashDoor),
	)
}

// Position2D is tutorial 3's custom type (tutorial 11 uses it too).
type Position2D struct {
	X, Y float64
}

// UnmarshalText reads two numbers separated by a semicolon, as the reference's
// convertFromString<Position2D> does, and says so.
func (p *Position2D) UnmarshalText(text []byte) error {
	fmt.Printf("Converting string: %q\n", text)
	parts := strings.Split(string(text), ";")
	if len(parts) != 2 {
		return fmt.Errorf("invalid input %q", text)
	}
	var err error
	if p.X, err = strconv.ParseFloat(parts[0], 64); err != nil {
		return err
	}
	p.Y, err = strconv.ParseFloat(parts[1], 64)
	return err
}

// tickWhileRunning is Tree.TickWhileRunning for a tree on a manual clock: it ticks
// until the root completes, moving the clock on by period where the reference sleeps
// between ticks, so the tutorials that wait do not.
func tickWhileRunning(tree *bt.Tree, clock *bttest.Clock, period time.Duration) (bt.Status, error) {
	for {
		s, err := tree.TickOnce()
		if err != nil || s != bt.Running {
			return s, err
		}
		clock.Advance(period)
	}
}

// must stops the example on an error: the reference's tutorials throw.
func must(err error) {
	if err != nil {
		panic(err)
	}
}

// captureStdout returns what f prints to os.Stdout, for the tutorials whose output an
// Example cannot state (two blank lines in a row, which an "Output:" comment collapses).
func captureStdout(t *testing.T, f func()) (out string) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = w
	done := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		r.Close()
		done <- string(b)
	}()
	defer func() {
		p := recover()
		os.Stdout = stdout
		w.Close()
		out = <-done
		if p != nil {
			t.Fatalf("%v\noutput so far:\n%s", p, out)
		}
	}()
	f()
	return ""
}
