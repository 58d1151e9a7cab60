package bt

import (
	"fmt"

	"github.com/gobt/bt/blackboard"
	"github.com/gobt/bt/script"
)

// A scope is the environment its nodes' scripts compile against: they read and write
// its blackboard, every variable becoming an entry handle when the script is compiled,
// so that running it looks nothing up, and they know its tree's enums.

// envOf returns the script environment of n: its scope.
func envOf(n *Node) *scope { return n.meta.scope }

func (sc *scope) Var(name string) (script.Var, error) {
	if name == "@" {
		return nil, fmt.Errorf("%q is not a blackboard key", name)
	}
	return entryVar{sc.bb.Entry(name)}, nil
}

func (sc *scope) Enum(name string) (int64, bool) {
	enums := sc.tree.cfg.enums
	if enums == nil {
		return 0, false
	}
	return enums(name)
}

// entryVar is a script variable backed by a blackboard entry.
type entryVar struct{ e *blackboard.Entry }

func (v entryVar) Exists() bool { return v.e.Exists() }

func (v entryVar) Load() (script.Value, error) {
	x := v.e.Load()
	switch x.Kind() {
	case blackboard.KindEmpty:
		if !v.e.Exists() {
			return script.Value{}, fmt.Errorf("the entry %q does not exist", v.e.Key())
		}
		return script.Value{}, nil
	case blackboard.KindInt:
		return script.Int(x.Int()), nil
	case blackboard.KindUint:
		return script.Float(float64(x.Uint())), nil
	case blackboard.KindFloat:
		return script.Float(x.Float()), nil
	case blackboard.KindBool:
		return script.Bool(x.Bool()), nil
	case blackboard.KindString:
		return script.String(x.Str()), nil
	}
	// Any other Go value (a struct, a pointer …) is opaque to the script, which can
	// still copy it, compare it for equality and return it, as the reference moves an Any.
	return script.Other(x.Any()), nil
}

func (v entryVar) Assign(x script.Value) error {
	var b blackboard.Value
	switch x.Kind() {
	case script.KindInt:
		b = blackboard.Int(x.Int())
	case script.KindFloat:
		b = blackboard.Float(x.Float())
	case script.KindBool:
		b = blackboard.Bool(x.Int() != 0)
	case script.KindString:
		b = blackboard.String(x.Str())
	case script.KindOther:
		b = blackboard.ValueOf(x.Other())
	default:
		return fmt.Errorf("cannot assign an empty value to %q", v.e.Key())
	}
	return v.e.Assign(b)
}

// scriptCond turns a parsed script into the condition h: a pre-condition's value must be a
// truth value, a post-condition's is ignored.
func scriptCond(h Cond, s *script.Script) condDef {
	return condDef{script: s.Source(), bind: func(n *Node) (condFunc, error) {
		p, err := s.Compile(envOf(n))
		if err != nil {
			return nil, err
		}
		if !h.IsPre() {
			return func() (bool, error) {
				_, err := p.Run()
				return true, err
			}, nil
		}
		return func() (bool, error) { return runBool(p, s.Source) }, nil
	}}
}

// runBool runs a program and converts its value to a boolean as BehaviorTree.CPP
// does for a condition (script.Value.Condition); source gives the script's text for
// the error when the value is not a truth value.
func runBool(p *script.Program, source func() string) (bool, error) {
	v, err := p.Run()
	if err != nil {
		return false, err
	}
	ok, err := v.Condition()
	if err != nil {
		return false, fmt.Errorf("script %q: %w", source(), err)
	}
	return ok, nil
}

// Script attaches a pre- or post-condition written in the scripting language (see
// package script) and returns s: the Go spelling of the XML attribute h.String().
func (s *Spec) Script(h Cond, code string) *Spec {
	if h >= numConds {
		s.fail(fmt.Errorf("%s is not a pre- or post-condition", h))
		return s
	}
	parsed, err := script.Parse(code)
	if err != nil {
		s.fail(fmt.Errorf("%s: %w", h, err))
		return s
	}
	s.setCond(h, scriptCond(h, parsed))
	return s
}

// codePort is a port holding a script: compiled when the node is built if it is a
// literal, and on the tick after its text changes if it comes from the blackboard.
// Literal scripts are the common case, and a tree may have many: a node keeps one in 24
// bytes, and what a script from the blackboard needs in from.
type codePort struct {
	prog *script.Program
	code *script.Script // what prog was compiled from: its Source is the script's text
	from *codeSource    // nil for a literal
}

// codeSource is where a codePort reads a script that is not a literal.
type codeSource struct {
	port In[string]
	env  envMaker
}

// envMaker returns the environment a node's script compiles against; nil means the
// node's own (envOf).
type envMaker func(n *Node) script.Env

func (c *codePort) bind(init *NodeConfig, name string) error { return c.bindEnv(init, name, nil) }

// bindEnv is bind with the environment the script compiles against.
func (c *codePort) bindEnv(init *NodeConfig, name string, env envMaker) error {
	var port In[string]
	if err := port.bind(init, name); err != nil {
		return err
	}
	if port.entry != nil {
		c.from = &codeSource{port: port, env: env}
		return nil
	}
	if !port.set {
		return fmt.Errorf("port %q: no script", name)
	}
	var parsed *script.Script // parsed once per definition
	if p := init.node.portValue(name); p != nil {
		parsed = p.parsed
	}
	return c.compile(init.node, name, port.val, parsed, env)
}

// compile compiles src, parsing it unless parsed is its parsed form.
func (c *codePort) compile(n *Node, name, src string, parsed *script.Script, env envMaker) error {
	s := parsed
	if s == nil || s.Source() != src {
		var err error
		if s, err = script.Parse(src); err != nil {
			return fmt.Errorf("port %q: %w", name, err)
		}
	}
	var e script.Env = envOf(n)
	if env != nil {
		e = env(n)
	}
	p, err := s.Compile(e)
	if err != nil {
		return fmt.Errorf("port %q: %w", name, err)
	}
	c.code, c.prog = s, p
	return nil
}

// program returns the script to run, recompiling a script read from the blackboard
// when its text changed.
func (c *codePort) program(n *Node) *script.Program {
	if f := c.from; f != nil {
		src := f.port.mustGet(n)
		if c.prog == nil || src != c.code.Source() {
			if err := c.compile(n, f.port.name, src, nil, f.env); err != nil {
				n.Abort(err)
			}
		}
	}
	return c.prog
}

// truth runs the script for a tick of n and returns its value, which must be a truth
// value; an error stops the tick (see Node.Abort).
func (c *codePort) truth(n *Node) bool {
	ok, err := runBool(c.program(n), c.code.Source)
	if err != nil {
		n.Abort(err)
	}
	return ok
}

// withScript sets a port that holds a script, parsing it once for every tree built
// from s; a syntax error is reported when a tree is built (see checkSetting).
func (s *Spec) withScript(port, code string) *Spec {
	parsed, _ := script.Parse(code)
	return s.setPort(portValue{name: port, value: code, parsed: parsed})
}
