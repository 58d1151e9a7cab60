package bt

import (
	"errors"
	"fmt"
	"iter"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gobt/bt/blackboard"
	"github.com/gobt/bt/btxml"
	"github.com/gobt/bt/script"
)

// Model describes a node type: its ID, kind and ports — what a Factory registers and
// exports as TreeNodesModel XML — and how to build its behavior for each node.
type Model struct {
	ID          string
	Kind        Kind
	Ports       []PortDef
	Description string

	// New builds the behavior of one node. It runs after the node's children were
	// built; c is valid only during the call. It is nil for builtin models.
	New func(c *Init) (Behavior, error)

	build func(c *Init) (ticker, error) // builtin nodes: their own pipeline
	err   error                         // a problem with the model, reported when it is used

	fieldPorts bool         // ModelOf: the behavior's fields hold the ports (no bindings for Get/Set)
	goType     reflect.Type // ModelOf: the struct type, for messages
	standIn    bool         // RegisterStandIns: a node type without implementation
}

// Spec is the definition of one node of a tree: its Model, instance name, port values,
// pre/post conditions and children. A Spec is built once and instantiated into any
// number of trees; it must not be modified once a tree was built from it (NewTree keeps
// what it made of a root: a later tree would not see the change).
//
// Specs come from the builder functions of this package (Sequence, Fallback, Action,
// …), from Model.Spec, or from XML through a Factory.
type Spec struct {
	// Specs are the builder's form of a definition: NewTree flattens them into records
	// (see defs), and a Factory keeps the trees it loads as records only, making specs
	// when they are asked for (Node.Spec, Factory.Definition). A spec keeps to the
	// fields most nodes set; the rest is in more.
	model     *Model
	name      string
	ports     []portValue
	children  []*Spec
	line, col int32     // where the node is written, for specs from XML (the file is in more)
	more      *specMore // nil for a spec built in Go that has none of it

	// flat is the definition NewTree made of the tree rooted here, kept for the next
	// NewTree of this root: a spec is not modified once a tree was built from it.
	flat atomic.Pointer[treeDef]
}

// clone returns a copy of s, without what NewTree kept of it.
func (s *Spec) clone() *Spec {
	return &Spec{model: s.model, name: s.name, ports: s.ports, children: s.children, line: s.line, col: s.col, more: s.more}
}

// specMore is what few specs and few records (defs.extras) have. It is never changed
// once a spec points to it — a setter gives the spec a changed copy (edit) — so that the
// specs of one XML file share one that only names the file, and a copied Spec (see
// substitution.go) shares it safely.
type specMore struct {
	file      string             // of the position, for specs from XML
	hooks     *[numHooks]hookDef // nil when the node has none; never changed either
	errs      []error            // problems found while the spec was assembled, reported by NewTree
	sub       *treeDef           // the tree a SubTree instantiates
	autoRemap bool               // SubTree's _autoremap
}

// edit gives s a specMore of its own to change: a copy of the one it has, which may be
// shared.
func (s *Spec) edit() *specMore {
	m := new(specMore)
	if s.more != nil {
		*m = *s.more
	}
	s.more = m
	return m
}

// fail records a problem of the spec, reported when a tree is built from it.
func (s *Spec) fail(err error) {
	m := s.edit()
	m.errs = append(slices.Clip(m.errs), err) // the old errs may be shared
}

// setHook attaches a pre- or post-condition.
func (s *Spec) setHook(h Hook, d hookDef) {
	m := s.edit()
	hooks := new([numHooks]hookDef)
	if m.hooks != nil {
		*hooks = *m.hooks
	}
	hooks[h] = d
	m.hooks = hooks
}

// subtree returns the tree a SubTree spec instantiates, or nil.
func (s *Spec) subtree() *treeDef {
	if s.more == nil {
		return nil
	}
	return s.more.sub
}

// Pos returns where the node is written in XML (an invalid Pos for specs built in Go).
func (s *Spec) Pos() btxml.Pos {
	if s.more == nil {
		return btxml.Pos{Line: s.line, Col: s.col}
	}
	return btxml.Pos{File: s.more.file, Line: s.line, Col: s.col}
}

// portValue is a port's text in a spec; parsed caches the script of a port that holds
// one, parsed once per definition; lit is the Go value of a port set with WithValue
// (value is then only its text for display).
type portValue struct {
	name, value string
	parsed      *script.Script
	lit         *literal
}

// Spec returns a new node definition of type m with the given children.
func (m *Model) Spec(children ...*Spec) *Spec {
	return &Spec{model: m, children: children}
}

// Named sets the instance name (XML attribute name) and returns s.
func (s *Spec) Named(name string) *Spec {
	s.name = name
	return s
}

// With sets a port's value as it would be written in XML — a literal ("3", "hello") or a
// blackboard reference ("{key}") — and returns s. As in XML, the attributes that are
// not ports work too: "name" sets the instance name, "_skipIf", "_onSuccess" … attach a
// script as a pre- or post-condition, and "_autoremap" sets a SubTree's AutoRemap.
//
// NewTree checks every port as the loader checks XML: a port the node's model does not
// declare, a literal that is not of the port's type or out of its range, a literal on
// an output port and a script that does not parse are errors naming the node.
func (s *Spec) With(port, value string) *Spec {
	if h, ok := HookByName(port); ok {
		return s.withHookScript(h, value)
	}
	switch port {
	case "name":
		return s.Named(value)
	case "_autoremap":
		on, err := strconv.ParseBool(value)
		if err != nil {
			s.fail(fmt.Errorf("_autoremap must be true or false, not %q", value))
		}
		return s.AutoRemap(on)
	}
	return s.setPort(portValue{name: port, value: value})
}

// WithValue sets a port to a Go value and returns s: no need to format numbers as text.
// NewTree checks the value against the port's declared type and converts it as writing
// it to a blackboard entry of that type would: 3 into a float64 port is 3.0, a string
// is parsed as XML text is, and 2.5 into an int port, -1 into a uint32 port or a
// string into a bool port that does not parse is an error naming the node. The value
// is a literal, never a blackboard reference: WithValue("message", "{x}") sets the text
// "{x}". Output ports take blackboard entries only: set them with With(port, "{key}").
// A SubTree's WithValue sets an entry of the subtree's blackboard to the value.
func (s *Spec) WithValue(port string, v any) *Spec {
	if v == nil {
		s.fail(fmt.Errorf("port %q: WithValue of nil", port))
		return s
	}
	return s.setPort(portValue{name: port, value: fmt.Sprint(v), lit: &literal{v}})
}

// setPort sets a port, replacing the value it had.
func (s *Spec) setPort(p portValue) *Spec {
	for i := range s.ports {
		if s.ports[i].name == p.name {
			s.ports[i] = p
			return s
		}
	}
	s.ports = append(s.ports, p)
	return s
}

// withHookScript attaches a script as a pre- or post-condition, as the XML attribute h
// does.
func (s *Spec) withHookScript(h Hook, code string) *Spec {
	parsed, err := script.Parse(code)
	if err != nil {
		s.fail(fmt.Errorf("%s: %w", h, err))
		return s
	}
	s.setHook(h, scriptHook(h, parsed))
	return s
}

// Pre attaches a Go pre-condition (FailureIf, SuccessIf, SkipIf or While) and returns s.
func (s *Spec) Pre(h Hook, cond func(n *Node) bool) *Spec {
	switch {
	case !h.IsPre():
		s.fail(fmt.Errorf("%s is not a pre-condition", h))
		return s
	case cond == nil:
		s.fail(fmt.Errorf("%s: no function", h))
		return s
	}
	s.setHook(h, hookDef{bind: func(n *Node) (hookFunc, error) {
		return func() (ok bool, err error) {
			defer n.guardHook(&err)
			return cond(n), nil
		}, nil
	}})
	return s
}

// Post attaches a Go post-condition action (OnSuccess, OnFailure, Post or OnHalted) and
// returns s.
func (s *Spec) Post(h Hook, fn func(n *Node)) *Spec {
	switch {
	case h.IsPre() || h >= numHooks:
		s.fail(fmt.Errorf("%s is not a post-condition", h))
		return s
	case fn == nil:
		s.fail(fmt.Errorf("%s: no function", h))
		return s
	}
	s.setHook(h, hookDef{bind: func(n *Node) (hookFunc, error) {
		return func() (ok bool, err error) {
			defer n.guardHook(&err)
			fn(n)
			return true, nil
		}, nil
	}})
	return s
}

// Model returns the node type.
func (s *Spec) Model() *Model { return s.model }

// Name returns the instance name ("" when none was set).
func (s *Spec) Name() string { return s.name }

// Children returns the child definitions. The slice belongs to s.
func (s *Spec) Children() []*Spec { return s.children }

// Port returns the value set for a port with With (or XML), if any.
func (s *Spec) Port(name string) (string, bool) {
	for _, p := range s.ports {
		if p.name == name {
			return p.value, true
		}
	}
	return "", false
}

// Ports returns the ports set with With (or XML), name and value, in the order they
// were set. For a SubTree they are its remappings.
func (s *Spec) Ports() iter.Seq2[string, string] {
	return func(yield func(string, string) bool) {
		for _, p := range s.ports {
			if !yield(p.name, p.value) {
				return
			}
		}
	}
}

// HookScript returns the script of the pre- or post-condition h, when the spec has one
// written in the scripting language (XML or Script); a Go function (Pre, Post) has no
// text, and ok is false for it.
func (s *Spec) HookScript(h Hook) (script string, ok bool) {
	if s.more == nil || s.more.hooks == nil || h >= numHooks {
		return "", false
	}
	d := s.more.hooks[h]
	return d.script, d.script != ""
}

// SubTreeID returns the ID of the tree a SubTree spec instantiates, or "" for any
// other spec.
func (s *Spec) SubTreeID() string {
	if sub := s.subtree(); sub != nil {
		return sub.id
	}
	return ""
}

// Init is what a Model's New function receives to build one node's behavior.
type Init struct {
	node *Node
}

// Node returns the node being built; its children are already built.
func (c *Init) Node() *Node { return c.node }

// Spec returns the definition of the node being built.
func (c *Init) Spec() *Spec { return c.node.Spec() }

// NumChildren returns the number of children of the node being built.
func (c *Init) NumChildren() int { return int(c.node.meta.nkids) }

// NewTree builds a tree from a definition. Every problem of the definition is
// reported, joined in one error; no tree is returned then.
//
// The first NewTree of a root turns the definition into the form trees are built
// from, and keeps it for the next: building many trees from one root costs one
// instantiation each.
func NewTree(root *Spec, opts ...Option) (*Tree, error) {
	if root == nil {
		return nil, errors.New("bt: no root spec")
	}
	d := root.flat.Load()
	if d == nil {
		var err error
		if d, err = flatten(root); err != nil {
			return nil, err
		}
		root.flat.Store(d)
	}
	return newTreeOf(d, nil, opts)
}

// newTreeOf builds the tree d defines; enums are the Factory's enum names (nil: none),
// which are not an Option so that building a tree allocates no closure for them.
func newTreeOf(d *treeDef, enums func(string) (int64, bool), opts []Option) (*Tree, error) {
	count := d.expanded()
	if count > maxNodes {
		return nil, errTooBig
	}
	t, err := newTree(enums, opts)
	if err != nil {
		return nil, err
	}
	t.id = d.id
	t.nodes = make([]Node, count)
	t.status = make([]uint8, count)
	t.byUID = make([]uint16, count)
	// The builder stays on the stack; only what a Model's build function keeps a
	// pointer to (Init) is on the heap, once per tree.
	b := builder{tree: t, nodes: t.nodes, metas: make([]nodeMeta, count), status: t.status,
		byUID: t.byUID, slot: 1, init: new(Init)}
	t.root = b.build(d.defs, d.root, newScope(t, "", t.bb, d), 0)
	b.init.node = nil
	if len(b.errs) > 0 {
		return nil, errors.Join(b.errs...)
	}
	return t, nil
}

// maxNodes is the number of UIDs a tree has (BehaviorTree.CPP's UIDs are 16 bits).
const maxNodes = 1<<16 - 1

var errTooBig = fmt.Errorf("bt: the tree has more than %d nodes, the most a tree may have", maxNodes)

func cycle(path []*treeDef, back *treeDef) string {
	var b strings.Builder
	for _, d := range path {
		b.WriteString(d.id + " → ")
	}
	return b.String() + back.id
}

// builder instantiates definitions into the node slab of a tree. It keeps the tree's
// arrays at hand rather than reaching them through the tree for every node.
type builder struct {
	tree   *Tree
	nodes  []Node
	metas  []nodeMeta // slab for the nodes' meta
	status []uint8
	byUID  []uint16
	uid    int // the last UID given
	slot   int // next free index in nodes
	errs   []error
	init   *Init
}

// build instantiates the node i of d as the node at index slot of tree.nodes, in the
// scope sc (whose definition is d). Nodes get their UIDs in pre-order; the slots of a
// node's children are reserved together.
func (b *builder) build(d *defs, i uint32, sc *scope, slot int) *Node {
	n, m, r := &b.nodes[slot], &b.metas[slot], &d.nodes[i]
	b.uid++
	b.byUID[b.uid-1] = uint16(slot)
	n.st, n.meta = &b.status[slot], m
	m.scope, m.def, m.uid = sc, uint16(i-sc.root), uint16(b.uid)
	k := int(r.nkids)
	more := d.moreOf(r)
	var sub *treeDef
	if more != nil && more.sub != nil {
		sub, k = more.sub, 1 // the subtree's root
	}
	first := b.slot
	b.slot += k
	m.first, m.nkids = uint16(first), uint16(k)
	if sub != nil {
		b.build(sub.defs, sub.root, b.subtreeScope(n, sc, sub), first)
	}
	for j := range r.nkids {
		b.build(d, r.first+uint32(j), sc, first+int(j))
	}
	model := d.models[r.model]
	if more != nil && len(more.errs) > 0 || !shapeFits(model.Kind, k) || model.ID == "" ||
		len(model.Ports) > 0 && len(d.missingPorts(r, model)) > 0 {
		b.report(n, r, model, more, k)
		return n // not built: the tree will not be returned, and its errors are said
	}
	b.init.node = n // newTreeOf clears it: c is valid only during New
	t, err := b.newTicker(model)
	if err != nil {
		b.fail(n, err)
	}
	n.t = t
	if more != nil && more.hooks != nil {
		if h, ok := b.bindHooks(n, more.hooks); ok {
			n.t = &hookedNode{inner: t, hooks: h}
		}
	}
	return n
}

// newTicker builds the node's behavior: a builtin's own pipeline, or a user's
// Behavior wrapped in a userNode.
func (b *builder) newTicker(m *Model) (ticker, error) {
	if m.build != nil {
		return m.build(b.init)
	}
	if m.err != nil {
		return nil, m.err
	}
	if m.New == nil {
		return nil, fmt.Errorf("model %s has no New function", m.ID)
	}
	var ports []binding
	if !m.fieldPorts {
		var err error
		if ports, err = bindPorts(b.init); err != nil {
			return nil, err
		}
	}
	beh, err := m.New(b.init)
	if err == nil && beh == nil {
		err = fmt.Errorf("the New function of %s returned no behavior", m.ID)
	}
	decorator := (m.Kind == KindDecorator || m.Kind == KindSubTree) && b.init.node.meta.nkids == 1
	return &userNode{beh: beh, ports: ports, decorator: decorator}, err
}

// report reports the problems of the definition of n, a node of type m with kids
// children (more is its record's). Nodes from XML passed these checks when they were
// loaded, unless a substitution rule has given them another model since; flatten
// recorded the problems of nodes built in Go in their errs.
func (b *builder) report(n *Node, r *defNode, m *Model, more *specMore, kids int) {
	if more != nil {
		for _, err := range more.errs {
			b.fail(n, err)
		}
	}
	if err := shapeError(m, kids); err != nil {
		b.fail(n, err)
	}
	if m.ID == "" {
		b.fail(n, errors.New("the node type has no ID"))
	}
	for _, p := range n.meta.scope.defs.missingPorts(r, m) {
		hint := fmt.Sprintf("set it with With(%q, …)", p)
		if n.Pos().IsValid() {
			hint = fmt.Sprintf("set it, as %s=\"…\"", p)
		}
		b.fail(n, fmt.Errorf("%w: %s", missingPort(m, p), hint))
	}
}

// bindHooks binds the node's pre/post conditions and reports whether it has any.
func (b *builder) bindHooks(n *Node, defs *[numHooks]hookDef) (h hooks, found bool) {
	for k, def := range defs {
		if def.bind == nil {
			continue
		}
		f, err := def.bind(n)
		if err != nil {
			b.fail(n, fmt.Errorf("%s: %w", Hook(k), err))
			continue
		}
		h.fn[k] = f
		found = true
	}
	return h, found
}

// subtreeScope makes the scope of a subtree instance: a child blackboard with the
// remappings and literal values the SubTree node n gives.
func (b *builder) subtreeScope(n *Node, parent *scope, sub *treeDef) *scope {
	d, r := n.def()
	bb := parent.env.bb.NewChild(d.moreOf(r).autoRemap) // a SubTree has its more
	for _, p := range d.portsOf(r) {
		if p.lit != nil {
			if err := bb.Local(p.name).Set(blackboard.ValueOf(p.lit.v)); err != nil {
				b.fail(n, fmt.Errorf("port %q: %w", p.name, err))
			}
			continue
		}
		if key, ok := blackboardKey(p.value, p.name); ok {
			bb.Remap(p.name, key)
			continue
		}
		if err := bb.Local(p.name).Set(literalValue(p.value)); err != nil {
			b.fail(n, fmt.Errorf("port %q: %w", p.name, err))
		}
	}
	return newScope(b.tree, subtreePrefix(parent, d.names[r.name], sub.id, n.meta.uid), bb, sub)
}

// msecText is a duration as the text of a port in milliseconds, rounded away from
// zero: a duration under a millisecond stays one (Timeout(500*time.Microsecond) must
// not mean "no limit"), and a negative one stays negative, which the ports that take
// no negative duration report.
func msecText(d time.Duration) string {
	ms := d / time.Millisecond
	if d%time.Millisecond > 0 {
		ms++
	} else if d%time.Millisecond < 0 {
		ms--
	}
	return strconv.FormatInt(int64(ms), 10)
}

// literalValue is a SubTree's literal port value as BehaviorTree.CPP stores it: an
// integer or a real number when the whole text is one, else the text.
func literalValue(text string) blackboard.Value {
	if i, err := strconv.ParseInt(text, 10, 64); err == nil {
		return blackboard.Int(i)
	}
	if f, err := strconv.ParseFloat(text, 64); err == nil && !strings.ContainsAny(text, "xXnN") {
		return blackboard.Float(f)
	}
	return blackboard.String(text)
}

func (b *builder) fail(n *Node, err error) {
	ne := n.errorf(err)
	if p := n.Pos(); p.IsValid() {
		b.errs = append(b.errs, &btxml.Error{Pos: p, Msg: ne.Error(), Err: ne})
		return
	}
	b.errs = append(b.errs, ne)
}
