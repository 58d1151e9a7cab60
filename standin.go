package bt

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/gobt/bt/blackboard"
	"github.com/gobt/bt/btxml"
)

// RegisterStandIns registers a stand-in for each TreeNodesModel entry whose ID is not
// registered yet: a node type with the entry's kind, ports and description but no
// implementation. Trees that use nodes implemented elsewhere (the custom nodes of a
// robotics stack, say) can then be loaded and checked without them — node kinds,
// numbers of children, port names and literal values — and dry-run once substitution
// rules replace the stand-ins. A stand-in that is ticked aborts the tick with an error
// naming the node.
//
// As for BehaviorTree.CPP, which does not read these entries, a port's default is
// documentation of the implementation: a tree that leaves the port unset does not get
// it, so a default that is not of the port's type (Nav2 writes
// "numeric_limits<double>::infinity()" for a double) is no error; it is a note (Notes)
// at the port. A port element of a direction BehaviorTree.CPP does not define (Nav2's
// <bidirectional_port>) is a port that may be read and written. WriteModels writes a
// stand-in's entry back as it was read.
//
// Entries of kind SubTree declare the ports of subtrees, which LoadDocument reads from
// the document itself; they are skipped, and so are entries already registered with the
// same kind. An entry whose ID is registered with another kind, or that is malformed,
// is an error with its position; then no stand-in is registered. (An entry of another
// kind than a builtin BehaviorTree.CPP does not have, such as an Action Log, hides the
// builtin, as Register does.)
func (f *Factory) RegisterStandIns(models []*btxml.Model) error {
	var (
		errs  btxml.ErrorList
		add   []*Model
		srcs  []*btxml.Model
		notes []btxml.Note
	)
	for _, x := range models {
		if x.Kind == "SubTree" {
			continue
		}
		m, err := f.standIn(x)
		var at *btxml.Error // a port's problem, at the port
		if errors.As(err, &at) {
			errs = append(errs, at)
		} else if err != nil {
			msg := strings.TrimPrefix(err.Error(), "bt: ")
			errs = append(errs, &btxml.Error{Pos: x.Pos, Msg: msg, Err: err})
		} else if m != nil {
			add, srcs = append(add, m), append(srcs, x)
			notes = append(notes, f.defaultNotes(m, x)...)
		}
	}
	if len(errs) > 0 {
		errs.Sort()
		return errs
	}
	if err := f.Register(add...); err != nil {
		return err
	}
	if f.standIns == nil {
		f.standIns = map[string]*btxml.Model{}
	}
	for i, m := range add {
		f.standIns[m.ID] = srcs[i]
	}
	f.note(notes)
	return nil
}

// defaultNotes notes the defaults of the stand-in m, made from x, that are not of their
// port's type.
func (f *Factory) defaultNotes(m *Model, x *btxml.Model) []btxml.Note {
	var notes []btxml.Note
	for i, p := range m.Ports {
		if !p.HasDefault || p.Type == nil {
			continue
		}
		if _, err := blackboard.Parse(p.Default, p.Type, f.enum); err != nil {
			notes = append(notes, btxml.Note{Pos: x.Ports[i].Pos, Msg: fmt.Sprintf(
				"%s: the default of port %q, %q, is not a %s: kept as documentation, not used", m.ID, p.Name, p.Default, p.TypeName)})
		}
	}
	return notes
}

// standIn returns the stand-in model of a TreeNodesModel entry, or nil when the entry
// is already registered.
func (f *Factory) standIn(x *btxml.Model) (*Model, error) {
	m, err := standInModel(x)
	if err != nil {
		return nil, err
	}
	if old, ok := f.models[m.ID]; ok && !(old.Kind != m.Kind && hides(m, old)) {
		if old.Kind != m.Kind {
			return nil, fmt.Errorf("%s is registered with kind %s, not %s", m.ID, old.Kind, m.Kind)
		}
		return nil, nil
	}
	return m, checkModel(m)
}

// standInModel converts a TreeNodesModel entry into a Model without implementation.
func standInModel(x *btxml.Model) (*Model, error) {
	kind, err := ParseKind(x.Kind)
	if err != nil {
		return nil, err
	}
	m := &Model{ID: x.ID, Kind: kind, Description: x.Description, New: newStandIn, standIn: true}
	for _, a := range x.Metadata {
		m.Metadata = append(m.Metadata, KeyValue{a.Name, a.Value})
	}
	for _, p := range x.Ports {
		if err := btxml.ValidPortName(p.Name); err != nil {
			return nil, &btxml.Error{Pos: p.Pos, Msg: fmt.Sprintf("node %q: %v", x.ID, err), Err: err}
		}
		dir, err := parseDirection(p.Dir)
		if err != nil {
			return nil, fmt.Errorf("port %q: %w", p.Name, err)
		}
		m.Ports = append(m.Ports, PortDef{
			Name: p.Name, Dir: dir, Type: standInType(p.Type), TypeName: p.Type,
			Default: p.Default, HasDefault: p.HasDefault, Description: p.Description,
			Required: p.Required, docDefault: true,
		})
	}
	return m, nil
}

// parseDirection reads the direction of a TreeNodesModel port. One that
// BehaviorTree.CPP does not define (btxml notes it) is unknown: the port may be read
// and written.
func parseDirection(s string) (Direction, error) {
	switch s {
	case btxml.DirInput:
		return DirInput, nil
	case btxml.DirOutput:
		return DirOutput, nil
	case "":
		return 0, errors.New("a port without direction")
	}
	return DirInOut, nil
}

// standInType maps the C++ type names of TreeNodesModel to the Go types whose literals
// the loader can check; other types (a robot's Pose2D…) accept any text.
func standInType(name string) reflect.Type {
	switch name {
	case "bool":
		return typeOf[bool]()
	case "int", "int32_t":
		return typeOf[int32]()
	case "int8_t":
		return typeOf[int8]()
	case "int16_t":
		return typeOf[int16]()
	case "uint8_t":
		return typeOf[uint8]()
	case "uint16_t":
		return typeOf[uint16]()
	case "int64_t", "long":
		return typeOf[int64]()
	case "unsigned int", "uint32_t":
		return typeOf[uint32]()
	case "uint64_t", "unsigned long", "size_t":
		return typeOf[uint64]()
	case "float":
		return typeOf[float32]()
	case "double":
		return typeOf[float64]()
	case "std::string", "string":
		return typeOf[string]()
	case "BT::NodeStatus":
		return typeOf[Status]()
	case "std::chrono::milliseconds":
		return typeOf[time.Duration]()
	}
	// std::vector<T>, as WriteModels writes a slice: a slice of T, when T is known.
	if elem, ok := strings.CutPrefix(name, "std::vector<"); ok && strings.HasSuffix(elem, ">") {
		if t := standInType(strings.TrimSuffix(elem, ">")); t != nil {
			return reflect.SliceOf(t)
		}
	}
	return nil
}

// errStandIn is the error a ticked stand-in aborts with.
var errStandIn = errors.New("no implementation: the node type comes from a TreeNodesModel; substitute it with a rule to run the tree")

func newStandIn(*NodeConfig) (Behavior, error) { return standIn{}, nil }

type standIn struct{}

func (standIn) Tick(n *Node) Status {
	n.Abort(errStandIn)
	return Failure
}
