package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"

	"github.com/gobt/bt"
	"github.com/gobt/bt/internal/cli"
)

// signalWriter is a writer that tells, once, when what it was given contains want.
type signalWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	want string
	seen chan struct{}
}

func (w *signalWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.buf.Write(p)
	if w.want != "" && strings.Contains(w.buf.String(), w.want) {
		w.want = ""
		close(w.seen)
	}
	return n, err
}

func (w *signalWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// bt run --groot2 publishes the run: a client that speaks Groot2's protocol (through
// zmq4's REQ socket) replaces the status of the node that keeps the tree running, and
// the run ends with it.
func TestRunGroot2(t *testing.T) {
	tree := filepath.Join(t.TempDir(), "tree.xml")
	err := os.WriteFile(tree, []byte(`<root BTCPP_format="4"><BehaviorTree ID="Main">
		<KeepRunningUntilFailure><AlwaysSuccess/></KeepRunningUntilFailure>
	</BehaviorTree></root>`), 0o666)
	if err != nil {
		t.Fatal(err)
	}
	// The publisher binds two ports, the one given and the next. Another process may take
	// either between our check and the run's bind: then start again on other ports.
	var (
		port   int
		stdout bytes.Buffer
		stderr *signalWriter
		done   chan int
	)
	for attempt := 0; ; attempt++ {
		port = freePortPair(t)
		stdout.Reset()
		stderr = &signalWriter{want: "publishing to Groot2", seen: make(chan struct{})}
		done = make(chan int, 1)
		go func(out *bytes.Buffer, errw *signalWriter, done chan<- int) {
			done <- cli.Main([]string{"run", "--groot2", strconv.Itoa(port), "--interval", "5ms", tree}, out, errw, cli.WithGroot2(publish))
		}(&stdout, stderr, done)
		select {
		case <-stderr.seen:
		case code := <-done:
			if strings.Contains(stderr.String(), "address already in use") && attempt < 5 {
				continue
			}
			t.Fatalf("bt run ended (exit %d) before publishing:\n%s%s", code, stdout.String(), stderr.String())
		}
		break
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if reply := insertHook(t, ctx, port, 2); len(reply) != 1 || len(reply[0]) != 22 || !bytes.Equal(reply[0][:6], hookInsert) {
		t.Fatalf("HOOK_INSERT replied %q", reply)
	}

	select {
	case code := <-done:
		out := stdout.String()
		if code != 0 || !strings.HasSuffix(out, " FAILURE\nblackboard {}\n") {
			t.Errorf("exit %d, want 0 and the run failed by the injected fault:\n%s%s", code, out, stderr.String())
		}
	case <-ctx.Done():
		t.Fatal("the run did not end after the fault injection")
	}
}

// freePortPair returns a port that, with the next one, was free a moment ago.
func freePortPair(t *testing.T) int {
	t.Helper()
	for range 100 {
		first, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := first.Addr().(*net.TCPAddr).Port
		next, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port+1))
		first.Close()
		if err == nil {
			next.Close()
			return port
		}
	}
	t.Fatal("no two consecutive free ports")
	return 0
}

// publish hands the command's options to the publisher: its host, and read-only,
// which refuses a fault injection.
func TestPublishReadOnly(t *testing.T) {
	f := bt.NewFactory()
	if err := f.LoadString("t.xml", `<root BTCPP_format="4"><BehaviorTree ID="Main"><AlwaysSuccess/></BehaviorTree></root>`); err != nil {
		t.Fatal(err)
	}
	tree, err := f.NewTree("Main")
	if err != nil {
		t.Fatal(err)
	}
	port := freePortPair(t)
	pub, err := publish(tree, cli.Groot2Options{Host: "127.0.0.1", Port: port, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer pub.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if reply := insertHook(t, ctx, port, 1); len(reply) != 2 || string(reply[0]) != "error" || !strings.HasPrefix(string(reply[1]), "read-only") {
		t.Errorf("HOOK_INSERT replied %q, want the read-only error", reply)
	}
}

// hookInsert is the header of a HOOK_INSERT request, with the request id 0x04030201.
var hookInsert = []byte{2, 'I', 1, 2, 3, 4}

// insertHook sends Groot2's request to insert a hook that makes the node uid fail,
// to the publisher on port, and returns the reply.
func insertHook(t *testing.T, ctx context.Context, port int, uid int) [][]byte {
	t.Helper()
	req := zmq4.NewReq(ctx)
	defer req.Close()
	if err := req.Dial("tcp://127.0.0.1:" + strconv.Itoa(port)); err != nil {
		t.Fatal(err)
	}
	hook := fmt.Sprintf(`{"enabled":true,"uid":%d,"mode":1,"once":false,"desired_status":"FAILURE","position":0}`, uid)
	if err := req.Send(zmq4.NewMsgFrom(hookInsert, []byte(hook))); err != nil {
		t.Fatal(err)
	}
	reply, err := req.Recv()
	if err != nil {
		t.Fatal(err)
	}
	return reply.Frames
}

// bt run --sqlite records runs, session after session with --sqlite-append, and bt
// replay reads them back: the only session at once, one of several with --session,
// and the list of sessions without it.
func TestSQLite(t *testing.T) {
	dir := t.TempDir()
	tree := filepath.Join(dir, "tree.xml")
	err := os.WriteFile(tree, []byte(`<root BTCPP_format="4"><BehaviorTree ID="Main">
		<Sequence><AlwaysSuccess/><Inverter><AlwaysSuccess/></Inverter></Sequence>
	</BehaviorTree></root>`), 0o666)
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "runs.db3")
	bt := func(args ...string) (string, string, int) {
		var stdout, stderr bytes.Buffer
		code := cli.Main(args, &stdout, &stderr, cli.WithSQLite(sqlite))
		return stdout.String(), stderr.String(), code
	}
	if out, errs, code := bt("run", "--sqlite", db, tree); code != 0 || errs != "" {
		t.Fatalf("bt run --sqlite: exit %d\n%s%s", code, out, errs)
	}
	log, _, _ := bt("run", "--log", tree)
	var want []string // the lines of --log: the changes, as replay prints them
	for _, line := range strings.Split(log, "\n") {
		if strings.HasPrefix(line, "[") {
			want = append(want, line[strings.Index(line, "]"):])
		}
	}
	out, errs, code := bt("replay", db)
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		got = append(got, line[strings.Index(line, "]"):])
	}
	if code != 0 || errs != "" || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("bt replay: exit %d, %s\n%s\nwant the changes\n%s", code, errs, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if _, errs, code := bt("run", "--sqlite", db, "--sqlite-append", tree); code != 0 || errs != "" {
		t.Fatalf("bt run --sqlite-append: exit %d, %s", code, errs)
	}
	if out, errs, code := bt("replay", db); code != 2 || out != "" || !strings.Contains(errs, "holds 2 sessions; choose one with --session ID:\n  1\t") || !strings.Contains(errs, "\n  2\t") {
		t.Errorf("bt replay of two sessions: exit %d\n%s%s", code, out, errs)
	}
	if out2, errs, code := bt("replay", "--session", "2", db); code != 0 || errs != "" || out2 == "" {
		t.Errorf("bt replay --session 2: exit %d, %s", code, errs)
	}
	if _, errs, code := bt("replay", "--session", "3", db); code != 1 || !strings.Contains(errs, "no session 3") {
		t.Errorf("bt replay --session 3: exit %d, %s", code, errs)
	}
}
