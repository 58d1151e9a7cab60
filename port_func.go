package bt

import (
	"fmt"

	"github.com/gobt/bt/blackboard"
	"github.com/gobt/bt/internal/typo"
)

// Get reads the input port name of a node whose model declares it — typically from the
// function of an action registered with NewAction:
//
//	goal, err := bt.Get[Pose](n, "goal")
//
// It is for nodes built from functions; behaviors of struct types hold In fields.
//
// A node reads only the ports its model declares (NewAction's ports): those are what a
// tree may set, and what NewTree and the XML loader check. Which ports a function reads
// is not known until it runs, so reading a port that is not declared is not caught
// when the tree is built: Get returns an error that suggests the nearest declared
// port. Struct nodes (ModelOf) cannot make that mistake: their ports
// are their fields.
func Get[T any](n *Node, name string) (T, error) {
	var zero T
	b, err := n.binding(name)
	if err != nil {
		return zero, err
	}
	if b.entry != nil {
		v, err := blackboard.Get[T](b.entry)
		if err != nil {
			return v, fmt.Errorf("port %q: %w", name, err)
		}
		return v, nil
	}
	if !b.set {
		return zero, fmt.Errorf("port %q is not set", name)
	}
	if v, ok := b.lit.(T); ok {
		return v, nil
	}
	v, err := parseAs[T](b.text, n.Tree().cfg.enums)
	if err != nil {
		return v, fmt.Errorf("port %q: %w", name, err)
	}
	return v, nil
}

// Set writes v to the output port name of a node built from a function.
func Set[T any](n *Node, name string, v T) error {
	b, err := n.binding(name)
	if err != nil {
		return err
	}
	if b.entry == nil {
		return fmt.Errorf("output port %q is not connected to a blackboard entry", name)
	}
	if err := blackboard.Put(b.entry, v); err != nil {
		return fmt.Errorf("port %q: %w", name, err)
	}
	return nil
}

// binding is a port of a node built from a function, resolved when the node was built.
type binding struct {
	name  string
	entry *blackboard.Entry // nil for a literal
	text  string            // the literal, or the default
	lit   any               // the literal converted to the port's type, if it has one
	set   bool
}

func (n *Node) binding(name string) (*binding, error) {
	if u, ok := n.core().(*userNode); ok {
		for i := range u.ports {
			if u.ports[i].name == name {
				return &u.ports[i], nil
			}
		}
	}
	m := n.model()
	if m.fieldPorts {
		return nil, fmt.Errorf("%s keeps its ports in the fields of %s: read port %q with its field's Get method", m.ID, m.goType, name)
	}
	return nil, fmt.Errorf("%s has no port %q (a node reads and writes only the ports its model declares, as NewAction(id, fn, bt.InputPort[T](%q, …)) does)%s",
		m.ID, name, name, typo.Suggest(name, m.portNames()))
}

// bindPorts resolves every declared port of a node built from a function.
func bindPorts(c *NodeConfig) ([]binding, error) {
	defs := c.node.model().Ports
	if len(defs) == 0 {
		return nil, nil
	}
	bs := make([]binding, len(defs))
	for i := range defs {
		def := &defs[i]
		b := &bs[i]
		b.name = def.Name
		if v, ok := goValue(c, def.Name); ok { // converted to def.Type by NewTree, or a default of that type
			b.lit, b.set = v, true
			if p := c.node.portValue(def.Name); p != nil {
				b.text = p.value
			} else {
				b.text = def.Default
			}
			continue
		}
		text, _, set, err := portText(c, def.Name)
		if err != nil {
			return nil, err
		}
		if !set {
			continue
		}
		if key, ok := blackboardKey(text, def.Name); ok {
			if b.entry, err = entryFor(c, key, def); err != nil {
				return nil, err
			}
			continue
		}
		if def.Dir == DirOutput {
			return nil, fmt.Errorf("output port %q must name a blackboard entry like {key}, not %q", def.Name, text)
		}
		b.text, b.set = text, true
		if def.Type != nil {
			v, err := blackboard.Parse(text, def.Type, c.node.Tree().cfg.enums)
			if err != nil {
				return nil, fmt.Errorf("port %q: %w", def.Name, err)
			}
			b.lit = v
		}
	}
	return bs, nil
}
