package bt

import "errors"

// Precondition ticks its child only if the script in "if" is true; otherwise it
// returns "else" (default Failure; any status, e.g. Running to wait or Skipped).
//
//	not latched, if false → else
//	not latched, if true  → latch, tick the child
//	latched               → tick the child without checking if again
//	child completed       → reset the child, drop the latch; the child's status
//	child Running/Skipped → the child's status (the latch stays)
//
// As in BehaviorTree.CPP, halting does not drop the latch. XML:
//
//	<Precondition if="battery &gt; 20" else="SKIPPED">
//	    <Patrol/>
//	</Precondition>
func Precondition(cond string, otherwise Status, child *Spec) *Spec {
	return preconditionModel.Spec(child).withScript("if", cond).With("else", otherwise.String())
}

var preconditionModel = &Model{
	ID: "Precondition", Kind: KindDecorator,
	Description: "Ticks the child if a script is true, else returns a given status.",
	Ports: []PortDef{
		InputPort[Status]("else", "the status to return when the condition is false").WithDefault("FAILURE"),
		InputPort[string]("if", "the condition, a script").holdsScript().Require(),
	},
	build: decorates(resetThenStore, func(c *NodeConfig) (decorator, error) {
		p := &precondition{}
		err := errors.Join(p.cond.bind(c, "if"), p.otherwise.bind(c, "else"))
		if s, ok := p.otherwise.literal(); ok && s == Idle {
			err = errors.Join(err, errors.New(`port "else" may not be IDLE`))
		}
		return p, err
	}),
}

type precondition struct {
	cond      codePort
	otherwise In[Status]
	latched   bool
}

func (p *precondition) decorate(n *Node) Status {
	otherwise := p.otherwise.mustGet(n)
	if otherwise == Idle {
		n.Abort(errors.New(`port "else" may not be IDLE`))
	}
	if !p.latched {
		if !p.cond.truth(n) {
			return otherwise
		}
		p.latched = true
	}
	s := n.Child(0).Tick()
	if s.Completed() {
		p.latched = false
	}
	return s
}

// saveState saves the latch: the condition was true and the child has not completed.
func (p *precondition) saveState(_ *Node, w *stateWriter) { w.flag("latched", p.latched) }

func (p *precondition) restoreState(_ *Node, r *stateReader) {
	latched := r.flag("latched")
	if r.applying() {
		p.latched = latched
	}
}
