package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/gobt/bt"
)

// fakePublisher stands in for the groot2 module's publisher, which the main module
// cannot import: it notes what run gives it and when it is closed.
type fakePublisher struct {
	port    int
	ticked  bt.Status // the tree's status when the publisher started
	nodes   int
	closed  int
	fail    error
	onStart func(*bt.Tree)
}

func (f *fakePublisher) publish(tree *bt.Tree, port int) (io.Closer, error) {
	if f.fail != nil {
		return nil, f.fail
	}
	f.port, f.ticked, f.nodes = port, tree.Status(), tree.Len()
	if f.onStart != nil {
		f.onStart(tree)
	}
	return closer(func() error { f.closed++; return nil }), nil
}

func writeTree(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tree.xml")
	if err := os.WriteFile(path, []byte(`<root BTCPP_format="4"><BehaviorTree ID="M">`+body+`</BehaviorTree></root>`), 0o666); err != nil {
		t.Fatal(err)
	}
	return path
}

// runWith runs bt in this process with a Groot2 publisher (nil: without).
func runWith(t *testing.T, publish Publish, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	synctest.Test(t, func(t *testing.T) {
		c := &cmd{ctx: context.Background(), stdout: &out, stderr: &errOut, pid: 1, publish: publish}
		code = c.main(args)
	})
	return out.String(), errOut.String(), code
}

func TestRunGroot2(t *testing.T) {
	tree := writeTree(t, `<Sequence><AlwaysSuccess/><AlwaysSuccess/></Sequence>`)
	for _, c := range []struct {
		args []string
		port int
	}{
		{[]string{"run", "--groot2", tree}, 1667},
		{[]string{"run", "--groot2", "1700", tree}, 1700},
		{[]string{"run", "--groot2=1800", "--interval", "1s", tree}, 1800},
		{[]string{"run", tree, "--groot2", "1900"}, 1900},
		{[]string{"run", "-groot2", "2000", tree}, 2000},
	} {
		f := &fakePublisher{}
		out, errOut, code := runWith(t, f.publish, c.args...)
		if code != exitOK || out != "tick 1 SUCCESS\nblackboard {}\n" {
			t.Errorf("%q: exit %d\n%s%s", c.args, code, out, errOut)
		}
		if f.port != c.port || f.ticked != bt.Idle || f.nodes != 3 || f.closed != 1 {
			t.Errorf("%q: the publisher got port %d, a tree of %d nodes %v, and was closed %d times; want port %d, the tree before its first tick, closed once",
				c.args, f.port, f.nodes, f.ticked, f.closed, c.port)
		}
		if want := "bt: publishing to Groot2 on ports "; !strings.HasPrefix(errOut, want) {
			t.Errorf("%q: stderr %q, want it to say where Groot2 connects", c.args, errOut)
		}
	}
}

func TestRunGroot2Errors(t *testing.T) {
	tree := writeTree(t, `<AlwaysSuccess/>`)
	f := &fakePublisher{}
	for _, c := range []struct {
		publish Publish
		args    []string
		code    int
		inErr   string
	}{
		{f.publish, []string{"run", "--groot2=0", tree}, exitUsage, "bt: --groot2=0: want a port from 1 to 65534 (the publisher takes the next one too)"},
		{f.publish, []string{"run", "--groot2=65535", tree}, exitUsage, "--groot2=65535: want a port"},
		{f.publish, []string{"run", "--groot2=x", tree}, exitUsage, "--groot2=x: want a port"},
		{nil, []string{"run", "--groot2", tree}, exitUsage, "bt: --groot2: this bt was built without Groot2 support; the command of the repository's cmd/bt has it"},
		{(&fakePublisher{fail: errors.New("groot2: server port: listen tcp :1667: bind: address already in use")}).publish,
			[]string{"run", "--groot2", tree}, exitError, ""},
	} {
		out, errOut, code := runWith(t, c.publish, c.args...)
		if code != c.code || !strings.Contains(errOut, c.inErr) {
			t.Errorf("%q: exit %d\n%s%s--- want exit %d and %q on stderr", c.args, code, out, errOut, c.code, c.inErr)
		}
		if c.code == exitError && out != "error --groot2: groot2: server port: listen tcp :1667: bind: address already in use\n" {
			t.Errorf("%q: stdout %q", c.args, out)
		}
	}
	if f.port != 0 {
		t.Error("the publisher started despite a wrong command line")
	}
}

// An interrupt closes the publisher at once, so that a tick paused at a breakpoint
// goes on and the run can stop: the tick under way ends (RUNNING), or halts the tree if
// the interrupt's Stop reaches it first (no tick line); either way the run stops.
func TestRunGroot2Interrupted(t *testing.T) {
	tree := writeTree(t, `<AlwaysRunning/>`)
	var out, errOut bytes.Buffer
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		closedEarly := make(chan struct{})
		f := &fakePublisher{}
		publish := func(tree *bt.Tree, port int) (io.Closer, error) {
			_, err := f.publish(tree, port)
			return closer(func() error {
				if f.closed++; f.closed == 1 {
					close(closedEarly)
				}
				return err
			}), nil
		}
		f.onStart = func(tree *bt.Tree) {
			tree.Root().SetPreTick(func(*bt.Node) bt.Status { // a breakpoint: paused until closed
				if f.closed == 0 {
					cancel()
					<-closedEarly
				}
				return bt.Idle
			})
		}
		c := &cmd{ctx: ctx, stdout: &out, stderr: &errOut, pid: 1, publish: publish}
		if code := c.main([]string{"run", "--groot2", tree}); code != exitError {
			t.Errorf("exit %d, want 1", code)
		}
		if f.closed != 2 {
			t.Errorf("closed %d times, want on the interrupt and at the end (which does nothing)", f.closed)
		}
	})
	if got, want := out.String(), "blackboard {}\nerror interrupted\n"; got != want && got != "tick 1 RUNNING\n"+want {
		t.Errorf("stdout %q, want %q, after a line for tick 1 or not", got, want)
	}
}
