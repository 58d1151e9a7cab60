package monitor

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gobt/bt"
	"github.com/gobt/bt/btlog"
	"github.com/gobt/bt/bttest"
)

// apply returns the statuses after frame f, from the statuses s before it.
func apply(s []int, f wireFrame) []int {
	if f.Statuses != nil {
		return slices.Clone(f.Statuses)
	}
	s = slices.Clone(s)
	for _, c := range f.Changes {
		s[c[0]-1] = c[2]
	}
	return s
}

// TestStream follows a tree through its stream: the framing of the events, the
// snapshot a browser starts with, the keyframe of the tree when the feed starts
// observing it (at the start of the next tick), and a frame per tick with the changes
// Subscribe reports, in order, and the blackboard scopes that changed. The program
// calls nothing but TickOnce.
func TestStream(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tree, m, feed := waiting(t)
		b, cancel := connect(m, "t")
		defer cancel()
		synctest.Wait()
		if got := b.header.Get("Content-Type"); got != "text/event-stream" {
			t.Errorf("Content-Type %q", got)
		}
		if !strings.HasPrefix(b.text(), "retry: 1000\n\nevent: snapshot\ndata: {\"info\":{\"name\":\"t\",\"tree\":\"MainTree\",\"live\":true") {
			t.Fatalf("the stream starts with %q", b.text()[:min(len(b.text()), 120)])
		}
		ev := b.events(t)
		snap := decode[wireSnapshot](t, ev[0].data)
		if len(ev) != 1 || snap.Synced || snap.Base.Statuses != nil || len(snap.Frames) != 0 {
			t.Fatalf("before the feed observes the tree: %d events, %+v", len(ev), snap)
		}
		if got := []string{snap.Info.Nodes[0].ID, snap.Info.Nodes[1].ID, snap.Info.Nodes[2].Name}; !slices.Equal(got, []string{"Sequence", "Script", "Wait"}) {
			t.Errorf("nodes %v", got)
		}
		if got := snap.Info.Nodes[1].Ports; !reflect.DeepEqual(got, [][2]string{{"code", "x := 1"}}) {
			t.Errorf("the Script's ports: %v", got)
		}
		if got := snap.Info.Nodes[1].Model; !reflect.DeepEqual(got, []portInfo{{Name: "code", Dir: "input", Type: "std::string", Desc: got[0].Desc}}) || got[0].Desc == "" {
			t.Errorf("the Script's model: %+v", got)
		}

		var want [][3]int
		defer tree.Subscribe(func(c bt.StatusChange) {
			want = append(want, [3]int{int(c.Node.UID()), int(c.Previous), int(c.Status)})
		})()
		statuses := []int{0, 0, 0}
		for tick := 1; tick <= 2; tick++ {
			want = nil
			tree.TickOnce()
			synctest.Wait()
			ev = b.events(t)
			if len(ev) != 2+tick || ev[len(ev)-1].name != "tick" {
				t.Fatalf("tick %d: events %v", tick, ev)
			}
			if tick == 1 && (ev[1].name != "tick" || !strings.HasPrefix(ev[1].data, `{"tick":0,"time":`) ||
				!strings.HasSuffix(ev[1].data, `,"statuses":[0,0,0],"bb":[{"scope":0,"entries":{}}]}`)) {
				t.Fatalf("the keyframe before tick 1: %v", ev[1])
			}
			if tick == 1 && !strings.HasSuffix(ev[2].data, `,"changes":[[1,0,1],[2,0,2],[3,0,1]],"bb":[{"scope":0,"entries":{"x":1}}]}`) {
				t.Errorf("tick 1: %s", ev[2].data)
			}
			f := decode[wireFrame](t, ev[len(ev)-1].data)
			if f.Tick != uint64(tick) || !reflect.DeepEqual(f.Changes, want) || feed.Ticks() != uint64(tick) {
				t.Errorf("tick %d: frame %+v, want the changes %v", tick, f, want)
			}
			statuses = apply(statuses, f)
			if !slices.Equal(statuses, statusesOf(tree)) {
				t.Errorf("tick %d: the frames give %v, the tree has %v", tick, statuses, statusesOf(tree))
			}
			bb := ""
			if len(f.BB) > 0 {
				bb = string(f.BB[0].Entries)
			}
			if wantBB := map[int]string{1: `{"x":1}`, 2: ""}[tick]; bb != wantBB {
				t.Errorf("tick %d: blackboard %q, want %q (only the scopes that changed)", tick, bb, wantBB)
			}
		}
	})
}

// TestResync: a browser that does not read never slows the tree; once it has more
// messages waiting than its buffer holds, they are dropped and it gets a snapshot,
// which holds everything it missed.
func TestResync(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tree, _ := bt.NewTree(bt.Sequence(stepper("A", bt.Running, bt.Running, bt.Running), stepper("B", bt.Running, bt.Failure)))
		m := New(Buffer(2))
		feed, _ := m.Add("t", tree)
		b, cancel := connect(m, "t")
		defer cancel()
		synctest.Wait()
		feed.Sync() // observe from now on: the keyframe of tick 0
		synctest.Wait()
		stuck := make(chan struct{})
		b.mu.Lock()
		b.stuck = stuck
		b.mu.Unlock()
		var after [][]int // the statuses after each tick
		for range 10 {
			tree.TickOnce() // returns at once: nothing waits for the browser
			after = append(after, statusesOf(tree))
			synctest.Wait()
		}
		b.mu.Lock()
		b.stuck = nil
		b.mu.Unlock()
		close(stuck)
		synctest.Wait()
		ev := b.events(t)
		var names []string
		for _, e := range ev {
			names = append(names, e.name)
		}
		// The handler was writing tick 1 when the browser got stuck; ticks 2 and 3
		// filled its buffer and tick 4 overflowed it.
		if want := []string{"snapshot", "tick", "tick", "snapshot"}; !slices.Equal(names, want) {
			t.Fatalf("events %v, want %v", names, want)
		}
		snap := decode[wireSnapshot](t, ev[3].data)
		if len(snap.Frames) != 11 || snap.Frames[10].Tick != 10 || !snap.Synced {
			t.Fatalf("the snapshot has %d frames, the last %+v", len(snap.Frames), snap.Frames[len(snap.Frames)-1])
		}
		s := []int(nil)
		for i, f := range snap.Frames {
			s = apply(s, f)
			if i > 0 && !slices.Equal(s, after[i-1]) {
				t.Errorf("frame %d gives %v, the tree had %v", i, s, after[i-1])
			}
		}
	})
}

// TestManyClients: every browser gets every frame, and once the last one is gone the
// feed stops observing the tree, until a browser connects again.
func TestManyClients(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tree, _ := bt.NewTree(bt.Sequence(stepper("A", bt.Running), bt.Script("n := 1")))
		m := New()
		feed, _ := m.Add("t", tree)
		var browsers []*browser
		var cancels []func()
		for range 30 {
			b, cancel := connect(m, "t")
			browsers, cancels = append(browsers, b), append(cancels, cancel)
		}
		synctest.Wait()
		if n := feed.Watchers(); n != 30 {
			t.Fatalf("%d watchers", n)
		}
		for range 3 {
			tree.TickOnce()
		}
		synctest.Wait()
		first := browsers[0].events(t) // the snapshot, the keyframe of tick 0, 3 ticks
		if len(first) != 5 {
			t.Fatalf("%d events: %v", len(first), first)
		}
		for i, b := range browsers[1:] {
			if got := b.events(t); !reflect.DeepEqual(got[1:], first[1:]) {
				t.Fatalf("browser %d got %v, browser 0 %v", i+1, got, first)
			}
		}
		for _, cancel := range cancels {
			cancel()
		}
		synctest.Wait()
		if n := feed.Watchers(); n != 0 {
			t.Fatalf("%d watchers after they left", n)
		}
		if feed.cancel == nil {
			t.Fatal("the feed stopped observing the tree during a tick")
		}
		tree.TickOnce() // tick 4: the feed stops observing the tree when it starts
		if feed.cancel != nil {
			t.Fatal("the feed still observes the tree with no browser connected")
		}
		synctest.Wait()
		b, cancel := connect(m, "t")
		defer cancel()
		synctest.Wait()
		snap := decode[wireSnapshot](t, b.events(t)[0].data)
		if snap.Synced || len(snap.Frames) != 4 {
			t.Errorf("a browser that comes back: synced %v, %d frames", snap.Synced, len(snap.Frames))
		}
		before := statusesOf(tree)
		tree.TickOnce()
		synctest.Wait()
		ev := b.events(t)
		if len(ev) != 3 {
			t.Fatalf("back: %d events: %v", len(ev), ev)
		}
		f := decode[wireFrame](t, ev[1].data)
		if f.Tick != 4 || !slices.Equal(f.Statuses, before) {
			t.Errorf("back: frame %+v, want a keyframe of tick 4 with %v", f, before)
		}
		if f := decode[wireFrame](t, ev[2].data); f.Tick != 5 || !slices.Equal(apply(before, f), statusesOf(tree)) {
			t.Errorf("back: frame %+v, want tick 5", f)
		}
	})
}

// TestUnwatched: with no browser, the feed does not observe the tree, and a tick
// allocates nothing.
func TestUnwatched(t *testing.T) {
	tree, _ := bt.NewTree(bt.Sequence(bt.AlwaysSuccess(), bt.Script("x := 1")))
	feed, _ := New().Add("t", tree)
	allocs := testing.AllocsPerRun(100, func() { tree.TickOnce() })
	if allocs != 0 || feed.cancel != nil {
		t.Errorf("%v allocations per tick, observing: %v", allocs, feed.cancel != nil)
	}
	if feed.Ticks() != 101 {
		t.Errorf("Ticks %d", feed.Ticks())
	}
}

// TestHistory keeps the last frames; the base is the state before them.
func TestHistory(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tree, _ := bt.NewTree(bt.Sequence(stepper("A", bt.Running, bt.Running), stepper("B", bt.Running, bt.Failure)))
		m := New(History(3), ObserveAlways())
		m.Add("t", tree)
		var after [][]int
		for range 6 {
			tree.TickOnce()
			after = append(after, statusesOf(tree))
		}
		synctest.Wait()
		rec := httptest.NewRecorder()
		m.ServeHTTP(rec, httptest.NewRequest("GET", "/api/trees/t", nil))
		snap := decode[wireSnapshot](t, rec.Body.String())
		var ticks []uint64
		for _, f := range snap.Frames {
			ticks = append(ticks, f.Tick)
		}
		if !slices.Equal(ticks, []uint64{4, 5, 6}) || snap.Base.Tick != 3 || !slices.Equal(snap.Base.Statuses, after[2]) {
			t.Fatalf("frames of ticks %v, base %+v (want tick 3 with %v)", ticks, snap.Base, after[2])
		}
		s := snap.Base.Statuses
		for i, f := range snap.Frames {
			if s = apply(s, f); !slices.Equal(s, after[3+i]) {
				t.Errorf("tick %d: %v, want %v", f.Tick, s, after[3+i])
			}
		}
	})
}

// TestOverflow: when the monitor falls behind the feed by Buffer frames, frames are
// dropped and the next one that goes through is a keyframe; so is a tick with more
// changes than a frame records.
func TestOverflow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tree, _ := bt.NewTree(bt.Sequence(stepper("A", bt.Running, bt.Running, bt.Running), bt.Repeat(40000, bt.AlwaysSuccess())))
		m := New(Buffer(2), ObserveAlways())
		feed, _ := m.Add("t", tree) // the keyframe of tick 0
		synctest.Wait()
		h := feed.hub
		h.qmu.Lock()
		h.draining = true // nobody drains: the monitor is behind
		h.qmu.Unlock()
		tree.TickOnce() // queued
		tree.TickOnce() // queued
		tree.TickOnce() // dropped
		h.drain()
		tree.TickOnce() // A succeeds; Repeat makes 80,000 changes
		synctest.Wait()
		h.mu.Lock()
		frames := h.history()
		h.mu.Unlock()
		var ticks []uint64
		for _, f := range frames {
			ticks = append(ticks, f.Tick)
		}
		if !slices.Equal(ticks, []uint64{0, 1, 2, 4}) {
			t.Fatalf("frames of ticks %v", ticks)
		}
		if frames[3].Statuses == nil || frames[3].Changes != nil {
			t.Errorf("the frame after the gap is not a keyframe: %d changes", len(frames[3].Changes))
		}
		h.qmu.Lock()
		h.draining = true
		h.qmu.Unlock()
		tree.TickOnce()
		h.drain()
		frames = h.history()
		if f := frames[len(frames)-1]; f.Tick != 5 || f.Statuses == nil {
			t.Errorf("a tick of more than %d changes: frame of tick %d, keyframe %v", maxChanges, f.Tick, f.Statuses != nil)
		}
	})
}

// TestKeyframeShowsWhatObserversSaw: a keyframe gives a node the status the change
// stream last gave it. A Sequence whose children were all skipped is Idle in the tree
// but Running to observers, as in BehaviorTree.CPP's stream (bt.Tree.SubscribeBatch); a
// keyframe in the middle of the run (here, a tick of more changes than a frame
// records) must not show it Idle to a browser that saw it Running a frame before.
func TestKeyframeShowsWhatObserversSaw(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		skipped := bt.Sequence(bt.AlwaysSuccess().With("_skipIf", "true")).Named("skipped")
		tree, err := bt.NewTree(bt.Sequence(skipped,
			stepper("A", bt.Running), bt.Repeat(40000, bt.AlwaysSuccess()), stepper("B", bt.Running)))
		if err != nil {
			t.Fatal(err)
		}
		m := New(ObserveAlways())
		feed, _ := m.Add("t", tree) // the keyframe of tick 0
		synctest.Wait()
		tree.TickOnce() // "skipped" Running to observers; A Running
		tree.TickOnce() // A succeeds, Repeat makes 80,000 changes: a keyframe
		synctest.Wait()
		h := feed.hub
		h.mu.Lock()
		frames := h.history()
		h.mu.Unlock()
		uid := 0
		for n := range tree.Nodes() {
			if n.Name() == "skipped" {
				uid = int(n.UID())
			}
		}
		if got := tree.Node(uint16(uid)).Status(); got != bt.Idle {
			t.Fatalf("the skipped Sequence is %v in the tree, want Idle", got)
		}
		var seen bt.Status
		for _, c := range frames[1].Changes {
			if int(c.UID()) == uid {
				seen = c.Status()
			}
		}
		last := frames[len(frames)-1]
		if seen != bt.Running || last.Tick != 2 || last.Statuses == nil {
			t.Fatalf("frames: tick 1 showed it %v; the last frame is of tick %d, keyframe %v", seen, last.Tick, last.Statuses != nil)
		}
		if got := last.Statuses[uid-1]; got != bt.Running {
			t.Errorf("the keyframe of tick 2 shows the skipped Sequence %v; the frame before showed it Running", got)
		}
	})
}

// TestOrigin: the monitor refuses what a page of another site asks, and writes.
func TestOrigin(t *testing.T) {
	m := New()
	for _, tc := range []struct {
		method, origin, site string
		code                 int
	}{
		{"GET", "", "", 200},
		{"GET", "http://example.com:8642", "same-origin", 200},
		{"GET", "http://EXAMPLE.com:8642", "", 200},
		{"HEAD", "", "", 200},
		{"GET", "http://evil.example", "", 403},
		{"GET", "http://example.com:9999", "", 403},
		{"GET", "null", "", 403},
		{"GET", "", "cross-site", 403},
		{"POST", "", "", 405},
		{"DELETE", "http://example.com:8642", "", 405},
	} {
		r := httptest.NewRequest(tc.method, "http://example.com:8642/api/trees", nil)
		if tc.origin != "" {
			r.Header.Set("Origin", tc.origin)
		}
		if tc.site != "" {
			r.Header.Set("Sec-Fetch-Site", tc.site)
		}
		w := httptest.NewRecorder()
		m.ServeHTTP(w, r)
		if w.Code != tc.code {
			t.Errorf("%s with Origin %q, Sec-Fetch-Site %q: %d, want %d", tc.method, tc.origin, tc.site, w.Code, tc.code)
		}
	}
}

// TestHost: on a loopback connection the monitor answers only to loopback names and
// addresses, so that a site whose name resolves to 127.0.0.1 (DNS rebinding) cannot
// read the trees; on another connection it answers to any name.
func TestHost(t *testing.T) {
	srv := httptest.NewServer(New()) // on 127.0.0.1
	defer srv.Close()
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	for host, code := range map[string]int{
		"127.0.0.1:" + port:         200,
		"localhost:" + port:         200,
		"LocalHost.:" + port:        200,
		"monitor.localhost:" + port: 200,
		"127.0.0.2":                 200,
		"[::1]:" + port:             200,
		"evil.example:" + port:      403,
		"evil.example":              403,
		"localhost.evil.example":    403,
		"10.0.0.1:" + port:          403,
	} {
		r, err := http.NewRequest("GET", srv.URL+"/api/trees", nil)
		if err != nil {
			t.Fatal(err)
		}
		r.Host = host
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != code {
			t.Errorf("Host %q: %d, want %d", host, resp.StatusCode, code)
		}
	}
	r := httptest.NewRequest("GET", "http://robot.example/api/trees", nil)
	r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, &net.TCPAddr{IP: net.IPv4(192, 0, 2, 1), Port: 8642}))
	w := httptest.NewRecorder()
	New().ServeHTTP(w, r)
	if w.Code != 200 {
		t.Errorf("Host robot.example on a network address: %d, want 200", w.Code)
	}
}

// TestPage serves the page and its assets, embedded.
func TestPage(t *testing.T) {
	srv := httptest.NewServer(New())
	defer srv.Close()
	for path, want := range map[string]string{
		"/":                     "text/html",
		"/assets/app.js":        "text/javascript",
		"/assets/graph.js":      "text/javascript",
		"/assets/history.js":    "text/javascript",
		"/assets/blackboard.js": "text/javascript",
		"/assets/style.css":     "text/css",
	} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), want) || len(body) == 0 {
			t.Errorf("%s: %d %q, %d bytes", path, resp.StatusCode, resp.Header.Get("Content-Type"), len(body))
		}
	}
	for _, path := range []string{"/index.html/x", "/nothing", "/api/trees/nobody", "/api/trees/nobody/events"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 404 {
			t.Errorf("%s: %d, want 404", path, resp.StatusCode)
		}
	}
}

// TestRegistry adds, lists and removes trees; a browser watching a removed tree is
// told it is gone.
func TestRegistry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := New()
		tree, _ := bt.NewTree(bt.AlwaysSuccess())
		feed, err := m.Add("agent 1", tree)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.Add("agent 1", tree); err == nil || err.Error() != `monitor: there is already a tree named "agent 1"` {
			t.Errorf("a second tree of the same name: %v", err)
		}
		for _, tc := range []struct {
			err  error
			want string
		}{
			{second(m.Add("", tree)), "monitor: a tree needs a name"},
			{second(m.Add("x", nil)), "monitor: Add: nil tree"},
			{m.AddLog("x", nil), "monitor: AddLog: nil log"},
		} {
			if tc.err == nil || tc.err.Error() != tc.want {
				t.Errorf("got %v, want %q", tc.err, tc.want)
			}
		}
		tree2, _ := bt.NewTree(bt.AlwaysFailure())
		if _, err := m.Add("agent 2", tree2); err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		m.ServeHTTP(rec, httptest.NewRequest("GET", "/api/trees", nil))
		if want := `[{"name":"agent 1","live":true,"synced":false,"tick":0,"frames":0,"watchers":0},{"name":"agent 2","live":true,"synced":false,"tick":0,"frames":0,"watchers":0}]` + "\n"; rec.Body.String() != want {
			t.Errorf("the list:\n%s\nwant\n%s", rec.Body.String(), want)
		}
		b, cancel := connect(m, "agent%201")
		defer cancel()
		synctest.Wait()
		feed.Sync()
		synctest.Wait()
		feed.Close()
		synctest.Wait()
		ev := b.events(t)
		if last := ev[len(ev)-1]; last.name != "gone" {
			t.Errorf("the last event %v", last)
		}
		if feed.cancel != nil {
			t.Error("a closed feed observes its tree")
		}
		if got := m.Names(); !slices.Equal(got, []string{"agent 2"}) {
			t.Errorf("Names %v", got)
		}
		m.Remove("agent 2")
		m.Remove("agent 2")
		if got := m.Names(); len(got) != 0 {
			t.Errorf("Names %v", got)
		}
	})
}

func second[T any](_ T, err error) error { return err }

// TestReplay replays a .btlog file: a step per tick of the recorded run (the clock
// moved 10 ms between ticks), each with the statuses the tree had after it.
func TestReplay(t *testing.T) {
	clock := bttest.NewClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	tree, err := bt.NewTree(bt.Sequence(stepper("A", bt.Running), bt.Fallback(stepper("B", bt.Failure), stepper("C", bt.Running))), bt.WithClock(clock))
	if err != nil {
		t.Fatal(err)
	}
	var file bytes.Buffer
	logger, err := btlog.NewFile(tree, &file)
	if err != nil {
		t.Fatal(err)
	}
	var after [][]int
	for range 3 {
		clock.Advance(10 * time.Millisecond)
		tree.TickOnce()
		after = append(after, statusesOf(tree))
	}
	if err := logger.Close(); err != nil {
		t.Fatal(err)
	}
	l, err := btlog.Read(&file)
	if err != nil {
		t.Fatal(err)
	}
	m := New()
	if err := m.AddLog("run", l); err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	m.ServeHTTP(rec, httptest.NewRequest("GET", "/api/trees/run", nil))
	snap := decode[wireSnapshot](t, rec.Body.String())
	if snap.Info.Live || !snap.Synced || len(snap.Frames) != 3 || snap.Info.Nodes[3].Name != "B" || snap.Info.Nodes[2].ID != "Fallback" {
		t.Fatalf("live %v, synced %v, %d frames, nodes %+v", snap.Info.Live, snap.Synced, len(snap.Frames), snap.Info.Nodes)
	}
	s := snap.Base.Statuses
	for i, f := range snap.Frames {
		if s = apply(s, f); !slices.Equal(s, after[i]) || f.Tick != uint64(i+1) {
			t.Errorf("step %d (tick %d): %v, want %v", i+1, f.Tick, s, after[i])
		}
	}
}

// TestReplaySkippedUIDs: a .btlog file may number its nodes with gaps; statuses still
// go by UID-1.
func TestReplaySkippedUIDs(t *testing.T) {
	l := &btlog.Log{
		XML: []byte(`<root BTCPP_format="4"><BehaviorTree ID="T" _fullpath=""><Sequence _uid="1"><Script code="x := 1" _uid="3"/></Sequence></BehaviorTree></root>`),
		Nodes: []btlog.NodeInfo{
			{UID: 1, ID: "Sequence", Name: "Sequence", Path: "Sequence::1", Kind: bt.KindControl},
			{UID: 3, Parent: 1, ID: "Script", Name: "Script", Path: "Script::3", Kind: bt.KindAction},
		},
		Transitions: []btlog.Transition{
			{UID: 1, Previous: bt.Idle, Status: bt.Running},
			{UID: 3, Previous: bt.Idle, Status: bt.Success},
			{Offset: time.Second, UID: 3, Previous: bt.Success, Status: bt.Idle},
		},
	}
	m := New()
	if err := m.AddLog("gaps", l); err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	m.ServeHTTP(rec, httptest.NewRequest("GET", "/api/trees/gaps", nil))
	snap := decode[wireSnapshot](t, rec.Body.String())
	if len(snap.Frames) != 2 || snap.Info.Tree != "T" || !reflect.DeepEqual(snap.Info.Nodes[1].Ports, [][2]string{{"code", "x := 1"}}) {
		t.Fatalf("%+v", snap)
	}
	s := apply(snap.Base.Statuses, snap.Frames[0])
	if !slices.Equal(s, []int{1, 0, 2}) {
		t.Errorf("after step 1: %v", s)
	}
}

// TestFollowsTheTicks: a feed needs nothing from a program that ticks its tree with
// TickWhileRunning: a browser that connects is served a frame per tick from the next
// tick on, and a Halt makes a frame of its own, with the number of the last tick. A
// tree removed from another goroutine is no longer observed from its next tick on.
func TestFollowsTheTicks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tree, _ := bt.NewTree(bt.Sequence(stepper("A", bt.Running, bt.Running), stepper("B", bt.Running, bt.Running, bt.Running)))
		m := New()
		feed, _ := m.Add("t", tree)
		b, cancel := connect(m, "t")
		defer cancel()
		synctest.Wait()
		var after [][]int
		tree.SubscribeBatch(func(b bt.Batch) {
			if b.End {
				after = append(after, statusesOf(tree))
			}
		})
		ctx, stop := context.WithTimeout(context.Background(), 35*time.Millisecond)
		defer stop()
		if s, err := tree.TickWhileRunning(ctx, 10*time.Millisecond); s != bt.Running || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("TickWhileRunning: %v, %v", s, err) // 4 ticks, then the deadline: halted
		}
		synctest.Wait()
		ev := b.events(t)
		var ticks []uint64
		s := []int(nil)
		for i, e := range ev[1:] {
			f := decode[wireFrame](t, e.data)
			ticks = append(ticks, f.Tick)
			if s = apply(s, f); i > 0 && !slices.Equal(s, after[i-1]) {
				t.Errorf("frame %d (tick %d) gives %v, the tree had %v", i, f.Tick, s, after[i-1])
			}
		}
		if !slices.Equal(ticks, []uint64{0, 1, 2, 3, 4, 4}) {
			t.Errorf("frames of ticks %v, want the keyframe of tick 0, ticks 1 to 4 and the halt", ticks)
		}
		if !slices.Equal(s, []int{0, 0, 0}) {
			t.Errorf("after the halt: %v", s)
		}

		go m.Remove("t")
		synctest.Wait()
		if feed.cancel == nil {
			t.Fatal("the feed stopped observing the tree between ticks")
		}
		tree.TickOnce()
		if feed.cancel != nil {
			t.Error("the tree is still observed after it was removed")
		}
	})
}

// TestRemoveWhileWatched: a tree removed while a browser watches it, with
// ObserveAlways, is no longer observed from its next tick, also once the browser has
// left (the browser leaving must not make the feed want the tree again).
func TestRemoveWhileWatched(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tree, _ := bt.NewTree(bt.Sequence(bt.AlwaysSuccess(), bt.Script("x := 1")))
		m := New(ObserveAlways())
		feed, _ := m.Add("t", tree)
		_, cancel := connect(m, "t")
		defer cancel()
		synctest.Wait()
		tree.TickOnce()
		synctest.Wait()
		m.Remove("t")
		synctest.Wait() // the browser is told the tree is gone, and leaves
		for range 3 {
			tree.TickOnce()
			synctest.Wait()
		}
		if feed.cancel != nil || feed.hub.want.Load() {
			t.Errorf("the removed tree is still observed (%v) or wanted (%v)", feed.cancel != nil, feed.hub.want.Load())
		}
	})
}
