package bt

import "time"

// Timeout ticks its child and gives up on it when it is still running msec
// milliseconds after the activation started (msec 0: no time limit).
//
//	first tick    → start the timer (on the tree's clock), then as below
//	timer expired → halt the child; Failure
//	child Success → stop the timer, reset the child; Success
//	child Failure → stop the timer, reset the child; Failure
//	child Running → Running
//	child Skipped → stop the timer; Skipped (BehaviorTree.CPP leaves its timer running
//	                into the next activation; bt starts a new one)
//	halted        → stop the timer, halt the child
//
// BehaviorTree.CPP halts the child from its timer thread, at the deadline. In bt the
// timer only wakes the tree up: the child is halted, and Failure returned, by the next
// tick, in the goroutine that ticks the tree. XML:
//
//	<Timeout msec="5000">
//	    <KeepYourBreath/>
//	</Timeout>
func Timeout(d time.Duration, child *Spec) *Spec {
	return timeoutModel.Spec(child).With("msec", msecText(d))
}

var timeoutModel = &Model{
	ID: "Timeout", Kind: KindDecorator,
	Description: "Halts the child and fails if it is still running after msec milliseconds.",
	Ports:       []PortDef{InputPort[uint32]("msec", "the time limit in milliseconds (0: none)").Require()},
	build: decorates(resetThenStore, func(c *NodeConfig) (decorator, error) {
		t := &timeout{}
		return t, t.msec.bind(c, "msec")
	}),
}

type timeout struct {
	msec    In[uint32]
	alarm   alarm
	started bool
	timed   bool // a timer runs in this activation
}

func (t *timeout) decorate(n *Node) Status {
	child := n.Child(0)
	if !t.started {
		ms := t.msec.mustGet(n)
		t.started, t.timed = true, ms > 0
		n.setRunning()
		if t.timed {
			t.alarm.set(n, millis(ms))
		}
	}
	if t.timed && t.alarm.done() {
		t.started = false
		return Failure // halts the child
	}
	s := child.Tick()
	if s != Running {
		t.end()
	}
	return s
}

func (t *timeout) end() {
	if t.timed {
		t.alarm.stop()
	}
	t.started = false
}

func (t *timeout) Halt(*Node) { t.end() }

// saveState saves whether an activation started, and its timer.
func (t *timeout) saveState(_ *Node, w *stateWriter) {
	w.flag("started", t.started)
	w.flag("timed", t.timed)
	t.alarm.saveState(w)
}

func (t *timeout) restoreState(n *Node, r *stateReader) {
	started, timed := r.flag("started"), r.flag("timed")
	t.alarm.restoreState(n, r)
	if r.applying() {
		t.started, t.timed = started, timed
	}
}
