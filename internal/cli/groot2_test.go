package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/gobt/bt"
)

// fakePublisher stands in for the groot2 module's publisher, which the main module
// cannot import: it notes what run gives it and when it is closed.
type fakePublisher struct {
	o       Groot2Options
	ticked  bt.Status // the tree's status when the publisher started
	nodes   int
	closed  int
	fail    error
	onStart func(*bt.Tree)
}

func (f *fakePublisher) publish(tree *bt.Tree, o Groot2Options) (io.Closer, error) {
	if f.fail != nil {
		return nil, f.fail
	}
	f.o, f.ticked, f.nodes = o, tree.Status(), tree.Len()
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
	const (
		remote   = "bt: warning: --groot2 %s: clients on other machines can connect, without authentication, and pause and alter the tree (breakpoints, fault injection); add --groot2-read-only to let them only watch\n"
		remoteRO = "bt: warning: --groot2 %s: clients on other machines can connect, without authentication, and read the tree and its blackboards\n"
	)
	// The publisher is a fake (fakePublisher): nothing listens, so the ports below are
	// only read from the command line and compared, never bound.
	for _, c := range []struct {
		args    []string
		o       Groot2Options
		warning string // the warning printed after the line saying where, with the address
	}{
		{[]string{"run", "--groot2", tree}, Groot2Options{"127.0.0.1", 1667, false}, ""},
		{[]string{"run", "--groot2", "1700", tree}, Groot2Options{"127.0.0.1", 1700, false}, ""},
		{[]string{"run", "--groot2=1800", "--interval", "1s", tree}, Groot2Options{"127.0.0.1", 1800, false}, ""},
		{[]string{"run", tree, "--groot2", "1900"}, Groot2Options{"127.0.0.1", 1900, false}, ""},
		{[]string{"run", "-groot2", "2000", tree}, Groot2Options{"127.0.0.1", 2000, false}, ""},
		{[]string{"run", "--groot2", "localhost:2100", tree}, Groot2Options{"localhost", 2100, false}, ""},
		{[]string{"run", "--groot2=[::1]:2200", tree}, Groot2Options{"::1", 2200, false}, ""},
		{[]string{"run", "--groot2", "--groot2-read-only", tree}, Groot2Options{"127.0.0.1", 1667, true}, ""},
		{[]string{"run", "--groot2", "0.0.0.0:1667", tree}, Groot2Options{"0.0.0.0", 1667, false}, remote},
		{[]string{"run", "--groot2", ":1667", tree}, Groot2Options{"0.0.0.0", 1667, false}, remote},
		{[]string{"run", "--groot2", "192.168.1.7:1700", tree}, Groot2Options{"192.168.1.7", 1700, false}, remote},
		{[]string{"run", "--groot2-read-only", "--groot2", "0.0.0.0:1667", tree}, Groot2Options{"0.0.0.0", 1667, true}, remoteRO},
	} {
		f := &fakePublisher{}
		out, errOut, code := runWith(t, f.publish, c.args...)
		if code != exitOK || out != "tick 1 SUCCESS\nblackboard {}\n" {
			t.Errorf("%q: exit %d\n%s%s", c.args, code, out, errOut)
		}
		if f.o != c.o || f.ticked != bt.Idle || f.nodes != 3 || f.closed != 1 {
			t.Errorf("%q: the publisher got %+v, a tree of %d nodes %v, and was closed %d times; want %+v, the tree before its first tick, closed once",
				c.args, f.o, f.nodes, f.ticked, f.closed, c.o)
		}
		mode := ""
		if c.o.ReadOnly {
			mode = " (read-only)"
		}
		want := fmt.Sprintf("bt: publishing to Groot2 on ports %d and %d of %s%s\n", c.o.Port, c.o.Port+1, c.o.Host, mode)
		if c.warning != "" {
			want += fmt.Sprintf(c.warning, net.JoinHostPort(c.o.Host, strconv.Itoa(c.o.Port)))
		}
		if errOut != want {
			t.Errorf("%q: stderr\n%s--- want\n%s", c.args, errOut, want)
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
		{f.publish, []string{"run", "--groot2=x", tree}, exitUsage, "bt: --groot2=x: want PORT or HOST:PORT"},
		{f.publish, []string{"run", "--groot2=0.0.0.0:65535", tree}, exitUsage, "--groot2=0.0.0.0:65535: want a port from 1 to 65534"},
		{f.publish, []string{"run", "--groot2=host:x", tree}, exitUsage, "bt: --groot2=host:x: want PORT or HOST:PORT"},
		{f.publish, []string{"run", "--groot2-read-only", tree}, exitUsage, "bt: --groot2-read-only: give --groot2 too (it says where to publish)"},
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
	if f.o.Port != 0 {
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
		publish := func(tree *bt.Tree, o Groot2Options) (io.Closer, error) {
			_, err := f.publish(tree, o)
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
