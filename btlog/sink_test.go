package btlog

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// memSink keeps what a Stream hands it.
type memSink struct {
	got            []Transition
	flushes        int
	closedAt       time.Duration
	closed         bool
	nodes          []NodeInfo
	start          time.Time
	failWritesWith error
	drained        []int // len(got) at each Drained
}

func (m *memSink) Drained() error { m.drained = append(m.drained, len(m.got)); return nil }

func (m *memSink) Write(batch []Transition) error {
	m.got = append(m.got, batch...)
	return m.failWritesWith
}
func (m *memSink) Flush() error                  { m.flushes++; return nil }
func (m *memSink) Close(end time.Duration) error { m.closed, m.closedAt = true, end; return nil }

// TestStream hands the mission's run to a Sink of the test's, as a logger of another
// module does.
func TestStream(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tree := mission(t)
		want := record(tree)
		m := &memSink{}
		s, err := NewStream(tree, nil, func(nodes []NodeInfo, start time.Time) (Sink, error) {
			m.nodes, m.start = nodes, start
			return m, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !s.Start().Equal(tree.Clock().Now()) || !m.start.Equal(s.Start()) {
			t.Errorf("start %v, sink given %v, want the clock's %v", s.Start(), m.start, tree.Clock().Now())
		}
		if !slices.Equal(m.nodes, nodesOf(tree)) {
			t.Errorf("the sink was given nodes %v", m.nodes)
		}
		run(t, tree)
		if err := s.Flush(); err != nil || m.flushes != 1 {
			t.Errorf("Flush: %v, %d calls of the sink's", err, m.flushes)
		}
		// Drained follows the Writes of each drain, before a Flush returns: the mission
		// ticked 7 ms apart, and the writer took each tick a millisecond after it.
		if len(m.drained) < 2 || m.drained[len(m.drained)-1] != len(*want) || slices.Contains(m.drained, 0) {
			t.Errorf("Drained after %v transitions, want after each drain and after the last of %d", m.drained, len(*want))
		}
		drains := len(m.drained)
		if err := s.Flush(); err != nil || len(m.drained) != drains {
			t.Errorf("a Flush with nothing queued: %v, Drained %d times more", err, len(m.drained)-drains)
		}
		time.Sleep(time.Second)
		closeAll(t, s)
		if !slices.Equal(m.got, *want) {
			t.Errorf("the sink got\n%v\nwant\n%v", m.got, *want)
		}
		if !m.closed || m.closedAt < time.Second {
			t.Errorf("closed %v at %v, want at the end", m.closed, m.closedAt)
		}
	})
}

func TestStreamErrors(t *testing.T) {
	tree := mission(t)
	boom := errors.New("boom")
	if _, err := NewStream(tree, nil, nil); err == nil {
		t.Error("NewStream without a constructor: no error")
	}
	if _, err := NewStream(tree, nil, func([]NodeInfo, time.Time) (Sink, error) { return nil, boom }); err != boom {
		t.Errorf("NewStream whose sink fails: %v, want the sink's error", err)
	}
	if _, err := NewStream(tree, nil, func([]NodeInfo, time.Time) (Sink, error) { return nil, nil }); err == nil {
		t.Error("NewStream with a nil sink: no error")
	}
	if _, err := NewStream(nil, nil, func([]NodeInfo, time.Time) (Sink, error) { return &memSink{}, nil }); err != errNilTree {
		t.Errorf("NewStream of a nil tree: %v", err)
	}
	// A sink's error stops the writing and is what Flush and Close return.
	m := &memSink{failWritesWith: boom}
	s, err := NewStream(tree, nil, func([]NodeInfo, time.Time) (Sink, error) { return m, nil })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tree.TickOnce(); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(); err != boom {
		t.Errorf("Flush after the sink failed: %v", err)
	}
	tree.Halt()
	if err := s.Close(); err != boom {
		t.Errorf("Close after the sink failed: %v", err)
	}
}

func TestReadTreeXML(t *testing.T) {
	tree := mission(t)
	var xml strings.Builder
	if err := WriteTreeXML(&xml, tree); err != nil {
		t.Fatal(err)
	}
	nodes, err := ReadTreeXML([]byte(xml.String()))
	if err != nil || !slices.Equal(nodes, nodesOf(tree)) {
		t.Errorf("ReadTreeXML: %v, %v; want the tree's nodes", nodes, err)
	}
	_, err = ReadTreeXML([]byte(`<root><BehaviorTree ID="x" _fullpath=""><Sequence _uid="1"></root>`))
	if err == nil || !strings.HasPrefix(err.Error(), "btlog: byte ") {
		t.Errorf("ReadTreeXML of bad XML: %v, want the byte of the problem", err)
	}
}
