package bt

import (
	"fmt"

	"github.com/gobt/bt/blackboard"
	"github.com/gobt/bt/script"
)

// scriptEnv lets scripts read and write a node's blackboard: every variable becomes an
// entry handle when the script is compiled, so running it looks nothing up.
type scriptEnv struct {
	bb    *blackboard.Blackboard
	enums func(string) (int64, bool)
}

// envOf returns the script environment of n's scope (a pointer: no allocation per compile).
func envOf(n *Node) *scriptEnv { return &n.meta.scope.env }

func (e scriptEnv) Var(name string) (script.Var, error) {
	if name == "@" {
		return nil, fmt.Errorf("%q is not a blackboard key", name)
	}
	return entryVar{e.bb.Entry(name)}, nil
}

func (e scriptEnv) Enum(name string) (int64, bool) {
	if e.enums == nil {
		return 0, false
	}
	return e.enums(name)
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
	return script.Value{}, fmt.Errorf("the entry %q holds a %s, which scripts cannot use", v.e.Key(), x.Type())
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
	default:
		return fmt.Errorf("cannot assign an empty value to %q", v.e.Key())
	}
	return v.e.Assign(b)
}

// scriptHook turns a parsed script into the hook h: a pre-condition's value must be a
// truth value, a post-condition's is ignored.
func scriptHook(h Hook, s *script.Script) hookDef {
	return func(n *Node) (hookFunc, error) {
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
		return func() (bool, error) { return runBool(p, s.Source()) }, nil
	}
}

// runBool runs a program and converts its value to a boolean.
func runBool(p *script.Program, src string) (bool, error) {
	v, err := p.Run()
	if err != nil {
		return false, err
	}
	ok, err := v.Truthy()
	if err != nil {
		return false, fmt.Errorf("script %q: %w", src, err)
	}
	return ok, nil
}

// Script attaches a pre- or post-condition written in the scripting language (see
// package script) and returns s: the Go spelling of the XML attribute h.String().
func (s *Spec) Script(h Hook, code string) *Spec {
	if h >= numHooks {
		s.errs = append(s.errs, fmt.Errorf("%s is not a pre- or post-condition", h))
		return s
	}
	parsed, err := script.Parse(code)
	if err != nil {
		s.errs = append(s.errs, fmt.Errorf("%s: %w", h, err))
		return s
	}
	s.setHook(h, scriptHook(h, parsed))
	return s
}

// codePort is a port holding a script: compiled when the node is built if it is a
// literal, and on the tick after its text changes if it comes from the blackboard.
type codePort struct {
	port In[string]
	src  string
	prog *script.Program
}

func (c *codePort) bind(init *Init, name string) error {
	if err := c.port.bind(init, name); err != nil {
		return err
	}
	if c.port.entry != nil {
		return nil
	}
	if !c.port.set {
		return fmt.Errorf("port %q: no script", name)
	}
	return c.compile(init.node, c.port.val, init.node.meta.spec.portScript(name))
}

// compile compiles src, parsing it unless parsed is its parsed form.
func (c *codePort) compile(n *Node, src string, parsed *script.Script) error {
	s := parsed
	if s == nil || s.Source() != src {
		var err error
		if s, err = script.Parse(src); err != nil {
			return fmt.Errorf("port %q: %w", c.port.name, err)
		}
	}
	p, err := s.Compile(envOf(n))
	if err != nil {
		return fmt.Errorf("port %q: %w", c.port.name, err)
	}
	c.src, c.prog = src, p
	return nil
}

// program returns the script to run, recompiling a script read from the blackboard
// when its text changed.
func (c *codePort) program(n *Node) *script.Program {
	if c.port.entry != nil {
		src, err := c.port.Get()
		if err != nil {
			n.Abort(err)
		}
		if c.prog == nil || src != c.src {
			if err := c.compile(n, src, nil); err != nil {
				n.Abort(err)
			}
		}
	}
	return c.prog
}

// withScript sets a port that holds a script, parsing it once for every tree built
// from s; a syntax error is reported when a tree is built.
func (s *Spec) withScript(port, code string) *Spec {
	s.With(port, code)
	parsed, err := script.Parse(code)
	if err != nil {
		s.errs = append(s.errs, fmt.Errorf("port %q: %w", port, err))
		return s
	}
	for i := range s.ports {
		if s.ports[i].name == port {
			s.ports[i].parsed = parsed
		}
	}
	return s
}
