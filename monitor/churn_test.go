package monitor

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/gobt/bt"
)

// get serves a request for path and returns the response.
func get(m *Monitor, path string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	m.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	return rec
}

// TestSnapshotOutsideTheLock: while a client's snapshot is being built, the tree's
// frames reach the hub, the list of trees and the page are served, and the client is
// then sent the frames that came after its snapshot. (Built under the hub's lock, the
// frames and the list would wait for it: the test would never end.)
func TestSnapshotOutsideTheLock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tree, _ := bt.NewTree(bt.Sequence(stepper("A", bt.Running, bt.Running), bt.Script("n := 1")))
		m := New()
		m.Add("t", tree)
		building, release := make(chan struct{}, 100), make(chan struct{})
		testHookBuild = func() {
			building <- struct{}{}
			<-release
		}
		defer func() { testHookBuild = nil }()
		b, cancel := connect(m, "t")
		defer cancel()
		<-building      // the client's snapshot: no frame yet
		tree.TickOnce() // the feed starts observing the tree: a keyframe, and tick 1
		synctest.Wait() // the hub has taken both
		list := decode[[]summary](t, get(m, "/api/trees").Body.String())
		if len(list) != 1 || list[0].Tick != 1 || list[0].Frames != 2 || list[0].Watchers != 1 {
			t.Errorf("while a snapshot is built: %+v", list)
		}
		if rec := get(m, "/"); rec.Code != 200 {
			t.Errorf("the page while a snapshot is built: %d", rec.Code)
		}
		close(release)
		synctest.Wait()
		ev := b.events(t)
		if len(ev) != 3 || ev[0].name != "snapshot" {
			t.Fatalf("%d events: %v", len(ev), ev)
		}
		snap := decode[wireSnapshot](t, ev[0].data)
		f0, f1 := decode[wireFrame](t, ev[1].data), decode[wireFrame](t, ev[2].data)
		if len(snap.Frames) != 0 || f0.Tick != 0 || f0.Statuses == nil || f1.Tick != 1 {
			t.Errorf("snapshot of %d frames, then ticks %d and %d", len(snap.Frames), f0.Tick, f1.Tick)
		}
	})
}

// TestChurn: clients that come and go by the dozen do not hold up the ticks or the
// page, and those that join between two frames share one snapshot.
func TestChurn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tree, _ := bt.NewTree(bt.Sequence(stepper("A", bt.Running, bt.Running, bt.Running, bt.Running), bt.Script("n := 1")))
		m := New(ObserveAlways(), MaxViewers(64))
		feed, _ := m.Add("t", tree)
		var builds atomic.Int32
		testHookBuild = func() { builds.Add(1) }
		defer func() { testHookBuild = nil }()
		synctest.Wait() // the hub has the feed's first keyframe
		for round := range 4 {
			var cancels []func()
			var browsers []*browser
			for range 64 {
				b, cancel := connect(m, "t")
				browsers, cancels = append(browsers, b), append(cancels, cancel)
			}
			synctest.Wait()
			if n := builds.Swap(0); n != 1 {
				t.Errorf("round %d: %d snapshots built for 64 clients joining at one frame", round, n)
			}
			tree.TickOnce()
			if rec := get(m, "/"); rec.Code != 200 {
				t.Errorf("round %d: the page: %d", round, rec.Code)
			}
			synctest.Wait() // every client was sent the tick
			for _, cancel := range cancels {
				cancel()
			}
			synctest.Wait()
			for i, b := range browsers {
				if ev := b.events(t); len(ev) != 2 || ev[0].name != "snapshot" || ev[1].name != "tick" {
					t.Fatalf("round %d, client %d: %v", round, i, ev)
				}
			}
			if n := feed.Watchers(); n != 0 {
				t.Fatalf("round %d: %d watchers after they left", round, n)
			}
		}
	})
}

// TestMaxViewers: one stream more than MaxViewers is refused with 503, the page is
// served, and a viewer that leaves makes room for another.
func TestMaxViewers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tree, _ := bt.NewTree(bt.Sequence(stepper("A", bt.Running), bt.Script("n := 1")))
		m := New(MaxViewers(2))
		m.Add("t", tree)
		_, cancel1 := connect(m, "t")
		_, cancel2 := connect(m, "t")
		defer cancel2()
		synctest.Wait()
		rec := get(m, "/api/trees/t/events")
		if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" ||
			!strings.Contains(rec.Body.String(), "too many viewers: this monitor serves 2 at a time") {
			t.Errorf("a third viewer: %d %q, Retry-After %q", rec.Code, rec.Body, rec.Header().Get("Retry-After"))
		}
		for _, path := range []string{"/", "/api/trees", "/api/trees/t"} {
			if rec := get(m, path); rec.Code != 200 {
				t.Errorf("%s with every viewer taken: %d", path, rec.Code)
			}
		}
		cancel1()
		synctest.Wait()
		b, cancel3 := connect(m, "t")
		defer cancel3()
		synctest.Wait()
		if ev := b.events(t); len(ev) != 1 || ev[0].name != "snapshot" {
			t.Errorf("a viewer after one left: %v", ev)
		}
	})
}
