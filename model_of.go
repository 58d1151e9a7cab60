package bt

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// ModelOf returns the Model of a node type implemented by the struct type T, whose
// pointer implements Behavior (and optionally Halter). Each node gets a new T. Its
// ports are the fields of type In, Out or InOut with a `port` tag, bound before the
// first tick (`port:"name,required"` makes the port one a tree must set):
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
// A problem with T (a port field without a tag, a duplicate name) is reported when the
// model is registered or used.
func ModelOf[T any, P interface {
	*T
	Behavior
}](id string, kind Kind) *Model {
	m := &Model{ID: id, Kind: kind, fieldPorts: true}
	fields, err := portFields(reflect.TypeFor[T]())
	if err != nil {
		m.err = fmt.Errorf("%s: %w", id, err)
		return m
	}
	for _, f := range fields {
		m.Ports = append(m.Ports, f.def)
	}
	m.New = func(c *Init) (Behavior, error) {
		p := P(new(T))
		v := reflect.ValueOf(p).Elem()
		var errs []error
		for _, f := range fields {
			pf := v.Field(f.index).Addr().Interface().(portField)
			errs = append(errs, pf.bind(c, f.def.Name))
		}
		return p, errors.Join(errs...)
	}
	return m
}

// portField is implemented by *In, *Out and *InOut.
type portField interface {
	bind(c *Init, name string) error
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
			return nil, fmt.Errorf("field %s: %q is not a valid port name", f.Name, name)
		case seen[name]:
			return nil, fmt.Errorf("field %s: port %q is declared twice", f.Name, name)
		}
		seen[name] = true
		typ, dir := reflect.New(f.Type).Interface().(portField).declare()
		def := PortDef{Name: name, Dir: dir, Type: typ, Description: f.Tag.Get("help"), Required: required}
		if d, ok := f.Tag.Lookup("default"); ok {
			def = def.WithDefault(d)
		}
		ports = append(ports, taggedPort{i, def})
	}
	return ports, nil
}
