package btsqlite

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/gobt/bt/btlog"
)

// TestRead reads a session back as the .btlog file of the same run reads.
func TestRead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		name := dbFile(t)
		tree := newTree(t)
		var file bytes.Buffer
		f, err := btlog.NewFile(tree, &file)
		if err != nil {
			t.Fatal(err)
		}
		l, err := Create(tree, name, nil)
		if err != nil {
			t.Fatal(err)
		}
		runTree(t, tree)
		if err := errors.Join(f.Close(), l.Close()); err != nil {
			t.Fatal(err)
		}
		want, err := btlog.Read(&file)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Read(name, 1)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.XML, want.XML) || !slices.Equal(got.Nodes, want.Nodes) || !got.Start.Equal(want.Start) {
			t.Errorf("Read: XML, nodes or start differ from the .btlog file's:\n%+v\n%+v", got, want)
		}
		if len(got.Transitions) != len(want.Transitions) {
			t.Fatalf("%d transitions, want %d", len(got.Transitions), len(want.Transitions))
		}
		for i, tr := range got.Transitions {
			w := want.Transitions[i]
			// The database's timestamps are a µs apart within a tick.
			if tr.UID != w.UID || tr.Previous != w.Previous || tr.Status != w.Status || tr.Offset < w.Offset || tr.Offset-w.Offset > 100_000 {
				t.Errorf("transition %d: %+v, want %+v", i, tr, w)
			}
		}
	})
}

func TestReadErrors(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "run.db3")
	record(t, name, nil)
	if _, err := Read(name, 2); err == nil || !strings.Contains(err.Error(), "no session 2") {
		t.Errorf("Read of a missing session: %v", err)
	}
	if _, err := Read(filepath.Join(dir, "none.db3"), 1); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("Read of a missing file: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "none.db3")); err == nil {
		t.Error("Read made the missing file")
	}
	text := filepath.Join(dir, "text.db3")
	os.WriteFile(text, []byte("not a database, not at all, but long enough to have a header of one"), 0o644)
	if _, err := Sessions(text); err == nil || !strings.Contains(err.Error(), "text.db3") {
		t.Errorf("Sessions of a text file: %v", err)
	}
	other := filepath.Join(dir, "other.db3")
	if err := execSQL(other, "CREATE TABLE Definitions (x)"); err != nil {
		t.Fatal(err)
	}
	if _, err := Sessions(other); err == nil || !strings.Contains(err.Error(), "not a database of a SqliteLogger") {
		t.Errorf("Sessions of another database: %v", err)
	}
	bad := filepath.Join(dir, "bad.db3")
	record(t, bad, nil)
	if err := execSQL(bad, "INSERT INTO Transitions VALUES (1, 1, 99, 0, 1, '')"); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(bad, 1); err == nil || !strings.Contains(err.Error(), "transition at 1: UID 99 is not a node of the tree") {
		t.Errorf("Read of an unknown UID: %v", err)
	}
	if err := execSQL(bad, "UPDATE Transitions SET node_uid = 1, state = 7 WHERE timestamp = 1"); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(bad, 1); err == nil || !strings.Contains(err.Error(), "transition at 1: 7 is not a state") {
		t.Errorf("Read of an unknown state: %v", err)
	}
	if err := execSQL(bad, "UPDATE Definitions SET xml_tree = '<root><BehaviorTree'"); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(bad, 1); err == nil || !strings.Contains(err.Error(), "session 1: btlog: byte") {
		t.Errorf("Read of bad XML: %v", err)
	}
}
