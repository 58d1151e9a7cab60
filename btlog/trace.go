package btlog

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/gobt/bt"
)

// Trace writes the tree's run as a Chrome trace (JSON), as BehaviorTree.CPP's
// MinitraceLogger does, for Perfetto (ui.perfetto.dev) and chrome://tracing: a node
// that goes RUNNING opens a span ("B") that its completion or halt closes ("E"), and a
// node that completes in the tick it starts in is an instant event ("i"). Each event
// has the node's name, its kind as category ("Action", "Control", …) and, in args, its
// UID and path and the status it reached.
//
// Spans must nest on a track, so a node whose parent's track is taken by a sibling that
// runs at the same time (the children of a Parallel) opens its span on a track of its
// own: track k is thread TID+k, named after the tree. Spans still open when the logger
// closes end at that time with status RUNNING.
//
// Times are µs since the logger attached, from the tree's clock. Differences from
// MinitraceLogger: halted spans end (MinitraceLogger leaves them open), names are
// escaped as JSON, and instant events use the current "i" phase instead of "I".
type Trace struct{ stream }

// TraceOptions configure a Trace; the zero value (or nil) uses the process ID and
// thread 1.
type TraceOptions struct {
	PID int // the trace's process ID; 0: os.Getpid()
	TID int // the thread ID of the first track; 0: 1
}

// CreateTrace creates (or truncates) the file name and attaches a Trace to t that
// writes to it. Close completes the JSON and closes the file.
func CreateTrace(t *bt.Tree, name string, o *TraceOptions) (*Trace, error) {
	if t == nil {
		return nil, errNilTree
	}
	f, err := os.Create(name)
	if err != nil {
		return nil, fmt.Errorf("btlog: %w", err)
	}
	tr, err := newTrace(t, f, f, o)
	if err != nil {
		f.Close()
	}
	return tr, err
}

// NewTrace attaches a Trace to t that writes to w. The JSON is complete once the
// Trace is closed; Close does not close w.
func NewTrace(t *bt.Tree, w io.Writer, o *TraceOptions) (*Trace, error) {
	return newTrace(t, w, nil, o)
}

func newTrace(t *bt.Tree, w io.Writer, c io.Closer, o *TraceOptions) (*Trace, error) {
	if o == nil {
		o = &TraceOptions{}
	}
	tr := &Trace{}
	out, err := tr.open(t, w, c, nil)
	if err != nil {
		return nil, err
	}
	tr.run(t, newTraceSink(out, tr.nodes, t.ID(), o))
	return tr, nil
}

// newTraceSink makes the sink of a Trace of the tree id (nodes by UID-1) and writes
// the trace's start to its buffer.
func newTraceSink(out output, nodes []NodeInfo, id string, o *TraceOptions) *traceSink {
	sk := &traceSink{output: out, nodes: nodes, pid: o.PID, tid: o.TID, open: make([]int, len(nodes)+1)}
	if sk.pid == 0 {
		sk.pid = os.Getpid()
	}
	if sk.tid == 0 {
		sk.tid = 1
	}
	if id == "" {
		id = "MainTree"
	}
	sk.thread = appendJSON(nil, id)
	sk.names = make([][]byte, len(nodes))
	sk.args = make([][]byte, len(nodes))
	for i, n := range nodes {
		sk.names[i] = appendJSON(nil, n.Name)
		sk.args[i] = appendJSON(append(strconv.AppendUint([]byte(`"uid":`), uint64(n.UID), 10), `,"path":`...), n.Path)
	}
	for i := range sk.open {
		sk.open[i] = -1
	}
	sk.buf = append(sk.buf, "{\"traceEvents\":[\n"...)
	sk.tracks = make([][]uint16, 1)
	sk.name(0)
	return sk
}

type traceSink struct {
	output
	nodes    []NodeInfo
	pid, tid int
	thread   []byte   // the tree's ID, as JSON
	names    [][]byte // of the nodes, as JSON, by UID-1
	args     [][]byte // "uid":N,"path":".." of the nodes, by UID-1
	events   int      // written so far
	open     []int    // the track of each UID's open span; -1: none
	tracks   [][]uint16
}

func (t *traceSink) write(batch []Transition) error {
	for _, tr := range batch {
		t.transition(tr)
	}
	return t.emit()
}

// transition appends the event of one change, if it makes one.
func (t *traceSink) transition(tr Transition) {
	switch {
	case tr.Previous == bt.Idle && tr.Status.Completed():
		t.event(tr.Offset, 'i', tr.UID, t.trackOf(tr.UID), tr.Status)
	case tr.Status == bt.Running:
		if t.open[tr.UID] < 0 {
			t.begin(tr.Offset, tr.UID)
		}
	case tr.Previous == bt.Running:
		t.end(tr.Offset, tr.UID, tr.Status)
	}
}

// begin opens the span of uid on the track of its nearest running ancestor, if that
// ancestor is the innermost span there; otherwise on the first free track.
func (t *traceSink) begin(at time.Duration, uid uint16) {
	k := t.trackOf(uid)
	if s := t.tracks; k >= len(s) || len(s[k]) > 0 && !t.isAncestor(s[k][len(s[k])-1], uid) {
		k = 0
		for k < len(t.tracks) && len(t.tracks[k]) > 0 {
			k++
		}
	}
	if k == len(t.tracks) {
		t.tracks = append(t.tracks, nil)
		t.name(k)
	}
	t.tracks[k] = append(t.tracks[k], uid)
	t.open[uid] = k
	t.event(at, 'B', uid, k, bt.Running)
}

// end closes the span of uid, and first those opened after it on its track, which
// should have ended before it.
func (t *traceSink) end(at time.Duration, uid uint16, s bt.Status) {
	k := t.open[uid]
	if k < 0 {
		return
	}
	for {
		stack := t.tracks[k]
		top := stack[len(stack)-1]
		t.tracks[k] = stack[:len(stack)-1]
		t.open[top] = -1
		if top == uid {
			t.event(at, 'E', uid, k, s)
			return
		}
		t.event(at, 'E', top, k, bt.Running)
	}
}

// trackOf returns the track of uid's nearest ancestor with an open span (0: none).
func (t *traceSink) trackOf(uid uint16) int {
	for p := t.nodes[uid-1].Parent; p != 0; p = t.nodes[p-1].Parent {
		if k := t.open[p]; k >= 0 {
			return k
		}
	}
	return 0
}

func (t *traceSink) isAncestor(a, uid uint16) bool {
	for p := t.nodes[uid-1].Parent; p != 0; p = t.nodes[p-1].Parent {
		if p == a {
			return true
		}
	}
	return false
}

// event appends one event: phase 'B' (with the node's UID and path), 'E' (with the
// status) or 'i' (with both).
func (t *traceSink) event(at time.Duration, phase byte, uid uint16, track int, s bt.Status) {
	b := t.next()
	b = append(b, `{"cat":"`...)
	b = append(b, t.nodes[uid-1].Kind.String()...)
	b = append(b, `","pid":`...)
	b = strconv.AppendInt(b, int64(t.pid), 10)
	b = append(b, `,"tid":`...)
	b = strconv.AppendInt(b, int64(t.tid+track), 10)
	b = append(b, `,"ts":`...)
	b = strconv.AppendInt(b, max(at.Microseconds(), 0), 10)
	b = append(b, `,"ph":"`...)
	b = append(b, phase, '"')
	if phase == 'i' {
		b = append(b, `,"s":"t"`...)
	}
	b = append(b, `,"name":`...)
	b = append(b, t.names[uid-1]...)
	b = append(b, `,"args":{`...)
	if phase != 'E' {
		b = append(b, t.args[uid-1]...)
	}
	if phase != 'B' {
		if phase == 'i' {
			b = append(b, ',')
		}
		b = append(b, `"status":"`...)
		b = append(b, s.String()...)
		b = append(b, '"')
	}
	t.buf = append(b, "}}"...)
}

// name appends the metadata event that names track k after the tree.
func (t *traceSink) name(k int) {
	b := t.next()
	b = append(b, `{"name":"thread_name","ph":"M","pid":`...)
	b = strconv.AppendInt(b, int64(t.pid), 10)
	b = append(b, `,"tid":`...)
	b = strconv.AppendInt(b, int64(t.tid+k), 10)
	b = append(b, `,"args":{"name":`...)
	if k == 0 {
		b = append(b, t.thread...)
	} else {
		b = append(b, t.thread[:len(t.thread)-1]...)
		b = append(b, " ("...)
		b = strconv.AppendInt(b, int64(k+1), 10)
		b = append(b, `)"`...)
	}
	t.buf = append(b, "}}"...)
}

// next returns buf with the separator before a new event.
func (t *traceSink) next() []byte {
	t.events++
	if t.events == 1 {
		return t.buf
	}
	return append(t.buf, ",\n"...)
}

// close ends the spans still open, innermost first, and the JSON.
func (t *traceSink) close(end time.Duration) error {
	for k := range t.tracks {
		for len(t.tracks[k]) > 0 {
			s := t.tracks[k]
			t.end(end, s[len(s)-1], bt.Running)
		}
	}
	t.buf = append(t.buf, "\n]}\n"...)
	return t.output.close()
}
