package bt_test

import (
	"testing"

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
