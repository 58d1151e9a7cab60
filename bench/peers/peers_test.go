package peers_test

import (
	"fmt"
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
		b.Run(lib.Name, func(b *testing.B) {
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
		})
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

// BenchmarkAgentsAllCores ticks the reactive agents, their trees built from one Spec
// (bt-spec), with bt.TickAll on 1 and on 2 goroutines (cores=1, cores=2): how ticking a
// crowd scales with the cores, on the same trees. It needs GOMAXPROCS 2 or more; run it
// with -count to have a ratio per build (the layout of 16 MB of trees in the heap
// changes the time of one core more than their ratio).
func BenchmarkAgentsAllCores(b *testing.B) {
	sh := peers.ShapeNamed("Agents")
	var spec peers.Lib
	for _, lib := range sh.Libs {
		if lib.Name == "bt-spec" {
			spec = lib
		}
	}
	w, s, _ := build(b, sh, spec)
	for _, cores := range []int{1, 2} {
		b.Run(fmt.Sprint("cores=", cores), func(b *testing.B) {
			if cores > runtime.GOMAXPROCS(0) {
				b.Skipf("GOMAXPROCS is %d", runtime.GOMAXPROCS(0))
			}
			on := peers.OnCores(s, cores)
			runtime.GC()
			for b.Loop() {
				on.TickAll()
			}
			w.Ticks += b.N
			if err := sh.Verify(w); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/sh.Per, sh.Unit)
		})
	}
}

func BenchmarkFlat(b *testing.B)         { benchShape(b, "Flat") }
func BenchmarkReactive(b *testing.B)     { benchShape(b, "Reactive") }
func BenchmarkAgents(b *testing.B)       { benchShape(b, "Agents") }
func BenchmarkMemoryAgents(b *testing.B) { benchShape(b, "MemoryAgents") }
