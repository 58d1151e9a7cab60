// Package btlog shows a tree run: the loggers of BehaviorTree.CPP over bt's
// status changes (bt.Tree.Subscribe), and the .btlog file format that Groot2 replays.
//
//	Console   StdCoutLogger: a line per change, "[0.012]: MoveTo   IDLE -> RUNNING"
//	Slog      a record per change on any *slog.Logger
//	JSONL     a JSON object per change, a line each
//	File      FileLogger2: a .btlog file (Groot2 replays it; Read and ReadFile read it)
//	Trace     MinitraceLogger: Chrome trace JSON for Perfetto and chrome://tracing
//	Stats     TreeObserver: per-node counts, by UID and by path, for tests
//
// A .btlog file read back (Log) prints as the Console would have printed the run
// (Log.WriteConsole) and gives the statistics a Stats would have counted (Log.Stats):
// "bt replay" is both, for files written by bt and by BehaviorTree.CPP.
//
// WriteTreeXML writes any tree, built from XML or in Go, as XML with node UIDs
// (BehaviorTree.CPP's WriteTreeToXML), as .btlog files and Groot2 need it.
//
// # The changes
//
// Every logger reports the changes bt.Tree.Subscribe delivers, in the order they
// happen, which is BehaviorTree.CPP's: a control or decorator goes RUNNING before its
// children, a completed child is reset to IDLE by its parent, halted nodes go to IDLE,
// and transitions to IDLE are reported (BehaviorTree.CPP 4.10's default). A node that
// is skipped keeps its IDLE status and, as in BehaviorTree.CPP 4.10, no change is
// reported for it: SKIPPED appears in no log. Times come from the tree's clock
// (bt.WithClock), so a test with a fake clock, or under testing/synctest, logs the
// same bytes every run.
//
// # Cost and concurrency
//
// A logger never makes a tick wait for I/O. On the ticking goroutine it records each
// change in a queue (a few stores under an uncontended mutex, no allocation once the
// queue has grown to a batch's size); its own goroutine takes the queue, a batch at a
// time, formats it and writes it with one Write call (one Handle call per record for
// Slog). Stats has no goroutine: it counts under its mutex. The queue has no bound: a
// destination slower than the tree lets it grow rather than block the tree.
//
// Flush waits until everything logged so far is written (and flushes a writer that
// has a Flush method, such as a *bufio.Writer). It may be called from any goroutine,
// also from inside a tick, so a program that prints its own lines between the log's
// keeps them in order by calling Flush first. Close detaches the logger, writes what
// is left, ends the log (a trace's closing bracket) and closes the file the logger
// created (CreateFile, CreateTrace); a writer given to NewConsole, NewFile and the
// like is not closed. Attach and Close a logger before the tree ticks, or between
// ticks, as bt.Tree.Subscribe requires. The first error a logger meets (a failed
// write) stops its writing and is returned by Flush and Close.
//
// # Differences from BehaviorTree.CPP
//
//   - Console prints times since the logger attached (StdCoutLogger's relative
//     timestamps) unless asked for absolute ones, StdCoutLogger's default.
//   - Trace ends the span of a halted node (MinitraceLogger leaves it open), gives a
//     running node whose parent's track is taken by a running sibling a track of its
//     own, so that spans nest as the trace format requires, and escapes names.
//   - WriteTreeXML keeps ports in the order they were set and lists in the
//     TreeNodesModel the node types the tree uses rather than all its factory knows.
//   - Stats has no skip count (see Stats).
package btlog
