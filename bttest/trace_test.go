package bttest_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

func TestRunTrace(t *testing.T) {
	clock := bttest.NewClock(time.Unix(0, 0))
	tree, err := bt.NewTree(bt.Delay(80*time.Millisecond, bt.AlwaysSuccess()), bt.WithClock(clock))
	if err != nil {
		t.Fatal(err)
	}
	got := bttest.RunTrace(t, tree, clock, 50*time.Millisecond, 10)
	want := `Delay::1: IDLE -> RUNNING
tick 1 RUNNING
tick 2 RUNNING
AlwaysSuccess::2: IDLE -> SUCCESS
AlwaysSuccess::2: SUCCESS -> IDLE
Delay::1: RUNNING -> SUCCESS
Delay::1: SUCCESS -> IDLE
tick 3 SUCCESS
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	tree, _ = bt.NewTree(bt.Delay(time.Hour, bt.AlwaysSuccess()), bt.WithClock(clock))
	if got := bttest.RunTrace(t, tree, clock, time.Millisecond, 2); got != "Delay::1: IDLE -> RUNNING\ntick 1 RUNNING\ntick 2 RUNNING\nDelay::1: RUNNING -> IDLE\nhalt\n" {
		t.Errorf("halted after 2 ticks:\n%s", got)
	}
}

func TestGolden(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.trace")
	bttest.Golden(t, path, "a\nb\n", true)
	if data, err := os.ReadFile(path); err != nil || string(data) != "a\nb\n" {
		t.Fatalf("update wrote %q, %v", data, err)
	}
	bttest.Golden(t, path, "a\nb\n", false)
	if d := bttest.LineDiff("a\nb\nc\n", "a\nx\nc\n"); d != "line 1:\n  want \"a\"\n  got  \"a\"\nline 2:\n  want \"b\"\n  got  \"x\"\nline 3:\n  want \"c\"\n  got  \"c\"\nline 4:\n  want \"\"\n  got  \"\"\nline 5:\n  want \"(end)\"\n  got  \"(end)\"\n" {
		t.Errorf("LineDiff:\n%s", d)
	}
	if d := bttest.LineDiff("same", "same"); d != "" {
		t.Errorf("LineDiff of equal texts: %q", d)
	}
}
