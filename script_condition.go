package bt

// ScriptCondition runs code, a script (see package script), and succeeds when the
// value of its last statement is true.
//
//	value true  → Success
//	value false → Failure
//	not a truth value, or an error in the script → the tick stops with an error
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
	build: func(c *Init) (ticker, error) {
		s := &scriptCondition{}
		return s, s.code.bind(c, "code")
	},
}

type scriptCondition struct{ code codePort }

func (s *scriptCondition) tick(n *Node) Status {
	ok, err := runBool(s.code.program(n), s.code.src)
	if err != nil {
		n.Abort(err)
	}
	return statusOf(ok)
}
