package bt

import (
	"errors"
	"fmt"
	"strconv"
)

// Parallel ticks all its children on every tick and decides by counting results.
//
// success_count (default -1) and failure_count (default 1) are thresholds; a negative
// value counts from the number of children (-1 = all of them). They are read on every
// tick. Children that completed in this activation are not ticked again. After each
// child (so possibly before the later children are ticked in that tick):
//
//	successes ≥ success threshold (or, when success_count < 0, successes + children
//	skipped in this tick ≥ threshold)        → halt the running children; Success
//	children − failures < success threshold,
//	or failures = failure threshold          → halt the running children; Failure
//
// When no decision is reached: Skipped if every child was skipped in this tick, else
// Running. Halting forgets the results. A threshold larger than the number of children
// is an error. XML:
//
//	<Parallel success_count="2" failure_count="1">
//	    <ScanLeft/>
//	    <ScanRight/>
//	    <ScanAhead/>
//	</Parallel>
func Parallel(successCount, failureCount int, children ...*Spec) *Spec {
	return parallelModel.Spec(children...).
		With("success_count", strconv.Itoa(successCount)).
		With("failure_count", strconv.Itoa(failureCount))
}

var parallelModel = &Model{
	ID: "Parallel", Kind: KindControl,
	Description: "Ticks every child on each tick; succeeds or fails by counting results.",
	Ports: []PortDef{
		InputPort[int]("failure_count", "number of failed children that makes the node fail").WithDefault("1"),
		InputPort[int]("success_count", "number of successful children that makes the node succeed (negative: counted from the number of children)").WithDefault("-1"),
	},
	build: func(c *NodeConfig) (ticker, error) {
		p := &parallel{done: make([]bool, c.NumChildren())}
		return p, errors.Join(p.success.bind(c, "success_count"), p.failure.bind(c, "failure_count"))
	},
}

type parallel struct {
	success, failure In[int]
	done             []bool // children completed in this activation
	nsucc, nfail     int
}

// threshold resolves a count: negative values count from the number of children.
func threshold(v, children int) int {
	if v < 0 {
		return max(children+v+1, 0)
	}
	return v
}

func (p *parallel) tick(n *Node) Status {
	kids := n.kids()
	sv, err1 := p.success.Get()
	fv, err2 := p.failure.Get()
	if err := errors.Join(err1, err2); err != nil {
		n.Abort(err)
	}
	need, fail := threshold(sv, len(kids)), threshold(fv, len(kids))
	if len(kids) < need {
		n.Abort(fmt.Errorf("success_count %d needs more than the %d children: it can never succeed", sv, len(kids)))
	}
	if len(kids) < fail {
		n.Abort(fmt.Errorf("failure_count %d needs more than the %d children: it can never fail", fv, len(kids)))
	}
	n.setRunning()
	skipped := 0
	for i := range kids {
		c := &kids[i]
		if !p.done[i] {
			switch c.storeStatus(c.t.tick(c)) {
			case Skipped:
				skipped++
			case Success:
				p.done[i] = true
				p.nsucc++
			case Failure:
				p.done[i] = true
				p.nfail++
			}
		}
		if p.nsucc >= need || (sv < 0 && p.nsucc+skipped >= need) {
			p.finish(n)
			return Success
		}
		if len(kids)-p.nfail < need || p.nfail == fail {
			p.finish(n)
			return Failure
		}
	}
	if skipped == len(kids) {
		return Skipped
	}
	return Running
}

func (p *parallel) finish(n *Node) {
	p.clear()
	n.resetChildren(0)
}

func (p *parallel) clear() {
	clear(p.done)
	p.nsucc, p.nfail = 0, 0
}

func (p *parallel) Halt(*Node) { p.clear() }

// saveState saves the children that completed in this activation ("done", one digit
// per child) and how many succeeded and failed.
func (p *parallel) saveState(_ *Node, w *stateWriter) {
	w.bits("done", p.done)
	w.int("successes", int64(p.nsucc))
	w.int("failures", int64(p.nfail))
}

func (p *parallel) restoreState(_ *Node, r *stateReader) {
	done, ndone := r.bits("done", len(p.done))
	nsucc, nfail := r.int("successes", 0, int64(ndone)), r.int("failures", 0, int64(ndone))
	if int(nsucc+nfail) != ndone {
		r.fail("%d successes and %d failures, but %d children done", nsucc, nfail, ndone)
	}
	if r.applying() {
		copy(p.done, done)
		p.nsucc, p.nfail = int(nsucc), int(nfail)
	}
}
