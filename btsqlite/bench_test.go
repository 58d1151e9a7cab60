package btsqlite

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gobt/bt"
)

// BenchmarkMillion writes a million transitions to a database: ticks of a Sequence
// of 100 AlwaysSuccess, 203 changes each, back to back, then Close, which waits for
// the last to be written. It reports the time per transition, how long the ticks took
// (the tree's side) and how long the whole took, to the end of Close (the database's
// side). Run it by hand:
//
//	go test -run '^$' -bench Million -benchtime 1x ./btsqlite
func BenchmarkMillion(b *testing.B) {
	const leaves, perTick = 100, 2*100 + 3
	const ticks = (1_000_000 + perTick - 1) / perTick
	xml := fmt.Sprintf(`<root BTCPP_format="4"><BehaviorTree ID="T"><Sequence>%s</Sequence></BehaviorTree></root>`,
		strings.Repeat("<AlwaysSuccess/>", leaves))
	f := bt.NewFactory()
	if err := f.LoadString("million.xml", xml); err != nil {
		b.Fatal(err)
	}
	var ticking, total time.Duration
	for i := 0; i < b.N; i++ {
		tree, err := f.NewTree("T")
		if err != nil {
			b.Fatal(err)
		}
		name := filepath.Join(b.TempDir(), "million.db3")
		l, err := Create(tree, name, nil)
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		for range ticks {
			if _, err := tree.TickOnce(); err != nil {
				b.Fatal(err)
			}
		}
		ticking += time.Since(start)
		if err := l.Close(); err != nil {
			b.Fatal(err)
		}
		total += time.Since(start)
		if i == 0 {
			if got := rows(b, name, "SELECT count(*) FROM Transitions")[0][0].(int64); got != ticks*perTick {
				b.Fatalf("%d transitions written, want %d", got, ticks*perTick)
			}
		}
	}
	n := float64(b.N * ticks * perTick)
	b.ReportMetric(float64(total.Nanoseconds())/n, "ns/transition")
	b.ReportMetric(ticking.Seconds()/float64(b.N), "s-ticking/op")
	b.ReportMetric(total.Seconds()/float64(b.N), "s-written/op")
}
