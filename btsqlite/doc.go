// Package btsqlite records runs of a tree in a SQLite database, as BehaviorTree.CPP's
// SqliteLogger does: one file holds session after session, Groot2 opens it (.db3)
// to replay a run, and anyone can query it with SQL. "bt run --sqlite" writes one,
// and "bt replay" and "bt view" read it back (Sessions, Read).
//
//	l, err := btsqlite.Create(tree, "runs.db3", &btsqlite.Options{Append: true})
//	...
//	tree.TickWhileRunning(ctx, bt.DefaultPeriod)
//	err = l.Close() // waits until every transition is written
//
// It is a module of its own, so that bt's library keeps no dependency but the
// standard library.
//
// # The tables
//
// The reference's, column for column (a test compares them with a file BehaviorTree.CPP
// 4.10 wrote, testdata/reference.db3):
//
//	Definitions  session_id INTEGER PRIMARY KEY AUTOINCREMENT, date TEXT NOT NULL,
//	             xml_tree TEXT NOT NULL
//	             a row per session: when it started (local time, "2006-01-02 15:04:05")
//	             and the tree as XML with UIDs (btlog.WriteTreeXML)
//	Nodes        session_id INTEGER NOT NULL, fullpath VARCHAR, node_uid INTEGER NOT NULL
//	             a row per node of the session's tree: its path and UID
//	Transitions  timestamp INTEGER PRIMARY KEY NOT NULL, session_id INTEGER NOT NULL,
//	             node_uid INTEGER NOT NULL, duration INTEGER, state INTEGER NOT NULL,
//	             extra_data VARCHAR
//	             a row per status change: when (µs since the Unix epoch, one µs apart
//	             at least: the key), the node, for a change from RUNNING the µs since
//	             the node went RUNNING (else 0), the new status (0 IDLE, 1 RUNNING,
//	             2 SUCCESS, 3 FAILURE, 4 SKIPPED) and Options.Extra's text ("" without)
//
// Every change is recorded, transitions to IDLE included. The file's name must end in
// .db3 or .btdb, as the reference requires. Without Options.Append, Create deletes the
// rows of the sessions the file holds (as the reference does: session IDs go on
// counting); with it, the run is one more session. The session is started (its
// Definitions and Nodes rows) in one transaction before Create returns. ExecSQL runs
// statements of the program's own on the logger's connection (an index, a table of
// notes). SetEnabled pauses and resumes the logger, as every btlog logger.
//
// # Cost, transactions and crashes
//
// The tick never waits on the database: the logger is built on btlog's stream
// (btlog.NewStream), which copies a tick's changes into a queue when the tick ends,
// and its goroutine writes them. It inserts what it took from the queue through one
// prepared statement and commits once it has caught up with the queue
// (btlog.Drainer): a transaction per wake-up of the writer while it keeps up (the
// changes of a millisecond or more), and bigger transactions the further it fell
// behind, so that a slow disk (a commit waits for fsync) makes bigger transactions,
// not a longer queue. Flush and Close wait until everything logged before them is
// committed.
//
// The database keeps SQLite's rollback journal, as the reference's: a process killed
// in the middle of a run leaves the transactions it committed, and SQLite rolls back
// the one under way when the file is next opened (TestCrash kills a writer with
// SIGKILL and reads the file back).
//
// A million transitions (ticks of a Sequence of 100 AlwaysSuccess, 203 changes a tick,
// back to back; BenchmarkMillion) took 6.8 s from the first tick to the end of Close,
// 6.8 µs a transition, while the ticks themselves took 0.1 to 0.35 s: the database
// fell behind and caught up in large transactions. That was on a shared machine of 2
// cores with a load average of 13; committing every 2,048 transitions instead took
// 12 to 16 s there, nearly all of it waiting for fsync.
//
// # The driver
//
// SQLite comes from github.com/ncruces/go-sqlite3 (v0.37.0), without cgo: bt's users
// cross-compile for robots, and cgo would need a C cross-compiler for each target.
// The other pure-Go driver is modernc.org/sqlite (v1.62.0). Both are SQLite's C code
// translated to Go, both are maintained (ncruces went from v0.35.1 in June 2026 to
// v0.37.0 in November, modernc from v1.57.0 in August to v1.62.0 in November), and
// both need Go 1.26. Measured here, on the same machine and at the
// same time, with a program that inserts a million rows of Transitions in
// transactions of 2,048 rows:
//
//	                               binary    a million rows
//	modernc.org/sqlite, database/sql  9.8 MB   13.2 s
//	ncruces, database/sql            13.1 MB   10.7 s
//	ncruces, its own API             12.4 MB    8.1 s
//
// ncruces won on speed, and more through its own API, which binds and steps a
// prepared statement without database/sql's allocations per row; on its few
// dependencies (golang.org/x/sys and two modules of its own; modernc's build brings
// in nine, among them a libc translated for each platform it supports); and on portability: its Go
// comes from a WebAssembly build of SQLite (wasm2go), plain Go that builds for every
// GOOS/GOARCH Go supports, while modernc.org/sqlite builds only for the platforms its
// libc was generated for. modernc's binary is 3 MB smaller.
//
// # Differences from BehaviorTree.CPP
//
//   - A transition's timestamp is its tick's time (bt reads the clock once per tick,
//     see btlog), made unique as the reference makes it: one µs after the one before.
//     The reference reads the clock at each change.
//   - A session appended to a file whose last timestamp is later than the tree's
//     clock (a clock set back, a fake clock) goes on after that timestamp: the
//     reference's inserts would fail on the duplicate key.
//   - Options.Extra runs on the logger's goroutine, given the transition and the
//     node's btlog.NodeInfo; the reference's callback runs on the ticking thread and
//     is given the node itself. bt hands a tick's changes over when the tick ends, so
//     a callback on the ticking goroutine could not see the tree as it was at the
//     change either.
//   - Close writes every transition queued before it; the reference's destructor
//     stops its writer thread without writing what is still queued, and loses the end
//     of a run (see testdata/README.md).
//   - A change from RUNNING of a node whose change to RUNNING the logger did not see
//     (it attached while the node ran) has duration 0; the reference writes its
//     timestamp.
//   - ExecSQL waits for a transaction of the logger's to end; the reference's
//     execSqlStatement uses the connection from the caller's thread while its writer
//     thread uses it too.
//   - The reference inserts each transition in a transaction of its own; btsqlite
//     commits a batch at a time (see Cost).
//   - The Nodes rows are written in UID order; the reference writes them subtree by
//     subtree. The XML lists in its TreeNodesModel the node types the tree uses
//     (btlog.WriteTreeXML); the reference's lists every type its factory knows.
package btsqlite
