package bt

import "time"

// Time is behaviac's Time: it keeps its child going for msec milliseconds of the
// tree's clock, whatever the child returns, then succeeds. msec is read when the node
// enters and has no default.
//
//	entering, msec ≤ 0 → Failure without ticking the child
//	entering      → start the timer, then as every tick
//	every tick    → tick the child; ignore its status; time is up → Success, else Running
//	child completed → reset it (it starts again on the next tick)
//	Success while the child is Running → halt the child
//	decorate_when_child_ends → while the child is Running: Running, time is not checked
//	halted        → stop the timer, halt the child
//
// When the time is up the timer wakes the tree up, so TickWhileRunning ticks at once.
// It never yields. XML:
//
//	<Time msec="2000">
//	    <Dance/>
//	</Time>
func Time(d time.Duration, child *Spec) *Spec {
	return timeModel.Spec(child).With("msec", msecText(d))
}

var timeModel = &Model{
	ID: "Time", Kind: KindDecorator,
	Description: "Keeps the child going for msec milliseconds, whatever it returns, then succeeds.",
	Ports: []PortDef{
		InputPort[int]("msec", "how long, in milliseconds; 0 or less fails at once").Require(),
		whenEndsPort(),
	},
	build: decorates(resetThenStore, func(c *NodeConfig) (decorator, error) {
		t := &timeLimit{}
		if err := t.msec.bind(c, "msec"); err != nil {
			return t, err
		}
		return t, t.whenEnds.bind(c)
	}),
}

type timeLimit struct {
	msec     In[int]
	whenEnds whenEnds
	alarm    alarm
}

func (t *timeLimit) decorate(n *Node) Status {
	if n.Status() != Running { // entering: ticked while not Running (not reset yet counts too)
		ms := t.msec.mustGet(n)
		if ms <= 0 {
			return Failure
		}
		t.alarm.set(n, millis(ms))
	}
	n.setRunning()
	s := n.Child(0).Tick()
	if !t.whenEnds.wait(n, s) && t.alarm.done() {
		return Success
	}
	return Running
}

func (t *timeLimit) Halt(*Node) { t.alarm.stop() }

// saveState saves the timer.
func (t *timeLimit) saveState(_ *Node, w *stateWriter) { t.alarm.saveState(w) }

func (t *timeLimit) restoreState(n *Node, r *stateReader) { t.alarm.restoreState(n, r) }
