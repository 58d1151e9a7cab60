package bt

import (
	"errors"
	"math"
	"strconv"
)

// Loop is behaviac's Loop: it keeps its child going for count ticks (-1: forever),
// whatever the child returns. count is read when the node enters (is ticked while
// Idle) and has no default.
//
//	entering, count 0 → Failure without ticking the child
//	every tick    → tick the child; ignore its status: count -1 → Running; otherwise
//	                one more tick done, count reached → Success, else Running
//	child completed → reset it (it starts again on the next tick)
//	Success while the child is Running → halt the child
//	decorate_when_child_ends → while the child is Running: Running, and the tick does
//	                not count (so count counts child completions)
//	halted        → halt the child; the next tick enters afresh
//
// With in_one_tick="true" (behaviac's legacy Repeat; count -1 is not allowed) the
// child is ticked up to count times within one tick:
//
//	child Failure → Failure
//	child Running → Running; the same iteration goes on next tick
//	child Success or Skipped → reset it; the next iteration, in the same tick
//	count iterations done → Success
//
// decorate_when_child_ends has no effect then. It never yields. XML:
//
//	<Loop count="10">
//	    <Wander/>
//	</Loop>
func Loop(count int, child *Spec) *Spec {
	return loopModel.Spec(child).With("count", strconv.Itoa(count))
}

var loopModel = &Model{
	ID: "Loop", Kind: KindDecorator,
	Description: "Keeps the child going for count ticks (-1: forever), whatever it returns; or ticks it count times in one tick.",
	Ports: []PortDef{
		InputPort[int]("count", "how many ticks (-1: forever); 0 fails at once").Require().atLeast(-1),
		InputPort[bool]("in_one_tick", "true: tick the child count times within one tick").WithDefault("false"),
		whenEndsPort(),
	},
	build: decorates(resetThenStore, func(c *NodeConfig) (decorator, error) {
		l := &loop{}
		err := errors.Join(l.count.bind(c, "count"), l.inOneTick.bind(c, "in_one_tick"), l.whenEnds.bind(c))
		if err == nil && l.count.set && l.count.val == -1 && l.inOneTick.set && l.inOneTick.val {
			err = errors.New(`count="-1" cannot be done in one tick: set in_one_tick="false" or a count`)
		}
		return l, err
	}),
}

type loop struct {
	count     In[int]
	inOneTick In[bool]
	whenEnds  whenEnds
	left      int // ticks (or iterations) left; -1: forever
	oneTick   bool
}

func (l *loop) decorate(n *Node) Status {
	if n.Status() != Running { // entering: ticked while not Running (not reset yet counts too)
		l.left = countOf(n, &l.count)
		one := l.inOneTick.mustGet(n)
		if one && l.left == -1 {
			n.Abort(errors.New(`count -1 cannot be done in one tick`))
		}
		l.oneTick = one
		if l.left == 0 {
			return Failure
		}
	}
	n.setRunning()
	if l.oneTick {
		return l.iterate(n)
	}
	s := n.Child(0).Tick()
	if l.whenEnds.wait(n, s) {
		return Running
	}
	if l.left == -1 {
		return Running
	}
	l.left--
	if l.left == 0 {
		return Success
	}
	return Running
}

// iterate runs the iterations left within this tick.
func (l *loop) iterate(n *Node) Status {
	child := n.Child(0)
	for l.left > 0 {
		switch child.Tick() {
		case Failure:
			return Failure
		case Running:
			return Running
		}
		child.Halt()
		l.left--
	}
	return Success
}

// saveState saves the ticks (or iterations) left, -1 for forever, and whether they
// run within one tick.
func (l *loop) saveState(_ *Node, w *stateWriter) {
	w.int("left", int64(l.left))
	w.flag("inOneTick", l.oneTick)
}

func (l *loop) restoreState(_ *Node, r *stateReader) {
	left, one := r.int("left", -1, math.MaxInt), r.flag("inOneTick")
	if r.applying() {
		l.left, l.oneTick = int(left), one
	}
}
