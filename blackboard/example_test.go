package blackboard_test

import (
	"fmt"
	"os"
	"reflect"
	"slices"
	"sync"
	"time"

	"github.com/gobt/bt/blackboard"
)

// A subtree scope reaches its parent through remapping; handles are taken once and
// reads and writes then go straight to the entry.
func Example() {
	root := blackboard.New()

	// <SubTree ID="Move" goal="{target}" speed="2.5" _autoremap="false"/>
	sub := root.NewChild(false)
	sub.Remap("goal", "target")
	_ = sub.Local("speed").Set(blackboard.String("2.5")) // a literal: stored as text

	goal := sub.Entry("goal") // resolved once, at build time
	speed := sub.Entry("speed")

	_ = blackboard.Put(goal, "kitchen")
	s, _ := blackboard.Get[float64](speed) // strings convert on read
	target, _ := blackboard.Get[string](root.Entry("target"))
	fmt.Println(target, s)
	fmt.Println(root.Keys(), sub.Keys())
	// Output:
	// kitchen 2.5
	// [target] [speed]
}

// Set follows BT.CPP's Blackboard::set: the first typed write fixes the type, later
// writes are converted into it or rejected.
func ExampleEntry_Set() {
	e := blackboard.New().Entry("count")
	fmt.Println(e.Set(blackboard.ValueOf(uint8(10))), e.Type())
	fmt.Println(e.Set(blackboard.Int(200)), e.Load())     // fits in a uint8
	fmt.Println(e.Set(blackboard.Int(300)))               // does not
	fmt.Println(e.Set(blackboard.String("42")), e.Load()) // strings are parsed
	// Output:
	// <nil> uint8
	// <nil> 200
	// entry "count": cannot set int64 300 to uint8
	// <nil> 42
}

// Assign follows script assignment: a generic entry keeps the type of the value it
// holds, so `i := 7; i += 1` stays an integer and `i /= 2` cannot store 3.5.
func ExampleEntry_Assign() {
	i := blackboard.New().Entry("i")
	_ = i.Assign(blackboard.Int(7))                      // i := 7
	_ = i.Assign(blackboard.Float(i.Load().Float() + 1)) // i += 1 (script arithmetic is float)
	fmt.Println(i.Load().Kind(), i.Load())
	fmt.Println(i.Assign(blackboard.Float(8.0 / 16)))
	// Output:
	// int 8
	// entry "i": cannot assign float64 0.5 to an entry holding int64
}

func ExampleGet() {
	bb := blackboard.New(blackboard.WithEnums(func(name string) (int64, bool) {
		v, ok := map[string]int64{"LOW": 1, "HIGH": 3}[name]
		return v, ok
	}))
	e := bb.Entry("level")
	_ = e.Set(blackboard.String("HIGH"))
	n, err := blackboard.Get[int](e)
	fmt.Println(n, err)

	_ = bb.Entry("ratio").Set(blackboard.Float(2.5))
	_, err = blackboard.Get[int](bb.Entry("ratio"))
	fmt.Println(err)

	_, err = blackboard.Get[int](bb.Entry("missing"))
	fmt.Println(err)
	// Output:
	// 3 <nil>
	// entry "ratio": cannot read float64 2.5 as int
	// entry "missing" does not exist
}

func ExampleParse() {
	for _, c := range []struct {
		s string
		t reflect.Type
	}{
		{"0x1F", reflect.TypeFor[int]()},
		{"1;2;3", reflect.TypeFor[[]int]()},
		{"250", reflect.TypeFor[time.Duration]()},
		{`json:{"X":1}`, reflect.TypeFor[struct{ X int }]()},
		{"300", reflect.TypeFor[uint8]()},
	} {
		v, err := blackboard.Parse(c.s, c.t, nil)
		fmt.Println(v, err)
	}
	// Output:
	// 31 <nil>
	// [1 2 3] <nil>
	// 250ms <nil>
	// {1} <nil>
	// <nil> cannot parse "300" as uint8: out of range
}

func ExampleBlackboard_MarshalJSON() {
	bb := blackboard.New()
	_ = blackboard.Put(bb.Entry("x"), 5)
	_ = blackboard.Put(bb.Entry("y"), 15.0)
	_ = blackboard.Put(bb.Entry("name"), "bot")
	_ = bb.Entry("pending").Declare(nil)
	data, _ := bb.MarshalJSON()
	fmt.Println(string(data))

	restored := blackboard.New()
	_ = restored.UnmarshalJSON(data)
	fmt.Println(restored.Entry("y").Type(), restored.Entry("x").Type())
	// Output:
	// {"name":"bot","pending":null,"x":5,"y":15.0}
	// float64 int64
}

// Seq counts writes, so a node can tell whether an entry changed since it last looked.
func ExampleEntry_Seq() {
	clock := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	bb := blackboard.New(blackboard.WithClock(func() time.Time { return clock }))
	e := bb.Entry("w")
	seen := e.Seq()
	_ = blackboard.Put(e, "now")
	fmt.Println(e.Seq() != seen, e.Stamp().UTC().Format(time.Kitchen))
	e.Unset()
	fmt.Println(e.Exists(), e.Seq())
	// Output:
	// true 12:00PM
	// false 1
}

// Update modifies a value that other goroutines modify too, losing none of their
// changes (BT.CPP's getLockedPortContent): here, four goroutines append to one list.
func ExampleUpdate() {
	bb := blackboard.New()
	list := bb.Entry("list")
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			blackboard.Update(list, func(l []int) []int { return append(l, i) })
		}()
	}
	wg.Wait()
	l, _ := blackboard.Get[[]int](list)
	slices.Sort(l)
	fmt.Println(l, list.Seq())
	// Output: [0 1 2 3] 4
}

// A struct exported as a JSON object reads back as the struct.
func ExampleBlackboard_UnmarshalJSON() {
	type Pose struct{ X, Y float64 }
	bb := blackboard.New()
	bb.Entry("goal").Set(blackboard.ValueOf(Pose{1, 2.5}))
	data, _ := bb.MarshalJSON()
	fmt.Println(string(data))

	restored := blackboard.New()
	if err := restored.UnmarshalJSON(data); err != nil {
		fmt.Println(err)
	}
	p, err := blackboard.Get[Pose](restored.Entry("goal"))
	fmt.Println(p, err)
	// Output:
	// {"goal":{"X":1,"Y":2.5}}
	// {1 2.5} <nil>
}

// Dump shows a scope's entries and remappings, as BT.CPP's debugMessage does
// (tutorial 6).
func ExampleBlackboard_Dump() {
	type Pose2D struct{ X, Y, Theta float64 }
	root := blackboard.New()
	root.Entry("move_goal").Set(blackboard.ValueOf(Pose2D{1, 2, 3}))
	root.Entry("move_result").Set(blackboard.String("goal reached"))
	sub := root.NewChild(false)
	sub.Remap("target", "move_goal")
	sub.Remap("result", "move_result")
	sub.Remap("feedback", "unwritten")
	sub.Entry("_attempts").Set(blackboard.Int(2))

	fmt.Println("------ First BB ------")
	root.Dump(os.Stdout)
	fmt.Println("------ Second BB------")
	sub.Dump(os.Stdout)
	// Output:
	// ------ First BB ------
	// move_goal (blackboard_test.Pose2D) = {1 2 3}
	// move_result (string) = "goal reached"
	// ------ Second BB------
	// _attempts (int64) = 2
	// [feedback] remapped to port of parent tree [unwritten]
	// [result] remapped to port of parent tree [move_result] (string) = "goal reached"
	// [target] remapped to port of parent tree [move_goal] (blackboard_test.Pose2D) = {1 2 3}
}
