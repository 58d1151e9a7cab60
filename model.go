package bt

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"time"

	"github.com/gobt/bt/btxml"
)

// Model describes a node type: its ID, kind and ports — what a Factory registers and
// exports as TreeNodesModel XML — and how to build its behavior for each node.
type Model struct {
	ID          string
	Kind        Kind
	Ports       []PortDef
	Description string
	// Metadata are free key/value pairs about the node type for tools (BehaviorTree.CPP's
	// manifest metadata, which Groot2 shows), written by WriteModels as <MetadataFields>
	// in this order. Keys must be XML names; a key may repeat.
	Metadata []KeyValue

	// New builds the behavior of one node. It runs after the node's children were
	// built; c is valid only during the call. It is nil for builtin models.
	New func(c *NodeConfig) (Behavior, error)

	build func(c *NodeConfig) (ticker, error) // builtin nodes: their own pipeline
	err   error                               // a problem with the model, reported when it is used
	// leaf is the function of a function leaf (NewAction, NewCondition), which every node
	// of the model shares as its ticker while the model declares no ports (see newTicker).
	leaf funcLeaf

	// generic is a model a program made with a generic constructor of builtin code
	// (LoopOf): built as builtin nodes are, exported as the program's own.
	generic    bool
	fieldPorts bool         // ModelOf: the behavior's fields hold the ports (no bindings for Get/Set)
	goType     reflect.Type // ModelOf: the struct type, for messages
	standIn    bool         // RegisterStandIns: a node type without implementation
}

// KeyValue is one metadata field of a Model: <Metadata Key="Value"/> in TreeNodesModel.
type KeyValue struct{ Key, Value string }

// WithMetadata adds a metadata field to m and returns m, to be called when the model is
// made, before it is registered:
//
//	bt.NewAction("Grasp", grasp).WithMetadata("group", "manipulation")
func (m *Model) WithMetadata(key, value string) *Model {
	m.Metadata = append(m.Metadata, KeyValue{key, value})
	return m
}

// Spec returns a new node definition of type m with the given children.
func (m *Model) Spec(children ...*Spec) *Spec {
	return &Spec{model: m, children: children}
}

// port returns the declaration of a port, or nil.
func (m *Model) port(name string) *PortDef {
	for i := range m.Ports {
		if m.Ports[i].Name == name {
			return &m.Ports[i]
		}
	}
	return nil
}

func (m *Model) portNames() []string {
	names := make([]string, len(m.Ports))
	for i, p := range m.Ports {
		names[i] = p.Name
	}
	return names
}

// WriteModels writes the TreeNodesModel XML of the registered node types, in the shape
// BehaviorTree.CPP writes it, so that Groot2 can edit trees that use them. Builtin
// nodes are included only when withBuiltins is true (Groot2 knows them). A stand-in
// (RegisterStandIns) is written as its entry was read, comments, metadata and port
// elements of unknown direction included.
func (f *Factory) WriteModels(w io.Writer, withBuiltins bool) error {
	if w == nil {
		return errors.New("bt: WriteModels: the writer is nil")
	}
	var ms []*btxml.Model
	for _, m := range f.Models() {
		switch x, standIn := f.standIns[m.ID]; {
		case standIn:
			ms = append(ms, x)
		case m.build == nil || m.generic || withBuiltins:
			ms = append(ms, m.XML())
		}
	}
	return btxml.WriteModels(w, ms)
}

// XML returns the model's TreeNodesModel entry, as WriteModels writes it: kind, ID,
// ports with their types, defaults, descriptions and whether they are required
// (required="true", which bt reads back: a tree checked against the models is refused
// for a missing port as the program refuses it), and metadata.
func (m *Model) XML() *btxml.Model {
	x := &btxml.Model{Kind: m.Kind.String(), ID: m.ID}
	for _, p := range m.Ports {
		x.Ports = append(x.Ports, btxml.PortModel{
			Dir: p.Dir.String(), Name: p.Name, Type: p.XMLType(),
			Default: p.Default, HasDefault: p.HasDefault && !p.textless, Description: p.Description,
			// A port with a default is never missing. Builtins are written as
			// BehaviorTree.CPP writes them (bt knows them without their models).
			Required: p.Required && !p.HasDefault && (m.build == nil || m.generic),
		})
	}
	x.Metadata = metadataAttrs(m.Metadata)
	return x
}

// metadataAttrs returns metadata as the attributes of <Metadata> elements.
func metadataAttrs(md []KeyValue) []btxml.Attr {
	var attrs []btxml.Attr
	for _, kv := range md {
		attrs = append(attrs, btxml.Attr{Name: kv.Key, Value: kv.Value})
	}
	return attrs
}

// checkMetadata checks that m's metadata can be written as TreeNodesModel XML.
func checkMetadata(m *Model) error {
	if len(m.Metadata) == 0 {
		return nil
	}
	x := &btxml.Model{Kind: m.Kind.String(), ID: m.ID, Metadata: metadataAttrs(m.Metadata)}
	if err := btxml.WriteModels(io.Discard, []*btxml.Model{x}); err != nil {
		return fmt.Errorf("bt: node %q: metadata: %w", m.ID, err)
	}
	return nil
}

// XMLType returns the port's type as TreeNodesModel writes it: TypeName if set, else
// the name BehaviorTree.CPP gives the C++ type playing the Go type's part ("int",
// "std::string", "BT::NodeStatus", "BT::Any" for a port of type any …), else the Go
// type's name.
func (p PortDef) XMLType() string {
	switch {
	case p.TypeName != "":
		return p.TypeName
	case p.holdsAny:
		return "BT::Any"
	}
	return cppTypeName(p.Type)
}

// cppTypeName names Go types the way BehaviorTree.CPP names the C++ types that play
// the same part, so that Groot2 shows familiar types; other types keep their Go name.
func cppTypeName(t reflect.Type) string {
	if t == nil {
		return "BT::AnyTypeAllowed"
	}
	switch t {
	case reflect.TypeFor[Status]():
		return "BT::NodeStatus"
	case reflect.TypeFor[time.Duration]():
		return "std::chrono::milliseconds"
	}
	switch t.Kind() {
	case reflect.Bool:
		return "bool"
	case reflect.Int, reflect.Int32:
		return "int"
	case reflect.Int8:
		return "int8_t"
	case reflect.Int16:
		return "int16_t"
	case reflect.Int64:
		return "int64_t"
	case reflect.Uint, reflect.Uint32:
		return "unsigned int"
	case reflect.Uint8:
		return "uint8_t"
	case reflect.Uint16:
		return "uint16_t"
	case reflect.Uint64:
		return "uint64_t"
	case reflect.Float32:
		return "float"
	case reflect.Float64:
		return "double"
	case reflect.String:
		return "std::string"
	case reflect.Slice:
		return "std::vector<" + cppTypeName(t.Elem()) + ">"
	}
	return t.String()
}
