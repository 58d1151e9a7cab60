package bt

import "time"

// Delay waits delay_msec milliseconds, on the tree's clock, before it ticks its child.
//
//	first tick    → start the timer; Running (also when delay_msec is 0: the child is
//	                ticked on the next tick, at once with TickOnce)
//	timer pending → Running
//	timer expired → tick the child (and from then on every tick); its status
//	child Success → reset the child; Success; the next activation waits again
//	child Failure → reset the child; Failure; the next activation waits again
//	child Running → Running
//	child Skipped → Skipped; the next activation waits again (BehaviorTree.CPP would
//	                not wait again: it keeps a skipped activation going)
//	halted        → stop the timer, halt the child
//
// When the timer expires it wakes the tree up, cutting TickWhileRunning's sleep short.
// XML:
//
//	<Delay delay_msec="500">
//	    <Beep/>
//	</Delay>
func Delay(d time.Duration, child *Spec) *Spec {
	return delayModel.Spec(child).With("delay_msec", msecText(d))
}

var delayModel = &Model{
	ID: "Delay", Kind: KindDecorator,
	Description: "Waits delay_msec milliseconds, then ticks the child and returns its status.",
	Ports:       []PortDef{InputPort[uint32]("delay_msec", "how long to wait before ticking the child, in milliseconds").Require()},
	build: decorates(resetThenStore, func(c *NodeConfig) (decorator, error) {
		d := &delay{}
		return d, d.msec.bind(c, "delay_msec")
	}),
}

type delay struct {
	msec    In[uint32]
	alarm   alarm
	started bool
}

func (d *delay) decorate(n *Node) Status {
	if !d.started {
		ms := d.msec.mustGet(n)
		d.started = true
		n.setRunning()
		d.alarm.set(n, millis(ms))
		return Running
	}
	if !d.alarm.done() {
		return Running
	}
	s := n.Child(0).Tick()
	if s != Running {
		d.started = false
	}
	return s
}

func (d *delay) Halt(*Node) {
	d.alarm.stop()
	d.started = false
}

// saveState saves whether the wait started, and its timer.
func (d *delay) saveState(_ *Node, w *stateWriter) {
	w.flag("started", d.started)
	d.alarm.saveState(w)
}

func (d *delay) restoreState(n *Node, r *stateReader) {
	started := r.flag("started")
	d.alarm.restoreState(n, r)
	if r.applying() {
		d.started = started
	}
}
