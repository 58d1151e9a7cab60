package bt

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
	build: func(c *Init) (ticker, error) {
		s := &scriptNode{}
		return s, s.code.bind(c, "code")
	},
}

type scriptNode struct{ code codePort }

func (s *scriptNode) tick(n *Node) Status {
	if _, err := s.code.program(n).Run(); err != nil {
		n.Abort(err)
	}
	return Success
}
