package btlog

import (
	"errors"
	"fmt"
	"io"
)

// replayBatch is how many transitions WriteConsole formats per Write call.
const replayBatch = 1024

// WriteConsole writes the transitions of l as a Console attached to the tree would
// have printed them: times since the file's first timestamp (or, with Absolute, since
// the Unix epoch), names or paths read from the file's XML. A .btlog written by File
// while a Console with the same options watched the tree replays to the Console's
// lines, to the microsecond the file keeps.
func (l *Log) WriteConsole(w io.Writer, o *ConsoleOptions) error {
	switch {
	case l == nil:
		return errors.New("btlog: nil log")
	case w == nil:
		return errors.New("btlog: nil writer")
	}
	if o == nil {
		o = &ConsoleOptions{}
	}
	c := newConsoleSink(output{w: w}, l.byUID(), o, l.Start.UnixMicro())
	batch := make([]Transition, 0, min(len(l.Transitions), replayBatch))
	for i, tr := range l.Transitions {
		if !l.has(c.nodes, tr.UID) {
			return fmt.Errorf("btlog: transition %d: UID %d is not a node of the log", i, tr.UID)
		}
		if o.Filter == nil || o.Filter(&c.nodes[tr.UID-1], tr.Previous, tr.Status) {
			batch = append(batch, tr)
		}
		if len(batch) == replayBatch || i == len(l.Transitions)-1 {
			if err := c.write(batch); err != nil {
				return err
			}
			batch = batch[:0]
		}
	}
	return c.flush()
}

// byUID returns the nodes of l indexed by UID-1, as the loggers keep them; a UID the
// file skips has a zero NodeInfo (no transition names it: Read checks).
func (l *Log) byUID() []NodeInfo {
	nodes := make([]NodeInfo, maxUID(l.Nodes))
	for _, n := range l.Nodes {
		if n.UID > 0 {
			nodes[n.UID-1] = n
		}
	}
	return nodes
}

// has reports whether uid is a node of nodes, indexed by UID-1.
func (l *Log) has(nodes []NodeInfo, uid uint16) bool {
	return uid > 0 && int(uid) <= len(nodes) && nodes[uid-1].UID == uid
}

// Stats returns the statistics of l's transitions, as a Stats attached to the tree
// would have counted them; their times are the file's (Start plus the offset). A
// transition of a UID that no node has (in a Log made by hand) is not counted. The
// Stats is attached to nothing: Close does nothing, and Reset clears it for good.
func (l *Log) Stats() *Stats {
	if l == nil {
		return newStats(nil)
	}
	s := newStats(l.Nodes)
	for _, tr := range l.Transitions {
		if int(tr.UID) < len(s.slot) && s.slot[tr.UID] >= 0 {
			s.count(tr.UID, tr.Status, l.Start.Add(tr.Offset))
		}
	}
	return s
}
