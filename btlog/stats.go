package btlog

import (
	"fmt"
	"io"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/gobt/bt"
)

// Stats counts, for every node of a tree, the status changes it went through, as
// BehaviorTree.CPP's TreeObserver does: a non-intrusive way for tests to check that a
// node ran, how often it succeeded or failed, and what it did last. It is safe to read
// from any goroutine while the tree ticks.
//
// TreeObserver also counts transitions to SKIPPED, which BehaviorTree.CPP 4.10 never
// reports (a skipped node keeps its IDLE status, and no change is sent); bt sends the
// same changes, so Stats has no such count.
type Stats struct {
	nodes  []NodeInfo
	byPath map[string]uint16
	cancel func()

	mu    sync.Mutex
	stats []NodeStats // by UID-1
}

// NodeStats are the statistics of one node.
type NodeStats struct {
	// Transitions counts the changes to a status other than IDLE.
	Transitions int
	// Successes and Failures count the changes to SUCCESS and to FAILURE.
	Successes, Failures int
	// LastResult is the last SUCCESS or FAILURE (IDLE before the first).
	LastResult bt.Status
	// Status is the status of the last change, IDLE included.
	Status bt.Status
	// Time is when the last change happened, from the tree's clock (zero before it).
	Time time.Time
}

// NewStats attaches a Stats to t.
func NewStats(t *bt.Tree) (*Stats, error) {
	if t == nil {
		return nil, errNilTree
	}
	s := &Stats{nodes: nodesOf(t), byPath: make(map[string]uint16, t.Len())}
	s.stats = make([]NodeStats, len(s.nodes))
	for _, n := range s.nodes {
		s.byPath[n.Path] = n.UID
	}
	s.cancel = t.Subscribe(s.add)
	return s, nil
}

func (s *Stats) add(c bt.StatusChange) {
	s.mu.Lock()
	st := &s.stats[c.Node.UID()-1]
	st.Status, st.Time = c.Status, c.Time
	switch c.Status {
	case bt.Idle:
	case bt.Success:
		st.Transitions++
		st.Successes++
		st.LastResult = c.Status
	case bt.Failure:
		st.Transitions++
		st.Failures++
		st.LastResult = c.Status
	default:
		st.Transitions++
	}
	s.mu.Unlock()
}

// ByUID returns the statistics of the node whose UID is uid; false if there is none.
func (s *Stats) ByUID(uid uint16) (NodeStats, bool) {
	if uid == 0 || int(uid) > len(s.stats) {
		return NodeStats{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats[uid-1], true
}

// ByPath returns the statistics of the node whose path (bt.Node.Path) is path; false
// if there is none.
func (s *Stats) ByPath(path string) (NodeStats, bool) {
	uid, ok := s.byPath[path]
	if !ok {
		return NodeStats{}, false
	}
	return s.ByUID(uid)
}

// Nodes returns the nodes of the tree, by UID (Nodes()[i].UID is i+1).
func (s *Stats) Nodes() []NodeInfo { return s.nodes }

// Reset sets every statistic back to zero.
func (s *Stats) Reset() {
	s.mu.Lock()
	clear(s.stats)
	s.mu.Unlock()
}

// WriteTable writes the statistics as a table, a line per node in UID order:
//
//	UID  PATH         TRANSITIONS  SUCCESS  FAILURE  LAST RESULT  STATUS
//	1    Sequence::1  2            1        0        SUCCESS      IDLE
func (s *Stats) WriteTable(w io.Writer) error {
	s.mu.Lock()
	stats := append([]NodeStats(nil), s.stats...)
	s.mu.Unlock()
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "UID\tPATH\tTRANSITIONS\tSUCCESS\tFAILURE\tLAST RESULT\tSTATUS")
	for i, st := range stats {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t%d\t%s\t%s\n", s.nodes[i].UID, s.nodes[i].Path,
			st.Transitions, st.Successes, st.Failures, st.LastResult, st.Status)
	}
	return tw.Flush()
}

// Flush does nothing: the statistics are up to date as the tree ticks. (Stats is a
// Logger.)
func (s *Stats) Flush() error { return nil }

// Close detaches the Stats from the tree; the statistics stay readable. Like
// Tree.Subscribe's cancel function, it must not be called while the tree ticks.
func (s *Stats) Close() error {
	s.cancel()
	return nil
}
