package bt

import (
	"errors"
	"strconv"
)

// TryCatch runs all its children but the last as a Sequence (the "try" block); when
// one of them fails, it runs the last child (the "catch" block) and fails.
//
//	try child Success or Skipped → next try child
//	try child Running            → Running
//	try child Failure            → reset the try block and tick the catch child in the same tick
//	catch child Running          → Running; the next tick resumes the catch child
//	catch child done             → reset the children; Failure (whatever the catch returned)
//	try block done               → reset; Skipped if every try child was skipped, else Success
//	halted while in the try block, with catch_on_halt=true
//	                             → halt the try block, tick the catch child once (halting it
//	                               if it is still Running), then reset
//
// It needs at least 2 children. XML:
//
//	<TryCatch catch_on_halt="true">
//	    <OpenGripper/>
//	    <Grasp/>
//	    <ReleaseAndRetreat/>
//	</TryCatch>
func TryCatch(catchOnHalt bool, children ...*Spec) *Spec {
	return tryCatchModel.Spec(children...).With("catch_on_halt", strconv.FormatBool(catchOnHalt))
}

var tryCatchModel = &Model{
	ID: "TryCatch", Kind: KindControl,
	Description: "Runs the children but the last as a Sequence; on failure runs the last one and fails.",
	Ports: []PortDef{
		InputPort[bool]("catch_on_halt", "run the catch child when the node is halted during the try block").WithDefault("false"),
	},
	build: func(c *NodeConfig) (ticker, error) {
		if c.NumChildren() < 2 {
			return nil, errors.New("a TryCatch needs at least 2 children: the try block and the catch")
		}
		tc := &tryCatch{}
		return tc, tc.catchOnHalt.bind(c, "catch_on_halt")
	},
}

type tryCatch struct {
	catchOnHalt In[bool]
	idx         int
	skipped     int
	inCatch     bool
}

func (tc *tryCatch) tick(n *Node) Status {
	kids := n.kids()
	if !n.Status().Active() {
		tc.skipped, tc.inCatch = 0, false
	}
	n.setRunning()
	try := len(kids) - 1
	for !tc.inCatch && tc.idx < try {
		switch kids[tc.idx].Tick() {
		case Running:
			return Running
		case Failure:
			n.resetChildren(0)
			tc.idx, tc.inCatch = 0, true
		case Success:
			tc.idx++
		case Skipped:
			tc.idx++
			tc.skipped++
		}
	}
	if tc.inCatch {
		if kids[try].Tick() == Running {
			return Running
		}
		n.resetChildren(0)
		tc.idx, tc.inCatch = 0, false
		return Failure
	}
	allSkipped := tc.skipped == try
	n.resetChildren(0)
	tc.idx, tc.skipped = 0, 0
	if allSkipped {
		return Skipped
	}
	return Success
}

// Halt runs the catch child when catch_on_halt asks for it, also when halting the try
// block failed (the failures are raised afterwards).
func (tc *tryCatch) Halt(n *Node) {
	inCatch := tc.inCatch
	tc.idx, tc.skipped, tc.inCatch = 0, 0, false
	if !tc.catchOnHalt.mustGet(n) || inCatch {
		return
	}
	f := n.family()
	last := len(f.nodes) - 1
	try := family{f.nodes[:last:last], f.status[:last:last]} // the try block
	errs := appendErr(nil, try.reset(0))
	c := &f.nodes[last]
	errs = appendErr(errs, n.protect(func() {
		if c.Tick() == Running {
			c.Halt()
		}
	}))
	n.raise(joinErrors(errs))
}

// saveState saves the try child to tick next ("child"), the try children skipped in
// this activation and whether the catch child runs.
func (tc *tryCatch) saveState(_ *Node, w *stateWriter) {
	w.int("child", int64(tc.idx))
	w.int("skipped", int64(tc.skipped))
	w.flag("catching", tc.inCatch)
}

func (tc *tryCatch) restoreState(n *Node, r *stateReader) {
	try := int64(n.NumChildren() - 1)
	idx, skipped, inCatch := r.int("child", 0, try), r.int("skipped", 0, try), r.flag("catching")
	if r.applying() {
		tc.idx, tc.skipped, tc.inCatch = int(idx), int(skipped), inCatch
	}
}
