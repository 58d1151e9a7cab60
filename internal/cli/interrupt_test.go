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
// between ticks: the tree is halted, the blackboard printed, and the status is 1. What
// watches the run is closed: the .btlog file is complete, halt included, and the
// --stats table comes before the error.
func TestInterrupt(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "run.btlog")
	for _, c := range []struct {
		name, xml string
		flags     []string
		want      string
	}{
		{"plain", `<KeepRunningUntilFailure _onHalted="halted := true"><Script code="n := 1"/></KeepRunningUntilFailure>`, nil,
			"tick 1 RUNNING\ntick 2 RUNNING\ntick 3 RUNNING\n" +
				"blackboard {\"halted\":true,\"n\":1}\nerror interrupted\n"},
		{"observed", `<Sleep msec="1000"/>`, []string{"--log", "--stats", "--btlog", rec},
			"[0.000]: Sleep::1                  IDLE -> RUNNING\n" +
				"tick 1 RUNNING\ntick 2 RUNNING\ntick 3 RUNNING\n" +
				"[0.250]: Sleep::1                  RUNNING -> IDLE\n" +
				"blackboard {}\n" +
				"UID  PATH      TRANSITIONS  SUCCESS  FAILURE  LAST RESULT  STATUS\n" +
				"1    Sleep::1  1            0        0        IDLE         IDLE\n" +
				"error interrupted\n"},
	} {
		tree := filepath.Join(dir, c.name+".xml")
		xml := `<root BTCPP_format="4"><BehaviorTree ID="M">` + c.xml + `</BehaviorTree></root>`
		if err := os.WriteFile(tree, []byte(xml), 0o666); err != nil {
			t.Fatal(err)
		}
		synctest.Test(t, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 250*time.Millisecond)
			defer cancel()
			var out, errOut bytes.Buffer
			cm := &cmd{ctx: ctx, stdout: &out, stderr: &errOut}
			args := append(append([]string{"run", "--ticks", "0", "--interval", "100ms"}, c.flags...), tree)
			if code := cm.main(args); code != exitError || out.String() != c.want {
				t.Errorf("%s: exit %d, output:\n%s\nwant exit 1 and\n%s", c.name, code, out.String(), c.want)
			}
		})
	}
	replayed, _, code := runBT(t, "replay", rec)
	if want := "[0.000]: Sleep::1                  IDLE -> RUNNING\n[0.250]: Sleep::1                  RUNNING -> IDLE\n"; code != 0 || replayed != want {
		t.Errorf("bt replay: exit %d\n%s\nwant\n%s", code, replayed, want)
	}
}
