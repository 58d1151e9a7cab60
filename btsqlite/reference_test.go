package btsqlite

import (
	"path/filepath"
	"slices"
	"testing"
	"testing/synctest"

	"github.com/gobt/bt"
	"github.com/gobt/bt/btlog"
)

// reference is a database BehaviorTree.CPP 4.10's SqliteLogger wrote: two runs of
// testdata/tree.xml, the second appended with extra data (see testdata/README.md).
const reference = "testdata/reference.db3"

// writeLikeReference writes to name what the program that made reference.db3 did:
// a session, then a second one appended, whose extra data is "PREV->NEW".
func writeLikeReference(t *testing.T, name string) {
	synctest.Test(t, func(t *testing.T) {
		record(t, name, nil)
		record(t, name, &Options{Append: true, Extra: func(tr btlog.Transition, _ *btlog.NodeInfo) string {
			return tr.Previous.String() + "->" + tr.Status.String()
		}})
	})
}

// TestReferenceSchema compares the tables of a database of ours with the reference's,
// column by column: names, types, NOT NULL, defaults and keys, and what else the
// schema holds (AUTOINCREMENT's sqlite_sequence).
func TestReferenceSchema(t *testing.T) {
	ours := dbFile(t)
	writeLikeReference(t, ours)
	objects := "SELECT type, name, tbl_name FROM sqlite_master ORDER BY name"
	if got, want := rows(t, ours, objects), rows(t, reference, objects); !equalRows(got, want) {
		t.Errorf("sqlite_master:\n%v\nthe reference's:\n%v", got, want)
	}
	for _, table := range []string{"Definitions", "Nodes", "Transitions", "sqlite_sequence"} {
		info := "SELECT cid, name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?)"
		got, want := rows(t, ours, info, table), rows(t, reference, info, table)
		if len(want) == 0 || !equalRows(got, want) {
			t.Errorf("the columns of %s:\n%v\nthe reference's:\n%v", table, got, want)
		}
	}
	// The primary key of Definitions counts on: its AUTOINCREMENT.
	seq := "SELECT name, seq FROM sqlite_sequence"
	if got, want := rows(t, ours, seq), rows(t, reference, seq); !equalRows(got, want) {
		t.Errorf("sqlite_sequence %v, the reference's %v", got, want)
	}
}

// TestReferenceRows compares the rows of the same runs, written by us and by the
// reference: the sessions, the nodes with their paths and UIDs, and the transitions
// with their UIDs, states, extra data, and which have a duration. The times differ:
// the reference's runs took the time they took.
func TestReferenceRows(t *testing.T) {
	ours := dbFile(t)
	writeLikeReference(t, ours)
	sessions := "SELECT session_id FROM Definitions ORDER BY 1"
	if got, want := rows(t, ours, sessions), rows(t, reference, sessions); !equalRows(got, want) {
		t.Errorf("sessions %v, the reference's %v", got, want)
	}
	nodes := "SELECT * FROM Nodes ORDER BY session_id, node_uid"
	if got, want := rows(t, ours, nodes), rows(t, reference, nodes); len(want) == 0 || !equalRows(got, want) {
		t.Errorf("Nodes:\n%v\nthe reference's:\n%v", got, want)
	}
	for session := int64(1); session <= 2; session++ {
		got, want := transitions(t, ours, session), transitions(t, reference, session)
		if len(got) != len(want) || len(want) == 0 {
			t.Fatalf("session %d: %d transitions, the reference's %d", session, len(got), len(want))
		}
		for i, w := range want {
			g := got[i]
			if g.Session != w.Session || g.UID != w.UID || g.State != w.State || g.Extra != w.Extra || (g.Duration == 0) != (w.Duration == 0) {
				t.Errorf("session %d, transition %d: %+v, the reference's %+v", session, i, g, w)
			}
			if i > 0 && (g.Timestamp <= got[i-1].Timestamp || w.Timestamp <= want[i-1].Timestamp) {
				t.Errorf("session %d, transition %d: timestamps not increasing", session, i)
			}
		}
		if want[0].Timestamp < 1_700_000_000_000_000 {
			t.Errorf("the reference's timestamps are not µs since the Unix epoch: %d", want[0].Timestamp)
		}
	}
	// The trees: the XML differs in its TreeNodesModel (bt lists the types the tree
	// uses, see btlog.WriteTreeXML), not in its nodes.
	xml := "SELECT xml_tree FROM Definitions ORDER BY session_id"
	for i, x := range rows(t, reference, xml) {
		want, err := btlog.ReadTreeXML([]byte(x[0].(string)))
		if err != nil {
			t.Fatal(err)
		}
		got, err := btlog.ReadTreeXML([]byte(rows(t, ours, xml)[i][0].(string)))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("session %d: the XML's nodes\n%v\nthe reference's\n%v", i+1, got, want)
		}
	}
}

// TestReadReference reads the reference's sessions as bt replay does.
func TestReadReference(t *testing.T) {
	sessions, err := Sessions(reference)
	if err != nil {
		t.Fatal(err)
	}
	if len(sessions) != 2 || sessions[0].ID != 1 || sessions[1].ID != 2 || sessions[0].Transitions != 42 || sessions[1].Transitions != 42 {
		t.Fatalf("sessions %+v, want 1 and 2 of 42 transitions", sessions)
	}
	ours := filepath.Join(t.TempDir(), "ours.db3")
	writeLikeReference(t, ours)
	for _, id := range []int64{1, 2} {
		log, err := Read(reference, id)
		if err != nil {
			t.Fatal(err)
		}
		mine, err := Read(ours, id)
		if err != nil {
			t.Fatal(err)
		}
		strip := func(trs []btlog.Transition) []btlog.Transition {
			out := slices.Clone(trs)
			for i := range out {
				out[i].Offset = 0
			}
			return out
		}
		if !slices.Equal(strip(log.Transitions), strip(mine.Transitions)) {
			t.Errorf("session %d read:\n%v\nours:\n%v", id, log.Transitions, mine.Transitions)
		}
		if last := log.Transitions[len(log.Transitions)-1]; last.UID != 1 || last.Status != bt.Idle || last.Offset < 60_000_000 {
			t.Errorf("session %d ends with %+v, want the root back to IDLE after the three Sleeps of 20 ms", id, last)
		}
	}
}
