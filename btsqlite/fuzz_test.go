package btsqlite

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzRead reads databases whose rows hold anything: a tree's XML, and a transition's
// timestamp, UID and state. Errors, never a panic, and no transition of a node the
// tree lacks.
func FuzzRead(f *testing.F) {
	xml, err := os.ReadFile("testdata/tree.xml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(xml), int64(1), int64(6), int64(1))
	f.Add("<root><BehaviorTree ID=\"T\" _fullpath=\"\"><Sequence _uid=\"1\"/></BehaviorTree></root>", int64(-5), int64(1), int64(4))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, xml string, ts, uid, state int64) {
		name := filepath.Join(dir, "fuzz.db3")
		os.Remove(name)
		conn := openConn(t, name)
		defer conn.Close()
		// No fsync: a commit waiting for the disk would make the fuzzing crawl.
		if err := conn.Exec("PRAGMA synchronous = OFF; PRAGMA journal_mode = OFF;" + schema); err != nil {
			t.Fatal(err)
		}
		for _, q := range []struct {
			sql  string
			args []any
		}{
			{"INSERT INTO Definitions (date, xml_tree) VALUES ('now', ?)", []any{xml}},
			{"INSERT INTO Transitions VALUES (?, 1, ?, 0, ?, '')", []any{ts, uid, state}},
		} {
			if err := execArgs(conn, q.sql, q.args...); err != nil {
				t.Fatal(err)
			}
		}
		log, err := Read(name, 1)
		if err == nil && len(log.Transitions) != 1 || err == nil && log.Node(log.Transitions[0].UID) == nil {
			t.Errorf("read %+v, want one transition of a node of the tree or an error", log)
		}
	})
}
