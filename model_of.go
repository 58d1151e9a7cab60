package bt

import (
	"errors"
	"fmt"
	"github.com/gobt/bt/btxml"
	"reflect"
	"strings"
)

// ModelOf returns the Model of a node type implemented by the struct type T, whose
// pointer implements Behavior (and optionally Halter and Starter). Each node gets a new
// T. Its ports are the fields of type In, Out or InOut with a `port` tag, bound before
// the first tick (`port:"name,required"` makes the port one a tree must set):
//
//	type MoveTo struct {
//		Goal  bt.In[Pose]       `port:"goal" help:"where to go"`
//		Speed bt.In[float64]    `port:"speed" default:"0.5"`
//		Left  bt.Out[float64]   `port:"distance_left"`
//	}
//
//	func (m *MoveTo) Tick(n *bt.Node) bt.Status { … }
//
//	factory.Register(bt.ModelOf[MoveTo]("MoveTo", bt.KindAction))
//
// A node that must know when it starts, to reset what it keeps in its fields,
// implements Starter: its OnStart is called instead of Tick when the node is ticked
// while Idle — its first tick, and the first after it completed or was halted — and
// Tick serves the ticks that follow while it runs (BehaviorTree.CPP's
// StatefulActionNode; see NewStateful for actions written as three functions).
//
// A problem with T — a port field without a tag, a duplicate name, a default tag that
// is not a value of its field's type — is reported, naming T and the field, when the
// model is registered (or, for a tree built in Go, by NewTree).
func ModelOf[T any, P interface {
	*T
	Behavior
}](id string, kind Kind) *Model {
	t := reflect.TypeFor[T]()
	m := &Model{ID: id, Kind: kind, fieldPorts: true, goType: t}
	fields, err := portFields(t)
	if err != nil {
		m.err = fmt.Errorf("%s: %s: %w", id, t, err)
		return m
	}
	for _, f := range fields {
		m.Ports = append(m.Ports, f.def)
	}
	_, starts := any(P(nil)).(Starter)
	m.New = func(c *NodeConfig) (Behavior, error) {
		p := P(new(T))
		v := reflect.ValueOf(p).Elem()
		var errs []error
		for _, f := range fields {
			pf := v.Field(f.index).Addr().Interface().(portField)
			errs = append(errs, pf.bind(c, f.def.Name))
		}
		if starts {
			return starting{p, any(p).(Starter)}, errors.Join(errs...)
		}
		return p, errors.Join(errs...)
	}
	return m
}

// Starter is implemented by behaviors that must know when their node starts: OnStart
// is called instead of Tick when the node is ticked while Idle, and returns the status
// of that tick as Tick would. ModelOf uses it. To start afresh and then tick as usual,
// OnStart can reset the fields and return Tick(n).
type Starter interface {
	OnStart(n *Node) Status
}

// starting calls a behavior's OnStart on the ticks that start its node.
type starting struct {
	beh   Behavior
	start Starter
}

func (s starting) Tick(n *Node) Status {
	if n.Status() == Idle {
		return s.start.OnStart(n)
	}
	return s.beh.Tick(n)
}

func (s starting) Halt(n *Node) {
	if h, ok := s.beh.(Halter); ok {
		h.Halt(n)
	}
}

// fieldOf names the struct field behind the port name of a model made by ModelOf, for
// messages: "field Speed of main.MoveTo".
func (m *Model) fieldOf(name string) string {
	if m.goType == nil {
		return ""
	}
	for i := range m.goType.NumField() {
		f := m.goType.Field(i)
		if tag, ok := f.Tag.Lookup("port"); ok && strings.TrimSuffix(tag, ",required") == name {
			return fmt.Sprintf("field %s of %s", f.Name, m.goType)
		}
	}
	return ""
}

// portField is implemented by *In, *Out and *InOut.
type portField interface {
	bind(c *NodeConfig, name string) error
	declare() (reflect.Type, Direction)
}

func (*In[T]) declare() (reflect.Type, Direction)    { return typeOf[T](), DirInput }
func (*Out[T]) declare() (reflect.Type, Direction)   { return typeOf[T](), DirOutput }
func (*InOut[T]) declare() (reflect.Type, Direction) { return typeOf[T](), DirInOut }

type taggedPort struct {
	index int
	def   PortDef
}

// portFields finds the port fields of struct type t.
func portFields(t reflect.Type) ([]taggedPort, error) {
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("%s is not a struct type", t)
	}
	var ports []taggedPort
	seen := map[string]bool{}
	fieldType := reflect.TypeFor[portField]()
	for i := range t.NumField() {
		f := t.Field(i)
		if !reflect.PointerTo(f.Type).Implements(fieldType) {
			continue
		}
		name, ok := f.Tag.Lookup("port")
		name, required := strings.CutSuffix(name, ",required")
		switch {
		case !ok:
			return nil, fmt.Errorf("field %s has no `port:\"name\"` tag", f.Name)
		case !f.IsExported():
			return nil, fmt.Errorf("port field %s is not exported", f.Name)
		case !isPortName(name):
			return nil, fmt.Errorf("field %s: %w", f.Name, btxml.ValidPortName(name))
		case seen[name]:
			return nil, fmt.Errorf("field %s: port %q is declared twice", f.Name, name)
		}
		seen[name] = true
		typ, dir := reflect.New(f.Type).Interface().(portField).declare()
		def := PortDef{Name: name, Dir: dir, Type: typ, Description: f.Tag.Get("help"), Required: required, holdsAny: typ == nil}
		if d, ok := f.Tag.Lookup("default"); ok {
			def = def.WithDefault(d)
		}
		ports = append(ports, taggedPort{i, def})
	}
	return ports, nil
}

// saver returns the StateSaver of the behavior, if it is one.
func (s starting) saver() StateSaver {
	sv, _ := s.beh.(StateSaver)
	return sv
}
