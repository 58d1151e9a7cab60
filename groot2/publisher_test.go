package groot2

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"

	"github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
	"github.com/gobt/bt/btlog"
	"github.com/gobt/bt/bttest"
)

// counts counts the ticks of the Count nodes by name; the tree may tick in another
// goroutine.
type counts struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *counts) get(name string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[name]
}

// buildTree builds the tree MainTree of xml, with the action Count (succeeds, counting
// its ticks) registered.
func buildTree(t testing.TB, xml string, opts ...bt.Option) (*bt.Tree, *counts) {
	t.Helper()
	c := &counts{n: map[string]int{}}
	tree, err := c.factory(t, xml).NewTree("MainTree", opts...)
	if err != nil {
		t.Fatal(err)
	}
	return tree, c
}

// factory returns a factory that holds xml and knows Count, which counts in c.
func (c *counts) factory(t testing.TB, xml string) *bt.Factory {
	t.Helper()
	f := bt.NewFactory()
	err := f.Register(bt.NewAction("Count", func(n *bt.Node) bt.Status {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.n[n.Name()]++
		return bt.Success
	}))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.LoadString("test.xml", xml); err != nil {
		t.Fatal(err)
	}
	return f
}

// serve starts a publisher of the tree buildTree builds, and connects a client to it.
func serve(t *testing.T, o Options, xml string, opts ...bt.Option) (*bt.Tree, *counts, *Publisher, *client) {
	t.Helper()
	tree, n := buildTree(t, xml, opts...)
	p := newTestPublisher(t, tree, o)
	return tree, n, p, dial(t, p.Port(), zmq4.Req)
}

func mainTree(body string) string {
	return `<root BTCPP_format="4"><BehaviorTree ID="MainTree">` + body + `</BehaviorTree></root>`
}

func tick(t *testing.T, tree *bt.Tree, want bt.Status) {
	t.Helper()
	s, err := tree.TickExactlyOnce()
	if err != nil || s != want {
		t.Fatalf("tick: %v, %v; want %v", s, err, want)
	}
}

// tickAsync ticks tree once in a goroutine of its own; the test reads the result.
type result struct {
	s   bt.Status
	err error
}

func tickAsync(tree *bt.Tree) <-chan result {
	ch := make(chan result, 1)
	go func() {
		s, err := tree.TickExactlyOnce()
		ch <- result{s, err}
	}()
	return ch
}

func await(t *testing.T, ch <-chan result, want bt.Status) {
	t.Helper()
	select {
	case r := <-ch:
		if r.err != nil || r.s != want {
			t.Fatalf("the tick returned %v, %v; want %v", r.s, r.err, want)
		}
	case <-time.After(ioTimeout):
		t.Fatal("the tick did not return")
	}
}

func TestFullTree(t *testing.T) {
	tree, _, p, c := serve(t, Options{}, mainTree(`<Sequence><Count name="a"/><AlwaysSuccess/></Sequence>`))
	reply := c.request(reqFullTree)
	var want bytes.Buffer
	if err := btlog.WriteTreeXML(&want, tree); err != nil {
		t.Fatal(err)
	}
	if len(reply) != 1 || string(reply[0]) != want.String() {
		t.Errorf("FULLTREE replied %q, want the tree's XML %q", reply, want.String())
	}
	// The reply header ends with the tree's UUID, the same for every reply, version 4.
	raw := c.raw(requestHeader(reqFullTree))
	uuid := raw[0][requestHeaderSize:]
	if !bytes.Equal(uuid, p.uuid[:]) || uuid[6]>>4 != 4 || uuid[8]>>6 != 2 {
		t.Errorf("UUID %x, want the publisher's (%x), of version 4 and variant 10", uuid, p.uuid)
	}
}

// status lists a status buffer as "uid:status" in its order.
func status(b []byte) string {
	var s []string
	for i := 0; i+3 <= len(b); i += 3 {
		s = append(s, fmt.Sprintf("%d:%d", int(b[i])|int(b[i+1])<<8, b[i+2]))
	}
	return fmt.Sprint(s)
}

func TestStatus(t *testing.T) {
	tree, _, _, c := serve(t, Options{}, mainTree(`<Sequence><Count name="a"/><AlwaysRunning/></Sequence>`))
	check := func(want string) {
		t.Helper()
		if got := status(c.request(reqStatus)[0]); got != want {
			t.Errorf("STATUS %s, want %s", got, want)
		}
	}
	check("[1:0 2:0 3:0]")
	tick(t, tree, bt.Running) // observed from this tick on: a request came
	check("[1:1 2:2 3:1]")
	if err := tree.Halt(); err != nil {
		t.Fatal(err)
	}
	check("[1:11 2:12 3:11]") // idle, from running, success and running
}

// The status buffer lists the nodes of the main tree, then those of each subtree
// instance, as BehaviorTree.CPP's does.
func TestStatusOrder(t *testing.T) {
	tree, _ := buildTree(t, `<root BTCPP_format="4">
		<BehaviorTree ID="MainTree">
			<Sequence><SubTree ID="Sub"/><AlwaysRunning/></Sequence>
		</BehaviorTree>
		<BehaviorTree ID="Sub"><Count name="x"/></BehaviorTree>
	</root>`)
	p := newTestPublisher(t, tree, Options{})
	c := dial(t, p.Port(), zmq4.Req)
	if got := status(c.request(reqStatus)[0]); got != "[1:0 2:0 4:0 3:0]" {
		t.Errorf("STATUS %s, want the main tree's nodes (1, 2, 4), then the subtree's (3)", got)
	}
	tick(t, tree, bt.Running)
	if got := status(c.request(reqStatus)[0]); got != "[1:1 2:2 4:1 3:12]" {
		t.Errorf("STATUS %s after a tick", got)
	}
}

// The publisher observes the tree only while Groot2 is there. When it starts again,
// the status buffer takes the nodes' statuses, and a node that went idle while nobody
// watched is written as idle from the status it had.
func TestObserveStartsFromTheTree(t *testing.T) {
	tree, _ := buildTree(t, mainTree(`<Sequence><Count name="a"/><AlwaysRunning/></Sequence>`))
	p, err := newPublisher(tree, DefaultHeartbeat)
	if err != nil {
		t.Fatal(err)
	}
	p.observe(true)
	tick(t, tree, bt.Running)
	if got := status(p.status); got != "[1:1 2:2 3:1]" {
		t.Errorf("observed: %s", got)
	}
	p.observe(false)
	if err := tree.Halt(); err != nil {
		t.Fatal(err)
	}
	if got := status(p.status); got != "[1:1 2:2 3:1]" {
		t.Errorf("not observed: %s, want it unchanged", got)
	}
	p.observe(true)
	if got := status(p.status); got != "[1:11 2:12 3:11]" {
		t.Errorf("observed again: %s", got)
	}
	tick(t, tree, bt.Running)
	if got := status(p.status); got != "[1:1 2:2 3:1]" {
		t.Errorf("observed again, after a tick: %s", got)
	}
	p.observe(false)
}

// blackboardTree has a subtree, whose blackboard is a child of the main tree's.
const blackboardTree = `<root BTCPP_format="4">
	<BehaviorTree ID="MainTree">
		<Sequence>
			<Script code="count := 7; name := 'bt'"/>
			<SubTree ID="Child" name="child" ratio="0.5"/>
		</Sequence>
	</BehaviorTree>
	<BehaviorTree ID="Child"><Script code="inside := true"/></BehaviorTree>
</root>`

func TestBlackboard(t *testing.T) {
	external := blackboard.New()
	if err := external.Entry("shared").Set(blackboard.Int(42)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name     string
		external bool
		list     string
		want     string // JSON
	}{
		{"main tree", false, "MainTree", `{"MainTree":{"count":7,"name":"bt"}}`},
		{"unknown names are left out", false, "nope;MainTree;", `{"MainTree":{"count":7,"name":"bt"}}`},
		{"nothing found", false, "nope", `null`},
		{"a subtree brings its root", false, "child",
			`{"child":{"inside":true,"ratio":0.5},"ROOT":{"count":7,"name":"bt"}}`},
		{"an external root", true, "MainTree",
			`{"MainTree":{"count":7,"name":"bt"},"ROOT":{"shared":42}}`},
		{"the external root once", true, "MainTree;child",
			`{"MainTree":{"count":7,"name":"bt"},"child":{"inside":true,"ratio":0.5},"ROOT":{"shared":42}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var opts []bt.Option
			if c.external {
				opts = append(opts, bt.WithBlackboard(external.NewChild(false)))
			}
			tree, _ := buildTree(t, blackboardTree, opts...)
			tick(t, tree, bt.Success)
			p := newTestPublisher(t, tree, Options{})
			reply := dial(t, p.Port(), zmq4.Req).request(reqBlackboard, c.list)
			want, err := jsonToMsgpack([]byte(c.want))
			if err != nil {
				t.Fatal(err)
			}
			if len(reply) != 1 || !bytes.Equal(reply[0], want) {
				t.Errorf("BLACKBOARD %q replied %x, want %x (%s)", c.list, reply, want, c.want)
			}
		})
	}
}

func TestBlackboardReservedRootName(t *testing.T) {
	f := bt.NewFactory()
	if err := f.LoadString("root.xml", `<root BTCPP_format="4"><BehaviorTree ID="ROOT"><AlwaysSuccess/></BehaviorTree></root>`); err != nil {
		t.Fatal(err)
	}
	tree, err := f.NewTree("ROOT", bt.WithBlackboard(blackboard.New().NewChild(false)))
	if err != nil {
		t.Fatal(err)
	}
	p := newTestPublisher(t, tree, Options{})
	got := dial(t, p.Port(), zmq4.Req).requestError(requestHeader(reqBlackboard), []byte("ROOT"))
	if want := "blackboard dump request uses reserved name [ROOT] together with an external root blackboard export"; got != want {
		t.Errorf("error %q, want %q", got, want)
	}
}

// BehaviorTree.CPP's PostHookRunsAfterNodeAndCanBeRemoved.
func TestPostHookReplacesAndIsRemoved(t *testing.T) {
	tree, n, _, c := serve(t, Options{}, mainTree(`<Count name="a"/>`))
	c.request(reqHookInsert, hookBody(1, replace, post, false))
	dump := c.request(reqHooksDump)
	if want := `[{"desired_status":"FAILURE","enabled":true,"mode":1,"once":false,"position":1,"uid":1}]`; string(dump[0]) != want {
		t.Errorf("HOOKS_DUMP %s, want %s", dump[0], want)
	}
	tick(t, tree, bt.Failure)
	if n.get("a") != 1 {
		t.Errorf("the node ticked %d times, want once: a post hook runs after the tick", n.get("a"))
	}
	c.request(reqHookRemove, `{"uid":1,"position":1}`)
	tick(t, tree, bt.Success)
	if n.get("a") != 2 {
		t.Errorf("the node ticked %d times, want twice", n.get("a"))
	}
	if dump := c.request(reqHooksDump); string(dump[0]) != "[]" {
		t.Errorf("HOOKS_DUMP %s after removal, want []", dump[0])
	}
	if tree.Root().Behavior() == nil {
		t.Error("the node lost its behavior")
	}
}

// BehaviorTree.CPP's DisableThenRemoveOneShotHookUsesConsistentLockOrder: a disabled
// hook inserted again is enabled again, and "once" removes it after it ran.
func TestOneShotHook(t *testing.T) {
	tree, n, _, c := serve(t, Options{}, mainTree(`<Count name="a"/>`))
	c.request(reqHookInsert, hookBody(1, replace, pre, false))
	c.request(reqDisableAllHooks)
	tick(t, tree, bt.Success)
	c.request(reqHookInsert, hookBody(1, replace, pre, true))
	tick(t, tree, bt.Failure)
	tick(t, tree, bt.Success)
	if n.get("a") != 2 {
		t.Errorf("the node ticked %d times, want twice (not when its tick was replaced)", n.get("a"))
	}
	if dump := c.request(reqHooksDump); string(dump[0]) != "[]" {
		t.Errorf("HOOKS_DUMP %s, want the one-shot hook gone", dump[0])
	}
}

func TestHookArrayAndRemoveAll(t *testing.T) {
	tree, _, _, c := serve(t, Options{}, mainTree(`<Sequence><Count name="a"/><Count name="b"/></Sequence>`))
	c.request(reqHookInsert, "["+hookBody(3, replace, post, false)+","+hookBody(2, breakpoint, pre, false)+"]")
	want := `[{"desired_status":"FAILURE","enabled":true,"mode":0,"once":false,"position":0,"uid":2},` +
		`{"desired_status":"FAILURE","enabled":true,"mode":1,"once":false,"position":1,"uid":3}]`
	if dump := c.request(reqHooksDump); string(dump[0]) != want {
		t.Errorf("HOOKS_DUMP %s, want %s", dump[0], want)
	}
	c.request(reqRemoveAllHooks)
	if dump := c.request(reqHooksDump); string(dump[0]) != "[]" {
		t.Errorf("HOOKS_DUMP %s, want []", dump[0])
	}
	tick(t, tree, bt.Success)
	for n := range tree.Nodes() {
		if n.Behavior() == nil && n.Kind() == bt.KindAction {
			t.Errorf("%s lost its behavior", n.Path())
		}
	}
}

// A breakpoint pauses the tree, which ticks in another goroutine, until Groot2 unlocks
// it: with SUCCESS the node is not ticked and succeeds; with any other status it
// resumes and ticks.
func TestBreakpoint(t *testing.T) {
	tree, n, p, c := serve(t, Options{}, mainTree(`<Sequence><Count name="a"/><Count name="b"/></Sequence>`))
	sub := subscribe(t, p)
	c.request(reqHookInsert, hookBody(3, breakpoint, pre, false))

	done := tickAsync(tree)
	if uid := sub.notice(); uid != 3 {
		t.Fatalf("BREAKPOINT_REACHED for node %d, want 3", uid)
	}
	if n.get("a") != 1 || n.get("b") != 0 {
		t.Errorf("paused with a=%d b=%d, want a ticked and b not", n.get("a"), n.get("b"))
	}
	if got := status(c.request(reqStatus)[0]); got != "[1:1 2:2 3:0]" {
		t.Errorf("STATUS while paused %s", got)
	}
	c.request(reqBreakpointUnlock, unlockBody(3, pre, "SUCCESS", false))
	await(t, done, bt.Success)
	if n.get("b") != 0 {
		t.Errorf("b ticked %d times, want 0: unlocked with SUCCESS it is not ticked", n.get("b"))
	}

	done = tickAsync(tree) // the breakpoint is still there
	sub.notice()
	c.request(reqBreakpointUnlock, unlockBody(3, pre, "IDLE", true))
	await(t, done, bt.Success)
	if n.get("b") != 1 {
		t.Errorf("b ticked %d times, want once after a resume", n.get("b"))
	}
	if dump := c.request(reqHooksDump); string(dump[0]) != "[]" {
		t.Errorf("HOOKS_DUMP %s, want the hook removed when done", dump[0])
	}
}

// A breakpoint inserted while the tree is paused at another applies to the rest of the
// same tick.
func TestBreakpointSetWhilePaused(t *testing.T) {
	tree, n, p, c := serve(t, Options{}, mainTree(`<Sequence><Count name="a"/><Count name="b"/></Sequence>`))
	sub := subscribe(t, p)
	c.request(reqHookInsert, hookBody(2, breakpoint, post, false))
	done := tickAsync(tree)
	if uid := sub.notice(); uid != 2 {
		t.Fatalf("paused at %d, want 2", uid)
	}
	c.request(reqHookInsert, hookBody(3, breakpoint, pre, false))
	c.request(reqBreakpointUnlock, unlockBody(2, post, "", false))
	if uid := sub.notice(); uid != 3 {
		t.Fatalf("paused at %d, want 3 in the same tick", uid)
	}
	c.request(reqBreakpointUnlock, unlockBody(3, pre, "FAILURE", false))
	await(t, done, bt.Failure)
	if n.get("a") != 1 || n.get("b") != 0 {
		t.Errorf("a=%d b=%d, want a ticked once and b not", n.get("a"), n.get("b"))
	}
}

// A breakpoint that becomes a replacement lets the paused node go with its status.
func TestBreakpointChangedToReplace(t *testing.T) {
	tree, _, p, c := serve(t, Options{}, mainTree(`<Count name="a"/>`))
	sub := subscribe(t, p)
	c.request(reqHookInsert, hookBody(1, breakpoint, pre, false))
	done := tickAsync(tree)
	sub.notice()
	c.request(reqHookInsert, hookBody(1, replace, pre, false))
	await(t, done, bt.Failure)
	tick(t, tree, bt.Failure) // a replacement does not pause
	sub.notice()
}

// No request for the heartbeat: hooks are disabled and the paused tree goes on; the
// next request enables them again.
func TestHeartbeatReleasesAPausedTree(t *testing.T) {
	clock := bttest.NewClock(time.Unix(1e9, 0))
	tree, n, p, c := serve(t, Options{Heartbeat: 2 * time.Second}, mainTree(`<Count name="a"/>`), bt.WithClock(clock))
	sub := subscribe(t, p)
	c.request(reqHookInsert, hookBody(1, breakpoint, pre, false))
	done := tickAsync(tree)
	sub.notice()
	clock.Advance(time.Second)
	c.request(reqStatus) // a heartbeat: one more period from now
	clock.Advance(1999 * time.Millisecond)
	select {
	case r := <-done:
		t.Fatalf("the tree went on before the heartbeat ran out: %v", r)
	default:
	}
	clock.Advance(time.Millisecond)
	await(t, done, bt.Success)
	if n.get("a") != 1 {
		t.Errorf("the node ticked %d times, want once: a disabled breakpoint resumes it", n.get("a"))
	}
	tick(t, tree, bt.Success) // hooks stay disabled without requests
	if dump := c.request(reqHooksDump); !bytes.Contains(dump[0], []byte(`"enabled":true`)) {
		t.Errorf("HOOKS_DUMP %s, want the hook enabled again by the request", dump[0])
	}
	done = tickAsync(tree)
	sub.notice()
	c.request(reqBreakpointUnlock, unlockBody(1, pre, "FAILURE", false))
	await(t, done, bt.Failure)
}

func TestSetHeartbeat(t *testing.T) {
	clock := bttest.NewClock(time.Unix(1e9, 0))
	tree, _, p, c := serve(t, Options{}, mainTree(`<Count name="a"/>`), bt.WithClock(clock))
	c.request(reqHookInsert, hookBody(1, replace, pre, false))
	p.SetHeartbeat(time.Second)
	clock.Advance(time.Second)
	tick(t, tree, bt.Success) // disabled after a second, no longer five
}

func TestRecording(t *testing.T) {
	start := time.Unix(1e9, 0)
	clock := bttest.NewClock(start)
	tree, _, _, c := serve(t, Options{}, mainTree(`<Sequence><Count name="a"/><AlwaysRunning/></Sequence>`), bt.WithClock(clock))
	reply := c.request(reqToggleRecording, "start")
	if len(reply) != 1 || string(reply[0]) != strconv.FormatInt(start.UnixMicro(), 10) {
		t.Errorf("TOGGLE_RECORDING start replied %q, want the time in µs", reply)
	}
	clock.Advance(1500 * time.Microsecond)
	tick(t, tree, bt.Running)
	clock.Advance(time.Millisecond)
	if err := tree.Halt(); err != nil {
		t.Fatal(err)
	}
	var want []byte
	for _, tr := range []struct {
		us  time.Duration
		uid uint16
		s   bt.Status
	}{{1500, 1, bt.Running}, {1500, 2, bt.Success}, {1500, 3, bt.Running},
		{2500, 2, bt.Idle}, {2500, 3, bt.Idle}, {2500, 1, bt.Idle}} { // halting goes child by child
		want = btlog.AppendRecord(want, btlog.Transition{Offset: tr.us * time.Microsecond, UID: tr.uid, Status: tr.s})
	}
	if got := c.request(reqGetTransitions); len(got) != 1 || !bytes.Equal(got[0], want) {
		t.Errorf("GET_TRANSITIONS %x, want %x", got, want)
	}
	if got := c.request(reqGetTransitions); len(got) != 1 || len(got[0]) != 0 {
		t.Errorf("GET_TRANSITIONS again %x, want nothing new", got)
	}
	if got := c.request(reqToggleRecording, "stop"); len(got) != 0 {
		t.Errorf("TOGGLE_RECORDING stop replied %q, want the header alone", got)
	}
	tick(t, tree, bt.Running)
	if got := c.request(reqGetTransitions); len(got) != 1 || len(got[0]) != 0 {
		t.Errorf("GET_TRANSITIONS after stop %x, want nothing", got)
	}
}

// A recording keeps the last maxTransitions changes between two requests.
func TestRecordingKeepsTheLatest(t *testing.T) {
	tree, _ := buildTree(t, mainTree(`<Count name="a"/>`))
	p, err := newPublisher(tree, DefaultHeartbeat)
	if err != nil {
		t.Fatal(err)
	}
	p.toggleRecording("start")
	for i := range maxTransitions + 2 {
		p.changed(bt.Batch{Changes: []bt.Change{bt.MakeChange(tree.Root().UID(), bt.Idle, bt.Status(1+i%2))},
			Time: p.recStart.Add(time.Duration(i) * time.Microsecond)})
	}
	got := p.transitions()
	if len(got) != 9*maxTransitions || got[0] != 2 || got[8] != byte(bt.Running) {
		t.Errorf("%d bytes starting %x, want %d records from the third change on", len(got), got[:9], maxTransitions)
	}
}

func TestMalformedRequests(t *testing.T) {
	_, _, _, c := serve(t, Options{}, mainTree(`<Count name="a"/>`))
	hdr := requestHeader
	for _, m := range []struct {
		name  string
		parts [][]byte
		want  string
	}{
		{"short header", [][]byte{{2, 'T', 0, 0, 0}}, errWrongHeader},
		{"long header", [][]byte{{2, 'T', 0, 0, 0, 0, 0}}, errWrongHeader},
		{"empty header", [][]byte{{}}, errWrongHeader},
		{"no parts", nil, errWrongHeader},
		{"wrong protocol", [][]byte{{1, 'T', 0, 0, 0, 0}}, errWrongProtocol},
		{"unknown request", [][]byte{hdr('?')}, errNotRecognized},
		{"BREAKPOINT_REACHED is no request", [][]byte{hdr(breakpointReached)}, errNotRecognized},
		{"blackboard without names", [][]byte{hdr(reqBlackboard)}, errTwoParts},
		{"hook insert with three parts", [][]byte{hdr(reqHookInsert), []byte("{}"), []byte("{}")}, errTwoParts},
		{"hook remove without body", [][]byte{hdr(reqHookRemove)}, errTwoParts},
		{"unlock without body", [][]byte{hdr(reqBreakpointUnlock)}, errTwoParts},
		{"recording without command", [][]byte{hdr(reqToggleRecording)}, errTwoParts},
		{"broken JSON", [][]byte{hdr(reqHookInsert), []byte("{")}, "[json.exception.parse_error.101] parse error: unexpected EOF"},
		{"incomplete hook", [][]byte{hdr(reqHookInsert), []byte(`{"enabled":true}`)}, "[json.exception.out_of_range.403] key 'uid' not found"},
		{"a hook without uid", [][]byte{hdr(reqHookInsert), []byte(`{}`)}, "[json.exception.out_of_range.403] key 'uid' not found"},
		{"a hook without position", [][]byte{hdr(reqHookInsert), []byte(`{"enabled":true,"uid":1}`)}, "[json.exception.out_of_range.403] key 'position' not found"},
		{"wrong type", [][]byte{hdr(reqHookInsert), []byte(`{"uid":1,"position":0,"enabled":1}`)}, "[json.exception.type_error.302] type must be boolean, but is number"},
		{"not an object", [][]byte{hdr(reqHookRemove), []byte(`[1]`)}, "[json.exception.type_error.304] cannot use at() with array"},
		{"uid out of range", [][]byte{hdr(reqHookRemove), []byte(`{"uid":70000,"position":0}`)}, "uid: 70000 is not an integer from 0 to 65535"},
		{"bad position", [][]byte{hdr(reqHookRemove), []byte(`{"uid":1,"position":2}`)}, "position: 2 is not an integer from 0 to 1"},
		{"bad status", [][]byte{hdr(reqHookInsert), []byte(strings.ReplaceAll(hookBody(1, breakpoint, pre, false), "FAILURE", "DONE"))}, "Cannot convert this to NodeStatus: DONE"},
		{"unknown node", [][]byte{hdr(reqHookInsert), []byte(hookBody(9, breakpoint, pre, false))}, errNodeNotFound},
		{"remove what is not there", [][]byte{hdr(reqHookRemove), []byte(`{"uid":1,"position":0}`)}, errNodeNotFound},
		{"unlock what is not there", [][]byte{hdr(reqBreakpointUnlock), []byte(unlockBody(1, pre, "SUCCESS", false))}, errNodeNotFound},
	} {
		if got := c.requestError(m.parts...); got != m.want {
			t.Errorf("%s: error %q, want %q", m.name, got, m.want)
		}
		// The server goes on answering.
		if reply := c.request(reqFullTree); len(reply) != 1 {
			t.Fatalf("%s: FULLTREE after it replied %q", m.name, reply)
		}
	}
	// Parts that are empty are parts: the envelope ends at the first empty frame.
	if reply := c.request(reqToggleRecording, ""); len(reply) != 0 {
		t.Errorf("TOGGLE_RECORDING \"\" replied %q, want the header alone", reply)
	}
	if reply := c.request(reqBlackboard, ""); len(reply) != 1 || !bytes.Equal(reply[0], []byte{0xc0}) {
		t.Errorf("BLACKBOARD \"\" replied %x, want nil", reply)
	}
}

func TestTwoPublishers(t *testing.T) {
	tree1, _ := buildTree(t, mainTree(`<Count name="one"/>`))
	tree2, _ := buildTree(t, mainTree(`<Sequence><Count name="two"/></Sequence>`))
	p1 := newTestPublisher(t, tree1, Options{})
	p2 := newTestPublisher(t, tree2, Options{})
	c1, c2 := dial(t, p1.Port(), zmq4.Req), dial(t, p2.Port(), zmq4.Req)
	if x := c1.request(reqFullTree)[0]; !bytes.Contains(x, []byte(`name="one"`)) {
		t.Errorf("the first publisher sent %s", x)
	}
	if x := c2.request(reqFullTree)[0]; !bytes.Contains(x, []byte(`name="two"`)) {
		t.Errorf("the second publisher sent %s", x)
	}
	c1.request(reqHookInsert, hookBody(1, replace, pre, false))
	tick(t, tree1, bt.Failure)
	tick(t, tree2, bt.Success)
	if p1.uuid == p2.uuid {
		t.Error("two publishers have the same UUID")
	}
}

// Close lets a paused node go on, releases the ports and leaves no goroutine.
func TestClose(t *testing.T) {
	tree, n, p, c := serve(t, Options{}, mainTree(`<Count name="a"/>`))
	sub := subscribe(t, p)
	c.request(reqHookInsert, hookBody(1, breakpoint, pre, false))
	done := tickAsync(tree)
	sub.notice()
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	await(t, done, bt.Success)
	if n.get("a") != 1 {
		t.Errorf("the node ticked %d times, want once", n.get("a"))
	}
	checkNoGoroutines(t)
	tick(t, tree, bt.Success) // the tick functions go at the start of this tick
	if _, ok := tree.Root().Behavior().(bt.Behavior); !ok {
		t.Error("the node lost its behavior")
	}
	again, err := New(tree, &Options{Host: "127.0.0.1", Port: p.Port()})
	if err != nil {
		t.Fatalf("the ports are not released: %v", err)
	}
	again.Close()
	if err := p.Close(); err != nil {
		t.Errorf("closing again: %v", err)
	}
}

func TestNewErrors(t *testing.T) {
	tree, _ := buildTree(t, mainTree(`<Count name="a"/>`))
	for _, c := range []struct {
		tree *bt.Tree
		o    Options
		want string
	}{
		{nil, Options{}, "groot2: no tree to publish (nil or empty)"},
		{tree, Options{Port: 65535}, "groot2: port 65535: the server port must be from 1 to 65534 (the next one is the publisher's)"},
		{tree, Options{Port: -1}, "groot2: port -1: the server port must be from 1 to 65534 (the next one is the publisher's)"},
		{tree, Options{Port: 1, Heartbeat: -time.Second}, "groot2: negative heartbeat -1s"},
	} {
		if _, err := New(c.tree, &c.o); err == nil || err.Error() != c.want {
			t.Errorf("New(%+v): %v, want %q", c.o, err, c.want)
		}
	}
	p := newTestPublisher(t, tree, Options{})
	if _, err := New(tree, &Options{Host: "127.0.0.1", Port: p.Port()}); err == nil {
		t.Error("a second publisher on the same port started")
	}
	if _, err := New(tree, &Options{Host: "127.0.0.1", Port: p.Port() - 1}); err == nil {
		t.Error("a publisher whose PUB port is taken started")
	}
}

func TestHookJSON(t *testing.T) {
	h, err := parseHook(mustObject(t, hookBody(7, breakpoint, post, true)))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(h.json())
	if want := `{"desired_status":"FAILURE","enabled":true,"mode":0,"once":true,"position":1,"uid":7}`; string(b) != want {
		t.Errorf("%s, want %s", b, want)
	}
}

func mustObject(t *testing.T, s string) jsonObject {
	objs, err := parseJSON([]byte(s), false)
	if err != nil {
		t.Fatal(err)
	}
	return objs[0]
}

// TestInsertAfterClose: a HOOK_INSERT read just before Close closed the socket, and
// handled after it, inserts no hook: the tree keeps no tick function of the publisher.
func TestInsertAfterClose(t *testing.T) {
	tree, _ := buildTree(t, mainTree(`<Count name="a"/>`))
	p := newTestPublisher(t, tree, Options{})
	var calls atomic.Int32
	p.preTick = func(n *bt.Node) bt.Status { calls.Add(1); return p.runHook(pre, n) }
	p.Close()
	reply := p.handle([][]byte{requestHeader(reqHookInsert), []byte(hookBody(1, replace, pre, false))})
	if len(reply) != 2 || string(reply[0]) != "error" || string(reply[1]) != errClosedText {
		t.Errorf("reply %q, want the error %q", reply, errClosedText)
	}
	for range 3 {
		tick(t, tree, bt.Success)
	}
	if n, c := len(p.hooks[pre]), calls.Load(); n != 0 || c != 0 {
		t.Errorf("after Close: %d hooks; the publisher's tick function ran %d times", n, c)
	}
}
