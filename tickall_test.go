package bt_test

import (
	"errors"
	"fmt"
	"testing"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
)

// crowdXML is an agent's tree with what a tick may touch: scripts, pre- and
// post-conditions, a blackboard per tree, a subtree with remapped ports, and leaves
// that read their tree's owner.
const crowdXML = `
<root BTCPP_format="4" main_tree_to_execute="Agent">
  <BehaviorTree ID="Agent">
    <ReactiveSequence>
      <Script code="ticks += 1"/>
      <Fallback>
        <Sequence _skipIf="hp &lt; 10">
          <IsHungry/>
          <SubTree ID="Meal" meals="{meals}"/>
        </Sequence>
        <Wander _onSuccess="walks += 1"/>
      </Fallback>
    </ReactiveSequence>
  </BehaviorTree>
  <BehaviorTree ID="Meal">
    <Sequence>
      <Script code="meals += 1"/>
      <Eat/>
    </Sequence>
  </BehaviorTree>
</root>`

type critter struct {
	hp, food, steps int
}

func crowdFactory(t *testing.T) *Factory {
	t.Helper()
	f := NewFactory()
	err := f.Register(
		NewCondition("IsHungry", func(n *Node) bool { return Owner[*critter](n).food < 3 }),
		NewAction("Eat", func(n *Node) Status { Owner[*critter](n).food++; return Success }),
		NewAction("Wander", func(n *Node) Status {
			c := Owner[*critter](n)
			c.steps++
			c.food--
			if c.steps%4 == 0 {
				return Success
			}
			return Running
		}),
	)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.LoadString("crowd.xml", crowdXML); err != nil {
		t.Fatal(err)
	}
	return f
}

// crowd builds a tree per critter; they start with different amounts of health and
// food, so that their trees take different paths.
func crowd(t *testing.T, f *Factory, n int) ([]*Tree, []critter) {
	critters := make([]critter, n)
	trees := make([]*Tree, n)
	for i := range trees {
		critters[i] = critter{hp: i % 20, food: i % 5}
		tree, err := f.NewTree("Agent", WithOwner(&critters[i]))
		if err != nil {
			t.Fatal(err)
		}
		for key, v := range map[string]int{"ticks": 0, "walks": 0, "meals": 0, "hp": critters[i].hp} {
			if err := tree.Blackboard().Entry(key).Assign(blackboard.Int(int64(v))); err != nil {
				t.Fatal(err)
			}
		}
		trees[i] = tree
	}
	return trees, critters
}

// TickAll on any number of goroutines does what ticking each tree in turn does: run it
// with -race.
func TestTickAllIsTickingEachTree(t *testing.T) {
	f := crowdFactory(t)
	const agents, rounds = 300, 9
	want, wantCritters := crowd(t, f, agents)
	wantStatuses := make([][]Status, rounds)
	for r := range rounds {
		for _, tree := range want {
			s, err := tree.TickOnce()
			if err != nil {
				t.Fatal(err)
			}
			wantStatuses[r] = append(wantStatuses[r], s)
		}
	}
	seen := map[Status]bool{}
	for _, ss := range wantStatuses {
		for _, s := range ss {
			seen[s] = true
		}
	}
	if len(seen) < 2 {
		t.Fatalf("the trees all return %v: the test shows nothing", seen)
	}
	for _, workers := range []int{1, 2, 3, 8, 0, agents + 1} {
		trees, critters := crowd(t, f, agents)
		statuses := make([]Status, agents)
		for r := range rounds {
			if err := TickAll(trees, workers, statuses); err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(statuses) != fmt.Sprint(wantStatuses[r]) {
				t.Fatalf("%d workers, round %d: statuses %v, want %v", workers, r, statuses, wantStatuses[r])
			}
		}
		for i := range trees {
			if critters[i] != wantCritters[i] || blackboardOf(trees[i]) != blackboardOf(want[i]) {
				t.Errorf("%d workers, agent %d: %+v %s, want %+v %s", workers, i,
					critters[i], blackboardOf(trees[i]), wantCritters[i], blackboardOf(want[i]))
			}
		}
	}
}

func blackboardOf(tree *Tree) string {
	b, err := tree.Blackboard().MarshalJSON()
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// The errors of the trees whose tick failed come back joined, each with its index; the
// other trees are ticked all the same.
func TestTickAllErrors(t *testing.T) {
	var ticks [6]int
	trees := make([]*Tree, len(ticks))
	for i := range trees {
		trees[i] = mustTree(t, Action("A", func() Status {
			if ticks[i]++; i%3 == 1 {
				panic(fmt.Sprint("agent ", i))
			}
			return Success
		}))
	}
	err := TickAll(trees, 2, nil)
	if err == nil || err.Error() != "tree 1: node A::1 (A): panic: agent 1\ntree 4: node A::1 (A): panic: agent 4" {
		t.Errorf("got %v", err)
	}
	var pe *PanicError
	if !errors.As(err, &pe) || pe.Value != "agent 1" {
		t.Errorf("errors.As finds %v", pe)
	}
	if ticks != [6]int{1, 1, 1, 1, 1, 1} {
		t.Errorf("ticks %v, want one each", ticks)
	}
	for _, c := range []struct {
		trees    []*Tree
		statuses []Status
		want     string
	}{
		{trees, make([]Status, 2), "bt: TickAll: 2 statuses for 6 trees"},
		{[]*Tree{trees[0], nil}, nil, "bt: TickAll: tree 1 is nil"},
	} {
		if err := TickAll(c.trees, 0, c.statuses); err == nil || err.Error() != c.want {
			t.Errorf("got %v, want %s", err, c.want)
		}
	}
	if err := TickAll(nil, 0, nil); err != nil {
		t.Errorf("no trees: %v", err)
	}
}

// Under WithRepanic a panic goes on out of TickAll, in the calling goroutine, once the
// other trees are ticked.
func TestTickAllRepanics(t *testing.T) {
	ticked := 0
	trees := []*Tree{
		mustTree(t, Action("Boom", func() Status { panic("boom") }), WithRepanic()),
		mustTree(t, Action("A", func() Status { ticked++; return Success })),
	}
	defer func() {
		if r := recover(); r != "boom" || ticked != 1 {
			t.Errorf("recovered %v after %d ticks of the other tree, want boom after 1", r, ticked)
		}
	}()
	TickAll(trees, 2, nil)
	t.Error("no panic")
}

// TickAll allocates nothing per tree.
func TestTickAllAllocations(t *testing.T) {
	f := crowdFactory(t)
	few, _ := crowd(t, f, 10)
	many, _ := crowd(t, f, 1000)
	a, b := testing.AllocsPerRun(20, func() { TickAll(few, 2, nil) }), testing.AllocsPerRun(20, func() { TickAll(many, 2, nil) })
	if a != b || a > 6 {
		t.Errorf("TickAll allocates %v times for 10 trees, %v for 1000", a, b)
	}
}
