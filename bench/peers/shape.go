package peers

import (
	"fmt"
	"runtime"

	"github.com/gobt/bt"
)

// Status is the libraries' statuses in one form, for the checks.
type Status uint8

const (
	Invalid Status = iota
	Running
	Success
	Failure
)

func (s Status) String() string {
	return [...]string{"invalid", "running", "success", "failure"}[s]
}

// World is what the trees of a shape work on: counters for the flat and reactive
// shapes (one per leaf), agents for the agent shapes.
type World struct {
	Counts []uint32
	Agents []Agent
	Ticks  int // how many times every tree was ticked: whoever ticks counts
}

// Subject is one library's build of one shape.
type Subject struct {
	TickAll func()             // ticks every tree once: the timed operation
	Tick    func(i int) Status // ticks tree i once, for the checks
	trees   []*bt.Tree         // bt's trees, for OnCores
}

// Lib builds a shape with one library (or one variant of bt).
type Lib struct {
	Name  string
	Build func(w *World) (Subject, error)
}

// Shape is one line of the comparison.
type Shape struct {
	Name   string  // the benchmark's name, Benchmark<Name>
	Title  string  // what the line measures
	Unit   string  // the metric reported: ns per Per
	Per    float64 // the time of TickAll is divided by this
	Ref    string  // the bt variant the others are compared with
	Libs   []Lib
	World  func() *World
	Check  func(w *World, s Subject, ticks int) error // ticks more ticks one tree at a time, checking all
	Verify func(w *World) error                       // checks the visits after w.Ticks ticks
	Heap   bool                                       // report the retained heap per agent
}

// Sizes of the shapes.
const (
	FlatLeaves = 1000
	Conditions = 10
	NumAgents  = 10000
	MemCycle   = 4 // ticks of a long action in the memory shape
)

// Shapes lists the comparison, in the order of the table.
var Shapes = []*Shape{
	{
		Name: "Flat", Title: "flat, 1,000 function leaves under a Sequence", Unit: "ns/node",
		Per: FlatLeaves + 1, Ref: "bt",
		Libs: []Lib{
			{"bt", func(w *World) (Subject, error) { return btFlat(w, false) }},
			{"bt-repanic", func(w *World) (Subject, error) { return btFlat(w, true) }},
			{"joeycumines", jcFlat},
			{"go-behave", behaveFlat},
			{"bare", bareFlat},
		},
		World: func() *World { return &World{Counts: make([]uint32, FlatLeaves)} },
		Check: checkCounts(Success), Verify: (*World).CheckCounts,
	},
	{
		Name: "Reactive", Title: "reactive: 10 function conditions + a running action", Unit: "ns/tick",
		Per: 1, Ref: "bt",
		Libs: []Lib{
			{"bt", func(w *World) (Subject, error) { return btReactive(w, false) }},
			{"bt-repanic", func(w *World) (Subject, error) { return btReactive(w, true) }},
			{"joeycumines", jcReactive},
			{"go-behave", behaveReactive},
			{"bare", bareReactive},
		},
		World: func() *World { return &World{Counts: make([]uint32, Conditions+1)} },
		Check: checkCounts(Running), Verify: (*World).CheckCounts,
	},
	{
		Name: "Agents", Title: "10,000 agents, 16-node reactive tree", Unit: "ns/agent-tick",
		Per: NumAgents, Ref: "bt-factory", Heap: true,
		Libs: []Lib{
			{"bt-factory", func(w *World) (Subject, error) { return btAgentsFactory(w, true) }},
			{"bt-spec", func(w *World) (Subject, error) { return btAgentsSharedSpec(w, true) }},
			{"bt-spec-per-agent", func(w *World) (Subject, error) { return btAgentsSpecPerAgent(w, true) }},
			{"joeycumines", func(w *World) (Subject, error) { return jcAgents(w, true) }},
			{"go-behave", func(w *World) (Subject, error) { return behaveAgents(w, true) }},
			{"bare", func(w *World) (Subject, error) { return bareAgents(w, true) }},
		},
		World: func() *World { return &World{Agents: NewAgents(NumAgents, 0)} },
		Check: checkAgents(true), Verify: func(w *World) error { return w.CheckAgents(true) },
	},
	{
		Name: "MemoryAgents", Title: "10,000 agents, memory controls (resume the running child)", Unit: "ns/agent-tick",
		Per: NumAgents, Ref: "bt-factory", Heap: true,
		Libs: []Lib{
			{"bt-factory", func(w *World) (Subject, error) { return btAgentsFactory(w, false) }},
			{"bt-spec-per-agent", func(w *World) (Subject, error) { return btAgentsSpecPerAgent(w, false) }},
			{"joeycumines", func(w *World) (Subject, error) { return jcAgents(w, false) }},
			{"go-behave", func(w *World) (Subject, error) { return behaveAgents(w, false) }},
			{"bare", func(w *World) (Subject, error) { return bareAgents(w, false) }},
		},
		World: func() *World { return &World{Agents: NewAgents(NumAgents, MemCycle)} },
		Check: checkAgents(false), Verify: func(w *World) error { return w.CheckAgents(false) },
	},
}

// ShapeNamed returns the shape of that name, or nil.
func ShapeNamed(name string) *Shape {
	for _, s := range Shapes {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// checkCounts ticks a single tree, checking that each tick returns want, then that
// every leaf was visited once per tick.
func checkCounts(want Status) func(w *World, s Subject, ticks int) error {
	return func(w *World, s Subject, ticks int) error {
		for range ticks {
			w.Ticks++
			if got := s.Tick(0); got != want {
				return fmt.Errorf("tick %d: %v, want %v", w.Ticks, got, want)
			}
		}
		return w.CheckCounts()
	}
}

// CheckCounts checks that every leaf counted one visit per tick.
func (w *World) CheckCounts() error {
	if w.Ticks == 0 {
		return fmt.Errorf("no tick to check")
	}
	for i, c := range w.Counts {
		if c != uint32(w.Ticks) {
			return fmt.Errorf("after %d ticks, leaf %d was visited %d times", w.Ticks, i, c)
		}
	}
	return nil
}

// checkAgents ticks every agent's tree, checking each status, then every agent's visits.
func checkAgents(reactive bool) func(w *World, s Subject, ticks int) error {
	return func(w *World, s Subject, ticks int) error {
		for range ticks {
			w.Ticks++
			for i := range w.Agents {
				a := &w.Agents[i]
				if got, want := s.Tick(i), a.WantStatus(w.Ticks); got != want {
					return fmt.Errorf("tick %d, agent %d (%v): %v, want %v", w.Ticks, i, a.State, got, want)
				}
			}
		}
		return w.CheckAgents(reactive)
	}
}

// CheckAgents checks every agent's visits against the ticks its tree has had.
func (w *World) CheckAgents(reactive bool) error {
	if w.Ticks == 0 {
		return fmt.Errorf("no tick to check")
	}
	for i := range w.Agents {
		a := &w.Agents[i]
		if want := a.WantVisits(reactive, w.Ticks); a.Visits != want {
			return fmt.Errorf("after %d ticks, agent %d (%v) visited %v, want %v", w.Ticks, i, a.State, a.Visits, want)
		}
	}
	return nil
}

// HeapPerAgent builds a shape's trees and returns them with the heap they keep,
// divided among the agents: everything the library allocated and still holds after
// one tick of every tree (not the agents themselves, made before).
func HeapPerAgent(w *World, lib Lib) (Subject, float64, error) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s, err := lib.Build(w)
	if err != nil {
		return s, 0, err
	}
	s.TickAll()
	w.Ticks++
	runtime.GC()
	runtime.ReadMemStats(&after)
	return s, float64(after.HeapAlloc-before.HeapAlloc) / float64(len(w.Agents)), nil
}
