package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// TestObserverWriteError: a file that fails while the tree runs (a full disk) does
// not stop the run, and is reported at its end, naming the flag; the status is 1.
func TestObserverWriteError(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full here")
	}
	tree := filepath.Join(t.TempDir(), "tree.xml")
	if err := os.WriteFile(tree, []byte(`<root BTCPP_format="4"><BehaviorTree ID="M"><AlwaysSuccess/></BehaviorTree></root>`), 0o666); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runBT(t, "run", "--jsonl", "/dev/full", "--trace", "/dev/full", tree)
	want := "tick 1 SUCCESS\nblackboard {}\n" +
		"error --trace: write /dev/full: no space left on device\n" +
		"error --jsonl: write /dev/full: no space left on device\n"
	if code != exitError || out != want || errOut != "" {
		t.Errorf("exit %d\n--- stdout\n%s--- stderr\n%s--- want exit 1 and\n%s", code, out, errOut, want)
	}
}
