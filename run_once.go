package bt

// RunOnce ticks its child until it completes once; after that the child is never
// ticked again, for the life of the tree.
//
//	child Success → remember it, reset the child; Success
//	child Failure → remember it, reset the child; Failure
//	child Running → Running
//	child Skipped → Skipped (nothing is remembered)
//	after the first completion → Skipped if then_skip (default true), else the
//	                remembered status, without ticking the child
//	halted        → halt the child; the memory is kept (halting never resets it)
//
// XML:
//
//	<RunOnce then_skip="false">
//	    <Calibrate/>
//	</RunOnce>
func RunOnce(thenSkip bool, child *Spec) *Spec {
	s := runOnceModel.Spec(child)
	if !thenSkip {
		s.With("then_skip", "false")
	}
	return s
}

var runOnceModel = &Model{
	ID: "RunOnce", Kind: KindDecorator,
	Description: "Ticks the child until it completes once; afterwards returns SKIPPED, or the remembered result if then_skip is false.",
	Ports: []PortDef{
		InputPort[bool]("then_skip", "after the first completion: true to return SKIPPED, false to repeat the child's result").WithDefault("true"),
	},
	build: decorates(resetThenStore, func(c *NodeConfig) (decorator, error) {
		r := &runOnce{}
		return r, r.thenSkip.bind(c, "then_skip")
	}),
}

type runOnce struct {
	thenSkip In[bool]
	done     bool
	result   Status
}

func (r *runOnce) decorate(n *Node) Status {
	skip := r.thenSkip.mustGet(n)
	if r.done {
		if skip {
			return Skipped
		}
		return r.result
	}
	n.setRunning()
	s := n.Child(0).Tick()
	if s.Completed() {
		r.done, r.result = true, s
	}
	return s
}

// saveState saves the status of the first completion ("result"), once there was one.
func (r *runOnce) saveState(_ *Node, w *stateWriter) {
	if r.done {
		w.status("result", r.result)
	}
}

func (r *runOnce) restoreState(_ *Node, sr *stateReader) {
	result := sr.status("result")
	if sr.applying() {
		r.done, r.result = result != Idle, result
	}
}
