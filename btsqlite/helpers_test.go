package btsqlite

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/gobt/bt"
	"github.com/gobt/bt/btlog"
	"github.com/ncruces/go-sqlite3"
)

// newTree builds the main tree of testdata/tree.xml, the tree testdata/reference.db3
// recorded. Under testing/synctest its clock starts at 2000-01-01 00:00:00 UTC.
func newTree(t testing.TB) *bt.Tree {
	t.Helper()
	f := bt.NewFactory()
	if err := f.LoadFile("testdata/tree.xml"); err != nil {
		t.Fatal(err)
	}
	tree, err := f.NewTree("Main")
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// runTree ticks tree until it completes, every 10 ms as the reference's program does.
func runTree(t testing.TB, tree *bt.Tree) {
	t.Helper()
	if s, err := tree.TickWhileRunning(context.Background(), 10*time.Millisecond); s != bt.Success || err != nil {
		t.Fatalf("the tree ended with %s, %v", s, err)
	}
}

// record runs a new tree of testdata/tree.xml with a Logger writing to name as o says,
// and closes the logger; it returns the session.
func record(t testing.TB, name string, o *Options) int64 {
	t.Helper()
	tree := newTree(t)
	l, err := Create(tree, name, o)
	if err != nil {
		t.Fatal(err)
	}
	runTree(t, tree)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return l.Session()
}

// dbFile returns the name of a database file in a new temporary directory.
func dbFile(t testing.TB) string { return filepath.Join(t.TempDir(), "run.db3") }

// row is a row of Transitions.
type row struct {
	Timestamp, Session, UID, Duration, State int64
	Extra                                    string
}

// rows returns the result of query, one []any per row, each column as its type says.
func rows(t testing.TB, name, query string, args ...any) [][]any {
	t.Helper()
	conn, err := sqlite3.OpenFlags(name, sqlite3.OPEN_READONLY)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	s, _, err := conn.Prepare(query)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i, a := range args {
		switch a := a.(type) {
		case int64:
			s.BindInt64(i+1, a)
		case string:
			s.BindText(i+1, a)
		}
	}
	var out [][]any
	for s.Step() {
		r := make([]any, s.ColumnCount())
		for c := range r {
			switch s.ColumnType(c) {
			case sqlite3.INTEGER:
				r[c] = s.ColumnInt64(c)
			case sqlite3.NULL:
				r[c] = nil
			default:
				r[c] = s.ColumnText(c)
			}
		}
		out = append(out, r)
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// transitions returns the rows of Transitions of a session, by timestamp.
func transitions(t testing.TB, name string, session int64) []row {
	t.Helper()
	var out []row
	for _, r := range rows(t, name, "SELECT timestamp, session_id, node_uid, duration, state, extra_data FROM Transitions WHERE session_id = ? ORDER BY timestamp", session) {
		out = append(out, row{r[0].(int64), r[1].(int64), r[2].(int64), r[3].(int64), r[4].(int64), r[5].(string)})
	}
	return out
}

// recorded subscribes to tree, and returns a function that cancels the subscription
// and returns the changes seen (without times).
func recorded(t testing.TB, tree *bt.Tree) func() []btlog.Transition {
	t.Helper()
	var got []btlog.Transition
	cancel := tree.Subscribe(func(c bt.StatusChange) {
		got = append(got, btlog.Transition{UID: c.Node.UID(), Previous: c.Previous, Status: c.Status})
	})
	return func() []btlog.Transition { cancel(); return got }
}

// execSQL executes statements on the database file name.
func execSQL(name, statements string) error {
	conn, err := sqlite3.Open(name)
	if err != nil {
		return err
	}
	return errors.Join(conn.Exec(statements), conn.Close())
}

// openConn opens the database file name for writing.
func openConn(t testing.TB, name string) *sqlite3.Conn {
	t.Helper()
	conn, err := sqlite3.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	return conn
}

// execArgs executes the statement query with args (int64 or string).
func execArgs(conn *sqlite3.Conn, query string, args ...any) error {
	s, _, err := conn.Prepare(query)
	if err != nil {
		return err
	}
	defer s.Close()
	for i, a := range args {
		switch a := a.(type) {
		case int64:
			err = s.BindInt64(i+1, a)
		case string:
			err = s.BindText(i+1, a)
		}
		if err != nil {
			return err
		}
	}
	return s.Exec()
}
