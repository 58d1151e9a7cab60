package btlog

import (
	"bytes"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

func TestConsoleGolden(t *testing.T) {
	for _, c := range []struct {
		name string
		opts *ConsoleOptions
	}{
		{"console.golden", nil},
		{"console_color_paths.golden", &ConsoleOptions{Color: true, Paths: true}},
		{"console_absolute.golden", &ConsoleOptions{Absolute: true}},
		{"console_filter.golden", &ConsoleOptions{Filter: func(n *NodeInfo, prev, s bt.Status) bool {
			return n.Kind == bt.KindAction && s != bt.Idle
		}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				tree := mission(t)
				var out bytes.Buffer
				l, err := NewConsole(tree, &out, c.opts)
				if err != nil {
					t.Fatal(err)
				}
				run(t, tree)
				closeAll(t, l)
				golden(t, c.name, out.Bytes())
			})
		})
	}
}

// TestConsoleLine checks the format against StdCoutLogger's printf, field by field:
// names padded to 25 characters, or to the longest name of the tree so that the
// statuses line up.
func TestConsoleLine(t *testing.T) {
	long := "a_name_longer_than_25_characters"
	short := []NodeInfo{{UID: 1, Name: "Seq", Path: "Seq::1"}, {UID: 2, Name: "Go", Path: "Seq::1/Go"}}
	wide := []NodeInfo{{UID: 1, Name: "Seq", Path: "Seq::1"}, {UID: 2, Name: long, Path: "x/" + long}}
	pad := strings.Repeat(" ", len(long)-len("Seq"))
	for _, tc := range []struct {
		nodes []NodeInfo
		opts  ConsoleOptions
		tr    Transition
		want  string
	}{
		{short, ConsoleOptions{}, Transition{Offset: 12345 * time.Microsecond, UID: 1, Previous: bt.Idle, Status: bt.Running},
			"[0.012]: Seq                       IDLE -> RUNNING\n"},
		{wide, ConsoleOptions{}, Transition{Offset: 1500 * time.Microsecond, UID: 2, Previous: bt.Running, Status: bt.Failure},
			"[0.002]: " + long + " RUNNING -> FAILURE\n"},
		{wide, ConsoleOptions{}, Transition{Offset: 1500 * time.Microsecond, UID: 1, Previous: bt.Running, Status: bt.Failure},
			"[0.002]: Seq" + pad + " RUNNING -> FAILURE\n"},
		{short, ConsoleOptions{Paths: true, Absolute: true}, Transition{Offset: 61 * time.Second, UID: 1, Previous: bt.Success, Status: bt.Idle},
			"[946684861.000]: Seq::1                    SUCCESS -> IDLE\n"},
		{short, ConsoleOptions{UIDs: true}, Transition{UID: 2, Previous: bt.Idle, Status: bt.Success},
			"[0.000]: Go::2                     IDLE -> SUCCESS\n"},
		{short, ConsoleOptions{Paths: true, UIDs: true}, Transition{UID: 1, Previous: bt.Idle, Status: bt.Success},
			"[0.000]: Seq::1                    IDLE -> SUCCESS\n"},
		{short, ConsoleOptions{Color: true}, Transition{UID: 1, Previous: bt.Idle, Status: bt.Success},
			"[0.000]: Seq                       \x1b[36mIDLE\x1b[0m -> \x1b[32mSUCCESS\x1b[0m\n"},
	} {
		c := newConsoleSink(output{}, tc.nodes, &tc.opts, 946684800_000_000)
		if got := string(c.line(nil, tc.tr)); got != tc.want {
			t.Errorf("%+v, %+v:\n got %q\nwant %q", tc.opts, tc.tr, got, tc.want)
		}
	}
}

// TestConsoleSinceFile: a Console whose times count from a File's start prints the
// times the file replays to, though it attached later (by 0.6 ms here, which moves a
// change at 10 ms to 9.4 ms when counted from the Console's own start).
func TestConsoleSinceFile(t *testing.T) {
	clock := bttest.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	tree, err := bt.NewTree(bt.Sequence(bt.AlwaysSuccess()), bt.WithClock(clock))
	if err != nil {
		t.Fatal(err)
	}
	var file, printed bytes.Buffer
	f, err := NewFile(tree, &file)
	if err != nil {
		t.Fatal(err)
	}
	clock.Advance(600 * time.Microsecond)
	c, err := NewConsole(tree, &printed, &ConsoleOptions{Since: f.Start()})
	if err != nil {
		t.Fatal(err)
	}
	clock.Advance(9400 * time.Microsecond)
	if _, err := tree.TickOnce(); err != nil {
		t.Fatal(err)
	}
	closeAll(t, c, f)
	log, err := Read(bytes.NewReader(file.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	var replayed bytes.Buffer
	if err := log.WriteConsole(&replayed, nil); err != nil {
		t.Fatal(err)
	}
	if printed.String() != replayed.String() || !bytes.HasPrefix(printed.Bytes(), []byte("[0.010]")) {
		t.Errorf("printed:\n%s\nreplayed:\n%s", printed.String(), replayed.String())
	}
}

// TestSetEnabled: a paused logger drops the changes handed over while it is paused
// (StatusChangeLogger::setEnabled), whatever the logger; a resumed one records again.
func TestSetEnabled(t *testing.T) {
	var _ = []Logger{(*Console)(nil), (*File)(nil), (*JSONL)(nil), (*Slog)(nil), (*Trace)(nil), (*Stats)(nil)}
	clock := bttest.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	tree, err := bt.NewTree(bt.Sequence(bt.AlwaysSuccess()).Named("seq"), bt.WithClock(clock))
	if err != nil {
		t.Fatal(err)
	}
	var printed, file bytes.Buffer
	c, err := NewConsole(tree, &printed, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := NewFile(tree, &file)
	if err != nil {
		t.Fatal(err)
	}
	st, err := NewStats(tree)
	if err != nil {
		t.Fatal(err)
	}
	loggers := []Logger{c, f, st}
	for i, on := range []bool{true, false, true} {
		for _, l := range loggers {
			l.SetEnabled(on)
			if l.Enabled() != on {
				t.Fatalf("%T: Enabled() %v after SetEnabled(%v)", l, l.Enabled(), on)
			}
		}
		clock.Advance(time.Duration(i+1) * time.Second)
		if _, err := tree.TickOnce(); err != nil {
			t.Fatal(err)
		}
	}
	closeAll(t, c, f)
	// A tick is 5 changes: seq goes RUNNING, its child SUCCESS and back to IDLE, seq
	// SUCCESS, and IDLE again when the tick ends.
	lines := strings.Split(strings.TrimSpace(printed.String()), "\n")
	if len(lines) != 10 || !strings.HasPrefix(lines[4], "[1.000]") || !strings.HasPrefix(lines[5], "[6.000]") {
		t.Errorf("printed, the second tick paused:\n%s", printed.String())
	}
	log, err := Read(bytes.NewReader(file.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(log.Transitions); n != 10 {
		t.Errorf("the file has %d changes, want 10", n)
	}
	if s, _ := st.ByPath("seq"); s.Successes != 2 {
		t.Errorf("Stats counted %d successes of seq, want 2", s.Successes)
	}
}

// TestConsoleHideIdle: HideIdle leaves out the changes to IDLE, as StdCoutLogger does
// after enableTransitionToIdle(false).
func TestConsoleHideIdle(t *testing.T) {
	tree, err := bt.NewTree(bt.Sequence(bt.AlwaysSuccess()).Named("seq"), bt.WithClock(bttest.NewClock(time.Unix(0, 0))))
	if err != nil {
		t.Fatal(err)
	}
	var printed bytes.Buffer
	c, err := NewConsole(tree, &printed, &ConsoleOptions{HideIdle: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tree.TickOnce(); err != nil {
		t.Fatal(err)
	}
	closeAll(t, c)
	want := "[0.000]: seq                       IDLE -> RUNNING\n" +
		"[0.000]: AlwaysSuccess             IDLE -> SUCCESS\n" +
		"[0.000]: seq                       RUNNING -> SUCCESS\n"
	if printed.String() != want {
		t.Errorf("printed:\n%s\nwant:\n%s", printed.String(), want)
	}
}

// TestConsoleSyncOrder: a synchronous Console writes each change as the tree makes it,
// so what a node prints and the log come out in the order they happened, and the
// program's own line after the tick comes after the tick's log, without Flush. The
// tree ticks twice: the action runs in the first tick and completes in the second.
func TestConsoleSyncOrder(t *testing.T) {
	var out bytes.Buffer
	calls := 0
	move := bt.Action("MoveTo", func() bt.Status {
		calls++
		out.WriteString("MoveTo(A): driving\n")
		if calls == 1 {
			return bt.Running
		}
		return bt.Success
	})
	tree, err := bt.NewTree(bt.Sequence(move).Named("Patrol"), bt.WithClock(bttest.NewClock(time.Unix(0, 0))))
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewConsole(tree, &out, &ConsoleOptions{Sync: true})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		st, err := tree.TickOnce()
		if err != nil {
			t.Fatal(err)
		}
		out.WriteString("result " + st.String() + "\n")
	}
	want := `[0.000]: Patrol                    IDLE -> RUNNING
MoveTo(A): driving
[0.000]: MoveTo                    IDLE -> RUNNING
result RUNNING
MoveTo(A): driving
[0.000]: MoveTo                    RUNNING -> SUCCESS
[0.000]: MoveTo                    SUCCESS -> IDLE
[0.000]: Patrol                    RUNNING -> SUCCESS
[0.000]: Patrol                    SUCCESS -> IDLE
result SUCCESS
`
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	if err := c.Close(); err != nil {
		t.Error(err)
	}
	tree.TickOnce()
	if out.String() != want+"MoveTo(A): driving\n" {
		t.Errorf("a closed Console wrote:\n%s", strings.TrimPrefix(out.String(), want))
	}
	if err := c.Flush(); err != ErrClosed {
		t.Errorf("Flush after Close: %v, want ErrClosed", err)
	}
}
