package bt

import "github.com/gobt/bt/script"

// ScriptCondition runs code, a script (see package script), and succeeds when the
// value of its last statement is true. The value is cast to bool as BehaviorTree.CPP
// 4.10 does (script.Value.Condition): true and false, the integers 1 and 0, and real
// numbers (true unless zero) are accepted.
//
//	value true  → Success
//	value false → Failure
//	another integer (2), a string, or an error in the script → the tick stops with an
//	                                                           error naming the node
//
// XML:
//
//	<ScriptCondition code="battery &gt; 20 &amp;&amp; !docked"/>
func ScriptCondition(code string) *Spec { return scriptConditionModel.Spec().withScript("code", code) }

var scriptConditionModel = &Model{
	ID: "ScriptCondition", Kind: KindCondition,
	Description: "Runs a script; succeeds if its value is true.",
	Ports: []PortDef{{Name: "code", Dir: DirInput, Type: typeOf[string](), TypeName: "BT::AnyTypeAllowed",
		Description: "the script to run; its last value must be true or false", script: true, Required: true}},
	build: func(c *NodeConfig) (ticker, error) {
		var code codePort
		if err := code.bind(c, "code"); err != nil || code.from != nil {
			return &scriptCondition{code}, err
		}
		return (*literalCondition)(code.prog), nil
	},
}

// scriptCondition is a ScriptCondition whose script is read from the blackboard.
type scriptCondition struct{ code codePort }

func (s *scriptCondition) tick(n *Node) Status {
	return statusOf(s.code.truth(n))
}

// literalCondition is a ScriptCondition whose script is a literal, as nearly all are.
// Its compiled program, under a type of ours, is the node's ticker: the node costs no
// allocation besides the program, and a tree may have many.
type literalCondition script.Program

func (p *literalCondition) tick(n *Node) Status {
	ok, err := runBool((*script.Program)(p), func() string { return literalCode(n) })
	if err != nil {
		n.Abort(err)
	}
	return statusOf(ok)
}

// literalCode is the script of a node whose port "code" is a literal.
func literalCode(n *Node) string {
	if p := n.portValue("code"); p != nil {
		return p.value
	}
	return ""
}
