package btlog

import (
	"bytes"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gobt/bt"
)

// TestReplay records the mission with a File, a Console and a Stats at once: the file
// read back prints the Console's lines and counts the Stats' statistics.
func TestReplay(t *testing.T) {
	for _, opts := range []*ConsoleOptions{nil, {Color: true, Paths: true}, {Absolute: true},
		{Filter: func(n *NodeInfo, _, s bt.Status) bool { return n.Kind == bt.KindAction && s != bt.Idle }}} {
		synctest.Test(t, func(t *testing.T) {
			tree := mission(t)
			var file, console bytes.Buffer
			f, err := NewFile(tree, &file)
			if err != nil {
				t.Fatal(err)
			}
			c, err := NewConsole(tree, &console, opts)
			if err != nil {
				t.Fatal(err)
			}
			s, err := NewStats(tree)
			if err != nil {
				t.Fatal(err)
			}
			run(t, tree)
			closeAll(t, f, c, s)

			log, err := Read(&file)
			if err != nil {
				t.Fatal(err)
			}
			var replayed bytes.Buffer
			if err := log.WriteConsole(&replayed, opts); err != nil {
				t.Fatal(err)
			}
			if replayed.String() != console.String() {
				t.Errorf("replayed:\n%s\nthe Console printed:\n%s", replayed.String(), console.String())
			}
			var want, got bytes.Buffer
			if err := s.WriteTable(&want); err != nil {
				t.Fatal(err)
			}
			ls := log.Stats()
			if err := ls.WriteTable(&got); err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Errorf("statistics of the file:\n%s\nof the tree:\n%s", got.String(), want.String())
			}
			for _, n := range s.Nodes() {
				a, _ := s.ByUID(n.UID)
				b, _ := ls.ByPath(n.Path)
				if !a.Time.Equal(b.Time) {
					t.Errorf("%s: last change at %v in the file, %v in the tree", n.Path, b.Time, a.Time)
				}
			}
		})
	}
}

// TestReplayHandmade replays a file in BehaviorTree.CPP's layout whose UIDs have a gap.
func TestReplayHandmade(t *testing.T) {
	x := `<root BTCPP_format="4"><BehaviorTree ID="M" _fullpath=""><Sequence name="s" _uid="2">` +
		`<AlwaysSuccess name="ok" _uid="5"/></Sequence></BehaviorTree></root>`
	data := append([]byte("BTCPP4-FileLogger2\x01"), byte(len(x)), 0, 0, 0)
	data = append(append(data, x...), 0, 0, 0, 0, 0, 0, 0, 0)
	for _, r := range [][9]byte{rec(0, 2, 1), rec(1500, 5, 2), rec(1500, 5, 0), rec(2500, 2, 2)} {
		data = append(data, r[:]...)
	}
	log, err := Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := log.WriteConsole(&out, &ConsoleOptions{Absolute: true}); err != nil {
		t.Fatal(err)
	}
	want := "[0.000]: s                         IDLE -> RUNNING\n" +
		"[0.002]: ok                        IDLE -> SUCCESS\n" +
		"[0.002]: ok                        SUCCESS -> IDLE\n" +
		"[0.003]: s                         RUNNING -> SUCCESS\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	s := log.Stats()
	out.Reset()
	if err := s.WriteTable(&out); err != nil {
		t.Fatal(err)
	}
	want = "UID  PATH  TRANSITIONS  SUCCESS  FAILURE  LAST RESULT  STATUS\n" +
		"2    s     2            1        0        SUCCESS      SUCCESS\n" +
		"5    ok    1            1        0        SUCCESS      IDLE\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	for _, uid := range []uint16{0, 1, 3, 6} {
		if _, ok := s.ByUID(uid); ok {
			t.Errorf("ByUID(%d) found a node", uid)
		}
	}
	if st, ok := s.ByUID(2); !ok || !st.Time.Equal(time.UnixMicro(2500)) {
		t.Errorf("ByUID(2): %+v, %v", st, ok)
	}
}

// TestReplayErrors: a Log made by hand gets an error, never a panic.
func TestReplayErrors(t *testing.T) {
	var nilLog *Log
	bad := &Log{Nodes: []NodeInfo{{UID: 1, Name: "a"}}, Transitions: []Transition{{UID: 1}, {UID: 7}}}
	for _, c := range []struct {
		log  *Log
		w    *bytes.Buffer
		want string
	}{
		{nilLog, &bytes.Buffer{}, "btlog: nil log"},
		{bad, nil, "btlog: nil writer"},
		{bad, &bytes.Buffer{}, "btlog: transition 1: UID 7 is not a node of the log"},
		{&Log{Transitions: []Transition{{UID: 0}}}, &bytes.Buffer{}, "btlog: transition 0: UID 0 is not a node of the log"},
	} {
		var err error
		if c.w == nil {
			err = c.log.WriteConsole(nil, nil)
		} else {
			err = c.log.WriteConsole(c.w, nil)
		}
		if err == nil || err.Error() != c.want {
			t.Errorf("got %v, want %s", err, c.want)
		}
	}
	s := bad.Stats()
	if st, _ := s.ByUID(1); st.Status != bt.Idle || s.Close() != nil {
		t.Errorf("the statistics of a Log made by hand: %+v", st)
	}
	var table strings.Builder
	if err := nilLog.Stats().WriteTable(&table); err != nil || strings.Count(table.String(), "\n") != 1 {
		t.Errorf("the statistics of a nil Log: %q, %v", table.String(), err)
	}
}
