package peers_test

import (
	"runtime"
	"testing"

	"github.com/gobt/bt/bench/peers"
)

// checkTicks ticks, one tree at a time, enough to cover two action cycles of the
// memory shape and a start.
const checkTicks = 2*peers.MemCycle + 1

// build builds a shape's trees with lib, measuring the heap they keep when the shape
// reports it, and checks checkTicks ticks.
func build(tb testing.TB, sh *peers.Shape, lib peers.Lib) (*peers.World, peers.Subject, float64) {
	tb.Helper()
	w := sh.World()
	var (
		s    peers.Subject
		heap float64
		err  error
	)
	if sh.Heap {
		s, heap, err = peers.HeapPerAgent(w, lib)
	} else {
		s, err = lib.Build(w)
	}
	if err != nil {
		tb.Fatalf("%s/%s: %v", sh.Name, lib.Name, err)
	}
	if err := sh.Check(w, s, checkTicks); err != nil {
		tb.Fatalf("%s/%s: %v", sh.Name, lib.Name, err)
	}
	return w, s, heap
}

func benchShape(b *testing.B, name string) {
	sh := peers.ShapeNamed(name)
	for _, lib := range sh.Libs {
		b.Run(lib.Name, func(b *testing.B) { benchLib(b, sh, lib) })
	}
}

// benchLib times lib on the shape sh, between the checks.
func benchLib(b *testing.B, sh *peers.Shape, lib peers.Lib) {
	w, s, heap := build(b, sh, lib)
	runtime.GC()
	b.ReportAllocs()
	timed(b, s)
	w.Ticks += b.N
	if err := sh.Verify(w); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/sh.Per, sh.Unit)
	if sh.Heap {
		b.ReportMetric(heap, "B/agent")
	}
}

// timed is the timed loop, in a function of its own so that callgrind can count its
// instructions alone (peerbench -callgrind). Callgrind starts and stops counting per
// thread, so the goroutine stays on its thread: were it moved to another one after a
// preemption, the rest of the loop would not be counted.
//
//go:noinline
func timed(b *testing.B, s peers.Subject) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for b.Loop() {
		s.TickAll()
	}
}

// BenchmarkAgentsAllCores ticks the reactive agents, their trees built from one Spec,
// with bt.TickAll on GOMAXPROCS goroutines: go test -bench AgentsAllCores -cpu 1,2
// shows how ticking a crowd scales with the cores.
func BenchmarkAgentsAllCores(b *testing.B) {
	benchLib(b, peers.ShapeNamed("Agents"), peers.Lib{Name: "bt-all-cores", Build: func(w *peers.World) (peers.Subject, error) {
		return peers.BtAllCores(w, true)
	}})
}

func BenchmarkFlat(b *testing.B)         { benchShape(b, "Flat") }
func BenchmarkReactive(b *testing.B)     { benchShape(b, "Reactive") }
func BenchmarkAgents(b *testing.B)       { benchShape(b, "Agents") }
func BenchmarkMemoryAgents(b *testing.B) { benchShape(b, "MemoryAgents") }
