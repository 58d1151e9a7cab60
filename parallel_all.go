package bt

import (
	"fmt"
	"strconv"
)

// ParallelAll ticks all its children on every tick until every one of them completed
// (or was skipped), then decides. It never stops early.
//
//	every child skipped in this tick → Skipped
//	all children completed or skipped → halt/reset the children; Failure if at least
//	                                    max_failures of them failed, else Success
//	otherwise                         → Running
//
// max_failures (default 1) may be negative: counted from the number of children.
// Children that completed in this activation are not ticked again. XML:
//
//	<ParallelAll max_failures="2">
//	    <CheckA/>
//	    <CheckB/>
//	    <CheckC/>
//	</ParallelAll>
func ParallelAll(maxFailures int, children ...*Spec) *Spec {
	return parallelAllModel.Spec(children...).With("max_failures", strconv.Itoa(maxFailures))
}

var parallelAllModel = &Model{
	ID: "ParallelAll", Kind: KindControl,
	Description: "Ticks every child until all completed; fails when max_failures of them failed.",
	Ports: []PortDef{
		InputPort[int]("max_failures", "number of failed children that makes the node fail (negative: counted from the number of children)").WithDefault("1"),
	},
	build: func(c *NodeConfig) (ticker, error) {
		p := &parallelAll{done: make([]bool, c.NumChildren())}
		return p, p.maxFailures.bind(c, "max_failures")
	},
}

type parallelAll struct {
	maxFailures In[int]
	done        []bool
	ndone       int
	nfail       int
}

func (p *parallelAll) tick(n *Node) Status {
	kids := n.kids()
	mf := p.maxFailures.mustGet(n)
	fail := threshold(mf, len(kids))
	if len(kids) < fail {
		n.Abort(fmt.Errorf("max_failures %d needs more than the %d children: it can never fail", mf, len(kids)))
	}
	n.setRunning()
	skipped := 0
	for i := range kids {
		c := &kids[i]
		if p.done[i] {
			continue
		}
		switch c.storeStatus(c.t.tick(c)) {
		case Success:
			p.done[i] = true
			p.ndone++
		case Failure:
			p.done[i] = true
			p.ndone++
			p.nfail++
		case Skipped:
			skipped++
		}
	}
	if skipped == len(kids) {
		return Skipped
	}
	if skipped+p.ndone < len(kids) {
		return Running
	}
	n.resetChildren(0)
	failed := p.nfail >= fail
	p.clear()
	if failed {
		return Failure
	}
	return Success
}

func (p *parallelAll) clear() {
	clear(p.done)
	p.ndone, p.nfail = 0, 0
}

func (p *parallelAll) Halt(*Node) { p.clear() }

// saveState saves the children that completed in this activation ("done", one digit
// per child) and how many of them failed.
func (p *parallelAll) saveState(_ *Node, w *stateWriter) {
	w.bits("done", p.done)
	w.int("failures", int64(p.nfail))
}

func (p *parallelAll) restoreState(_ *Node, r *stateReader) {
	done, ndone := r.bits("done", len(p.done))
	nfail := r.int("failures", 0, int64(ndone))
	if r.applying() {
		copy(p.done, done)
		p.ndone, p.nfail = ndone, int(nfail)
	}
}
