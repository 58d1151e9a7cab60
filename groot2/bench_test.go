package groot2

import (
	"testing"
	"time"

	"github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

// The tick benchmarks of package bt (a flat Sequence of 1,000 leaves; a balanced tree
// of depth 10 alternating Sequence and Fallback, every node visited), without a
// publisher, with one and no client (the target: within 2× of the first), and with
// one whose client is connected (the tree is observed).

func benchTick(b *testing.B, spec *bt.Spec, publisher string) {
	tree, err := bt.NewTree(spec)
	if err != nil {
		b.Fatal(err)
	}
	switch publisher {
	case "idle":
		p := newTestPublisher(b, tree, Options{})
		_ = p
	case "connected":
		p := newTestPublisher(b, tree, Options{Heartbeat: time.Hour})
		p.touch() // a request: the tree is observed from the next tick on
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tree.TickOnce(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(tree.Len()), "ns/node")
}

func BenchmarkFlat(b *testing.B)          { benchTick(b, bttest.Flat(1000), "") }
func BenchmarkFlatPublished(b *testing.B) { benchTick(b, bttest.Flat(1000), "idle") }
func BenchmarkFlatConnected(b *testing.B) { benchTick(b, bttest.Flat(1000), "connected") }
func BenchmarkDeep(b *testing.B)          { benchTick(b, bttest.Deep(10), "") }
func BenchmarkDeepPublished(b *testing.B) { benchTick(b, bttest.Deep(10), "idle") }
func BenchmarkDeepConnected(b *testing.B) { benchTick(b, bttest.Deep(10), "connected") }
