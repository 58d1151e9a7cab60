package bttest

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gobt/bt"
)

// Trace writes down the status changes of a tree, one line each: "PATH: PREV -> NEW"
// (`bt run --log`'s line without the time and the padding). Compare it with a golden
// file (Golden) to see every change a change of code makes.
type Trace struct {
	b strings.Builder
}

// NewTrace subscribes a Trace to tree until the test ends. It hears the changes in
// batches (bt.Tree.SubscribeBatch), as loggers do.
func NewTrace(t testing.TB, tree *bt.Tree) *Trace {
	tr := &Trace{}
	t.Cleanup(tree.SubscribeBatch(func(b bt.Batch) {
		for _, c := range b.Changes {
			fmt.Fprintf(&tr.b, "%s: %v -> %v\n", tree.Node(c.UID()).Path(), c.Previous(), c.Status())
		}
	}))
	return tr
}

// Note adds a line of the test's own, such as "tick 3 RUNNING".
func (tr *Trace) Note(line string) {
	tr.b.WriteString(line)
	tr.b.WriteByte('\n')
}

// String returns the lines written so far.
func (tr *Trace) String() string { return tr.b.String() }

// RunTrace ticks tree with TickOnce until its root completes, moving clock on by every
// after each tick, and returns its Trace with a line "tick N STATUS" after each tick.
// After max ticks it halts the tree instead, and the last line is "halt". An error
// fails the test.
func RunTrace(t testing.TB, tree *bt.Tree, clock *Clock, every time.Duration, max int) string {
	t.Helper()
	tr := NewTrace(t, tree)
	for i := 1; ; i++ {
		if i > max {
			if err := tree.Halt(); err != nil {
				t.Fatal(err)
			}
			tr.Note("halt")
			break
		}
		s, err := tree.TickOnce()
		if err != nil {
			t.Fatalf("tick %d: %v", i, err)
		}
		tr.Note(fmt.Sprintf("tick %d %v", i, s))
		if s != bt.Running {
			break
		}
		clock.Advance(every)
	}
	return tr.String()
}

// Golden compares got with the content of the file path and, when they differ, fails
// the test with the first lines that differ. With update, it writes got to the file
// first: pass the value of a flag of the test package, such as
//
//	var update = flag.Bool("update", false, "rewrite the golden files")
func Golden(t testing.TB, path, got string, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s differs (-update rewrites it):\n%s", path, LineDiff(string(want), got))
	}
}

// LineDiff shows the first lines where want and got differ, with a line of context
// before and three after, or returns "" when they are the same.
func LineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		if i < len(w) && i < len(g) && w[i] == g[i] {
			continue
		}
		var b strings.Builder
		for j := max(i-1, 0); j < i+4; j++ {
			fmt.Fprintf(&b, "line %d:\n  want %q\n  got  %q\n", j+1, lineAt(w, j), lineAt(g, j))
		}
		return b.String()
	}
	return ""
}

func lineAt(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return "(end)"
}
