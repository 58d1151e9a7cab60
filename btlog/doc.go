// Package btlog shows a tree run: the loggers of BehaviorTree.CPP over bt's status
// changes (bt.Tree.SubscribeBatch), and the .btlog file format that Groot2 replays.
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
// NewStream builds a logger of another package on the same queue and goroutine: its
// Sink writes what the stream hands it (the SQLite logger of the btsqlite module is
// one, and a Drainer, which commits once the queue is drained); ReadTreeXML reads back
// the nodes of a tree's XML as such a logger stores it.
//
// WriteTreeXML writes any tree, built from XML or in Go, as XML with node UIDs
// (BehaviorTree.CPP's WriteTreeToXML), as .btlog files and Groot2 need it.
//
// # The changes
//
// Every logger reports the changes the tree records (bt.Tree.SubscribeBatch), in the
// order they happen, which is BehaviorTree.CPP's: a control or decorator goes RUNNING
// before its children, a completed child is reset to IDLE by its parent, halted nodes
// go to IDLE, and transitions to IDLE are reported (BehaviorTree.CPP 4.10's default).
// A node that is skipped keeps its IDLE status and, as in BehaviorTree.CPP 4.10, no
// change is reported for it: SKIPPED appears in no log. A control or decorator that
// went RUNNING and then returned SKIPPED stays RUNNING in the log until BehaviorTree.CPP
// would reset it (its parent's reset, a halt), as in the reference's logs, though bt
// puts it back to IDLE at once (see the package doc of bt).
//
// Times come from the tree's clock (bt.WithClock), so a test with a fake clock, or
// under testing/synctest, logs the same bytes every run. The clock is read once per
// tick, not per change: every change of a tick is logged with the time the tick began
// (the time of its batch, bt.Batch.Time). A console line, a .btlog record, a JSON
// line or a trace event is as precise as the ticks are frequent — 10 ms apart at
// BehaviorTree.CPP's default period — and the changes within a tick keep their order.
//
// Every logger can be paused and resumed (SetEnabled, from any goroutine, as
// StatusChangeLogger::setEnabled): the changes a paused logger is handed are dropped.
// A Console hides the changes to IDLE when asked (ConsoleOptions.HideIdle, as
// StdCoutLogger after enableTransitionToIdle(false)); JSONL and Slog choose their
// changes with a Filter.
//
// # Cost and concurrency
//
// A logger never makes a tick wait for I/O, but for a synchronous Console (on a
// terminal, or with ConsoleOptions.Sync), which writes each line as the change is made
// so that the log and what the program prints itself are in order. The tree records the changes of a tick as
// it goes (a byte store and four bytes each) and hands them over when the tick ends;
// on the ticking goroutine a logger then copies them into its queue under an
// uncontended mutex (no allocation once the queue has grown to a tick's size). Its own
// goroutine takes the queue, turns the changes into Transitions, formats them and
// writes them with one Write call per 2,048 changes (one Handle call per record for
// Slog), so that its buffers stay small however far it fell behind. Stats has no
// goroutine: it counts each batch under its mutex. The queue has no bound: a
// destination slower than the tree lets it grow rather than block the tree. An
// observed tick costs a few times an unobserved one, and the .btlog writer adds
// little to that (bench/README.md of the repository has the figures).
//
// Flush waits until everything logged so far is written (and flushes a writer that
// has a Flush method, such as a *bufio.Writer). It may be called from any goroutine,
// also from inside a tick, so a program that prints its own lines between the log's
// keeps them in order by calling Flush first — from a node's code, after
// bt.Tree.Flush, which hands over the changes the tick made so far. Stats counts the
// changes of a tick when the tick ends. Close detaches the logger, writes what is left,
// ends the log (a trace's closing bracket) and closes the file the logger created
// (CreateFile, CreateTrace); a writer given to NewConsole, NewFile and the like is not
// closed. Attach and Close a logger before the tree ticks, or between ticks, as
// bt.Tree.SubscribeBatch requires. The first error a logger meets (a failed write)
// stops its writing and is returned by Flush and Close.
//
// # Differences from BehaviorTree.CPP
//
//   - Console prints times since the logger attached (StdCoutLogger's relative
//     timestamps) unless asked for absolute ones, StdCoutLogger's default.
//   - Trace ends the span of a halted node (MinitraceLogger leaves it open), gives a
//     running node whose parent's track is taken by a running sibling a track of its
//     own, so that spans nest as the trace format requires, and escapes names.
//   - Console paints statuses only when asked (ConsoleOptions.Color; bt run does on a
//     terminal); StdCoutLogger always does.
//   - WriteTreeXML keeps ports in the order they were set and lists in the
//     TreeNodesModel the node types the tree uses rather than all its factory knows.
//     A SubTree is written with its name and with the ports its tree's model gives
//     defaults for, and {=} as the entry it names ({x} for port x); the reference
//     writes the element's own attributes. Attribute values are escaped as
//     encoding/xml does (a line break as &#10;, ' as it is; tinyxml2 writes the line
//     break and &apos;): the same XML, not the same bytes.
//   - Stats has no skip count (see Stats).
//   - Every change of a tick has the time its tick began: BehaviorTree.CPP reads the
//     clock at each change (see The changes).
//   - SetEnabled takes effect for the changes the tree hands over after it, and the
//     tree hands a tick's changes over when the tick ends: a call from a node's code
//     decides for the whole tick, unless bt.Tree.Flush hands over the changes before
//     it (BehaviorTree.CPP's takes effect at the next change).
//   - Hiding the changes to IDLE is an option of Console (HideIdle) and a Filter of
//     JSONL and Slog; File and Trace record them all, as Groot2 and the trace's spans
//     need them (BehaviorTree.CPP's enableTransitionToIdle is on every logger).
package btlog
