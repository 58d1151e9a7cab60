package bt

import (
	"errors"
	"math"
	"strconv"
)

// LoopUntil is behaviac's LoopUntil: it keeps its child going until the child returns
// the status until asks for (until=true: Success, false: Failure), for at most count
// ticks (-1: no limit). count is read when the node enters and has no default.
//
//	entering, count 0 → Failure without ticking the child
//	every tick    → tick the child, then:
//	                count ticks done → Success (even if the child never got there)
//	                until=true and child Success → Success
//	                until=false and child Failure → Failure
//	                otherwise → Running
//	child completed → reset it (it starts again on the next tick)
//	completing while the child is Running → halt the child
//	decorate_when_child_ends → while the child is Running: Running, and the tick does
//	                not count
//	halted        → halt the child; the next tick enters afresh
//
// It never yields. XML:
//
//	<LoopUntil count="20" until="true">
//	    <TryToGrasp/>
//	</LoopUntil>
func LoopUntil(count int, until bool, child *Spec) *Spec {
	return loopUntilModel.Spec(child).With("count", strconv.Itoa(count)).With("until", strconv.FormatBool(until))
}

var loopUntilModel = &Model{
	ID: "LoopUntil", Kind: KindDecorator,
	Description: "Keeps the child going until it succeeds (until=true) or fails (until=false), for at most count ticks.",
	Ports: []PortDef{
		InputPort[int]("count", "the most ticks (-1: no limit); 0 fails at once").Require().atLeast(-1),
		InputPort[bool]("until", "true: stop at the child's SUCCESS; false: stop at its FAILURE").WithDefault("true"),
		whenEndsPort(),
	},
	build: decorates(resetThenStore, func(c *NodeConfig) (decorator, error) {
		l := &loopUntil{}
		return l, errors.Join(l.count.bind(c, "count"), l.until.bind(c, "until"), l.whenEnds.bind(c))
	}),
}

type loopUntil struct {
	count    In[int]
	until    In[bool]
	whenEnds whenEnds
	left     int
}

func (l *loopUntil) decorate(n *Node) Status {
	if n.Status() != Running { // entering: ticked while not Running (not reset yet counts too)
		if l.left = countOf(n, &l.count); l.left == 0 {
			return Failure
		}
	}
	n.setRunning()
	s := n.Child(0).Tick()
	if l.whenEnds.wait(n, s) {
		return Running
	}
	if l.left > 0 {
		if l.left--; l.left == 0 {
			return Success
		}
	}
	until := l.until.mustGet(n)
	switch {
	case until && s == Success:
		return Success
	case !until && s == Failure:
		return Failure
	}
	return Running
}

// saveState saves the ticks left (-1: no limit).
func (l *loopUntil) saveState(_ *Node, w *stateWriter) { w.int("left", int64(l.left)) }

func (l *loopUntil) restoreState(_ *Node, r *stateReader) {
	left := r.int("left", -1, math.MaxInt)
	if r.applying() {
		l.left = int(left)
	}
}
