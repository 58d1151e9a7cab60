package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNav2 checks the navigation trees of a checkout of ros-navigation/navigation2
// against its models file, nav2_tree_nodes.xml, the most used TreeNodesModel file
// there is: bt check --models must pass, with notes only. Set BT_NAV2 to the checkout
// to run it; testdata/nav2-shaped-TreeNodesModel.xml (at the module's root) stands in
// for the file in the tests that always run.
func TestNav2(t *testing.T) {
	dir := os.Getenv("BT_NAV2")
	if dir == "" {
		t.Skip("BT_NAV2 is not set: no navigation2 checkout to check")
	}
	trees, err := filepath.Glob(filepath.Join(dir, "nav2_bt_navigator", "behavior_trees", "*.xml"))
	if err != nil || len(trees) == 0 {
		t.Fatalf("no trees in %s (%v)", dir, err)
	}
	args := append([]string{"check", "--models", filepath.Join(dir, "nav2_behavior_tree", "nav2_tree_nodes.xml")}, trees...)
	var stdout, stderr bytes.Buffer
	if code := Main(args, &stdout, &stderr); code != exitOK || stdout.Len() > 0 {
		t.Errorf("exit %d:\n%s", code, stdout.String())
	}
	for _, line := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
		if line != "" && !strings.Contains(line, ": note: ") {
			t.Errorf("not a note: %s", line)
		}
	}
	t.Logf("%d trees checked; notes:\n%s", len(trees), stderr.String())
}
