package bt_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

// busyBranch is ten nodes that keep state when ticked once: a Sequence resumed at its
// fourth child, a RunOnce that latched, a Fallback at its second child, a Delay whose
// timer runs.
func busyBranch() *Spec {
	return Sequence(
		Script("b := 1"),
		RunOnce(true, AlwaysSuccess()),
		Repeat(3, AlwaysSuccess()),
		Fallback(AlwaysFailure(), Delay(time.Second, AlwaysSuccess())),
	)
}

// busySpec is a tree of 1,001 nodes: a Parallel of 100 busy branches. Its trees are
// built with busyTree, whose clock does not move, so that the snapshots' sizes do not
// depend on when they are taken.
func busySpec() *Spec {
	kids := make([]*Spec, 100)
	for i := range kids {
		kids[i] = busyBranch()
	}
	return Parallel(-1, 1, kids...)
}

func busyTree(tb testing.TB, spec *Spec) *Tree {
	return mustTree(tb, spec, WithClock(bttest.NewClock(epoch)))
}

// encoders encode a snapshot, in JSON or in binary.
var encoders = []struct {
	name string
	enc  func(*Snapshot) ([]byte, error)
}{{"JSON", (*Snapshot).MarshalJSON}, {"Binary", (*Snapshot).MarshalBinary}}

// BenchmarkSnapshot1000 saves and encodes a 1,001-node tree that is busy (most nodes
// have a status and state; 100 timers run) or idle (built and never ticked); B/node
// is the size of the encoded snapshot per node.
func BenchmarkSnapshot1000(b *testing.B) {
	for _, busy := range []bool{true, false} {
		tree := busyTree(b, busySpec())
		name := "Idle"
		if busy {
			tree.TickOnce()
			name = "Busy"
		}
		for _, e := range encoders {
			b.Run(name+"/"+e.name, func(b *testing.B) {
				b.ReportAllocs()
				var size int
				for b.Loop() {
					snap, err := tree.Snapshot()
					if err != nil {
						b.Fatal(err)
					}
					data, err := e.enc(snap)
					if err != nil {
						b.Fatal(err)
					}
					size = len(data)
				}
				b.ReportMetric(float64(size)/float64(tree.Len()), "B/node")
			})
		}
		tree.Halt()
	}
}

// BenchmarkRestore1000 reads a snapshot of the busy 1,001-node tree and restores it
// into an idle tree of the same definition (one of 64, halted every 64 iterations,
// untimed).
func BenchmarkRestore1000(b *testing.B) {
	spec := busySpec()
	tree := busyTree(b, spec)
	tree.TickOnce()
	snap, err := tree.Snapshot()
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range encoders {
		data, _ := e.enc(snap)
		b.Run(e.name, func(b *testing.B) {
			pool := make([]*Tree, 64)
			for i := range pool {
				pool[i] = busyTree(b, spec)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				if i > 0 && i%len(pool) == 0 {
					b.StopTimer()
					for _, tree := range pool {
						tree.Halt()
					}
					b.StartTimer()
				}
				s, err := ReadSnapshot(data)
				if err == nil {
					err = pool[i%len(pool)].Restore(s)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// agentXML is the definition of an agent's tree: 16 nodes, with a blackboard of its
// own — a crowd of them shares the definition.
const agentXML = `<root BTCPP_format="4" main_tree_to_execute="Agent">
  <BehaviorTree ID="Agent">
    <ReactiveFallback>
      <Sequence>
        <ScriptCondition code="hp &lt; 20"/>
        <Script code="fleeing := true"/>
        <Delay delay_msec="500"><Script code="hp += 5"/></Delay>
      </Sequence>
      <Sequence>
        <Script code="patrols += 1"/>
        <RetryUntilSuccessful num_attempts="3"><ScriptCondition code="patrols &gt; 2"/></RetryUntilSuccessful>
        <Repeat num_cycles="2"><Sleep msec="200"/></Repeat>
        <Frames frames="10"><AlwaysSuccess/></Frames>
        <SetBlackboard output_key="state" value="patrolled"/>
      </Sequence>
    </ReactiveFallback>
  </BehaviorTree>
</root>`

// agents builds n agent trees, each with values of its own, and ticks them once.
func agents(b *testing.B, n int) (*Factory, []*Tree) {
	f := NewFactory()
	if err := f.LoadString("agent.xml", agentXML); err != nil {
		b.Fatal(err)
	}
	trees := make([]*Tree, n)
	for i := range trees {
		tree, err := f.NewTree("")
		if err != nil {
			b.Fatal(err)
		}
		bb := tree.Blackboard()
		bb.UnmarshalJSON([]byte(fmt.Sprintf(`{"hp": %d, "patrols": %d, "name": "agent-%d"}`, i%100, i%3, i)))
		if _, err := tree.TickOnce(); err != nil {
			b.Fatal(err)
		}
		trees[i] = tree
	}
	return f, trees
}

// BenchmarkSnapshotAgents saves and encodes 10,000 agent trees of 16 nodes each, ticked
// once, per iteration; B/agent is the size of an agent's snapshot.
func BenchmarkSnapshotAgents(b *testing.B) {
	_, trees := agents(b, 10000)
	for _, e := range encoders {
		b.Run(e.name, func(b *testing.B) {
			b.ReportAllocs()
			size := 0
			for b.Loop() {
				size = 0
				for _, tree := range trees {
					snap, err := tree.Snapshot()
					if err != nil {
						b.Fatal(err)
					}
					data, err := e.enc(snap)
					if err != nil {
						b.Fatal(err)
					}
					size += len(data)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(trees)), "ns/agent")
			b.ReportMetric(float64(size)/float64(len(trees)), "B/agent")
		})
	}
}

// BenchmarkRestoreAgents reads and restores the snapshots of 10,000 agent trees into
// trees of the same definition per iteration (halted between iterations, untimed).
func BenchmarkRestoreAgents(b *testing.B) {
	f, trees := agents(b, 10000)
	into := make([]*Tree, len(trees))
	for i := range into {
		tree, err := f.NewTree("")
		if err != nil {
			b.Fatal(err)
		}
		into[i] = tree
	}
	for _, e := range encoders {
		data := make([][]byte, len(trees))
		for i, tree := range trees {
			snap, err := tree.Snapshot()
			if err != nil {
				b.Fatal(err)
			}
			data[i], _ = e.enc(snap)
		}
		b.Run(e.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				for i, tree := range into {
					s, err := ReadSnapshot(data[i])
					if err == nil {
						err = tree.Restore(s)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				b.StopTimer()
				for _, tree := range into {
					tree.Halt()
				}
				b.StartTimer()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(trees)), "ns/agent")
		})
	}
}

// TestSnapshotSizes checks the sizes the benchmarks report, and that an idle tree's
// snapshot is small: its nodes have nothing to say.
func TestSnapshotSizes(t *testing.T) {
	tree := busyTree(t, busySpec())
	snap, _ := tree.Snapshot()
	js, _ := snap.MarshalJSON()
	bin, _ := snap.MarshalBinary()
	if n := tree.Len(); len(js) > 1*n || len(bin) > n/8 {
		t.Errorf("an idle tree of %d nodes: %d bytes of JSON, %d in binary", n, len(js), len(bin))
	}
	if !strings.Contains(string(js), `"state": [],`) {
		t.Errorf("an idle tree's nodes are listed:\n%s", js)
	}
}
