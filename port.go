package bt

import (
	"encoding"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/gobt/bt/blackboard"
	"github.com/gobt/bt/btxml"
)

// Direction says which way data flows through a port.
type Direction uint8

const (
	DirInput  Direction = iota // the node reads the port
	DirOutput                  // the node writes the port
	DirInOut                   // both
)

// String returns "input", "output" or "inout", as in TreeNodesModel's input_port … tags.
func (d Direction) String() string {
	switch d {
	case DirInput:
		return "input"
	case DirOutput:
		return "output"
	}
	return "inout"
}

// PortDef declares a port of a node type: what the node reads or writes, of which Go
// type, with which default. Declarations are static (part of the Model), so a tree can
// be validated and the catalogue exported without building any node.
type PortDef struct {
	Name        string
	Dir         Direction
	Type        reflect.Type // nil: any type
	Default     string       // the default value as XML text, when HasDefault
	HasDefault  bool
	Required    bool // a tree that does not set the port (and it has no default) is rejected
	Description string
	TypeName    string // the name written to TreeNodesModel; derived from Type when empty

	script bool // the port holds a script, checked when XML is loaded
	// The port is of type any (In[any], InputPort[any] …): the entry it names is
	// declared of type any, and holds values of any type (BT.CPP's BT::Any port).
	// Without it, a port with no Type names a generic entry, typed by its first
	// write (BT.CPP's untyped ports).
	holdsAny bool
	bounded  bool // literal values must be min or more (see atLeast)
	min      int64
	// The default documents an implementation that is not linked (a stand-in's port,
	// from a TreeNodesModel entry): it is shown and written back, never used.
	docDefault bool
	// goDefault is the default InputPortDefault gave as a Go value, used as it is;
	// Default is its text when it has one (textless otherwise), for TreeNodesModel.
	goDefault *literal
	textless  bool
}

// InputPort declares an input port of type T.
func InputPort[T any](name, description string) PortDef {
	return PortDef{Name: name, Dir: DirInput, Type: typeOf[T](), Description: description, holdsAny: typeOf[T]() == nil}
}

// InputPortDefault declares an input port of type T whose value, when a tree does not
// set the port, is def: a Go value, used as it is, so T needs no text form — as
// BehaviorTree.CPP's InputPort<T>(name, default_value, description):
//
//	bt.InputPortDefault("goal", Pose2D{X: 1, Y: 2}, "where to go")
//
// TreeNodesModel shows the default as text where T has one: its MarshalText
// (encoding.TextMarshaler), a number, a bool, a string, a time.Duration in
// milliseconds, or a slice of those separated by ';'; otherwise the port is written
// without a default. A default that is text to parse — "{key}" for a blackboard entry,
// "1,2" for a type with UnmarshalText — is WithDefault's: a string given here is the
// value itself, never an entry's name.
func InputPortDefault[T any](name string, def T, description string) PortDef {
	return InputPort[T](name, description).withGoDefault(def)
}

// InOutPortDefault declares a port of type T that the node reads and writes, whose
// value when a tree does not set it is def (see InputPortDefault).
func InOutPortDefault[T any](name string, def T, description string) PortDef {
	return InOutPort[T](name, description).withGoDefault(def)
}

// withGoDefault returns a copy of p whose default is the Go value v.
func (p PortDef) withGoDefault(v any) PortDef {
	p.HasDefault, p.goDefault = true, &literal{v}
	text, ok := defaultText(reflect.ValueOf(v))
	p.Default, p.textless = text, !ok
	return p
}

var (
	durationType      = reflect.TypeFor[time.Duration]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// defaultText returns the text of a port's default for TreeNodesModel, in a form
// blackboard.Parse reads back, if v has one.
func defaultText(v reflect.Value) (string, bool) {
	if !v.IsValid() {
		return "", false
	}
	t := v.Type()
	switch {
	case t.Implements(textMarshalerType):
		b, err := v.Interface().(encoding.TextMarshaler).MarshalText()
		return string(b), err == nil
	case t == durationType: // milliseconds, as std::chrono::milliseconds ports read
		d := time.Duration(v.Int())
		if d%time.Millisecond != 0 {
			return d.String(), true
		}
		return strconv.FormatInt(int64(d/time.Millisecond), 10), true
	}
	switch t.Kind() {
	case reflect.Bool:
		return strconv.FormatBool(v.Bool()), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(v.Uint(), 10), true
	case reflect.Float32, reflect.Float64:
		return strconv.FormatFloat(v.Float(), 'g', -1, t.Bits()), true
	case reflect.String:
		return v.String(), true
	case reflect.Slice:
		parts := make([]string, v.Len())
		for i := range parts {
			s, ok := defaultText(v.Index(i))
			if !ok || strings.Contains(s, ";") {
				return "", false
			}
			parts[i] = s
		}
		return strings.Join(parts, ";"), true
	}
	return "", false
}

// OutputPort declares an output port of type T.
func OutputPort[T any](name, description string) PortDef {
	return PortDef{Name: name, Dir: DirOutput, Type: typeOf[T](), Description: description, holdsAny: typeOf[T]() == nil}
}

// InOutPort declares a port of type T that the node both reads and writes.
func InOutPort[T any](name, description string) PortDef {
	return PortDef{Name: name, Dir: DirInOut, Type: typeOf[T](), Description: description, holdsAny: typeOf[T]() == nil}
}

// WithDefault returns a copy of p whose value is def (XML text) when the port is not set.
// It replaces a default InputPortDefault gave.
func (p PortDef) WithDefault(def string) PortDef {
	p.Default, p.HasDefault = def, true
	p.goDefault, p.textless = nil, false
	return p
}

// isPortName reports whether name can be a port (btxml.ValidPortName, BehaviorTree.CPP's
// IsAllowedPortName): an attribute that cannot be one is not a port of its node.
func isPortName(name string) bool { return btxml.IsPortName(name) }

// Require returns a copy of p that must be set: a tree whose node neither sets the port
// nor can use a default is rejected when it is built, with the node's position.
func (p PortDef) Require() PortDef {
	p.Required = true
	return p
}

// untyped returns a copy of p, a port of type any, that names a generic entry rather
// than one of type any: a builtin port that BT.CPP declares without a type.
func (p PortDef) untyped() PortDef {
	p.holdsAny = false
	return p
}

// entryType is the type a port declares the entry it names with.
func (p *PortDef) entryType() reflect.Type {
	if p.holdsAny {
		return anyType
	}
	return p.Type
}

var anyType = reflect.TypeFor[any]()

func (p PortDef) holdsScript() PortDef {
	p.script = true
	return p
}

func typeOf[T any]() reflect.Type {
	t := reflect.TypeFor[T]()
	if t.Kind() == reflect.Interface && t.NumMethod() == 0 {
		return nil // any
	}
	return t
}

// In is an input port of type T held by a behavior. It is bound when the node is
// built — to a literal parsed once from the XML text, to the port's default, or to a
// blackboard entry — so reading it in a tick is a pointer hop that does not allocate
// (for numbers, booleans and strings).
type In[T any] struct {
	entry *blackboard.Entry
	val   T
	set   bool // val holds a literal or default (when entry is nil)
	name  string
}

// Get returns the port's value: the literal, or the blackboard entry's current value
// converted to T (strings are parsed). It fails when the port is not set or the entry
// is empty or holds a value that does not convert.
func (p *In[T]) Get() (T, error) {
	if p.entry != nil {
		v, err := blackboard.Get[T](p.entry)
		if err != nil {
			return v, fmt.Errorf("port %q: %w", p.name, err)
		}
		return v, nil
	}
	if !p.set {
		var zero T
		return zero, fmt.Errorf("port %q is not set", p.name)
	}
	return p.val, nil
}

// Entry returns the blackboard entry the port reads, or nil for a literal.
func (p *In[T]) Entry() *blackboard.Entry { return p.entry }

// literal returns the port's value when it is fixed when the tree is built (a literal
// or a default), so that a node can check it then rather than at its first tick.
func (p *In[T]) literal() (T, bool) { return p.val, p.entry == nil && p.set }

// Out is an output port of type T: a blackboard entry the node writes.
type Out[T any] struct {
	entry *blackboard.Entry
	name  string
}

// Set writes v to the port's entry. It fails when the port is not connected to the
// blackboard ("{key}") or when the entry's type does not accept v.
func (p *Out[T]) Set(v T) error {
	if p.entry == nil {
		return fmt.Errorf("output port %q is not connected to a blackboard entry", p.name)
	}
	if err := blackboard.Put(p.entry, v); err != nil {
		return fmt.Errorf("port %q: %w", p.name, err)
	}
	return nil
}

// Entry returns the blackboard entry the port writes, or nil.
func (p *Out[T]) Entry() *blackboard.Entry { return p.entry }

// InOut is a port of type T that the node reads and writes.
type InOut[T any] struct {
	In[T]
}

// Set writes v to the port's entry.
func (p *InOut[T]) Set(v T) error {
	o := Out[T]{entry: p.entry, name: p.name}
	return o.Set(v)
}

// Update replaces the value of the port's entry by fn(old) atomically, as
// blackboard.Update does: a node that modifies a value other goroutines modify too
// (BT.CPP's getLockedPortContent, tutorial 13). old is T's zero value when the entry
// is empty. It fails when the port is not connected to the blackboard.
func (p *InOut[T]) Update(fn func(old T) T) error {
	if p.entry == nil {
		return fmt.Errorf("port %q is not connected to a blackboard entry", p.name)
	}
	if err := blackboard.Update(p.entry, fn); err != nil {
		return fmt.Errorf("port %q: %w", p.name, err)
	}
	return nil
}

// portText returns the text a node's port is set to, or its default.
func portText(c *NodeConfig, name string) (text string, def *PortDef, set bool, err error) {
	d, r := c.node.def()
	m := d.models[r.model]
	if def = m.port(name); def == nil {
		return "", nil, false, fmt.Errorf("%s declares no port %q", m.ID, name)
	}
	if p := d.port(r, name); p != nil {
		return p.value, def, true, nil
	}
	return def.Default, def, def.HasDefault && !def.docDefault, nil
}

// blackboardKey reports whether a port value refers to a blackboard entry and which:
// "{key}" is key, "{=}" (and "=") the entry named like the port.
func blackboardKey(text, port string) (key string, ok bool) {
	t := strings.TrimSpace(text)
	switch {
	case t == "{=}" || t == "=":
		return port, true
	case len(t) >= 3 && t[0] == '{' && t[len(t)-1] == '}':
		return strings.TrimSpace(t[1 : len(t)-1]), true
	}
	return "", false
}

// entryFor returns the node's blackboard entry a port refers to, creating it (empty,
// typed after the port) as BehaviorTree.CPP does when a tree is built.
func entryFor(c *NodeConfig, key string, def *PortDef) (*blackboard.Entry, error) {
	e := c.node.meta.scope.bb.Entry(key)
	if err := e.Declare(def.entryType()); err != nil {
		return nil, fmt.Errorf("port %q: %w", def.Name, err)
	}
	return e, nil
}

// goValue returns the Go value a node's port was set to with WithValue or, when the
// node does not set the port, the Go value its model gives as a default
// (InputPortDefault), if it is either.
func goValue(c *NodeConfig, name string) (any, bool) {
	if p := c.node.portValue(name); p != nil {
		if p.lit != nil {
			return p.lit.v, true
		}
		return nil, false
	}
	if def := c.node.model().port(name); def != nil && def.goDefault != nil {
		return def.goDefault.v, true
	}
	return nil, false
}

// convertTo converts a Go value to T as reading it from a blackboard entry would.
func convertTo[T any](v any) (T, error) {
	if t, ok := v.(T); ok {
		return t, nil
	}
	e := blackboard.New().Entry("value")
	if err := e.Set(blackboard.ValueOf(v)); err != nil {
		var zero T
		return zero, err
	}
	return blackboard.Get[T](e)
}

// bind binds an input port to its text: a literal (parsed now) or a blackboard entry;
// or to the Go value WithValue gave it.
func (p *In[T]) bind(c *NodeConfig, name string) error {
	p.name = name
	if v, ok := goValue(c, name); ok {
		val, err := convertTo[T](v)
		if err != nil {
			return fmt.Errorf("port %q: %w", name, err)
		}
		p.val, p.set = val, true
		return nil
	}
	text, def, set, err := portText(c, name)
	if err != nil || !set {
		return err
	}
	if key, ok := blackboardKey(text, name); ok {
		p.entry, err = entryFor(c, key, def)
		return err
	}
	v, err := parseAs[T](text, c.node.Tree().cfg.enums)
	if err != nil {
		return fmt.Errorf("port %q: %w", name, err)
	}
	p.val, p.set = v, true
	return nil
}

func (p *Out[T]) bind(c *NodeConfig, name string) error {
	p.name = name
	text, def, set, err := portText(c, name)
	if err != nil || !set {
		return err
	}
	key, ok := blackboardKey(text, name)
	if !ok {
		return fmt.Errorf("output port %q must name a blackboard entry like {key}, not %q", name, text)
	}
	p.entry, err = entryFor(c, key, def)
	return err
}

func (p *InOut[T]) bind(c *NodeConfig, name string) error { return p.In.bind(c, name) }

// parseAs converts port text to T.
func parseAs[T any](text string, enums func(string) (int64, bool)) (T, error) {
	var zero T
	if s, ok := any(text).(T); ok {
		return s, nil // string and any
	}
	v, err := blackboard.Parse(text, reflect.TypeFor[T](), enums)
	if err != nil {
		return zero, err
	}
	return v.(T), nil
}

// mustGet returns the port's value for a tick of n, as Get does; an error stops the
// tick (see Node.Abort). It is how builtin nodes read their ports. A literal or a
// default, the common case, takes no more than the call.
func (p *In[T]) mustGet(n *Node) T {
	if p.entry == nil && p.set {
		return p.val
	}
	v, err := p.Get()
	if err != nil {
		n.Abort(err)
	}
	return v
}
