package bt

import "github.com/gobt/bt/script"

// Script is the Script node: it runs code, a script in the scripting language
// (see package script), and succeeds. An error in the script stops the tick.
//
//	always → Success
//
// XML:
//
//	<Script code="msg := 'hello'; count += 1"/>
func Script(code string) *Spec { return scriptModel.Spec().withScript("code", code) }

var scriptModel = &Model{
	ID: "Script", Kind: KindAction,
	Description: "Runs a script; always succeeds.",
	Ports:       []PortDef{InputPort[string]("code", "the script to run").holdsScript().Require()},
	build: func(c *NodeConfig) (ticker, error) {
		var code codePort
		if err := code.bind(c, "code"); err != nil || code.from != nil {
			return &scriptNode{code}, err
		}
		return (*literalScript)(code.prog), nil
	},
}

// scriptNode is a Script whose script is read from the blackboard.
type scriptNode struct{ code codePort }

func (s *scriptNode) tick(n *Node) Status {
	if _, err := s.code.program(n).Run(); err != nil {
		n.Abort(err)
	}
	return Success
}

// literalScript is a Script whose script is a literal: like literalCondition, its
// compiled program is the node's ticker.
type literalScript script.Program

func (p *literalScript) tick(n *Node) Status {
	if _, err := (*script.Program)(p).Run(); err != nil {
		n.Abort(err)
	}
	return Success
}
