package monitor

import (
	"encoding/json"
	"slices"
	"testing"
	"testing/synctest"

	"github.com/gobt/bt"
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

// TestCatchUpFrame: after frames were dropped (the monitor fell behind), the frame that
// goes through gives every node the status observers last heard of — a Sequence whose
// child was skipped stays Running to them, though Idle in the tree — and the frames
// after it change those. The monitor's goroutine follows the statuses from the frames
// it had; the feed gives it the last status of each node the dropped frames changed.
func TestCatchUpFrame(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		skipped := bt.Sequence(bt.AlwaysSuccess().With("_skipIf", "true")).Named("skipped")
		tree, err := bt.NewTree(bt.Sequence(skipped,
			stepper("A", bt.Running, bt.Running, bt.Running), stepper("B", slices.Repeat([]bt.Status{bt.Running}, 10)...)))
		if err != nil {
			t.Fatal(err)
		}
		heard := make([]bt.Status, tree.Len()) // what observers heard, by UID-1
		tree.Subscribe(func(c bt.StatusChange) { heard[c.Node.UID()-1] = c.Status })
		feed, _ := New(Buffer(2), ObserveAlways()).Add("t", tree) // the keyframe of tick 0
		synctest.Wait()
		h := feed.hub
		hold(h) // nobody drains: the monitor is behind
		for range 6 {
			tree.TickOnce() // ticks 1 and 2 queued, 3 to 6 dropped (A succeeds at 4, B runs)
		}
		h.drain()
		hold(h)
		tree.TickOnce() // the frame after the gap
		want := slices.Clone(heard)
		h.drain()
		hold(h)
		tree.TickOnce()
		tree.TickOnce()
		h.drain()
		h.mu.Lock()
		frames := h.history()
		h.mu.Unlock()
		var ticks []uint64
		for _, f := range frames {
			ticks = append(ticks, f.Tick)
		}
		if !slices.Equal(ticks, []uint64{0, 1, 2, 7, 8, 9}) {
			t.Fatalf("frames of ticks %v", ticks)
		}
		catchUp := frames[3]
		if catchUp.Changes != nil || !slices.Equal(catchUp.Statuses, want) {
			t.Errorf("the frame after the gap: %v (%d changes), want the statuses %v", catchUp.Statuses, len(catchUp.Changes), want)
		}
		if uid := tree.Root().Child(0).UID(); want[uid-1] != bt.Running || tree.Node(uid).Status() != bt.Idle {
			t.Errorf("the skipped Sequence: %v to observers, %v in the tree; want Running and Idle", want[uid-1], tree.Node(uid).Status())
		}
		state := catchUp
		for _, f := range frames[4:] {
			state = fold(state, f)
		}
		if !slices.Equal(state.Statuses, heard) {
			t.Errorf("after the frames that follow: %v, want %v", state.Statuses, heard)
		}
	})
}
