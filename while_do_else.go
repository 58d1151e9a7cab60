package bt

import (
	"errors"
	"fmt"
)

// WhileDoElse is a reactive IfThenElse: the condition (first child) is ticked on every
// tick, and a change of its result switches branch, halting the other one.
//
//	condition Running → Running
//	condition Success → halt the else branch (third child, if any); tick the second child
//	condition Failure → halt the second child; tick the third, or with only two children: Failure
//	condition Skipped → error (BehaviorTree.CPP fails too)
//	branch Running    → Running
//	branch done       → reset the children; the branch's status
//
// It needs 2 or 3 children. XML:
//
//	<WhileDoElse>
//	    <IsBatteryOK/>
//	    <Patrol/>
//	    <GoCharge/>
//	</WhileDoElse>
func WhileDoElse(children ...*Spec) *Spec { return whileDoElseModel.Spec(children...) }

var whileDoElseModel = &Model{
	ID: "WhileDoElse", Kind: KindControl,
	Description: "Re-checks the first child every tick and runs the second or third child accordingly.",
	build: func(c *NodeConfig) (ticker, error) {
		if k := c.NumChildren(); k != 2 && k != 3 {
			return nil, fmt.Errorf("WhileDoElse needs 2 or 3 children, found %d", k)
		}
		return &whileDoElse{}, nil
	},
}

type whileDoElse struct{}

func (*whileDoElse) tick(n *Node) Status {
	n.setRunning()
	kids := n.kids()
	var s Status
	switch kids[0].Tick() {
	case Running:
		return Running
	case Success:
		if len(kids) == 3 {
			kids[2].Halt()
		}
		s = kids[1].Tick()
	case Failure:
		if len(kids) < 3 {
			s = Failure
			break
		}
		kids[1].Halt()
		s = kids[2].Tick()
	default:
		n.Abort(errors.New("the condition (first child) was skipped"))
	}
	if s == Running {
		return Running
	}
	n.resetChildren(0)
	return s
}
