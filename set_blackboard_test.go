package bt_test

import (
	"testing"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
	"github.com/gobt/bt/bttest"
)

func TestSetBlackboard(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "a literal is stored as text", Tree: func(*bttest.Recorder) *Spec { return SetBlackboard("greeting", "42") },
			Steps: []bttest.Step{bttest.Tick(Success, "", "I").Then(func(t *testing.T, tree *Tree) {
				if v := tree.Blackboard().Entry("greeting").Load(); v.Kind() != blackboard.KindString || v.Str() != "42" {
					t.Errorf("greeting = %#v", v)
				}
			})}},
		{Name: "{src} copies value and type", Tree: func(*bttest.Recorder) *Spec {
			return Sequence(Script("src := 41"), SetBlackboard("copy", "{src}"), Script("copy += 1"))
		}, Steps: []bttest.Step{bttest.Tick(Success, "", "").Then(bttest.EntryIs("copy", "42"))}},
		{Name: "text into a typed entry is converted", Tree: func(*bttest.Recorder) *Spec { return SetBlackboard("n", "7") },
			Steps: []bttest.Step{bttest.Tick(Success, "", "").First(func(t *testing.T, tree *Tree) {
				if err := blackboard.Put(tree.Blackboard().Entry("n"), 3); err != nil {
					t.Fatal(err)
				}
			}).Then(func(t *testing.T, tree *Tree) {
				if v := tree.Blackboard().Entry("n").Load(); v.Kind() != blackboard.KindInt || v.Int() != 7 {
					t.Errorf("n = %#v", v)
				}
			})}},
		{Name: "an empty source: failure", Tree: func(*bttest.Recorder) *Spec {
			return Sequence(SetBlackboard("dst", "{src}"))
		}, Steps: []bttest.Step{bttest.Tick(Failure, "", "").First(func(t *testing.T, tree *Tree) {
			if err := tree.Blackboard().Entry("src").Declare(nil); err != nil {
				t.Fatal(err)
			}
		}).Then(bttest.EntryIs("dst", ""))}},
		{Name: "a source nothing wrote: failure, and a Fallback goes on", Tree: func(*bttest.Recorder) *Spec {
			return Fallback(SetBlackboard("dst", "{never}"), Script("next := 1"))
		}, Steps: []bttest.Step{bttest.Tick(Success, "", "").Then(bttest.EntryIs("next", "1")).Then(bttest.EntryIs("dst", ""))}},
		{Name: "output_key {k}: the key is read from k", Tree: func(*bttest.Recorder) *Spec {
			return Sequence(Script("k := 'target'"), SetBlackboard("{k}", "x"))
		}, Steps: []bttest.Step{bttest.Tick(Success, "", "").Then(bttest.EntryIs("target", "x"))}},
		{Name: "a write is an update", Tree: func(*bttest.Recorder) *Spec {
			return Sequence(SetBlackboard("x", "1"), WasEntryUpdated("x"))
		}, Steps: []bttest.Step{bttest.Tick(Success, "", "")}},
	})
	tickError(t, Sequence(Script("gone := 1"), UnsetBlackboard("gone"), SetBlackboard("dst", "{gone}")), `the entry "gone" does not exist`)
	typed := NewAction("typed", func(n *Node) (Status, error) { return Success, blackboard.Put(n.Blackboard().Entry("n"), 1) })
	tickError(t, Sequence(typed.Spec(), SetBlackboard("n", "x")), `entry "n"`)
	tickError(t, builtin("SetBlackboard").Spec().With("value", "1"), `SetBlackboard needs the port "output_key": set it with With("output_key", …)`)
}
