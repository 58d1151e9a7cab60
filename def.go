package bt

import (
	"errors"
	"fmt"
	"github.com/gobt/bt/btxml"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// defs holds tree definitions in the form trees are built from: a record per node in
// one array, the children of a node contiguous, and what records share or few nodes
// have (models, names, files, ports, pre/post conditions, subtrees) in side tables that
// records index. A Factory keeps one per document it loads; NewTree makes one from the
// specs it is given.
//
// The records hold no pointers, so the garbage collector has nothing to follow in
// them: a definition with a Spec per node cost each collection about 640 instructions
// per node (see bench/README.md). A defs never changes once made; the trees built from
// it share it, in any goroutine.
type defs struct {
	nodes  []defNode
	models []*Model
	names  []string    // names[0] is ""
	files  []string    // files[0] is ""
	ports  []portValue // a node's ports are contiguous
	extras []specMore  // extras[0] is unused: a record's more is 0 when it has none

	// specs are the nodes' Specs (Node.Spec): the specs a definition made in Go was
	// made from, or, for XML, specs made on the first request.
	specs []*Spec
	once  sync.Once
}

// defNode is the record of one node.
type defNode struct {
	name   uint32 // index in names
	ports  uint32 // the node's ports are ports[ports : ports+nports]
	first  uint32 // the node's children are nodes[first : first+nkids]
	more   uint32 // index in extras; 0: none
	line   int32  // where the node is written (0: not from XML)
	col    int32
	model  uint16 // index in models
	file   uint16 // index in files
	nports uint16
	nkids  uint16
}

// maxWide is the most children or ports a node may have (they are counted in 16 bits).
const maxWide = 1<<16 - 1

func newDefs() *defs {
	return &defs{names: []string{""}, files: []string{""}, extras: make([]specMore, 1)}
}

// file returns the index in files of the file name, adding it if it is not the last
// one added: the nodes of a file come together. Should a definition switch files more
// often than a record can count, a name found nowhere is left out of positions (specs
// built in Go; the compiler refuses such a document).
func (d *defs) file(name string) uint16 {
	last := len(d.files) - 1
	if d.files[last] == name {
		return uint16(last)
	}
	if last < maxWide {
		d.files = append(d.files, name)
		return uint16(last + 1)
	}
	return uint16(max(0, slices.Index(d.files, name)))
}

// portsOf returns the ports set on a node.
func (d *defs) portsOf(r *defNode) []portValue {
	return d.ports[r.ports : r.ports+uint32(r.nports)]
}

// port returns the value set for a port of a node, or nil.
func (d *defs) port(r *defNode, name string) *portValue {
	ps := d.portsOf(r)
	for i := range ps {
		if ps[i].name == name {
			return &ps[i]
		}
	}
	return nil
}

// moreOf returns the rarer parts of a node, or nil.
func (d *defs) moreOf(r *defNode) *specMore {
	if r.more == 0 {
		return nil
	}
	return &d.extras[r.more]
}

// missingPorts returns the required ports of a node of type m that are neither set nor
// defaulted.
func (d *defs) missingPorts(r *defNode, m *Model) []string {
	var missing []string
	for _, p := range m.Ports {
		if p.Required && !p.HasDefault {
			if d.port(r, p.Name) == nil {
				missing = append(missing, p.Name)
			}
		}
	}
	return missing
}

// size returns the number of nodes the node i expands to, subtrees included, or
// maxNodes+1 when that is more than a tree may have. The definition has no cycles.
func (d *defs) size(i uint32) int {
	r := &d.nodes[i]
	n := 1
	if m := d.moreOf(r); m != nil && m.sub != nil {
		n += m.sub.expanded()
	}
	for j := range uint32(r.nkids) {
		n += d.size(r.first + j)
		if n > maxNodes {
			return maxNodes + 1
		}
	}
	return min(n, maxNodes+1)
}

// spec returns the Spec of node i, making the definition's specs on the first request.
func (d *defs) spec(i uint32) *Spec {
	d.once.Do(func() {
		if d.specs == nil {
			d.specs = d.makeSpecs()
		}
	})
	return d.specs[i]
}

// makeSpecs makes a Spec per node, equal to the one its record was made from.
func (d *defs) makeSpecs() []*Spec {
	specs := make([]Spec, len(d.nodes))
	ptrs := make([]*Spec, len(d.nodes))
	for i := range specs {
		ptrs[i] = &specs[i]
	}
	files := make([]*specMore, len(d.files)) // the specs of a file share one
	for i := range d.nodes {
		r, s := &d.nodes[i], &specs[i]
		s.model, s.name, s.line, s.col = d.models[r.model], d.names[r.name], r.line, r.col
		if r.nports > 0 {
			s.ports = slices.Clone(d.portsOf(r)) // With changes a spec's ports in place
		}
		if r.nkids > 0 {
			s.children = ptrs[r.first : r.first+uint32(r.nkids) : r.first+uint32(r.nkids)]
		}
		switch {
		case r.more != 0:
			m := d.extras[r.more]
			m.file = d.files[r.file]
			s.more = &m
		case r.file != 0:
			if files[r.file] == nil {
				files[r.file] = &specMore{file: d.files[r.file]}
			}
			s.more = files[r.file]
		}
	}
	return ptrs
}

// treeDef is a tree definition: its ID and root, the record root of defs — or, for a
// subtree defined in Go, its root Spec, which building a tree flattens (see flatten).
type treeDef struct {
	id   string
	spec *Spec
	defs *defs
	root uint32
	size int // the number of nodes the tree expands to, subtrees included; 0: unknown
	// subs are the records of the tree's SubTree nodes, for a tree read from XML: they
	// name the trees they instantiate by ID until a Factory links them (link.go).
	subs []uint32
	// fp is the fingerprint of the trees built from it, made by their first Snapshot
	// or Restore (see Tree.fingerprint).
	fp atomic.Pointer[string]
	// byUID is the index in a tree's nodes of the node of each UID (see Tree.byUID),
	// the same for every tree built from the definition: the first one makes it, the
	// next share it (a crowd of trees keeps one).
	byUID atomic.Pointer[[]uint16]
}

// maxNodes is the number of UIDs a tree has (BehaviorTree.CPP's UIDs are 16 bits).
const maxNodes = 1<<16 - 1

var errTooBig = fmt.Errorf("bt: the tree has more than %d nodes, the most a tree may have", maxNodes)

// tooBig is errTooBig at the position of the tree's root element, for a tree read from
// XML (whose subtrees, expanded, make it too big).
func (d *treeDef) tooBig() error {
	r := &d.defs.nodes[d.root]
	pos := btxml.Pos{File: d.defs.files[r.file], Line: r.line, Col: r.col}
	if pos.Line <= 0 {
		return errTooBig
	}
	return &btxml.Error{Pos: pos, Msg: strings.TrimPrefix(errTooBig.Error(), "bt: ") + " (subtrees expanded)", Err: errTooBig}
}

func cycle(path []*treeDef, back *treeDef) string {
	var b strings.Builder
	for _, d := range path {
		b.WriteString(d.id + " → ")
	}
	return b.String() + back.id
}

// expanded returns the number of nodes the tree expands to (see defs.size).
func (t *treeDef) expanded() int {
	if t.size > 0 {
		return t.size
	}
	return t.defs.size(t.root)
}

// rootSpec returns the root Spec of a tree definition.
func (t *treeDef) rootSpec() *Spec {
	if t.spec != nil {
		return t.spec
	}
	return t.defs.spec(t.root)
}

// flatten makes the definition of a tree from its root Spec: the tree's nodes and those
// of the subtrees it defines in Go (SubTree), which get records of their own; subtrees
// defined by a Factory keep theirs. It reports a nil spec, a subtree that instantiates
// itself and a tree too big to build.
func flatten(root *Spec) (*treeDef, error) {
	f := flattener{d: newDefs(), models: map[*Model]uint16{}, done: map[*treeDef]*treeDef{}}
	f.d.nodes = make([]defNode, 1, 16)
	f.d.specs = make([]*Spec, 1, 16)
	if err := f.node(root, 0); err != nil {
		return nil, err
	}
	t := &treeDef{defs: f.d, root: 0, size: f.d.size(0)}
	if t.size > maxNodes {
		return nil, errTooBig
	}
	return t, nil
}

type flattener struct {
	d      *defs
	models map[*Model]uint16
	done   map[*treeDef]*treeDef // the Go subtrees flattened so far, and their records
	inside []*treeDef            // the Go subtrees being flattened
}

// node fills the record i from s, and the records of its children.
func (f *flattener) node(s *Spec, i uint32) error {
	if s == nil {
		return errors.New("bt: a spec is nil")
	}
	if s.model == nil {
		return errors.New("bt: a spec has no model (the Spec of a nil *Model, or a Spec not made with Model.Spec or the functions of package bt)")
	}
	if len(f.d.nodes) > maxNodes {
		return errTooBig
	}
	if len(s.children) > maxWide || len(s.ports) > maxWide {
		return fmt.Errorf("bt: %s has more than %d children or ports", s.model.ID, maxWide)
	}
	d := f.d
	d.specs[i] = s
	known := len(d.models)
	model, ok := d.addModel(f.models, s.model)
	if !ok {
		return fmt.Errorf("bt: the tree has more than %d node types", maxWide+1)
	}
	var problems []error
	if s.line == 0 && len(d.models) > known { // built in Go, a model seen first: check it as Register does
		if err := s.model.checkDefaults(nil); err != nil {
			problems = append(problems, err)
		}
	}
	r := defNode{model: model, line: s.line, col: s.col, nports: uint16(len(s.ports))}
	r.ports = uint32(len(d.ports))
	d.ports = append(d.ports, s.ports...)
	if s.name != "" {
		r.name = uint32(len(d.names))
		d.names = append(d.names, s.name)
	}
	if s.line == 0 { // built in Go: check it as the compiler checks XML
		problems = append(problems, checkPorts(s.model, d.portsOf(&r))...)
		if s.model == reactiveSequenceModel {
			kid := func(j int) *Model {
				if c := s.children[j]; c != nil {
					return c.model
				}
				return nil
			}
			if err := asyncChildren(s.model, len(s.children), kid, func(j int) string { return "child " + strconv.Itoa(j+1) }); err != nil {
				problems = append(problems, err)
			}
		}
	}
	if m := s.more; m != nil || problems != nil {
		if m == nil {
			m = &specMore{}
		}
		if m.file != "" {
			r.file = d.file(m.file)
		}
		if m.conds != nil || m.errs != nil || m.sub != nil || m.subID != "" || m.attrs != nil || m.autoRemap || problems != nil {
			sub, err := f.subtree(m.sub)
			if err != nil {
				return err
			}
			more := *m
			more.sub = sub
			more.errs = append(slices.Clip(m.errs), problems...)
			r.more = uint32(len(d.extras))
			d.extras = append(d.extras, more)
		}
	}
	r.first, r.nkids = uint32(len(d.nodes)), uint16(len(s.children))
	d.nodes = append(d.nodes, make([]defNode, len(s.children))...)
	d.specs = append(d.specs, make([]*Spec, len(s.children))...)
	d.nodes[i] = r
	for j, c := range s.children {
		if c == nil {
			return fmt.Errorf("bt: child %d of %s is nil", j+1, s.label())
		}
		if err := f.node(c, r.first+uint32(j)); err != nil {
			return err
		}
	}
	return nil
}

// label names a spec in messages: its name and type, or its type.
func (s *Spec) label() string {
	if s.name != "" && s.name != s.model.ID {
		return fmt.Sprintf("%s (%s)", s.name, s.model.ID)
	}
	return s.model.ID
}

// addModel returns the index of m in d.models, adding it if index has none; false when
// d has as many models as a record can name.
func (d *defs) addModel(index map[*Model]uint16, m *Model) (uint16, bool) {
	k, ok := index[m]
	if !ok {
		if len(d.models) > maxWide {
			return 0, false
		}
		k = uint16(len(d.models))
		index[m] = k
		d.models = append(d.models, m)
	}
	return k, true
}

// subtree returns the definition a SubTree instantiates: t itself when a Factory made
// it, its flattened copy when it was defined in Go.
func (f *flattener) subtree(t *treeDef) (*treeDef, error) {
	if t == nil || t.defs != nil {
		return t, nil // none, or made by a Factory
	}
	if t.spec == nil {
		return nil, fmt.Errorf("bt: subtree %q has no root", t.id)
	}
	if done, ok := f.done[t]; ok {
		return done, nil
	}
	if k := slices.Index(f.inside, t); k >= 0 {
		return nil, fmt.Errorf("bt: subtree %q instantiates itself: %s", t.id, cycle(f.inside[k:], t))
	}
	f.inside = append(f.inside, t)
	i := uint32(len(f.d.nodes))
	f.d.nodes = append(f.d.nodes, defNode{})
	f.d.specs = append(f.d.specs, nil)
	if err := f.node(t.spec, i); err != nil {
		return nil, err
	}
	f.inside = f.inside[:len(f.inside)-1]
	done := &treeDef{id: t.id, defs: f.d, root: i, size: f.d.size(i)}
	f.done[t] = done
	return done, nil
}
