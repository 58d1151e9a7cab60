package bt

import (
	"fmt"
	"reflect"

	"github.com/gobt/bt/blackboard"
)

// LoopInt pops the elements of a queue one per tick into the output port "value" and
// ticks its child with each, as long as the child does not fail. LoopDouble,
// LoopString and LoopBool do the same with float64, string and bool elements.
//
//	queue empty (child not running) → if_empty (default Success; also Failure or
//	                Skipped) without ticking the child
//	otherwise, child not running → pop the first element into value, tick the child
//	child Running → Running; the same element goes on next tick (nothing is popped)
//	child Success → reset the child; Running (also after the last element: if_empty
//	                comes on the next tick, so N elements take N+1 ticks)
//	child Failure → reset the child; Failure (the rest of the queue is kept)
//	child Skipped → Running
//	halted        → halt the child
//
// queue is either literal text, "1;2;3", which each activation loops over afresh, or a
// blackboard entry "{key}". An entry holding a slice of the element type ([]int for
// LoopInt, []float64, []string, []bool) is consumed in place: each pop writes the
// shorter slice back, as BehaviorTree.CPP pops its shared deque (storing the slice in
// the entry costs a small allocation per pop, the only one of a tick). An entry holding
// ';'-separated text is read once per activation into a private queue (the entry is
// not changed). It never yields. XML:
//
//	<LoopInt queue="{floors}" value="{floor}">
//	    <GoToFloor floor="{floor}"/>
//	</LoopInt>
func LoopInt(queue, value string, child *Spec) *Spec {
	return loopIntModel.Spec(child).With("queue", queue).With("value", value)
}

// LoopDouble is LoopInt for float64 elements. XML:
//
//	<LoopDouble queue="0.5;1.5" value="{speed}">
//	    <Drive speed="{speed}"/>
//	</LoopDouble>
func LoopDouble(queue, value string, child *Spec) *Spec {
	return loopDoubleModel.Spec(child).With("queue", queue).With("value", value)
}

// LoopString is LoopInt for string elements. XML:
//
//	<LoopString queue="{rooms}" value="{room}">
//	    <Visit room="{room}"/>
//	</LoopString>
func LoopString(queue, value string, child *Spec) *Spec {
	return loopStringModel.Spec(child).With("queue", queue).With("value", value)
}

// LoopBool is LoopInt for bool elements. XML:
//
//	<LoopBool queue="true;false" value="{lights_on}">
//	    <SetLights on="{lights_on}"/>
//	</LoopBool>
func LoopBool(queue, value string, child *Spec) *Spec {
	return loopBoolModel.Spec(child).With("queue", queue).With("value", value)
}

// LoopOf returns the model of a loop over elements of type T, BehaviorTree.CPP's
// LoopNode<T>: LoopInt's ports (queue, if_empty, value), its statuses and the order
// of its changes (see LoopInt), over a queue of T. Register it under an ID of the
// program's own, as the reference registers LoopNode<Pose2D> (its tutorial 18):
//
//	f.Register(bt.LoopOf[Pose2D]("LoopPose"))
//
//	<LoopPose queue="{waypoints}" value="{wp}">
//	    <MoveTo goal="{wp}"/>
//	</LoopPose>
//
// An entry holding a []T is consumed in place, as LoopInt consumes a []int. Text — a
// literal queue, or an entry holding a string — is read as blackboard.Parse reads a
// []T: elements separated by ';', each read by T's UnmarshalText (or as a number,
// bool or string), or "json:" and a JSON array.
func LoopOf[T any](id string) *Model {
	m := loopModelOf[T](id)
	m.generic = true
	return m
}

var (
	loopIntModel    = loopModelOf[int]("LoopInt")
	loopDoubleModel = loopModelOf[float64]("LoopDouble")
	loopStringModel = loopModelOf[string]("LoopString")
	loopBoolModel   = loopModelOf[bool]("LoopBool")
)

func loopModelOf[T any](id string) *Model {
	return &Model{
		ID: id, Kind: KindDecorator,
		Description: "Pops the elements of a queue one per tick into value and ticks the child with each.",
		Ports: []PortDef{
			InputPort[Status]("if_empty", "the status to return once the queue is empty: SUCCESS, FAILURE or SKIPPED").WithDefault("SUCCESS"),
			InOutPort[any]("queue", "the elements: text separated by ';', or a blackboard entry holding a slice, consumed in place").Require().untyped(),
			OutputPort[T]("value", "the element being processed"),
		},
		build: decorates(resetThenStore, buildLoop[T]),
	}
}

func buildLoop[T any](c *NodeConfig) (decorator, error) {
	l := &loopQueue[T]{}
	if err := l.ifEmpty.bind(c, "if_empty"); err != nil {
		return l, err
	}
	if s, ok := l.ifEmpty.literal(); ok && s != Success && s != Failure && s != Skipped {
		return l, fmt.Errorf("port %q must be SUCCESS, FAILURE or SKIPPED, not %s", "if_empty", s)
	}
	if err := l.value.bind(c, "value"); err != nil {
		return l, err
	}
	if v, ok := goValue(c, "queue"); ok {
		var err error
		if l.static, err = convertTo[[]T](v); err != nil {
			return l, fmt.Errorf("port %q: %w", "queue", err)
		}
		l.isStatic = true
		return l, nil
	}
	text, def, set, err := portText(c, "queue")
	if err != nil || !set {
		return l, err
	}
	if key, ok := blackboardKey(text, "queue"); ok {
		l.entry, err = entryFor(c, key, def)
		return l, err
	}
	l.static, err = parseQueue[T](text, c.node.Tree().cfg.enums)
	if err != nil {
		return l, fmt.Errorf("port %q: %w", "queue", err)
	}
	l.isStatic = true
	return l, nil
}

func parseQueue[T any](text string, enums func(string) (int64, bool)) ([]T, error) {
	v, err := blackboard.Parse(text, reflect.TypeFor[[]T](), enums)
	if err != nil {
		return nil, err
	}
	return v.([]T), nil
}

type loopQueue[T any] struct {
	ifEmpty      In[Status]
	value        Out[T]
	entry        *blackboard.Entry // queue is "{key}"
	static       []T               // queue is literal text
	isStatic     bool
	private      []T // this activation's elements, when they are not consumed in place
	buf          []T // the storage of private, reused by each activation
	usePrivate   bool
	childRunning bool
}

func (l *loopQueue[T]) decorate(n *Node) Status {
	if n.Status() == Idle {
		l.childRunning = false
		l.usePrivate = l.isStatic
		if l.isStatic {
			l.buf = append(l.buf[:0], l.static...)
			l.private = l.buf
		}
	}
	if !l.childRunning {
		v, ok := l.pop(n)
		if !ok {
			s := l.ifEmpty.mustGet(n)
			if s != Success && s != Failure && s != Skipped {
				n.Abort(fmt.Errorf("port %q must be SUCCESS, FAILURE or SKIPPED, not %s", "if_empty", s))
			}
			return s
		}
		if l.value.entry != nil {
			if err := l.value.Set(v); err != nil {
				n.Abort(err)
			}
		}
	}
	n.setRunning()
	s := n.Child(0).Tick()
	l.childRunning = s == Running
	if s != Failure {
		s = Running // the next element comes on the next tick
	}
	return s
}

// pop takes the next element: from the private queue, or from the entry, in place.
func (l *loopQueue[T]) pop(n *Node) (v T, ok bool) {
	if !l.usePrivate && l.entry != nil {
		x := l.entry.Load()
		switch q := x.Any().(type) {
		case nil:
			return v, false // empty or absent: an empty queue
		case []T:
			if len(q) == 0 {
				return v, false
			}
			if err := blackboard.Put(l.entry, q[1:]); err != nil {
				n.Abort(fmt.Errorf("port %q: %w", "queue", err))
			}
			return q[0], true
		case string:
			p, err := parseQueue[T](q, n.Tree().cfg.enums)
			if err != nil {
				n.Abort(fmt.Errorf("port %q: %w", "queue", err))
			}
			l.private, l.usePrivate = p, true
		default:
			n.Abort(fmt.Errorf("port %q: the entry %q holds a %s, not a []%s or ';'-separated text",
				"queue", l.entry.Key(), x.Type(), reflect.TypeFor[T]()))
		}
	}
	if len(l.private) == 0 {
		return v, false
	}
	v = l.private[0]
	l.private = l.private[1:]
	return v, true
}

// saveState saves whether the child runs with the current element ("running") and,
// when the node pops from a queue of its own rather than from the entry, that it does
// ("ownQueue") and the elements left ("queue").
func (l *loopQueue[T]) saveState(_ *Node, w *stateWriter) {
	w.flag("running", l.childRunning)
	if !l.usePrivate {
		return
	}
	w.flag("ownQueue", true)
	if len(l.private) == 0 {
		return
	}
	js, err := blackboard.MarshalTyped(blackboard.ValueOf(l.private))
	if err != nil {
		w.fail(fmt.Errorf("field %q: %w", "queue", err))
	}
	w.raw("queue", js)
}

func (l *loopQueue[T]) restoreState(_ *Node, r *stateReader) {
	running, own := r.flag("running"), r.flag("ownQueue")
	var queue []T
	if js := r.raw("queue"); js != nil {
		v, err := blackboard.UnmarshalTyped(js, reflect.TypeFor[[]T]())
		if err != nil {
			r.fail("field %q: %v", "queue", err)
		} else {
			queue, _ = v.Any().([]T)
		}
		if !own {
			r.fail(`field "queue" without "ownQueue"`)
		}
	}
	if r.applying() {
		l.childRunning, l.usePrivate = running, own
		l.buf = append(l.buf[:0], queue...)
		l.private = l.buf
	}
}
