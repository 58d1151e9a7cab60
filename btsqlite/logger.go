package btsqlite

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/gobt/bt"
	"github.com/gobt/bt/btlog"
	"github.com/ncruces/go-sqlite3"
)

// Exts are the extensions a database file may have, as BehaviorTree.CPP's SqliteLogger
// requires (Groot2 opens .db3 files).
var Exts = []string{".db3", ".btdb"}

// Options change what Create records; nil means the defaults.
type Options struct {
	// Append adds the run to the database as a new session. Without it, the sessions
	// the file holds are deleted first (their rows, as the reference does: the
	// session IDs go on counting).
	Append bool
	// Extra, if not nil, gives the text of each transition's extra_data column
	// (SqliteLogger::setAdditionalCallback); without it the column holds "". It runs
	// on the logger's goroutine, not the one that ticks the tree, with the
	// transition and its node, and must not call the logger.
	Extra func(tr btlog.Transition, n *btlog.NodeInfo) string
}

// Logger records a tree's run in a SQLite database (BehaviorTree.CPP's SqliteLogger).
// Flush, Close, SetEnabled and Enabled are those of every btlog logger (btlog.Logger).
type Logger struct {
	*btlog.Stream
	w *writer
}

var _ btlog.Logger = (*Logger)(nil)

// Create opens (or creates) the database file name, whose extension must be .db3 or
// .btdb, writes the tables if they are not there, starts a session with the tree's
// XML and nodes, and attaches a Logger to t that writes its transitions in the
// session. The session is written in one transaction before Create returns: a file
// holds whole sessions, or none of a session that failed to start.
func Create(t *bt.Tree, name string, o *Options) (*Logger, error) {
	if err := checkExt(name); err != nil {
		return nil, err
	}
	if t == nil {
		return nil, errors.New("btsqlite: nil tree")
	}
	if o == nil {
		o = &Options{}
	}
	var xml bytes.Buffer
	if err := btlog.WriteTreeXML(&xml, t); err != nil {
		return nil, err
	}
	l := &Logger{}
	s, err := btlog.NewStream(t, nil, func(nodes []btlog.NodeInfo, start time.Time) (btlog.Sink, error) {
		w, err := openWriter(name, o, xml.String(), nodes, start)
		l.w = w
		return w, err
	})
	if err != nil {
		return nil, err
	}
	l.Stream = s
	return l, nil
}

// checkExt refuses a name without one of Exts.
func checkExt(name string) error {
	ext := filepath.Ext(name)
	for _, e := range Exts {
		if ext == e {
			return nil
		}
	}
	return fmt.Errorf("btsqlite: %s: the name of the database must end in .db3 or .btdb (as BehaviorTree.CPP's SqliteLogger requires)", name)
}

// Session returns the ID of the session the logger writes (Definitions.session_id).
func (l *Logger) Session() int64 { return l.w.session }

// ExecSQL executes statements (one or more, separated by semicolons) on the logger's
// own connection to the database (SqliteLogger::execSqlStatement): between two of the
// logger's transactions, never inside one. It may be called from any goroutine until
// Close. Transitions still queued are not written first: call Flush before, for a
// statement that must see every transition logged so far.
func (l *Logger) ExecSQL(statements string) error {
	l.w.mu.Lock()
	defer l.w.mu.Unlock()
	if l.w.conn == nil {
		return btlog.ErrClosed
	}
	if err := l.w.conn.Exec(statements); err != nil {
		return fmt.Errorf("btsqlite: %w", err)
	}
	return nil
}

// The schema: BehaviorTree.CPP's tables, columns, types and constraints.
const schema = `
CREATE TABLE IF NOT EXISTS Transitions (
	timestamp  INTEGER PRIMARY KEY NOT NULL,
	session_id INTEGER NOT NULL,
	node_uid   INTEGER NOT NULL,
	duration   INTEGER,
	state      INTEGER NOT NULL,
	extra_data VARCHAR
);
CREATE TABLE IF NOT EXISTS Nodes (
	session_id INTEGER NOT NULL,
	fullpath   VARCHAR,
	node_uid   INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS Definitions (
	session_id INTEGER PRIMARY KEY AUTOINCREMENT,
	date       TEXT NOT NULL,
	xml_tree   TEXT NOT NULL
);`

// writer is the logger's btlog.Sink: its connection, used by the stream's goroutine
// (its transactions) and by ExecSQL, one at a time.
type writer struct {
	mu      sync.Mutex    // held by the stream's goroutine from BEGIN to the end of the transaction
	inTx    bool          // a transaction is under way (the stream's goroutine's own)
	conn    *sqlite3.Conn // nil once closed
	insert  *sqlite3.Stmt
	session int64
	nodes   []btlog.NodeInfo
	extra   func(tr btlog.Transition, n *btlog.NodeInfo) string
	start   int64   // µs since the Unix epoch: when the logger attached
	last    int64   // the last timestamp written, µs since the Unix epoch
	running []int64 // by UID-1: when the node went RUNNING (its last IDLE -> RUNNING)
}

// openWriter opens the database and starts the session.
func openWriter(name string, o *Options, xml string, nodes []btlog.NodeInfo, start time.Time) (*writer, error) {
	conn, err := sqlite3.OpenFlags(name, sqlite3.OPEN_READWRITE|sqlite3.OPEN_CREATE)
	if err != nil {
		return nil, fmt.Errorf("btsqlite: %s: %w", name, err)
	}
	w := &writer{conn: conn, nodes: nodes, extra: o.Extra, start: start.UnixMicro(), running: make([]int64, len(nodes))}
	if err := w.begin(o.Append, xml); err != nil {
		conn.Close()
		return nil, fmt.Errorf("btsqlite: %s: %w", name, err)
	}
	return w, nil
}

// begin writes the tables and the session in one transaction, and prepares the
// statement that inserts transitions.
func (w *writer) begin(appending bool, xml string) (err error) {
	// Another connection (a reader such as Groot2 or bt replay) may hold the file
	// for a moment; wait for it rather than fail.
	if err := w.conn.BusyTimeout(5 * time.Second); err != nil {
		return err
	}
	if err := w.conn.Exec("BEGIN IMMEDIATE"); err != nil {
		return err
	}
	defer func() {
		if err != nil {
			w.conn.Exec("ROLLBACK")
		}
	}()
	if err := w.conn.Exec(schema); err != nil {
		return err
	}
	if !appending {
		if err := w.conn.Exec("DELETE FROM Transitions; DELETE FROM Definitions; DELETE FROM Nodes;"); err != nil {
			return err
		}
	}
	// The timestamps are the table's primary key: a session appended after one
	// whose clock ran ahead (a fake clock, a clock set back) goes on after its last.
	last, err := w.queryInt("SELECT coalesce(max(timestamp), 0) FROM Transitions")
	if err != nil {
		return err
	}
	w.last = max(last, w.start-1)
	if err := w.exec("INSERT INTO Definitions (date, xml_tree) VALUES (datetime('now', 'localtime'), ?)", func(s *sqlite3.Stmt) error {
		return s.BindText(1, xml)
	}); err != nil {
		return err
	}
	w.session = w.conn.LastInsertRowID()
	ins, _, err := w.conn.Prepare("INSERT INTO Nodes VALUES (?, ?, ?)")
	if err != nil {
		return err
	}
	defer ins.Close()
	for _, n := range w.nodes {
		err := errors.Join(ins.BindInt64(1, w.session), ins.BindText(2, n.Path), ins.BindInt64(3, int64(n.UID)))
		if err == nil {
			err = ins.Exec()
		}
		if err != nil {
			return err
		}
	}
	if err := w.conn.Exec("COMMIT"); err != nil {
		return err
	}
	w.insert, _, err = w.conn.Prepare("INSERT INTO Transitions VALUES (?, ?, ?, ?, ?, ?)")
	return err
}

// exec executes the statement query with the parameters bind sets.
func (w *writer) exec(query string, bind func(*sqlite3.Stmt) error) error {
	s, _, err := w.conn.Prepare(query)
	if err != nil {
		return err
	}
	defer s.Close()
	if err := bind(s); err != nil {
		return err
	}
	return s.Exec()
}

// queryInt returns the integer the query's first row holds.
func (w *writer) queryInt(query string) (int64, error) {
	s, _, err := w.conn.Prepare(query)
	if err != nil {
		return 0, err
	}
	defer s.Close()
	if !s.Step() {
		return 0, cmpErr(s.Err(), errors.New("no row"))
	}
	return s.ColumnInt64(0), nil
}

// cmpErr returns err if not nil, else def.
func cmpErr(err, def error) error {
	if err != nil {
		return err
	}
	return def
}

// Write writes batch in the transaction under way, or a new one, which Drained
// commits. A transition's timestamp is its tick's time in µs since the Unix epoch,
// made unique as the reference makes it: one µs after the previous one when the
// tick's time is not later. The duration of a change from RUNNING is the time since
// the node went RUNNING; other changes have 0.
func (w *writer) Write(batch []btlog.Transition) (err error) {
	if !w.inTx {
		// The connection is the writer's from BEGIN to COMMIT: ExecSQL waits.
		w.mu.Lock()
		if err := w.conn.Exec("BEGIN"); err != nil {
			w.mu.Unlock()
			return fmt.Errorf("btsqlite: %w", err)
		}
		w.inTx = true
	}
	defer func() {
		if err != nil {
			err = fmt.Errorf("btsqlite: %w", errors.Join(err, w.end("ROLLBACK")))
		}
	}()
	s := w.insert
	for _, tr := range batch {
		w.last = max(w.last+1, w.start+tr.Offset.Microseconds())
		var duration int64
		switch i := tr.UID - 1; {
		case tr.Previous == bt.Idle && tr.Status == bt.Running:
			w.running[i] = w.last
		case tr.Previous == bt.Running && tr.Status != bt.Running && w.running[i] != 0:
			duration = w.last - w.running[i]
		}
		extra := ""
		if w.extra != nil {
			extra = w.extra(tr, &w.nodes[tr.UID-1])
		}
		if err := errors.Join(s.BindInt64(1, w.last), s.BindInt64(2, w.session), s.BindInt64(3, int64(tr.UID)),
			s.BindInt64(4, duration), s.BindInt64(5, int64(tr.Status)), s.BindText(6, extra)); err != nil {
			return err
		}
		if err := s.Exec(); err != nil {
			return err
		}
	}
	return nil
}

// Drained commits the transaction the Writes since the last one began: the stream
// has written every change queued, so the further the writer fell behind the tree,
// the more a transaction holds.
func (w *writer) Drained() error {
	if !w.inTx {
		return nil
	}
	if err := w.end("COMMIT"); err != nil {
		return fmt.Errorf("btsqlite: %w", err)
	}
	return nil
}

// end ends the transaction under way with COMMIT or ROLLBACK, and lets ExecSQL have
// the connection.
func (w *writer) end(how string) error {
	err := w.conn.Exec(how)
	if err != nil && how == "COMMIT" {
		err = errors.Join(err, w.conn.Exec("ROLLBACK"))
	}
	w.inTx = false
	w.mu.Unlock()
	return err
}

// Flush has nothing to do: Drained committed what was written.
func (w *writer) Flush() error { return nil }

// Close lets SQLite optimize the database for the queries it saw, as the reference
// does, and closes it.
func (w *writer) Close(time.Duration) error {
	var err error
	if w.inTx { // not after Drained, but in case
		err = w.end("COMMIT")
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	err = errors.Join(err, w.insert.Close(), w.conn.Exec("PRAGMA optimize"), w.conn.Close())
	w.conn = nil
	if err != nil {
		return fmt.Errorf("btsqlite: %w", err)
	}
	return nil
}
