package monitor

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/gobt/bt"
	"github.com/gobt/bt/btlog"
)

// framesOf cuts l into the frames of a replay as encoding/json would write them: a
// step per burst of changes, the changes as [uid, previous, status], SKIPPED as IDLE.
func framesOf(l *btlog.Log, gap time.Duration) []frame {
	var frames []frame
	var last time.Duration
	for i, tr := range l.Transitions {
		if i == 0 || tr.Offset-last > gap {
			frames = append(frames, frame{Tick: uint64(len(frames) + 1), Time: millis(l.Start.Add(tr.Offset))})
		}
		last = tr.Offset
		st := tr.Status
		if st == bt.Skipped {
			st = bt.Idle
		}
		f := &frames[len(frames)-1]
		f.Changes = append(f.Changes, bt.MakeChange(tr.UID, tr.Previous, st))
	}
	return frames
}

// TestReplayStreamed: the snapshot of a replay, written from its transitions as it is
// sent, is the JSON of its frames, for a recorded run and for a log made by hand with
// SKIPPED, times before 1970 and gaps at the step boundary.
func TestReplayStreamed(t *testing.T) {
	mission, err := btlog.ReadFile("../btlog/testdata/mission.btlog")
	if err != nil {
		t.Fatal(err)
	}
	hand := &btlog.Log{
		Start: time.Date(1969, 12, 31, 23, 59, 59, 999_000_000, time.UTC),
		Nodes: []btlog.NodeInfo{{UID: 1, ID: "Sequence", Kind: bt.KindControl}, {UID: 3, Parent: 1, ID: "A", Kind: bt.KindAction}},
		Transitions: []btlog.Transition{
			{UID: 1, Status: bt.Running},
			{Offset: time.Millisecond, UID: 3, Status: bt.Skipped},
			{Offset: 2*time.Millisecond + time.Microsecond, UID: 3, Previous: bt.Skipped, Status: bt.Failure},
			{Offset: 3 * time.Hour, UID: 1, Previous: bt.Running, Status: bt.Failure},
		},
	}
	for name, l := range map[string]*btlog.Log{"mission": mission, "hand": hand, "empty": {}} {
		for _, gap := range []time.Duration{0, DefaultGap, time.Hour} {
			m := New(StepGap(gap))
			if err := m.AddLog("run", l); err != nil {
				t.Fatal(err)
			}
			body := get(m, "/api/trees/run").Body.String()
			var got struct{ Frames json.RawMessage }
			if err := json.Unmarshal([]byte(body), &got); err != nil {
				t.Fatalf("%s, gap %v: %v: %s", name, gap, err, body)
			}
			frames := framesOf(l, gap)
			if frames == nil {
				frames = []frame{}
			}
			want, _ := json.Marshal(frames)
			if string(got.Frames) != string(want) {
				t.Errorf("%s, gap %v: frames\n%s\nwant\n%s", name, gap, got.Frames, want)
			}
			if s := m.tree("run").summary("run"); s.Frames != len(frames) || s.Tick != uint64(len(frames)) {
				t.Errorf("%s, gap %v: summary %+v, %d steps", name, gap, s, len(frames))
			}
		}
	}
}
