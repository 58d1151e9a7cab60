package bt

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/gobt/bt/blackboard"
	"github.com/gobt/bt/internal/typo"
	"github.com/gobt/bt/script"
)

// The checks a node's definition passes before a tree is built from it, whether it was
// written in XML — the compiler (compile.go) reports them with positions when a document
// is loaded — or built in Go — flatten (def.go) records them, and NewTree reports them
// naming the node. One set of rules, so that both get the same errors.

// undeclaredPort is the error for setting a port that the model m does not declare.
func undeclaredPort(m *Model, name string) error {
	known := m.portNames()
	if strings.HasPrefix(name, "_") {
		known = append(known, condNames[:]...)
	}
	return fmt.Errorf("%s has no port %q%s", m.ID, name, typo.Suggest(name, known))
}

// missingPort is the error for a required port that a node of type m does not set.
func missingPort(m *Model, name string) error {
	return fmt.Errorf("%s needs the port %q", m.ID, name)
}

// checkLiteral checks text, the literal value (not a {key}) of the port def, against
// the port's declaration: an output port takes only a blackboard entry, a typed port a
// value of its type and in its range. Scripts are parsed by the callers, which keep
// them.
func checkLiteral(def *PortDef, text string, enums func(string) (int64, bool)) error {
	switch {
	case def.Dir == DirOutput:
		return fmt.Errorf("output port %q must name a blackboard entry like {key}, not %q", def.Name, text)
	case def.script, def.Type == nil, def.Type.Kind() == reflect.String:
		return nil
	}
	v, err := blackboard.Parse(text, def.Type, enums)
	if err != nil {
		if isUnsigned(def.Type) && strings.HasPrefix(strings.TrimSpace(text), "-") {
			return fmt.Errorf("port %q: %q is negative; it takes 0 or more", def.Name, text)
		}
		return fmt.Errorf("port %q: %w", def.Name, err)
	}
	return def.checkRange(v)
}

func isUnsigned(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return true
	}
	return false
}

// atLeast returns a copy of p whose literal values must be min or more: the counts
// whose only negative value is -1 (forever) are checked when the tree is loaded or
// built, since a count of -5 is a typo that would otherwise make the node do nothing.
func (p PortDef) atLeast(min int64) PortDef {
	p.min, p.bounded = min, true
	return p
}

// checkRange checks a literal value parsed to the port's type against its bound.
func (p *PortDef) checkRange(v any) error {
	if !p.bounded {
		return nil
	}
	if rv := reflect.ValueOf(v); rv.CanInt() && rv.Int() < p.min {
		return fmt.Errorf("port %q must be %d or more, not %d", p.Name, p.min, rv.Int())
	}
	return nil
}

// shapeFits reports whether a node of kind k may have n children (a SubTree has its
// subtree's root).
func shapeFits(k Kind, n int) bool {
	switch k {
	case KindAction, KindCondition:
		return n == 0
	case KindDecorator:
		return n == 1
	case KindControl:
		return n > 0
	case KindSubTree:
		return true
	}
	return false // not a kind of node (a zero Model)
}

// shapeError reports a node of type m that has the wrong number of children, or
// returns nil.
func shapeError(m *Model, children int) error {
	if shapeFits(m.Kind, children) {
		return nil
	}
	switch {
	case m.Kind < KindAction || m.Kind > KindSubTree:
		return fmt.Errorf("%v is not a kind of node", m.Kind)
	case (m.Kind == KindAction || m.Kind == KindCondition) && children != 0:
		return fmt.Errorf("%s is a leaf (%s): it has no children, found %d", m.ID, m.Kind, children)
	case m.Kind == KindDecorator && children != 1:
		return fmt.Errorf("%s is a Decorator: it has exactly one child, found %d", m.ID, children)
	case m.Kind == KindControl && children == 0:
		return fmt.Errorf("%s is a Control: it needs at least one child", m.ID)
	}
	return nil
}

// checkPorts checks the ports a spec built in Go sets on a node of type m, as the
// compiler checks the attributes of an XML element. ports is the definition's copy of
// them, in which it keeps the scripts it parsed and the Go values (WithValue) converted
// to their port's type.
func checkPorts(m *Model, ports []portValue) []error {
	if m.err != nil {
		return []error{m.err}
	}
	if m.Kind == KindSubTree {
		return nil // remappings of the subtree's keys, any of them
	}
	var errs []error
	for i := range ports {
		p := &ports[i]
		def := m.port(p.name)
		if def == nil {
			errs = append(errs, undeclaredPort(m, p.name))
			continue
		}
		if err := checkSetting(def, p); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// checkSetting checks the value p gives the port def.
func checkSetting(def *PortDef, p *portValue) error {
	if p.lit != nil {
		v, err := p.lit.convert(def)
		if err == nil {
			p.lit = &literal{v} // the record's own: the spec's may be read concurrently
		}
		return err
	}
	if _, ok := blackboardKey(p.value, p.name); ok {
		return nil
	}
	if def.script && def.Dir != DirOutput {
		if p.parsed == nil {
			parsed, err := script.Parse(p.value)
			if err != nil {
				return fmt.Errorf("port %q: %w", p.name, err)
			}
			p.parsed = parsed
		}
		return nil
	}
	return checkLiteral(def, p.value, nil)
}

// literal is a port's value given in Go (Spec.WithValue): a literal, never a blackboard
// reference, converted to the port's type by NewTree.
type literal struct{ v any }

// convert checks the value against the port def and returns it converted to the
// port's type, as writing it to a blackboard entry of that type would.
func (l *literal) convert(def *PortDef) (any, error) {
	switch {
	case def.Dir == DirOutput:
		return nil, fmt.Errorf("output port %q takes a blackboard entry, not a value: use With(%q, \"{key}\")", def.Name, def.Name)
	case def.script:
		if _, ok := l.v.(string); !ok {
			return nil, fmt.Errorf("port %q holds a script: want a string, not %T", def.Name, l.v)
		}
		return l.v, nil // parsed when the node is built
	case def.Type == nil:
		return l.v, nil
	}
	e := blackboard.New().Entry(def.Name)
	if err := e.Declare(def.Type); err != nil {
		return nil, fmt.Errorf("port %q: %w", def.Name, err)
	}
	// An entry that holds no value takes the type of its first write when the value
	// does not convert (see blackboard.Entry.Set): a value of another type shows in the
	// type the entry ends up holding.
	err := e.Set(blackboard.ValueOf(l.v))
	var pe *blackboard.ParseError
	if errors.As(err, &pe) {
		return nil, fmt.Errorf("port %q: %w", def.Name, pe)
	}
	if err != nil || e.Load().Type() != def.Type {
		return nil, fmt.Errorf("port %q is %s: cannot set it to %T %v", def.Name, def.Type, l.v, l.v)
	}
	v := e.Load().Any()
	return v, def.checkRange(v)
}

// checkDefaults checks the defaults of m's ports as literals of their types, so that a
// bad default is reported where the model is registered rather than by every tree that
// uses it. Builtin defaults are known to be good; those of stand-ins come from a
// TreeNodesModel file whose defaults BehaviorTree.CPP takes as mere text.
func (m *Model) checkDefaults(enums func(string) (int64, bool)) error {
	if m.build != nil || m.standIn {
		return nil
	}
	var errs []error
	for i := range m.Ports {
		def := &m.Ports[i]
		if !def.HasDefault || def.goDefault != nil { // a Go value is of the port's type
			continue
		}
		if _, ok := blackboardKey(def.Default, def.Name); ok {
			continue
		}
		err := checkLiteral(def, def.Default, enums)
		if err == nil && def.script {
			_, err = script.Parse(def.Default)
		}
		if err == nil {
			continue
		}
		if field := m.fieldOf(def.Name); field != "" {
			err = fmt.Errorf("node %q: the tag default:%q of %s: %w", m.ID, def.Default, field, err)
		} else {
			err = fmt.Errorf("node %q: the default %q of port %q: %w", m.ID, def.Default, def.Name, err)
		}
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// asyncChildren reports a ReactiveSequence (the node type m) with more than one
// AsyncSequence child, which BehaviorTree.CPP refuses when it loads a tree: two
// children that yield Running in turn would halt each other on every tick. kids are
// the node types of its n children (nil for one that is not known), at(i) says where
// the child i is. This is the reference's rule exactly: it counts AsyncSequence
// children only (its other "async" names are C++ classes, never node IDs) and checks
// ReactiveSequence only.
func asyncChildren(m *Model, n int, kid func(i int) *Model, at func(i int) string) error {
	if m != reactiveSequenceModel {
		return nil
	}
	var where []string
	for i := range n {
		if kid(i) == asyncSequenceModel {
			where = append(where, at(i))
		}
	}
	if len(where) < 2 {
		return nil
	}
	return fmt.Errorf("a ReactiveSequence cannot have more than one async child; it has %d AsyncSequence children (%s)", len(where), strings.Join(where, ", "))
}
