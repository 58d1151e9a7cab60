package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
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
			"[0.000]: Sleep                     IDLE -> RUNNING\n" +
				"tick 1 RUNNING\ntick 2 RUNNING\ntick 3 RUNNING\n" +
				"[0.250]: Sleep                     RUNNING -> IDLE\n" +
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
	if want := "[0.000]: Sleep                     IDLE -> RUNNING\n[0.250]: Sleep                     RUNNING -> IDLE\n"; code != 0 || replayed != want {
		t.Errorf("bt replay: exit %d\n%s\nwant\n%s", code, replayed, want)
	}
}

// TestInterruptSave checks that an interrupted run saves the tree's state (--save)
// before it halts it, and that --restore goes on from there: the two runs tick as
// one uninterrupted run does, and end with its blackboard.
func TestInterruptSave(t *testing.T) {
	dir := t.TempDir()
	tree, state := filepath.Join(dir, "tree.xml"), filepath.Join(dir, "state")
	xml := `<root BTCPP_format="4"><BehaviorTree ID="M"><Sequence>
		<Script code="n := 0"/>
		<Delay delay_msec="100"><Script code="n += 1"/></Delay>
		<Repeat num_cycles="2"><Sleep msec="40"/></Repeat>
		<Script code="n += 10"/>
	</Sequence></BehaviorTree></root>`
	if err := os.WriteFile(tree, []byte(xml), 0o666); err != nil {
		t.Fatal(err)
	}
	run := func(timeout time.Duration, args ...string) (string, int) {
		var out string
		var code int
		synctest.Test(t, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			defer cancel()
			var stdout, stderr bytes.Buffer
			cm := &cmd{ctx: ctx, stdout: &stdout, stderr: &stderr}
			code = cm.main(append(append([]string{"run", "--interval", "30ms"}, args...), tree))
			out = stdout.String()
		})
		return out, code
	}
	whole, code := run(time.Hour)
	if code != exitOK {
		t.Fatalf("the whole run: exit %d\n%s", code, whole)
	}
	first, code := run(75*time.Millisecond, "--save", state)
	if code != exitError || !strings.HasSuffix(first, "error interrupted\n") {
		t.Fatalf("the interrupted run: exit %d\n%s", code, first)
	}
	rest, code := run(time.Hour, "--restore", state)
	if code != exitOK {
		t.Fatalf("the restored run: exit %d\n%s", code, rest)
	}
	// The ticks of the two runs, renumbered, are those of the whole run.
	var ticks []string
	for _, out := range []string{first, rest} {
		for _, line := range strings.Split(out, "\n") {
			if f := strings.Fields(line); len(f) == 3 && f[0] == "tick" {
				ticks = append(ticks, fmt.Sprintf("tick %d %s", len(ticks)+1, f[2]))
			}
		}
	}
	last := rest[strings.LastIndex(rest, "blackboard"):]
	if got := strings.Join(ticks, "\n") + "\n" + last; got != whole {
		t.Errorf("interrupted and restored:\n%s\nwant, as one run:\n%s", got, whole)
	}
}

// cancelOn is a writer that cancels a context once what it was given contains want.
type cancelOn struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	want   string
	cancel context.CancelFunc
}

func (w *cancelOn) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.want) {
		w.cancel()
	}
	return n, err
}

func (w *cancelOn) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// TestInterruptInsideATick: a tick that does not end on its own (a Repeat of -1 over a
// leaf that succeeds at once) ends at an interrupt all the same: the tree is halted, the
// blackboard printed, and the status is 1.
func TestInterruptInsideATick(t *testing.T) {
	tree := filepath.Join(t.TempDir(), "spin.xml")
	xml := `<root BTCPP_format="4"><BehaviorTree ID="M"><Repeat num_cycles="-1"><AlwaysSuccess/></Repeat></BehaviorTree></root>`
	if err := os.WriteFile(tree, []byte(xml), 0o666); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &cancelOn{want: "AlwaysSuccess ", cancel: cancel} // the log shows the tick spinning
	var errOut bytes.Buffer
	done := make(chan int, 1)
	go func() {
		cm := &cmd{ctx: ctx, stdout: out, stderr: &errOut}
		done <- cm.main([]string{"run", "--log", tree})
	}()
	select {
	case code := <-done:
		if got := out.String(); code != exitError || !strings.HasSuffix(got, "blackboard {}\nerror interrupted\n") || strings.Contains(got, "tick 1") {
			t.Errorf("exit %d, output ending:\n%s\nwant exit 1, no tick line, the blackboard and the interruption", code, got[max(0, len(got)-300):])
		}
	case <-time.After(time.Minute):
		t.Fatal("the interrupt did not end the tick")
	}
}
