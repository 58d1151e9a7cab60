package btsqlite

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gobt/bt"
	"github.com/gobt/bt/btlog"
)

func TestCreateExtension(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"run.sqlite", "run", "run.db3.txt", "run.DB3"} {
		_, err := Create(newTree(t), filepath.Join(dir, name), nil)
		if err == nil || !strings.Contains(err.Error(), "must end in .db3 or .btdb") {
			t.Errorf("Create %s: %v, want the extension refused", name, err)
		}
	}
	for _, name := range []string{"run.db3", "run.btdb"} {
		record(t, filepath.Join(dir, name), nil)
	}
	if _, err := Create(nil, filepath.Join(dir, "nil.db3"), nil); err == nil {
		t.Error("Create with a nil tree: no error")
	}
	text := filepath.Join(dir, "text.db3")
	if err := os.WriteFile(text, []byte(strings.Repeat("not a database\n", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Create(newTree(t), text, nil); err == nil || !strings.Contains(err.Error(), "text.db3: sqlite3: file is not a database") {
		t.Errorf("Create on a text file: %v", err)
	}
	other := filepath.Join(dir, "other.db3")
	if err := execSQL(other, "CREATE TABLE Transitions (x)"); err != nil {
		t.Fatal(err)
	}
	if _, err := Create(newTree(t), other, nil); err == nil || !strings.Contains(err.Error(), "other.db3") {
		t.Errorf("Create on a database of other tables: %v", err)
	}
	if got := rows(t, other, "SELECT count(*) FROM sqlite_master WHERE name = 'Definitions'"); got[0][0] != int64(0) {
		t.Error("a Create that failed left tables behind")
	}
	if _, err := Create(newTree(t), filepath.Join(dir, "missing", "run.db3"), nil); err == nil || !strings.Contains(err.Error(), "run.db3") {
		t.Errorf("Create in a missing directory: %v, want an error naming the file", err)
	}
}

// TestRecord checks every table after a run: the session, the tree's XML and nodes,
// and a row per change with its timestamp and duration.
func TestRecord(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		name := dbFile(t)
		tree := newTree(t)
		seen := recorded(t, tree)
		l, err := Create(tree, name, nil)
		if err != nil {
			t.Fatal(err)
		}
		runTree(t, tree)
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
		want := seen()
		if l.Session() != 1 {
			t.Errorf("session %d, want 1", l.Session())
		}

		defs := rows(t, name, "SELECT session_id, date, xml_tree FROM Definitions")
		if len(defs) != 1 || defs[0][0] != int64(1) {
			t.Fatalf("Definitions %v, want session 1", defs)
		}
		if _, err := time.Parse(time.DateTime, defs[0][1].(string)); err != nil {
			t.Errorf("date %q: %v", defs[0][1], err)
		}
		var xml strings.Builder
		if err := btlog.WriteTreeXML(&xml, tree); err != nil {
			t.Fatal(err)
		}
		if defs[0][2] != xml.String() {
			t.Errorf("xml_tree is not WriteTreeXML's:\n%s", defs[0][2])
		}

		var nodes [][]any
		tree.Walk(func(n *bt.Node, _ int) bool {
			nodes = append(nodes, []any{int64(1), n.Path(), int64(n.UID())})
			return true
		})
		if got := rows(t, name, "SELECT * FROM Nodes ORDER BY node_uid"); !equalRows(got, nodes) {
			t.Errorf("Nodes\n%v, want\n%v", got, nodes)
		}

		trs := transitions(t, name, 1)
		if len(trs) != len(want) {
			t.Fatalf("%d transitions, want %d", len(trs), len(want))
		}
		epoch := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro() // synctest's
		began := map[int64]int64{}
		for i, r := range trs {
			w := want[i]
			if r.Session != 1 || r.UID != int64(w.UID) || r.State != int64(w.Status) || r.Extra != "" {
				t.Errorf("transition %d: %+v, want UID %d state %d", i, r, w.UID, w.Status)
			}
			// The ticks are 10 ms apart (20 ms of Sleep take two): the changes of a
			// tick have its time, one µs apart.
			if i > 0 && r.Timestamp <= trs[i-1].Timestamp {
				t.Errorf("transition %d: timestamp %d after %d", i, r.Timestamp, trs[i-1].Timestamp)
			}
			if tick := (r.Timestamp - epoch) / 10_000 * 10_000; r.Timestamp-epoch-tick >= 100 {
				t.Errorf("transition %d: timestamp %d µs after the epoch, not at a tick", i, r.Timestamp-epoch)
			}
			var d int64
			switch {
			case w.Previous == bt.Idle && w.Status == bt.Running:
				began[r.UID] = r.Timestamp
			case w.Previous == bt.Running && w.Status != bt.Running:
				d = r.Timestamp - began[r.UID]
			}
			if r.Duration != d {
				t.Errorf("transition %d (%v -> %v): duration %d, want %d", i, w.Previous, w.Status, r.Duration, d)
			}
		}
		// The Sleep of 20 ms ran three times: IDLE -> RUNNING, then SUCCESS 20 ms later (give or take the µs that keep the timestamps apart).
		sleep := int64(6)
		var ds []int64
		for _, r := range trs {
			if r.UID == sleep && r.State == int64(bt.Success) {
				ds = append(ds, r.Duration)
			}
		}
		if len(ds) != 3 || slices.ContainsFunc(ds, func(d int64) bool { return d < 19_900 || d > 20_100 }) {
			t.Errorf("durations of the Sleep's runs %v µs, want three of 20 ms", ds)
		}
	})
}

func equalRows(a, b [][]any) bool {
	return slices.EqualFunc(a, b, func(x, y []any) bool { return slices.Equal(x, y) })
}

func TestAppend(t *testing.T) {
	name := dbFile(t)
	if s := record(t, name, nil); s != 1 {
		t.Errorf("first session %d, want 1", s)
	}
	if s := record(t, name, &Options{Append: true}); s != 2 {
		t.Errorf("appended session %d, want 2", s)
	}
	sessions, err := Sessions(name)
	if err != nil {
		t.Fatal(err)
	}
	n := int64(len(transitions(t, name, 1)))
	if len(sessions) != 2 || sessions[0].ID != 1 || sessions[1].ID != 2 || sessions[0].Transitions != n || sessions[1].Transitions != n {
		t.Errorf("sessions %+v, want 1 and 2 with %d transitions each", sessions, n)
	}
	if got := rows(t, name, "SELECT count(*) FROM Nodes"); got[0][0] != int64(2*newTree(t).Len()) {
		t.Errorf("%v rows of Nodes, want two sessions'", got[0][0])
	}
	// Without Append, the rows go and the IDs go on, as the reference's DELETEs do.
	if s := record(t, name, nil); s != 3 {
		t.Errorf("session %d after two, without Append; want 3", s)
	}
	for _, table := range []string{"Definitions", "Nodes", "Transitions"} {
		if got := rows(t, name, "SELECT DISTINCT session_id FROM "+table); !equalRows(got, [][]any{{int64(3)}}) {
			t.Errorf("sessions in %s: %v, want only 3", table, got)
		}
	}
}

// TestAppendClockBehind appends a session whose clock is behind the last one's: the
// timestamps, the table's key, go on after the last.
func TestAppendClockBehind(t *testing.T) {
	name := dbFile(t)
	synctest.Test(t, func(t *testing.T) {
		record(t, name, nil)
	})
	synctest.Test(t, func(t *testing.T) { // the same times again
		record(t, name, &Options{Append: true})
	})
	one, two := transitions(t, name, 1), transitions(t, name, 2)
	if len(two) != len(one) || two[0].Timestamp != one[len(one)-1].Timestamp+1 {
		t.Errorf("session 2 starts at %d, session 1 ends at %d", two[0].Timestamp, one[len(one)-1].Timestamp)
	}
}

func TestExtra(t *testing.T) {
	name := dbFile(t)
	record(t, name, &Options{Extra: func(tr btlog.Transition, n *btlog.NodeInfo) string {
		return n.Path + ": " + tr.Previous.String() + "->" + tr.Status.String()
	}})
	trs := transitions(t, name, 1)
	if len(trs) == 0 || trs[0].Extra != "mission: IDLE->RUNNING" {
		t.Fatalf("first transition %+v, want extra data", trs)
	}
	for _, r := range trs {
		if !strings.Contains(r.Extra, "->"+bt.Status(r.State).String()) {
			t.Errorf("%+v: extra data not of this transition", r)
		}
	}
}

func TestExecSQL(t *testing.T) {
	name := dbFile(t)
	tree := newTree(t)
	l, err := Create(tree, name, nil)
	if err != nil {
		t.Fatal(err)
	}
	runTree(t, tree)
	if err := l.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := l.ExecSQL("CREATE TABLE Notes (session_id INTEGER, note TEXT); INSERT INTO Notes SELECT session_id, 'done' FROM Definitions"); err != nil {
		t.Fatal(err)
	}
	if err := l.ExecSQL("SELECT * FROM Nowhere"); err == nil || !strings.Contains(err.Error(), "no such table: Nowhere") {
		t.Errorf("a bad statement: %v, want SQLite's error", err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.ExecSQL("SELECT 1"); !errors.Is(err, btlog.ErrClosed) {
		t.Errorf("ExecSQL after Close: %v, want ErrClosed", err)
	}
	if got := rows(t, name, "SELECT * FROM Notes"); !equalRows(got, [][]any{{int64(1), "done"}}) {
		t.Errorf("Notes %v", got)
	}
}

// TestSetEnabled pauses the logger for the ticks in the middle of the run.
func TestSetEnabled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		name := dbFile(t)
		tree := newTree(t)
		l, err := Create(tree, name, nil)
		if err != nil {
			t.Fatal(err)
		}
		tick := func() {
			if _, err := tree.TickOnce(); err != nil {
				t.Fatal(err)
			}
		}
		tick()
		if err := l.Flush(); err != nil {
			t.Fatal(err)
		}
		first := len(transitions(t, name, 1))
		l.SetEnabled(false)
		if l.Enabled() {
			t.Error("Enabled after SetEnabled(false)")
		}
		wait := func() {
			time.Sleep(20 * time.Millisecond)
			synctest.Wait() // for the Sleep node's timer to wake the tree
		}
		wait()
		tick() // the Sleep completes, the next one starts
		l.SetEnabled(true)
		wait()
		tick()
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
		if first == 0 {
			t.Fatal("the first tick wrote nothing")
		}
		trs := transitions(t, name, 1)
		paused := time.Date(2000, 1, 1, 0, 0, 0, 20_000_000, time.UTC).UnixMicro()
		for _, r := range trs {
			if r.Timestamp >= paused && r.Timestamp < paused+1000 {
				t.Errorf("%+v: written while paused", r)
			}
		}
		if len(trs) == first {
			t.Error("nothing written after SetEnabled(true)")
		}
	})
}
