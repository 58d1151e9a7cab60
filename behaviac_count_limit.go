package bt

import (
	"errors"
	"math"
	"strconv"
)

// CountLimit is behaviac's CountLimit: it lets its child run count times (-1: no
// limit), counting entries — activations — not ticks, and then fails without ticking
// the child until the script reset_if re-arms it. The count is loaded at the first
// entry and whenever reset_if is true at an entry.
//
//	entering, reset_if true → re-arm: the count starts again from count
//	entering, count used up → Failure without ticking the child
//	entering otherwise → use one (unless count is -1), then as below
//	every tick    → tick the child; its status
//	child completed → reset the child
//	halted        → halt the child; the count is kept (halting does not re-arm)
//
// decorate_when_child_ends is accepted for symmetry with the other behaviac nodes but
// changes nothing: CountLimit always returns its child's status. XML:
//
//	<CountLimit count="3" reset_if="mission_changed">
//	    <CallForHelp/>
//	</CountLimit>
func CountLimit(count int, resetIf string, child *Spec) *Spec {
	s := countLimitModel.Spec(child).With("count", strconv.Itoa(count))
	if resetIf != "" {
		s.withScript("reset_if", resetIf)
	}
	return s
}

var countLimitModel = &Model{
	ID: "CountLimit", Kind: KindDecorator,
	Description: "Lets the child run count times (entries, not ticks), then fails until reset_if re-arms it.",
	Ports: []PortDef{
		InputPort[int]("count", "how many entries (-1: no limit)").Require().atLeast(-1),
		InputPort[string]("reset_if", "a script; when true at an entry, the count starts again").holdsScript(),
		whenEndsPort(),
	},
	build: decorates(resetThenStore, func(c *NodeConfig) (decorator, error) {
		l := &countLimit{}
		err := errors.Join(l.count.bind(c, "count"), l.whenEnds.bind(c))
		if _, _, set, _ := portText(c, "reset_if"); set {
			l.hasReset = true
			err = errors.Join(err, l.resetIf.bind(c, "reset_if"))
		}
		return l, err
	}),
}

type countLimit struct {
	count    In[int]
	resetIf  codePort
	hasReset bool
	whenEnds whenEnds
	left     int
	armed    bool
}

func (l *countLimit) decorate(n *Node) Status {
	if n.Status() != Running { // entering: ticked while not Running (not reset yet counts too)
		if l.hasReset && l.armed {
			l.armed = !l.resetIf.truth(n)
		}
		if !l.armed {
			l.left, l.armed = countOf(n, &l.count), true
		}
		switch {
		case l.left == 0:
			return Failure
		case l.left > 0:
			l.left--
		}
	}
	n.setRunning()
	return n.Child(0).Tick()
}

// saveState saves the entries left (-1: no limit) and whether the count is loaded;
// both live across activations.
func (l *countLimit) saveState(_ *Node, w *stateWriter) {
	w.int("left", int64(l.left))
	w.flag("armed", l.armed)
}

func (l *countLimit) restoreState(_ *Node, r *stateReader) {
	left, armed := r.int("left", -1, math.MaxInt), r.flag("armed")
	if r.applying() {
		l.left, l.armed = int(left), armed
	}
}
