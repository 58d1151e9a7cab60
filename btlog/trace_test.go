package btlog

import (
	"bytes"
	"encoding/json"
	"testing"
	"testing/synctest"

	"github.com/gobt/bt"
)

// traceEvent is what the tests read back of a trace's events.
type traceEvent struct {
	Cat, Ph, Name, S string
	PID, TID         int
	TS               int64
	Args             map[string]any
}

func readTrace(t *testing.T, data []byte) []traceEvent {
	t.Helper()
	var doc struct{ TraceEvents []traceEvent }
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("the trace is not JSON: %v\n%s", err, data)
	}
	return doc.TraceEvents
}

// checkNesting checks that the spans of each thread nest: an E ends the last B open
// on its thread, and none is left open.
func checkNesting(t *testing.T, events []traceEvent) {
	t.Helper()
	open := map[int][]string{}
	for i, e := range events {
		switch e.Ph {
		case "B":
			open[e.TID] = append(open[e.TID], e.Name)
		case "E":
			s := open[e.TID]
			if len(s) == 0 || s[len(s)-1] != e.Name {
				t.Fatalf("event %d: E %q on thread %d, where the open spans are %q", i, e.Name, e.TID, s)
			}
			open[e.TID] = s[:len(s)-1]
		}
	}
	for tid, s := range open {
		if len(s) > 0 {
			t.Errorf("thread %d: spans left open: %q", tid, s)
		}
	}
}

// TestTraceGolden: the mission's Parallel runs two children at once, whose spans take
// two tracks; the trace is valid JSON whose spans nest.
func TestTraceGolden(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tree := mission(t)
		var out bytes.Buffer
		l, err := NewTrace(tree, &out, &TraceOptions{PID: 7})
		if err != nil {
			t.Fatal(err)
		}
		run(t, tree)
		closeAll(t, l)
		golden(t, "mission.trace.json", out.Bytes())
		events := readTrace(t, out.Bytes())
		checkNesting(t, events)
		tids := map[int]bool{}
		for _, e := range events {
			tids[e.TID] = true
		}
		if len(tids) != 2 {
			t.Errorf("the events are on threads %v, want 1 and 2", tids)
		}
	})
}

// TestTraceHalt: spans of halted nodes end with IDLE; spans still open when the logger
// closes end then, with RUNNING; a logger closed at once writes a valid, empty trace.
func TestTraceHalt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tree := mission(t)
		var out bytes.Buffer
		l, err := NewTrace(tree, &out, &TraceOptions{PID: 7, TID: 10})
		if err != nil {
			t.Fatal(err)
		}
		if s, err := tree.TickOnce(); s != bt.Running || err != nil {
			t.Fatalf("tick: %s, %v", s, err)
		}
		if err := tree.Halt(); err != nil {
			t.Fatal(err)
		}
		if _, err := tree.TickOnce(); err != nil {
			t.Fatal(err)
		}
		closeAll(t, l)
		if err := tree.Halt(); err != nil { // the async action's goroutine
			t.Fatal(err)
		}
		golden(t, "halt.trace.json", out.Bytes())
		checkNesting(t, readTrace(t, out.Bytes()))

		out.Reset()
		if l, err = NewTrace(mission(t), &out, nil); err != nil {
			t.Fatal(err)
		}
		closeAll(t, l)
		if events := readTrace(t, out.Bytes()); len(events) != 1 || events[0].Ph != "M" {
			t.Errorf("an empty trace has events %+v", events)
		}
	})
}

// TestTraceTracks: when a node's track is taken by a node that is not its ancestor (a
// sibling still running), it opens a track of its own, the first free one; a node that
// ends while a node opened after it on its track is still running ends that one first.
func TestTraceTracks(t *testing.T) {
	//    1
	//   / \
	//  2   3
	//  |
	//  4
	nodes := []NodeInfo{{UID: 1, Name: "a", Kind: bt.KindControl}, {UID: 2, Parent: 1, Name: "b", Kind: bt.KindControl},
		{UID: 3, Parent: 1, Name: "c", Kind: bt.KindAction}, {UID: 4, Parent: 2, Name: "d", Kind: bt.KindAction}}
	var out bytes.Buffer
	sk := newTraceSink(output{w: &out}, nodes, "T", &TraceOptions{PID: 1})
	step := func(uid uint16, prev, s bt.Status) { sk.transition(Transition{UID: uid, Previous: prev, Status: s}) }
	step(1, bt.Idle, bt.Running)    // a on track 0
	step(2, bt.Idle, bt.Running)    // b on track 0, above a
	step(3, bt.Idle, bt.Running)    // c: a's track is taken by b → track 1
	step(4, bt.Idle, bt.Running)    // d above b on track 0
	step(2, bt.Running, bt.Success) // b ends: d first
	step(3, bt.Running, bt.Success)
	step(4, bt.Idle, bt.Success) // an instant on a's track
	step(3, bt.Idle, bt.Running) // track 0 has a at the top: c goes there now
	if err := sk.close(0); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range readTrace(t, out.Bytes()) {
		got = append(got, e.Ph+e.Name+string(rune('0'+e.TID)))
	}
	want := "Mthread_name1 Ba1 Bb1 Mthread_name2 Bc2 Bd1 Ed1 Eb1 Ec2 id1 Bc1 Ec1 Ea1"
	if g := join(got); g != want {
		t.Errorf("events %s\nwant   %s", g, want)
	}
}

func join(ss []string) string {
	var b bytes.Buffer
	for i, s := range ss {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s)
	}
	return b.String()
}
