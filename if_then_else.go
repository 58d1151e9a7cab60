package bt

import (
	"errors"
	"fmt"
)

// IfThenElse runs its first child as a condition, then the second child if it
// succeeded or the third (optional) if it failed. The condition is not re-checked while
// the chosen branch runs (see WhileDoElse for that).
//
//	condition Running → Running
//	condition Success → tick child 2
//	condition Failure → tick child 3; with only two children: Failure
//	condition Skipped → error (BehaviorTree.CPP throws too)
//	branch Running    → Running; the next tick resumes the branch
//	branch done       → reset the children; the branch's status (Skipped included)
//	halted            → forget the branch
//
// It needs 2 or 3 children. XML:
//
//	<IfThenElse>
//	    <IsDoorOpen/>
//	    <WalkThrough/>
//	    <OpenDoor/>
//	</IfThenElse>
func IfThenElse(children ...*Spec) *Spec { return ifThenElseModel.Spec(children...) }

var ifThenElseModel = &Model{
	ID: "IfThenElse", Kind: KindControl,
	Description: "Ticks the second child if the first succeeds, else the third.",
	build: func(c *NodeConfig) (ticker, error) {
		if k := c.NumChildren(); k != 2 && k != 3 {
			return nil, fmt.Errorf("IfThenElse needs 2 or 3 children, found %d", k)
		}
		return &ifThenElse{}, nil
	},
}

type ifThenElse struct{ branch int }

func (b *ifThenElse) tick(n *Node) Status {
	n.setRunning()
	if b.branch == 0 {
		switch n.Child(0).Tick() {
		case Running:
			return Running
		case Success:
			b.branch = 1
		case Failure:
			if n.NumChildren() < 3 {
				return Failure
			}
			b.branch = 2
		default:
			n.Abort(errors.New("the condition (first child) was skipped"))
		}
	}
	s := n.Child(b.branch).Tick()
	if s == Running {
		return Running
	}
	n.resetChildren(0)
	b.branch = 0
	return s
}

func (b *ifThenElse) Halt(*Node) { b.branch = 0 }

// saveState saves the branch that runs (1 or 2), if the condition chose one.
func (b *ifThenElse) saveState(_ *Node, w *stateWriter) { w.int("branch", int64(b.branch)) }

func (b *ifThenElse) restoreState(n *Node, r *stateReader) {
	branch := r.int("branch", 0, int64(n.NumChildren()-1))
	if r.applying() {
		b.branch = int(branch)
	}
}
