package bt

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

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

	fieldPorts bool // ModelOf: the behavior's fields hold the ports (no bindings for Get/Set)
}

// Spec is the definition of one node of a tree: its Model, instance name, port values,
// pre/post conditions and children. A Spec is built once and instantiated into any
// number of trees; it must not be modified once a tree was built from it.
//
// Specs come from the builder functions of this package (Sequence, Fallback, Action,
// …), from Model.Spec, or from XML through a Factory.
type Spec struct {
	model    *Model
	name     string
	ports    []portValue
	children []*Spec
	hooks    *[numHooks]hookDef // nil when the node has none
	errs     []error            // problems found while the spec was assembled, reported by NewTree
	pos      btxml.Pos          // where the node is written, for specs from XML

	sub       *treeDef // the tree a SubTree instantiates
	autoRemap bool     // SubTree's _autoremap
}

// setHook attaches a pre- or post-condition.
func (s *Spec) setHook(h Hook, d hookDef) {
	if s.hooks == nil {
		s.hooks = new([numHooks]hookDef)
	}
	s.hooks[h] = d
}

// typeID is the type a node's path is made of: the model ID, or for a SubTree the ID of
// the tree it instantiates.
func (s *Spec) typeID() string {
	if s.sub != nil {
		return s.sub.id
	}
	return s.model.ID
}

// Pos returns where the node is written in XML (an invalid Pos for specs built in Go).
func (s *Spec) Pos() btxml.Pos { return s.pos }

// portValue is a port's text in a spec; parsed caches the script of a port that holds
// one, parsed once per definition.
type portValue struct {
	name, value string
	parsed      *script.Script
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
// blackboard reference ("{key}") — and returns s.
func (s *Spec) With(port, value string) *Spec {
	for i := range s.ports {
		if s.ports[i].name == port {
			s.ports[i].value = value
			return s
		}
	}
	s.ports = append(s.ports, portValue{name: port, value: value})
	return s
}

// Pre attaches a Go pre-condition (FailureIf, SuccessIf, SkipIf or While) and returns s.
func (s *Spec) Pre(h Hook, cond func(n *Node) bool) *Spec {
	if !h.IsPre() {
		s.errs = append(s.errs, fmt.Errorf("%s is not a pre-condition", h))
		return s
	}
	s.setHook(h, func(n *Node) (hookFunc, error) {
		return func() (bool, error) { return cond(n), nil }, nil
	})
	return s
}

// Post attaches a Go post-condition action (OnSuccess, OnFailure, Post or OnHalted) and
// returns s.
func (s *Spec) Post(h Hook, fn func(n *Node)) *Spec {
	if h.IsPre() || h >= numHooks {
		s.errs = append(s.errs, fmt.Errorf("%s is not a post-condition", h))
		return s
	}
	s.setHook(h, func(n *Node) (hookFunc, error) {
		return func() (bool, error) { fn(n); return true, nil }, nil
	})
	return s
}

// Model returns the node type.
func (s *Spec) Model() *Model { return s.model }

// Name returns the instance name ("" when none was set).
func (s *Spec) Name() string { return s.name }

// Children returns the child definitions. The slice belongs to s.
func (s *Spec) Children() []*Spec { return s.children }

// portScript returns the parsed script of a port, if it was parsed with the spec.
func (s *Spec) portScript(name string) *script.Script {
	for _, p := range s.ports {
		if p.name == name {
			return p.parsed
		}
	}
	return nil
}

// missingPorts returns the required ports of s that are neither set nor defaulted.
func (s *Spec) missingPorts() []string {
	var missing []string
	for _, p := range s.model.Ports {
		if p.Required && !p.HasDefault {
			if _, set := s.Port(p.Name); !set {
				missing = append(missing, p.Name)
			}
		}
	}
	return missing
}

// Port returns the value set for a port with With (or XML), if any.
func (s *Spec) Port(name string) (string, bool) {
	for _, p := range s.ports {
		if p.name == name {
			return p.value, true
		}
	}
	return "", false
}

// Init is what a Model's New function receives to build one node's behavior.
type Init struct {
	node *Node
}

// Node returns the node being built; its children are already built.
func (c *Init) Node() *Node { return c.node }

// Spec returns the definition of the node being built.
func (c *Init) Spec() *Spec { return c.node.meta.spec }

// NumChildren returns the number of children of the node being built.
func (c *Init) NumChildren() int { return int(c.node.meta.nkids) }

// NewTree builds a tree from a definition. Every problem of the definition is
// reported, joined in one error; no tree is returned then.
func NewTree(root *Spec, opts ...Option) (*Tree, error) {
	if root == nil {
		return nil, errors.New("bt: no root spec")
	}
	count, err := countNodes(root, nil)
	if err != nil {
		return nil, err
	}
	if count > maxNodes {
		return nil, fmt.Errorf("bt: the tree has %d nodes, more than the %d a tree may have", count, maxNodes)
	}
	t := newTree(opts)
	b := builder{tree: t, metas: make([]nodeMeta, count)}
	t.nodes = make([]Node, count)
	t.status = make([]uint8, count)
	t.byUID = make([]uint16, count)
	b.slot = 1
	t.root = b.build(root, newScope(t, "", t.bb), 0)
	if len(b.errs) > 0 {
		return nil, errors.Join(b.errs...)
	}
	return t, nil
}

// maxNodes is the number of UIDs a tree has (BehaviorTree.CPP's UIDs are 16 bits).
const maxNodes = 1<<16 - 1

// countNodes counts the nodes s expands to, subtrees included; a subtree that
// instantiates itself is an error. inside lists the subtrees being expanded.
func countNodes(s *Spec, inside []*treeDef) (int, error) {
	n := 1
	for _, c := range s.children {
		k, err := countNodes(c, inside)
		if err != nil {
			return 0, err
		}
		n += k
		if n > maxNodes {
			return n, nil
		}
	}
	if s.sub != nil {
		for i, d := range inside {
			if d == s.sub {
				return 0, fmt.Errorf("bt: subtree %q instantiates itself: %s", d.id, cycle(inside[i:], d))
			}
		}
		if s.sub.root == nil {
			return 0, fmt.Errorf("bt: subtree %q has no root", s.sub.id)
		}
		k, err := countNodes(s.sub.root, append(inside, s.sub))
		if err != nil {
			return 0, err
		}
		n += k
	}
	return n, nil
}

func cycle(path []*treeDef, back *treeDef) string {
	var b strings.Builder
	for _, d := range path {
		b.WriteString(d.id + " → ")
	}
	return b.String() + back.id
}

// builder instantiates specs into the node slab of a tree.
type builder struct {
	tree  *Tree
	uid   int        // the last UID given
	metas []nodeMeta // slab for the nodes' meta
	slot  int        // next free index in tree.nodes
	errs  []error
	init  Init
}

// build instantiates s as the node at index slot of tree.nodes. Nodes get their UIDs
// in pre-order; the slots of a node's children are reserved together.
func (b *builder) build(s *Spec, sc *scope, slot int) *Node {
	n := &b.tree.nodes[slot]
	m := &b.metas[slot]
	b.uid++
	m.uid = uint16(b.uid)
	b.tree.byUID[b.uid-1] = uint16(slot)
	n.st = &b.tree.status[slot]
	n.meta = m
	m.spec = s
	m.scope = sc
	k := len(s.children)
	if s.sub != nil {
		k = 1 // the subtree's root
	}
	first := b.slot
	b.slot += k
	m.first, m.nkids = uint32(first), uint16(k)
	if s.sub != nil {
		b.build(s.sub.root, b.subtreeScope(n, sc), first)
	}
	for i, c := range s.children {
		b.build(c, sc, first+i)
	}
	for _, err := range s.errs {
		b.fail(n, err)
	}
	b.checkShape(n)
	// Specs from XML passed this check when they were loaded, unless a substitution
	// rule has given them another model since.
	for _, p := range s.missingPorts() {
		b.fail(n, fmt.Errorf("the port %q is required and not set", p))
	}
	b.init.node = n
	t, err := b.newTicker(s.model)
	b.init.node = nil
	if err != nil {
		b.fail(n, err)
	}
	n.t = t
	if h, ok := b.bindHooks(n); ok {
		n.t = &hookedNode{inner: t, hooks: h}
	}
	return n
}

// newTicker builds the node's behavior: a builtin's own pipeline, or a user's
// Behavior wrapped in a userNode.
func (b *builder) newTicker(m *Model) (ticker, error) {
	if m.build != nil {
		return m.build(&b.init)
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
		if ports, err = bindPorts(&b.init); err != nil {
			return nil, err
		}
	}
	beh, err := m.New(&b.init)
	if err == nil && beh == nil {
		err = fmt.Errorf("the New function of %s returned no behavior", m.ID)
	}
	decorator := (m.Kind == KindDecorator || m.Kind == KindSubTree) && b.init.node.meta.nkids == 1
	return &userNode{beh: beh, ports: ports, repanic: b.tree.repanic, decorator: decorator}, err
}

// checkShape checks the number of children against the node's kind.
func (b *builder) checkShape(n *Node) {
	k, got := n.meta.spec.model.Kind, int(n.meta.nkids)
	switch {
	case (k == KindAction || k == KindCondition) && got != 0:
		b.fail(n, fmt.Errorf("an %s has no children, found %d", k, got))
	case k == KindDecorator && got != 1:
		b.fail(n, fmt.Errorf("a Decorator has exactly one child, found %d", got))
	}
}

// bindHooks binds the node's pre/post conditions and reports whether it has any.
func (b *builder) bindHooks(n *Node) (h hooks, found bool) {
	defs := n.meta.spec.hooks
	if defs == nil {
		return h, false
	}
	for k, def := range defs {
		if def == nil {
			continue
		}
		f, err := def(n)
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
func (b *builder) subtreeScope(n *Node, parent *scope) *scope {
	s := n.meta.spec
	bb := parent.bb.NewChild(s.autoRemap)
	for _, p := range s.ports {
		if key, ok := blackboardKey(p.value, p.name); ok {
			bb.Remap(p.name, key)
			continue
		}
		if err := bb.Local(p.name).Set(literalValue(p.value)); err != nil {
			b.fail(n, fmt.Errorf("port %q: %w", p.name, err))
		}
	}
	return newScope(b.tree, subtreePrefix(parent, s, n.meta.uid), bb)
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
	if p := n.meta.spec.pos; p.IsValid() {
		b.errs = append(b.errs, &btxml.Error{Pos: p, Msg: ne.Error(), Err: ne})
		return
	}
	b.errs = append(b.errs, ne)
}
