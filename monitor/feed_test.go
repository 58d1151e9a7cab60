package monitor

import (
	"encoding/json"
	"testing"
	"testing/synctest"

	"github.com/gobt/bt/blackboard"
)

// TestTickAllocatesNothing: with a browser connected, a tick allocates nothing on the
// ticking goroutine (the monitor's goroutine, held here, writes the JSON).
func TestTickAllocatesNothing(t *testing.T) {
	tree, h := observed(t)
	if n := testing.AllocsPerRun(rounds/2, func() { tree.TickOnce() }); n != 0 {
		t.Errorf("a tick observed by the monitor: %v allocations", n)
	}
	h.mu.Lock()
	n := len(h.frames)
	h.mu.Unlock()
	h.drain()
	h.mu.Lock()
	defer h.mu.Unlock()
	if got := len(h.frames) - n; got != rounds/2+1 {
		t.Errorf("%d frames for %d ticks", got, rounds/2+1)
	}
	changes, scopes := 0, 0
	for _, f := range h.frames[n:] {
		changes += len(f.Changes)
		scopes += len(f.BB)
	}
	if changes < rounds/2 || scopes != (rounds/2+1)/4 { // the script counts every fourth tick
		t.Errorf("the frames: %d changes, %d scopes changed", changes, scopes)
	}
}

// TestBlackboardError: an entry that encoding/json cannot write makes its scope
// {"(error)": why}, as Blackboard.MarshalJSON says it, and the other scopes are sent.
func TestBlackboardError(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tree := benchTree(t)
		if err := tree.Blackboard().Entry("bad").Set(blackboard.ValueOf(make(chan int))); err != nil {
			t.Fatal(err)
		}
		_, want := tree.Blackboard().MarshalJSON()
		feed, _ := New(ObserveAlways()).Add("t", tree)
		synctest.Wait()
		feed.hub.mu.Lock()
		defer feed.hub.mu.Unlock()
		frames := feed.hub.history()
		if len(frames) != 1 || len(frames[0].BB) != 1 || want == nil {
			t.Fatalf("%d frames, want a keyframe with a scope (the blackboard's error: %v)", len(frames), want)
		}
		msg, _ := json.Marshal(want.Error())
		if got := string(frames[0].BB[0].Entries); got != `{"(error)":`+string(msg)+`}` {
			t.Errorf("the scope: %s, want the error %s", got, msg)
		}
	})
}
