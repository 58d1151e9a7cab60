package bt_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
	"github.com/gobt/bt/bttest"
)

func TestLoopQueue(t *testing.T) {
	sum := func(r *bttest.Recorder) *Spec { return Sequence(r.Leaf("A", "S"), Script("sum := sum + v")) }
	start := bttest.Assign("sum", blackboard.Int(0))
	bttest.Run(t, []bttest.Case{
		{Name: "one element per tick, then if_empty", Tree: func(r *bttest.Recorder) *Spec { return LoopInt("1;2;3", "{v}", sum(r)) },
			Steps: []bttest.Step{
				bttest.Tick(Running, "A:S", "R I I I").First(start).Then(bttest.EntryIs("v", "1")),
				bttest.Tick(Running, "A:S", "").Then(bttest.EntryIs("v", "2")),
				bttest.Tick(Running, "A:S", "").Then(bttest.EntryIs("sum", "6")),
				bttest.Tick(Success, "", "I I I I"),
				bttest.Tick(Running, "A:S", "").Then(bttest.EntryIs("v", "1")), // a new activation copies the text afresh
			}},
		{Name: "child running: nothing popped", Tree: func(r *bttest.Recorder) *Spec { return LoopInt("1;2", "{v}", r.Leaf("A", "R S R S")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R").Then(bttest.EntryIs("v", "1")), bttest.Tick(Running, "A:S", "R I").Then(bttest.EntryIs("v", "1")),
				bttest.Tick(Running, "A:R", "R R").Then(bttest.EntryIs("v", "2")), bttest.Tick(Running, "A:S", "R I"), bttest.Tick(Success, "", "I I")}},
		{Name: "child failure: failure", Tree: func(r *bttest.Recorder) *Spec { return LoopInt("1;2;3", "{v}", r.Leaf("A", "S F")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:S", "R I"), bttest.Tick(Failure, "A:F", "I I").Then(bttest.EntryIs("v", "2"))}},
		{Name: "child skipped: running", Tree: func(r *bttest.Recorder) *Spec { return LoopInt("1", "{v}", r.Leaf("A", "K")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:K", "R I"), bttest.Tick(Success, "", "I I")}},
		{Name: "empty queue: if_empty", Tree: func(r *bttest.Recorder) *Spec {
			return LoopInt("", "{v}", r.Leaf("A", "S")).With("if_empty", "SKIPPED")
		}, Steps: []bttest.Step{bttest.Tick(Skipped, "", "I I")}},
		{Name: "if_empty FAILURE", Tree: func(r *bttest.Recorder) *Spec {
			return LoopString("x", "{v}", r.Leaf("A", "S")).With("if_empty", "FAILURE")
		}, Steps: []bttest.Step{bttest.Tick(Running, "A:S", "R I").Then(bttest.EntryIs("v", "x")), bttest.Tick(Failure, "", "I I")}},
		{Name: "halt: the next activation starts over", Tree: func(r *bttest.Recorder) *Spec { return LoopInt("1;2", "{v}", r.Leaf("A", "R")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Halt("A:halt", "I I"), bttest.Tick(Running, "A:R", "R R").Then(bttest.EntryIs("v", "1"))}},
		{Name: "a slice entry is consumed in place", Tree: func(r *bttest.Recorder) *Spec { return LoopInt("{q}", "{v}", r.Leaf("A", "S F")) },
			Steps: []bttest.Step{
				bttest.Tick(Running, "A:S", "").First(func(t *testing.T, tree *Tree) {
					if err := tree.Blackboard().Entry("q").Set(blackboard.ValueOf([]int{4, 5, 6})); err != nil {
						t.Fatal(err)
					}
				}).Then(bttest.EntryIs("q", "[5 6]")),
				bttest.Tick(Failure, "A:F", "").Then(func(t *testing.T, tree *Tree) {
					q, err := blackboard.Get[[]int](tree.Blackboard().Entry("q"))
					if err != nil || len(q) != 1 || q[0] != 6 {
						t.Errorf("queue %v, %v; want [6]", q, err)
					}
				}),
			}},
		{Name: "a text entry is read once per activation", Tree: func(r *bttest.Recorder) *Spec {
			return LoopDouble("{q}", "{v}", r.Leaf("A", "S"))
		}, Steps: []bttest.Step{
			bttest.Tick(Running, "A:S", "").First(bttest.Assign("q", blackboard.String("0.5;1.5"))).Then(bttest.EntryIs("v", "0.5")),
			bttest.Tick(Running, "A:S", "").First(bttest.Assign("q", blackboard.String("9"))).Then(bttest.EntryIs("v", "1.5")),
			bttest.Tick(Success, "", "").Then(bttest.EntryIs("q", "9")),
		}},
		{Name: "an empty entry is an empty queue", Tree: func(r *bttest.Recorder) *Spec { return LoopBool("{q}", "{v}", r.Leaf("A", "S")) },
			Steps: []bttest.Step{bttest.Tick(Success, "", "I I")}},
		{Name: "LoopBool", Tree: func(r *bttest.Recorder) *Spec { return LoopBool("true;0", "{v}", r.Leaf("A", "S")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:S", "").Then(bttest.EntryIs("v", "true")), bttest.Tick(Running, "A:S", "").Then(bttest.EntryIs("v", "false"))}},
	})
	tickError(t, LoopInt("1;x", "{v}", AlwaysSuccess()), `port "queue"`)
	tickError(t, Sequence(Script("q := 3"), LoopInt("{q}", "{v}", AlwaysSuccess())), `holds a int64, not a []int`)
	tickError(t, LoopInt("", "{v}", AlwaysSuccess()).With("if_empty", "IDLE"), `SUCCESS, FAILURE or SKIPPED`)
}

// pose2D is tutorial 18's Pose2D, with a text form "x,y,theta".
type pose2D struct{ X, Y, Theta float64 }

func (p *pose2D) UnmarshalText(b []byte) error {
	_, err := fmt.Sscanf(string(b), "%g,%g,%g", &p.X, &p.Y, &p.Theta)
	return err
}

// TestLoopOf: a loop over a user's type (BehaviorTree.CPP's LoopNode<Pose2D>
// registered as LoopPose, tutorial 18) consumes a []pose2D entry in place, reads text
// through the type's UnmarshalText, and makes LoopInt's statuses and changes.
func TestLoopOf(t *testing.T) {
	var used []pose2D
	f := NewFactory()
	generate := NewAction("GenerateWaypoints", func(n *Node) (Status, error) {
		var q []pose2D
		for i := range 3 {
			q = append(q, pose2D{float64(i), float64(i), 0})
		}
		return Success, Set(n, "waypoints", q)
	}, OutputPort[[]pose2D]("waypoints", ""))
	use := NewAction("UseWaypoint", func(n *Node) (Status, error) {
		wp, err := Get[pose2D](n, "waypoint")
		used = append(used, wp)
		return Success, err
	}, InputPort[pose2D]("waypoint", ""))
	if err := f.Register(generate, use, LoopOf[pose2D]("LoopPose")); err != nil {
		t.Fatal(err)
	}
	err := f.LoadString("t18.xml", `<root BTCPP_format="4">
	  <BehaviorTree ID="Entry">
	    <Sequence>
	      <GenerateWaypoints waypoints="{waypoints}"/>
	      <LoopPose queue="{waypoints}" value="{wp}"><UseWaypoint waypoint="{wp}"/></LoopPose>
	    </Sequence>
	  </BehaviorTree>
	  <BehaviorTree ID="Text">
	    <LoopPose queue="1,2,0.5;3,4,1" value="{wp}" if_empty="FAILURE"><UseWaypoint waypoint="{wp}"/></LoopPose>
	  </BehaviorTree>
	</root>`)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := f.NewTree("Entry")
	if err != nil {
		t.Fatal(err)
	}
	var statuses []Status
	for range 4 {
		s, err := tree.TickOnce()
		if err != nil {
			t.Fatal(err)
		}
		statuses = append(statuses, s)
	}
	if want := []Status{Running, Running, Running, Success}; !slices.Equal(statuses, want) {
		t.Errorf("statuses %v, want %v", statuses, want)
	}
	if want := []pose2D{{0, 0, 0}, {1, 1, 0}, {2, 2, 0}}; !slices.Equal(used, want) {
		t.Errorf("used %v, want %v", used, want)
	}
	if q, err := blackboard.Get[[]pose2D](tree.Blackboard().Entry("waypoints")); err != nil || len(q) != 0 {
		t.Errorf("the queue entry holds %v %v, want it consumed", q, err)
	}

	used = nil
	text, err := f.NewTree("Text")
	if err != nil {
		t.Fatal(err)
	}
	statuses = statuses[:0]
	for range 3 {
		s, _ := text.TickOnce()
		statuses = append(statuses, s)
	}
	if want := []Status{Running, Running, Failure}; !slices.Equal(statuses, want) {
		t.Errorf("text queue: statuses %v, want %v", statuses, want)
	}
	if want := []pose2D{{1, 2, 0.5}, {3, 4, 1}}; !slices.Equal(used, want) {
		t.Errorf("text queue: used %v, want %v", used, want)
	}

	var models strings.Builder
	if err := f.WriteModels(&models, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(models.String(), `<Decorator ID="LoopPose">`) {
		t.Errorf("WriteModels leaves out LoopPose:\n%s", models.String())
	}
}

// TestLoopOfTransitions: LoopOf[int] makes the changes LoopInt makes, in its order.
func TestLoopOfTransitions(t *testing.T) {
	run := func(m *Model) string {
		clock := bttest.NewClock(epoch)
		tree, err := NewTree(Sequence(
			m.Spec(TestNode(TestNodeConfig{AsyncDelay: 50 * time.Millisecond}).Named("work")).
				Named("loop").With("queue", "1;2;3").With("value", "{v}"),
			m.Spec(AlwaysFailure()).Named("loop2").With("queue", "4;5").With("value", "{v}")),
			WithClock(clock))
		if err != nil {
			t.Fatal(err)
		}
		return bttest.RunTrace(t, tree, clock, 50*time.Millisecond, 20)
	}
	want := run(builtin("LoopInt"))
	if got := run(LoopOf[int]("MyLoop")); got != want {
		t.Errorf("LoopOf[int]:\n%s\nLoopInt:\n%s", got, want)
	}
	if !strings.Contains(want, "loop2: RUNNING -> FAILURE") {
		t.Errorf("the trace does not reach the second loop's failure:\n%s", want)
	}
}
