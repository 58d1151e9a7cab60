package bt

import "time"

// Sleep is an action that waits msec milliseconds on the tree's clock.
//
//	first tick, msec 0 → Success
//	first tick    → start the timer; Running
//	timer pending → Running
//	timer expired → Success
//	halted        → stop the timer
//
// When the timer expires it wakes the tree up, cutting TickWhileRunning's sleep short.
// XML:
//
//	<Sleep msec="1000"/>
func Sleep(d time.Duration) *Spec {
	return sleepModel.Spec().With("msec", msecText(d))
}

var sleepModel = &Model{
	ID: "Sleep", Kind: KindAction,
	Description: "Waits msec milliseconds, then succeeds.",
	Ports:       []PortDef{InputPort[uint32]("msec", "how long to wait, in milliseconds").Require()},
	build: func(c *NodeConfig) (ticker, error) {
		s := &sleep{}
		return s, s.msec.bind(c, "msec")
	},
}

type sleep struct {
	msec  In[uint32]
	alarm alarm
}

func (s *sleep) tick(n *Node) Status {
	switch n.Status() {
	case Running:
		if s.alarm.done() {
			return Success
		}
		return Running
	case Idle:
		ms := s.msec.mustGet(n)
		if ms == 0 {
			return Success
		}
		s.alarm.set(n, millis(ms))
		return Running
	}
	return n.Status() // completed, not reset yet: the same result, as a stateful action
}

func (s *sleep) Halt(*Node) { s.alarm.stop() }

// saveState saves the timer.
func (s *sleep) saveState(_ *Node, w *stateWriter) { s.alarm.saveState(w) }

func (s *sleep) restoreState(n *Node, r *stateReader) { s.alarm.restoreState(n, r) }
