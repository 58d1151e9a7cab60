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
// from any goroutine while the tree ticks; it counts the changes of a tick when the
// tick ends (bt.Tree.SubscribeBatch).
//
// TreeObserver also counts transitions to SKIPPED, which BehaviorTree.CPP 4.10 never
// reports (a skipped node keeps its IDLE status, and no change is sent); bt sends the
// same changes, so Stats has no such count.
type Stats struct {
	pause
	nodes  []NodeInfo // sorted by UID
	slot   []int      // the index in nodes and stats of each UID; -1: no such node
	byPath map[string]uint16
	cancel func() // the subscription; nil for the statistics of a Log

	mu    sync.Mutex
	stats []NodeStats // as nodes
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
	// Time is when the tick of the last change began, from the tree's clock (zero
	// before it).
	Time time.Time
}

// NewStats attaches a Stats to t.
func NewStats(t *bt.Tree) (*Stats, error) {
	if t == nil {
		return nil, errNilTree
	}
	s := newStats(nodesOf(t))
	s.cancel = t.SubscribeBatch(s.add)
	return s, nil
}

// newStats makes the statistics of nodes, sorted by UID, all zero.
func newStats(nodes []NodeInfo) *Stats {
	s := &Stats{nodes: nodes, byPath: make(map[string]uint16, len(nodes)), stats: make([]NodeStats, len(nodes))}
	s.slot = make([]int, maxUID(nodes)+1)
	for i := range s.slot {
		s.slot[i] = -1
	}
	for i, n := range nodes {
		if n.UID == 0 { // only in a Log made by hand
			continue
		}
		s.slot[n.UID] = i
		s.byPath[n.Path] = n.UID
	}
	return s
}

// maxUID returns the largest UID of nodes (0 for none).
func maxUID(nodes []NodeInfo) int {
	m := 0
	for _, n := range nodes {
		m = max(m, int(n.UID))
	}
	return m
}

// add counts a batch of changes, on the ticking goroutine.
func (s *Stats) add(b bt.Batch) {
	if len(b.Changes) == 0 || !s.Enabled() {
		return
	}
	s.mu.Lock()
	for _, c := range b.Changes {
		s.count(c.UID(), c.Status(), b.Time)
	}
	s.mu.Unlock()
}

// count counts a change of the node uid to status at time tm; s.mu is held.
func (s *Stats) count(uid uint16, status bt.Status, tm time.Time) {
	st := &s.stats[s.slot[uid]]
	st.Status, st.Time = status, tm
	switch status {
	case bt.Idle:
	case bt.Success:
		st.Transitions++
		st.Successes++
		st.LastResult = status
	case bt.Failure:
		st.Transitions++
		st.Failures++
		st.LastResult = status
	default:
		st.Transitions++
	}
}

// ByUID returns the statistics of the node whose UID is uid; false if there is none.
func (s *Stats) ByUID(uid uint16) (NodeStats, bool) {
	if int(uid) >= len(s.slot) || s.slot[uid] < 0 {
		return NodeStats{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats[s.slot[uid]], true
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

// Nodes returns the nodes of the tree, sorted by UID (for a tree, Nodes()[i].UID is
// i+1; a .btlog file may skip UIDs).
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

// Flush does nothing: the statistics are up to date at the end of each tick. (Stats is
// a Logger.)
func (s *Stats) Flush() error { return nil }

// Close detaches the Stats from the tree; the statistics stay readable. Like
// Tree.SubscribeBatch's cancel function, it must not be called while the tree ticks.
func (s *Stats) Close() error {
	if s.cancel != nil {
		s.cancel()
		s.cancel = nil
	}
	return nil
}
