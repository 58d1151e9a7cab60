package monitor

import (
	"time"

	"github.com/gobt/bt"
	"github.com/gobt/bt/btlog"
)

// DefaultGap is the pause that separates two steps of a replay (see StepGap).
const DefaultGap = time.Millisecond

// steps cuts the transitions of a log into frames: a change that comes more than gap
// after the one before it starts a new step, which is how the ticks of a run show in a
// file that records times but not ticks. The first frame is a keyframe: every node
// IDLE, as a run starts.
func steps(l *btlog.Log, gap time.Duration) (base frame, frames []frame) {
	size := 0 // statuses go by UID-1, and a file may skip UIDs
	if len(l.Nodes) > 0 {
		size = int(l.Nodes[len(l.Nodes)-1].UID)
	}
	base = frame{Statuses: make(statuses, size), Time: millis(l.Start)}
	var last time.Duration
	for i, tr := range l.Transitions {
		if i == 0 || tr.Offset-last > gap {
			frames = append(frames, frame{Tick: uint64(len(frames) + 1), Time: millis(l.Start.Add(tr.Offset))})
		}
		last = tr.Offset
		f := &frames[len(frames)-1]
		st := tr.Status
		if st == bt.Skipped { // never stored: a skipped node stays IDLE
			st = bt.Idle
		}
		f.Changes = append(f.Changes, bt.MakeChange(tr.UID, tr.Previous, st))
	}
	return base, frames
}
