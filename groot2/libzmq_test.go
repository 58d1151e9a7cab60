package groot2

import (
	"bufio"
	"context"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/gobt/bt"
)

// pythonWithZMQ returns a Python interpreter that has pyzmq, the Python binding of
// libzmq (Debian's python3-zmq), or "".
func pythonWithZMQ() string {
	for _, py := range []string{"/usr/bin/python3", "python3"} {
		if exec.Command(py, "-c", "import zmq").Run() == nil {
			return py
		}
	}
	return ""
}

// A client on libzmq, as Groot2 is, talks to the publisher: requests over REQ, the
// breakpoint notice over SUB, malformed headers (testdata/libzmq_client.py).
func TestLibzmqClient(t *testing.T) {
	py := pythonWithZMQ()
	if py == "" {
		t.Skip("no libzmq peer: no python3 with the zmq module (on Debian: apt-get install python3-zmq)")
	}
	tree, n := buildTree(t, mainTree(`<Sequence><Count name="a"/><Count name="b"/></Sequence>`))
	p := newTestPublisher(t, tree, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 4*ioTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, "testdata/libzmq_client.py", strconv.Itoa(p.Port()), "3")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(out)
	var done <-chan result
	last := ""
	for lines.Scan() {
		last = lines.Text()
		if last == "tick" {
			waitFor(t, "the subscription", func() bool { return subscribers(p) > 0 })
			done = tickAsync(tree)
		}
	}
	err = cmd.Wait()
	if err != nil || last != "ok" {
		t.Fatalf("the libzmq client failed (%v):\n%s", err, stderr.String())
	}
	if done == nil {
		t.Fatal("the client never asked for a tick")
	}
	await(t, done, bt.Success)
	if n.get("a") != 1 || n.get("b") != 0 {
		t.Errorf("a=%d b=%d, want a ticked and b unlocked with SUCCESS, not ticked", n.get("a"), n.get("b"))
	}
}

// subscribers counts the peers of p's PUB socket that subscribed to something.
func subscribers(p *Publisher) int {
	p.pub.mu.Lock()
	defer p.pub.mu.Unlock()
	k := 0
	for c := range p.pub.peers {
		if len(c.topics) > 0 {
			k++
		}
	}
	return k
}
