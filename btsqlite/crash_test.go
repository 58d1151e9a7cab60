package btsqlite

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/gobt/bt"
)

// TestCrash kills a process that writes a database (SIGKILL: no Close, no deferred
// function) while it writes batch after batch, and reads what it left: every
// transition it had flushed, in a database SQLite finds sound.
func TestCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a subprocess")
	}
	name := filepath.Join(t.TempDir(), "crash.db3")
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashWriter$")
	cmd.Env = append(os.Environ(), "BTSQLITE_CRASH_DB="+name)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The writer prints how many transitions it has flushed, after each Flush; after
	// the third, it is killed, in the middle of the batches that follow.
	lines := bufio.NewScanner(out)
	var flushed int64
	for i := 0; i < 3 && lines.Scan(); i++ {
		flushed, _ = strconv.ParseInt(lines.Text(), 10, 64)
	}
	cmd.Process.Kill()
	cmd.Wait()
	if flushed == 0 {
		t.Fatalf("the writer flushed nothing (%v)", lines.Err())
	}
	if got := rows(t, name, "PRAGMA integrity_check"); !equalRows(got, [][]any{{"ok"}}) {
		t.Errorf("integrity_check: %v", got)
	}
	sessions, err := Sessions(name)
	if err != nil {
		t.Fatal(err)
	}
	if len(sessions) != 1 || sessions[0].Transitions < flushed {
		t.Fatalf("sessions %+v, want one with at least the %d transitions flushed", sessions, flushed)
	}
	log, err := Read(name, 1)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(log.Transitions)) != sessions[0].Transitions {
		t.Errorf("Read %d transitions of %d", len(log.Transitions), sessions[0].Transitions)
	}
	t.Logf("killed after %d transitions flushed; %d in the database", flushed, sessions[0].Transitions)
}

// TestCrashWriter is the process TestCrash kills: it ticks a tree for ever, logging
// to the database BTSQLITE_CRASH_DB, and prints the number of transitions it has
// flushed every 100 ticks.
func TestCrashWriter(t *testing.T) {
	name := os.Getenv("BTSQLITE_CRASH_DB")
	if name == "" {
		t.Skip("the subprocess of TestCrash")
	}
	f := bt.NewFactory()
	if err := f.LoadString("crash.xml", `<root BTCPP_format="4"><BehaviorTree ID="T"><Sequence><AlwaysSuccess/><AlwaysSuccess/></Sequence></BehaviorTree></root>`); err != nil {
		t.Fatal(err)
	}
	tree, err := f.NewTree("T")
	if err != nil {
		t.Fatal(err)
	}
	l, err := Create(tree, name, nil)
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	tree.Subscribe(func(bt.StatusChange) { n++ })
	for i := 1; ; i++ {
		if _, err := tree.TickOnce(); err != nil {
			t.Fatal(err)
		}
		if i%100 == 0 {
			if err := l.Flush(); err != nil {
				t.Fatal(err)
			}
			fmt.Println(n)
		}
	}
}
