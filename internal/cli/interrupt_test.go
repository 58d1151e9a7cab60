package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"
)

// TestInterrupt checks that an interrupt (the canceled context of Main) stops bt run
// between ticks: the tree is halted, the blackboard printed, and the status is 1.
func TestInterrupt(t *testing.T) {
	tree := filepath.Join(t.TempDir(), "tree.xml")
	xml := `<root BTCPP_format="4"><BehaviorTree ID="M">
		<KeepRunningUntilFailure _onHalted="halted := true"><Script code="n := 1"/></KeepRunningUntilFailure>
	</BehaviorTree></root>`
	if err := os.WriteFile(tree, []byte(xml), 0o666); err != nil {
		t.Fatal(err)
	}
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 250*time.Millisecond)
		defer cancel()
		var out, errOut bytes.Buffer
		c := &cmd{ctx: ctx, stdout: &out, stderr: &errOut}
		code := c.main([]string{"run", "--ticks", "0", "--interval", "100ms", tree})
		want := "tick 1 RUNNING\ntick 2 RUNNING\ntick 3 RUNNING\n" +
			"blackboard {\"halted\":true,\"n\":1}\nerror interrupted\n"
		if code != exitError || out.String() != want {
			t.Errorf("exit %d, output:\n%s\nwant exit 1 and\n%s", code, out.String(), want)
		}
	})
}
