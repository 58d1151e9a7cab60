package bt

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
)

// TickAll ticks every tree once, as TickOnce does, spreading the trees over up to
// workers goroutines (workers ≤ 0: runtime.GOMAXPROCS(0)), and returns when all are
// ticked: the way to tick a crowd of agents on all cores. Each goroutine ticks a
// contiguous share of the trees in order (the calling goroutine one of them), so that
// trees built one after the other, whose memory lies together, stay on one core.
//
// When statuses is not nil it receives each tree's status: statuses[i] is what
// trees[i].TickOnce returned, and it must be as long as trees. The errors of the
// ticks that failed are returned joined, each prefixed with its tree's index. A panic
// that goes on out of a tick (WithRepanic) is raised again in the calling goroutine
// once every share is done (the first one, if several panicked); the trees after it
// in its share were not ticked.
//
// The trees must be distinct and ticked by nobody else meanwhile. What they share must
// be safe for concurrent use: a definition, the Models, a Factory are (ticking only
// reads them); a blackboard given to several trees with WithBlackboard is; the code of
// the leaves and the owners (WithOwner) are the caller's to make so. TickAll allocates
// its goroutines and a few words for them, nothing per tree.
func TickAll(trees []*Tree, workers int, statuses []Status) error {
	if statuses != nil && len(statuses) != len(trees) {
		return fmt.Errorf("bt: TickAll: %d statuses for %d trees", len(statuses), len(trees))
	}
	for i, t := range trees {
		if t == nil {
			return fmt.Errorf("bt: TickAll: tree %d is nil", i)
		}
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, len(trees)))
	shares := make([]workerShare, workers)
	per := (len(trees) + workers - 1) / workers
	for w := range shares {
		sh := &shares[w]
		sh.first, sh.trees = w*per, trees[w*per:min((w+1)*per, len(trees))]
		if statuses != nil {
			sh.statuses = statuses[sh.first : sh.first+len(sh.trees)]
		}
	}
	var wg sync.WaitGroup
	last := len(shares) - 1
	for w := range shares[:last] {
		wg.Go(shares[w].tick)
	}
	if last > 0 {
		// The goroutines just started wait on this goroutine's processor, the last one
		// in a slot that idle processors do not take from at once. Yielding runs it
		// here and puts this goroutine where an idle processor finds it at once,
		// also when it is locked to its thread (a game's main loop often is).
		runtime.Gosched()
	}
	shares[last].tick()
	wg.Wait()
	var errs []error
	for w := range shares {
		if p := shares[w].panicked; p != nil {
			panic(p)
		}
		errs = append(errs, shares[w].errs...)
	}
	return errors.Join(errs...)
}

// workerShare is the trees one goroutine of TickAll ticks, and what came of it.
type workerShare struct {
	trees    []*Tree
	statuses []Status // nil: not wanted
	first    int      // the index of trees[0] in TickAll's trees
	errs     []error
	panicked any // a panic that went on out of a tick (never nil once recovered)
}

func (sh *workerShare) tick() {
	defer func() {
		if r := recover(); r != nil {
			sh.panicked = r
		}
	}()
	for i, t := range sh.trees {
		s, err := t.TickOnce()
		if sh.statuses != nil {
			sh.statuses[i] = s
		}
		if err != nil {
			sh.errs = append(sh.errs, fmt.Errorf("tree %d: %w", sh.first+i, err))
		}
	}
}
