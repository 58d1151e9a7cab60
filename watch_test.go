package bt_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

// cycling returns an action that answers statuses in turn, one a tick, in a loop.
func cycling(id string, statuses ...Status) *Spec {
	i := 0
	return Action(id, func() Status {
		s := statuses[i%len(statuses)]
		i++
		return s
	})
}

// watchedSpec is a tree whose runs last from one tick to several, with a reactive
// control, a decorator and a Sequence of leaves (whose changes are written when it
// completes), so that the ticks a subscriber hears or not start and end activations of
// every kind.
func watchedSpec() *Spec {
	return Sequence(
		cycling("A", Success, Success, Failure),
		ReactiveFallback(Inverter(cycling("C", Success, Success, Failure, Success)), cycling("D", Running, Success)),
		Sequence(AlwaysSuccess(), cycling("B", Running, Success, Running, Running, Success)),
	)
}

// A subscriber of SubscribeBatchWhen hears, tick by tick, what a subscriber of
// SubscribeBatch hears of the ticks for which hear said yes (and of the Halts after
// them), and nothing of the others, whether it resumes at the start of a run or in the
// middle of one. When it is alone and does not hear, the tree records nothing; another
// subscriber hears everything, as it would without it. hear is called once a tick,
// before the root is ticked.
func TestSubscribeBatchWhenTickByTick(t *testing.T) {
	// The answers of hear, tick after tick; a Halt follows the ticks marked.
	hears := []bool{true, true, false, false, true, false, true, false, false, false, true, true, false, true, true, true, false}
	halts := map[int]bool{5: true, 9: true, 12: true}

	type watched struct {
		tree  *Tree
		clock *bttest.Clock
		plain *batchLog // a subscriber of SubscribeBatch, or nil
		when  *batchLog // a subscriber of SubscribeBatchWhen, or nil
		roots []Status
	}
	build := func(plain, when bool) *watched {
		w := &watched{clock: bttest.NewClock(epoch)}
		w.tree = mustTree(t, watchedSpec(), WithClock(w.clock))
		if plain {
			w.plain = &batchLog{tree: w.tree, start: epoch}
			w.tree.SubscribeBatch(w.plain.hear)
		}
		if when {
			w.when = &batchLog{tree: w.tree, start: epoch}
			w.tree.SubscribeBatchWhen(w.when.hear, func() bool {
				w.roots = append(w.roots, w.tree.Status())
				return hears[len(w.roots)-1]
			})
		}
		return w
	}
	ref, alone, both := build(true, false), build(false, true), build(true, true)
	var roots []Status // the root's status before each tick
	for i, hear := range hears {
		roots = append(roots, ref.tree.Status())
		var got []Status
		for _, w := range []*watched{ref, alone, both} {
			w.clock.Advance(time.Second)
			s, err := w.tree.TickOnce()
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, s)
			if halts[i] {
				w.clock.Advance(time.Second)
				if err := w.tree.Halt(); err != nil {
					t.Fatal(err)
				}
			}
		}
		if got[1] != got[0] || got[2] != got[0] {
			t.Errorf("tick %d: the trees returned %v", i+1, got)
		}
		want := ref.plain.take()
		if got := both.plain.take(); got != want {
			t.Errorf("tick %d: the other subscriber heard\n%swant\n%s", i+1, got, want)
		}
		if !hear {
			want = ""
		}
		for _, w := range []*watched{alone, both} {
			if got := w.when.take(); got != want {
				t.Errorf("tick %d (hear %v): heard\n%swant\n%s", i+1, hear, got, want)
			}
			if len(w.roots) != i+1 || w.roots[i] != roots[i] {
				t.Fatalf("tick %d: hear called %d times, last seeing the root %v (want %v)", i+1, len(w.roots), w.roots[len(w.roots)-1], roots[i])
			}
		}
		if got := Observed(alone.tree); got != hear {
			t.Errorf("tick %d (hear %v): the tree alone records its changes: %v", i+1, hear, got)
		}
		if !Observed(both.tree) {
			t.Errorf("tick %d: the tree with another subscriber records nothing", i+1)
		}
		if got, want := bttest.States(alone.tree), bttest.States(ref.tree); got != want {
			t.Errorf("tick %d: statuses %s, want %s", i+1, got, want)
		}
	}
	// The ticks heard resume runs at their start and in their middle.
	var letters []string
	for _, s := range roots {
		letters = append(letters, bttest.Letter(s))
	}
	if got, want := strings.Join(letters, " "), "I R R I R R I I R R I R R I I I R"; got != want {
		t.Errorf("the root's status before each tick: %s, want %s", got, want)
	}
}

// hear is not called by a tick that Stop ends (it does not tick the root), and is
// called after the functions given to Do ran. Canceling the subscription, heard or
// not, stops hear's calls and the batches, and leaves the tree unobserved.
func TestSubscribeBatchWhenStopDoAndCancel(t *testing.T) {
	tree := mustTree(t, cycling("Work", Running), WithClock(bttest.NewClock(epoch)))
	var log []string
	h := &batchLog{tree: tree, start: epoch}
	answer := true
	cancel := tree.SubscribeBatchWhen(func(b Batch) { h.hear(b); log = append(log, "batch") }, func() bool {
		log = append(log, fmt.Sprint("hear ", answer))
		return answer
	})
	tick := func() {
		t.Helper()
		if _, err := tree.TickOnce(); err != nil && err != ErrStopped {
			t.Fatal(err)
		}
	}
	tree.Do(func() { log = append(log, "do") })
	tick()
	tree.Stop()
	tick()
	answer = false
	tick()
	if got, want := strings.Join(log, ", "), "do, hear true, batch, batch, hear false"; got != want {
		t.Errorf("calls: %s\nwant %s", got, want)
	}
	log = nil
	cancel() // not heard: nothing to hand over
	cancel()
	tick()
	if len(log) != 0 || Observed(tree) {
		t.Errorf("after cancel: %v, observed %v", log, Observed(tree))
	}

	// Canceled while it hears: it hears up to the cancel.
	cancel = tree.SubscribeBatchWhen(h.hear, func() bool { return true })
	h.take()
	tick()
	tree.Halt()
	cancel()
	tick()
	if got, want := h.take(), "batch 0s end\nbatch 0s end\nWork::1: RUNNING -> IDLE\n"; got != want {
		t.Errorf("heard\n%swant\n%s", got, want)
	}
	if Observed(tree) {
		t.Error("observed after cancel")
	}
}

// A tree whose only subscriber does not hear it ticks without allocating, and without
// recording: as an unobserved tree does.
func TestSubscribeBatchWhenDeafDoesNotAllocate(t *testing.T) {
	tree := mustTree(t, deepSpec(6, true, Success))
	changes := 0
	tree.SubscribeBatchWhen(func(b Batch) { changes += len(b.Changes) }, func() bool { return false })
	tree.TickOnce()
	if a := testing.AllocsPerRun(100, func() { tree.TickOnce() }); a != 0 {
		t.Errorf("%v allocations per tick", a)
	}
	if changes != 0 || Observed(tree) {
		t.Errorf("%d changes heard; observed %v", changes, Observed(tree))
	}
}

// A panic in hear stops the tick as an error, before the root is ticked.
func TestSubscribeBatchWhenHearPanics(t *testing.T) {
	r := &bttest.Recorder{}
	tree := mustTree(t, Sequence(r.Leaf("A", "R")))
	tree.SubscribeBatchWhen(func(Batch) {}, func() bool { panic("boom") })
	if s, err := tree.TickOnce(); s != Idle || err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("TickOnce() = %v, %v; want Idle and the panic", s, err)
	}
	if got := r.Take(); got != "" {
		t.Errorf("ticked: %s", got)
	}
}
