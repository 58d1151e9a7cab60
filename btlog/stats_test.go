package btlog

import (
	"bytes"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gobt/bt"
)

func TestStats(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tree := mission(t)
		s, err := NewStats(tree)
		if err != nil {
			t.Fatal(err)
		}
		run(t, tree)
		start := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
		for _, c := range []struct {
			path string
			want NodeStats
		}{
			{"mission", NodeStats{Transitions: 2, Successes: 1, LastResult: bt.Success, Status: bt.Idle, Time: start.Add(40 * time.Millisecond)}},
			{"move", NodeStats{Transitions: 2, Successes: 1, LastResult: bt.Success, Status: bt.Idle, Time: start.Add(30 * time.Millisecond)}},
			{"charge", NodeStats{}}, // skipped: no change at all
			{"Inverter::13", NodeStats{Transitions: 2, Failures: 1, LastResult: bt.Failure, Status: bt.Idle, Time: start.Add(40 * time.Millisecond)}},
			{"ScriptCondition::16", NodeStats{Transitions: 2, Successes: 1, Failures: 1, LastResult: bt.Success, Status: bt.Idle, Time: start.Add(40 * time.Millisecond)}},
		} {
			got, ok := s.ByPath(c.path)
			if got.Time.Equal(c.want.Time) { // the clock's times have a monotonic reading
				got.Time = c.want.Time
			}
			if !ok || got != c.want {
				t.Errorf("%s: %+v, %v\nwant %+v", c.path, got, ok, c.want)
			}
		}
		if got, ok := s.ByUID(16); !ok || got.Failures != 1 {
			t.Errorf("ByUID(16): %+v, %v", got, ok)
		}
		for _, uid := range []uint16{0, 17} {
			if _, ok := s.ByUID(uid); ok {
				t.Errorf("ByUID(%d) found a node", uid)
			}
		}
		if _, ok := s.ByPath("nowhere"); ok {
			t.Errorf("ByPath(nowhere) found a node")
		}
		if len(s.Nodes()) != 16 || s.Nodes()[5].Path != "grasp" {
			t.Errorf("Nodes: %+v", s.Nodes())
		}
		var table bytes.Buffer
		if err := s.WriteTable(&table); err != nil {
			t.Fatal(err)
		}
		golden(t, "mission.stats", table.Bytes())

		s.Reset()
		if got, _ := s.ByPath("mission"); got != (NodeStats{}) {
			t.Errorf("after Reset: %+v", got)
		}
		if s, err := tree.TickOnce(); s != bt.Running || err != nil {
			t.Fatalf("tick: %s, %v", s, err)
		}
		if got, _ := s.ByPath("mission"); got.Transitions != 1 || got.Status != bt.Running {
			t.Errorf("counting again after Reset: %+v", got)
		}
		closeAll(t, s)
		if err := tree.Halt(); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.ByPath("mission"); got.Status != bt.Running || s.Flush() != nil {
			t.Errorf("a closed Stats still counts: %+v", got)
		}
	})
}

func TestStatsNilTree(t *testing.T) {
	if _, err := NewStats(nil); err == nil || err.Error() != "btlog: nil tree" {
		t.Errorf("got %v", err)
	}
}
