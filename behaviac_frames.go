package bt

import (
	"errors"
	"math"
	"strconv"
)

// Frames is behaviac's Frames: it keeps its child going for a number of ticks
// ("frames"), whatever the child returns, then succeeds. frames is read when the node
// enters and has no default.
//
//	entering, frames ≤ 0 → Failure without ticking the child
//	every tick    → tick the child; ignore its status; one more frame: frames reached →
//	                Success (frames=1 succeeds on the first tick), else Running
//	child completed → reset it (it starts again on the next tick)
//	Success while the child is Running → halt the child
//	decorate_when_child_ends → while the child is Running: Running, and the frame does
//	                not count
//	halted        → halt the child; the next tick enters afresh
//
// It never yields. XML:
//
//	<Frames frames="30">
//	    <Blink/>
//	</Frames>
func Frames(frames int, child *Spec) *Spec {
	return framesModel.Spec(child).With("frames", strconv.Itoa(frames))
}

var framesModel = &Model{
	ID: "Frames", Kind: KindDecorator,
	Description: "Keeps the child going for a number of ticks, whatever it returns, then succeeds.",
	Ports: []PortDef{
		InputPort[int]("frames", "how many ticks; 0 or less fails at once").Require(),
		whenEndsPort(),
	},
	build: decorates(resetThenStore, func(c *NodeConfig) (decorator, error) {
		f := &frames{}
		return f, errors.Join(f.frames.bind(c, "frames"), f.whenEnds.bind(c))
	}),
}

type frames struct {
	frames   In[int]
	whenEnds whenEnds
	want     int
	done     int
}

func (f *frames) decorate(n *Node) Status {
	if n.Status() != Running { // entering: ticked while not Running (not reset yet counts too)
		want := f.frames.mustGet(n)
		if want <= 0 {
			return Failure
		}
		f.want, f.done = want, 0
	}
	n.setRunning()
	s := n.Child(0).Tick()
	if f.whenEnds.wait(n, s) {
		return Running
	}
	if f.done++; f.done >= f.want {
		return Success
	}
	return Running
}

// saveState saves the frames this activation wants and those done.
func (f *frames) saveState(_ *Node, w *stateWriter) {
	w.int("frames", int64(f.want))
	w.int("done", int64(f.done))
}

func (f *frames) restoreState(_ *Node, r *stateReader) {
	want, done := r.int("frames", 0, math.MaxInt), r.int("done", 0, math.MaxInt)
	if r.applying() {
		f.want, f.done = int(want), int(done)
	}
}
