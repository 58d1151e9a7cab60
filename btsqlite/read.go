package btsqlite

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/gobt/bt"
	"github.com/gobt/bt/btlog"
	"github.com/ncruces/go-sqlite3"
)

// Session is a recorded run in a database: a row of Definitions, with the number of
// its transitions.
type Session struct {
	ID          int64  // Definitions.session_id
	Date        string // when it started, as stored: local time, "2006-01-02 15:04:05"
	Transitions int64
}

// Sessions lists the sessions of the database file name, by ID.
func Sessions(name string) ([]Session, error) {
	var out []Session
	err := query(name, func(conn *sqlite3.Conn) error {
		s, _, err := conn.Prepare(`SELECT d.session_id, d.date,
			(SELECT count(*) FROM Transitions t WHERE t.session_id = d.session_id)
			FROM Definitions d ORDER BY d.session_id`)
		if err != nil {
			return err
		}
		defer s.Close()
		for s.Step() {
			out = append(out, Session{ID: s.ColumnInt64(0), Date: s.ColumnText(1), Transitions: s.ColumnInt64(2)})
		}
		return s.Err()
	})
	return out, err
}

// Read reads the session of the database file name as a btlog.Log, which prints as
// the console would have printed the run and replays in a browser: the tree's XML and
// nodes, and the transitions in the order of their timestamps, counted from the first
// one (Log.Start). A transition of a UID the tree lacks, or of an unknown state, is an
// error naming its timestamp.
func Read(name string, session int64) (*btlog.Log, error) {
	l := &btlog.Log{}
	err := query(name, func(conn *sqlite3.Conn) error {
		s, _, err := conn.Prepare("SELECT xml_tree FROM Definitions WHERE session_id = ?")
		if err != nil {
			return err
		}
		defer s.Close()
		if err := s.BindInt64(1, session); err != nil {
			return err
		}
		if !s.Step() {
			return cmpErr(s.Err(), fmt.Errorf("no session %d", session))
		}
		l.XML = []byte(s.ColumnText(0))
		if l.Nodes, err = btlog.ReadTreeXML(l.XML); err != nil {
			return fmt.Errorf("session %d: %w", session, err)
		}
		return readTransitions(conn, l, session)
	})
	if err != nil {
		return nil, err
	}
	return l, nil
}

// readTransitions reads the transitions of the session into l, whose Nodes are read.
func readTransitions(conn *sqlite3.Conn, l *btlog.Log, session int64) error {
	s, _, err := conn.Prepare("SELECT timestamp, node_uid, state FROM Transitions WHERE session_id = ? ORDER BY timestamp")
	if err != nil {
		return err
	}
	defer s.Close()
	if err := s.BindInt64(1, session); err != nil {
		return err
	}
	var last []bt.Status // by UID: the node's status so far
	if len(l.Nodes) > 0 {
		last = make([]bt.Status, int(l.Nodes[len(l.Nodes)-1].UID)+1) // Nodes are sorted by UID
	}
	var first int64
	for s.Step() {
		ts, uid, state := s.ColumnInt64(0), s.ColumnInt64(1), s.ColumnInt64(2)
		if len(l.Transitions) == 0 {
			first = ts
			l.Start = time.UnixMicro(ts)
		}
		n := l.Node(uint16(uid))
		switch {
		case n == nil || uid != int64(uint16(uid)):
			return fmt.Errorf("session %d, transition at %d: UID %d is not a node of the tree", session, ts, uid)
		case state < 0 || state > int64(bt.Skipped):
			return fmt.Errorf("session %d, transition at %d: %d is not a state", session, ts, state)
		}
		st := bt.Status(state)
		l.Transitions = append(l.Transitions, btlog.Transition{Offset: time.Duration(ts-first) * time.Microsecond,
			UID: n.UID, Previous: last[n.UID], Status: st})
		last[n.UID] = st
	}
	return s.Err()
}

// query opens the database file name read-only, checks that it has the tables of a
// SqliteLogger, and runs f on it.
func query(name string, f func(*sqlite3.Conn) error) error {
	// SQLite would make an empty database of a missing file.
	if _, err := os.Stat(name); err != nil {
		return fmt.Errorf("btsqlite: %w", err)
	}
	conn, err := sqlite3.OpenFlags(name, sqlite3.OPEN_READONLY)
	if err != nil {
		return fmt.Errorf("btsqlite: %s: %w", name, err)
	}
	err = conn.BusyTimeout(5 * time.Second)
	if err == nil {
		err = checkTables(conn)
	}
	if err == nil {
		err = f(conn)
	}
	if err = errors.Join(err, conn.Close()); err != nil {
		return fmt.Errorf("btsqlite: %s: %w", name, err)
	}
	return nil
}

// checkTables refuses a database without the tables of a SqliteLogger, or a file that
// is not a database.
func checkTables(conn *sqlite3.Conn) error {
	s, _, err := conn.Prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('Definitions', 'Nodes', 'Transitions')")
	if err != nil {
		return err
	}
	defer s.Close()
	if !s.Step() {
		return cmpErr(s.Err(), errors.New("no row"))
	}
	if s.ColumnInt(0) != 3 {
		return errors.New("not a database of a SqliteLogger: it lacks the tables Definitions, Nodes and Transitions")
	}
	return nil
}
