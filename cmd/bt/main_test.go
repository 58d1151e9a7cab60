package main

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"

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
	ln, err := net.Listen("tcp", "127.0.0.1:0") // a port free a moment ago; the next one too, most likely
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()

	var stdout bytes.Buffer
	stderr := &signalWriter{want: "publishing to Groot2", seen: make(chan struct{})}
	done := make(chan int, 1)
	go func() {
		done <- cli.Main([]string{"run", "--groot2", strconv.Itoa(port), "--interval", "5ms", tree}, &stdout, stderr, cli.WithGroot2(publish))
	}()
	select {
	case <-stderr.seen:
	case code := <-done:
		t.Fatalf("bt run ended (exit %d) before publishing:\n%s%s", code, stdout.String(), stderr.String())
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req := zmq4.NewReq(ctx)
	defer req.Close()
	if err := req.Dial("tcp://127.0.0.1:" + strconv.Itoa(port)); err != nil {
		t.Fatal(err)
	}
	header := []byte{2, 'I', 1, 2, 3, 4} // HOOK_INSERT, request id 0x04030201
	hook := `{"enabled":true,"uid":2,"mode":1,"once":false,"desired_status":"FAILURE","position":0}`
	if err := req.Send(zmq4.NewMsgFrom(header, []byte(hook))); err != nil {
		t.Fatal(err)
	}
	reply, err := req.Recv()
	if err != nil {
		t.Fatal(err)
	}
	if len(reply.Frames) != 1 || len(reply.Frames[0]) != 22 || !bytes.Equal(reply.Frames[0][:6], header) {
		t.Fatalf("HOOK_INSERT replied %q", reply.Frames)
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
