package bt

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gobt/bt/blackboard"
	"github.com/gobt/bt/btxml"
)

// NodeConfig is what a Model's New function receives to build one node's behavior
// (BehaviorTree.CPP's NodeConfig, which bt keeps in the node's definition).
type NodeConfig struct {
	node *Node
}

// Node returns the node being built; its children are already built.
func (c *NodeConfig) Node() *Node { return c.node }

// Spec returns the definition of the node being built.
func (c *NodeConfig) Spec() *Spec { return c.node.Spec() }

// NumChildren returns the number of children of the node being built.
func (c *NodeConfig) NumChildren() int { return int(c.node.meta.nkids) }

// NewTree builds a tree from a definition. Every problem of the definition is
// reported, joined in one error; no tree is returned then.
//
// The first NewTree of a root turns the definition into the form trees are built
// from, and keeps it for the next: building many trees from one root costs one
// instantiation each.
func NewTree(root *Spec, opts ...Option) (*Tree, error) {
	d, err := root.flattened()
	if err != nil {
		return nil, err
	}
	return newTreeOf(d, specConfig, opts)
}

// flattened returns the definition that trees of the root spec are built from, made
// by the first call and kept.
func (root *Spec) flattened() (*treeDef, error) {
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
	return d, nil
}

// newTreeOf builds the tree d defines with the configuration cfg (a Factory's, with its
// enum names, or NewTree's), which the tree shares until an option changes it: building
// a tree allocates no closure nor configuration of its own.
func newTreeOf(d *treeDef, cfg *treeConfig, opts []Option) (*Tree, error) {
	if d.expanded() > maxNodes {
		return nil, d.tooBig()
	}
	t, err := newTree(cfg, opts)
	if err != nil {
		return nil, err
	}
	if err := t.build(d, nil); err != nil {
		return nil, err
	}
	return t, nil
}

// build instantiates d into t, a tree without nodes yet. boards, when not nil, gives
// the blackboards of the subtree instances (see Tree.Reload).
func (t *Tree) build(d *treeDef, boards boardFunc) error {
	count := d.expanded()
	if count > maxNodes {
		return d.tooBig()
	}
	t.def = d
	t.nodes = make([]Node, count)
	t.status = make([]statusByte, count)
	// The builder stays on the stack; only what a Model's build function keeps a
	// pointer to (NodeConfig) is on the heap, once per tree.
	b := builder{tree: t, nodes: t.nodes, metas: make([]nodeMeta, count), status: t.status,
		slot: 1, init: new(NodeConfig), boards: boards}
	// The nodes of every tree built from d are laid out alike: the trees share the
	// index of their UIDs, which the first tree built makes.
	byUID := d.byUID.Load()
	if byUID == nil {
		b.byUID = make([]uint16, count)
	}
	t.root = b.build(d.defs, d.root, newScope(t, "", t.bb, d), 0)
	b.init.node = nil
	if len(b.errs) > 0 {
		return errors.Join(b.errs...)
	}
	if byUID == nil {
		made := b.byUID
		d.byUID.CompareAndSwap(nil, &made)
	}
	return nil
}

// builder instantiates definitions into the node slab of a tree. It keeps the tree's
// arrays at hand rather than reaching them through the tree for every node.
type builder struct {
	tree   *Tree
	nodes  []Node
	metas  []nodeMeta // slab for the nodes' meta
	status []statusByte
	byUID  []uint16 // nil: the definition has it already (see Tree.build)
	uid    int      // the last UID given
	slot   int      // next free index in nodes
	errs   []error
	init   *NodeConfig
	boards boardFunc // nil: every subtree instance gets a new blackboard
}

// build instantiates the node i of d as the node at index slot of tree.nodes, in the
// scope sc (whose definition is d). Nodes get their UIDs in pre-order; the slots of a
// node's children are reserved together.
func (b *builder) build(d *defs, i uint32, sc *scope, slot int) *Node {
	n, m, r := &b.nodes[slot], &b.metas[slot], &d.nodes[i]
	b.uid++
	if b.byUID != nil {
		b.byUID[b.uid-1] = uint16(slot)
	}
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
	model := d.models[r.model]
	if sub != nil {
		b.build(sub.defs, sub.root, b.subtreeScope(n, sc, sub), first)
	} else if r.nkids > 0 && len(model.Ports) > 0 {
		declarePorts(d, r, model, sc)
	}
	for j := range r.nkids {
		b.build(d, r.first+uint32(j), sc, first+int(j))
	}
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
	if more != nil && more.conds != nil {
		if h, ok := b.bindConds(n, more.conds); ok {
			n.t = &condNode{inner: t, conds: h}
		}
	}
	return n
}

// declarePorts types the entries that a node's ports name before its children are
// built, as BehaviorTree.CPP creates a node before its children: the first port that
// names an entry types it, wherever it is in the tree (and an entry typed string takes
// ports of any type: see blackboard.Entry.Declare). An error is the node's to report
// when it binds its ports.
func declarePorts(d *defs, r *defNode, m *Model, sc *scope) {
	for i := range m.Ports {
		def := &m.Ports[i]
		if def.Type == nil && !def.holdsAny || def.script {
			continue
		}
		value := def.Default
		if p := d.port(r, def.Name); p != nil {
			if p.lit != nil {
				continue
			}
			value = p.value
		} else if !def.HasDefault || def.docDefault || def.goDefault != nil {
			continue
		}
		if key, ok := blackboardKey(value, def.Name); ok {
			sc.bb.Entry(key).Declare(def.entryType())
		}
	}
}

// newTicker builds the node's behavior: a builtin's own pipeline, the function of a
// function leaf without ports, or a user's Behavior wrapped in a userNode.
func (b *builder) newTicker(m *Model) (ticker, error) {
	if m.build != nil {
		t, err := m.build(b.init)
		if _, ok := t.(*decoratorNode); !ok && t != nil && isDecorator(m) {
			return nil, fmt.Errorf("builtin %s %s is not built into a decoratorNode, which puts its child back after each tick (see decorates)", m.Kind, m.ID)
		}
		return t, err
	}
	if m.err != nil {
		return nil, m.err
	}
	if m.leaf != nil && len(m.Ports) == 0 {
		return m.leaf, nil
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
	u := &userNode{beh: beh, ports: ports}
	if isDecorator(m) && b.init.node.meta.nkids == 1 {
		return decorating(u, storeThenReset), err
	}
	return u, err
}

// isDecorator reports whether nodes of type m have one child that they put back after
// each tick (see decoratorNode).
func isDecorator(m *Model) bool { return m.Kind == KindDecorator || m.Kind == KindSubTree }

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

// bindConds binds the node's pre/post conditions and reports whether it has any.
func (b *builder) bindConds(n *Node, defs *[numConds]condDef) (h conds, found bool) {
	for k, def := range defs {
		if def.bind == nil {
			continue
		}
		f, err := def.bind(n)
		if err != nil {
			b.fail(n, fmt.Errorf("%s: %w", Cond(k), err))
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
	bb, kept := b.childBoard(n, parent)
	for _, p := range d.portsOf(r) {
		if kept { // a reload kept the instance's blackboard, remappings and values
			break
		}
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
	if de, ok := err.(*btxml.Error); ok { // a problem of the definition (link.go), said once for all instances
		for _, e := range b.errs {
			if e.Error() == de.Error() {
				return
			}
		}
		b.errs = append(b.errs, de)
		return
	}
	ne := n.errorf(err)
	if p := n.Pos(); p.IsValid() {
		b.errs = append(b.errs, &btxml.Error{Pos: p, Msg: ne.Error(), Err: ne})
		return
	}
	b.errs = append(b.errs, ne)
}
