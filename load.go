package bt

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/gobt/bt/blackboard"
	"github.com/gobt/bt/btxml"
	"github.com/gobt/bt/internal/typo"
	"github.com/gobt/bt/script"
)

// compiler turns the trees of an XML document into Specs, checking them against the
// factory's node types and collecting every problem with its position.
type compiler struct {
	f         *Factory
	doc       *btxml.Document
	defs      map[string]*treeDef // every tree a SubTree may name: registered and new
	added     []*treeDef          // the document's trees
	sources   []treeSource        // what is known of added[i] while compiling it
	cur       *treeSource         // the tree being compiled
	subModels map[string]*btxml.Model
	main      string
	errs      btxml.ErrorList
	notes     []btxml.Note
	arena     arena
	last      *Model    // the model found last: trees repeat node types
	file      *specMore // shared by the specs of the file read last (see Spec)
	// scripts are the scripts parsed so far, by text: a document repeats them, and
	// specs may share a parsed script (it caches its compiled code for every tree).
	scripts map[string]*script.Script
}

// treeSource is what the compiler knows of one of the document's trees.
type treeSource struct {
	elem  *btxml.Element // its root
	pos   btxml.Pos
	subs  []*Spec // its SubTree nodes, in document order
	nodes int     // its nodes, without those of the subtrees it instantiates
}

// arena hands out the specs, child lists and port lists of a document from a few big
// allocations instead of several per node. (Chunks of a few hundred elements, which
// spare the counting pass, measured slower: more allocations, and rounding to size
// classes.)
type arena struct {
	specs []Spec
	used  int // specs[:used] are handed out
	kids  []*Spec
	ports []portValue
}

// reserve sizes the arena for the elements of trees.
func (a *arena) reserve(trees []*btxml.Tree) {
	var nodes, ports int
	for _, t := range trees {
		if t.Root != nil {
			count(t.Root, &nodes, &ports)
		}
	}
	a.specs = make([]Spec, nodes)
	a.kids = make([]*Spec, 0, nodes)
	a.ports = make([]portValue, 0, ports)
}

// count adds the elements rooted at e and their port attributes to nodes and ports.
func count(e *btxml.Element, nodes, ports *int) {
	*nodes++
	*ports += portAttrs(e)
	for _, c := range e.Children {
		count(c, nodes, ports)
	}
}

func (a *arena) spec() *Spec {
	if a.used == len(a.specs) {
		a.specs, a.used = make([]Spec, 16), 0
	}
	a.used++
	return &a.specs[a.used-1]
}

// take returns an empty slice with room for n elements, cut from pool.
func take[T any](pool *[]T, n int) []T {
	if cap(*pool)-len(*pool) < n {
		*pool = make([]T, 0, max(n, 64))
	}
	l := len(*pool)
	s := (*pool)[l : l : l+n]
	*pool = (*pool)[:l+n]
	return s
}

func newCompiler(f *Factory, doc *btxml.Document) *compiler {
	c := &compiler{f: f, doc: doc, defs: map[string]*treeDef{}, subModels: map[string]*btxml.Model{}}
	for id, d := range f.trees {
		c.defs[id] = d
	}
	for id, m := range f.subModels {
		c.subModels[id] = m
	}
	return c
}

func (c *compiler) errorf(pos btxml.Pos, format string, args ...any) {
	c.errs = append(c.errs, &btxml.Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

func (c *compiler) compile() {
	c.arena.reserve(c.doc.Trees)
	c.declareModels()
	c.declareTrees()
	for i, d := range c.added {
		c.cur = &c.sources[i]
		if c.cur.elem == nil {
			c.errorf(c.cur.pos, "BehaviorTree %q has no root node", d.id)
			continue
		}
		d.root = c.node(c.cur.elem)
	}
	c.checkCycles()
	c.chooseMain()
	if len(c.errs) == 0 {
		c.sizeTrees()
	}
	c.errs.Sort()
}

// declareModels records the TreeNodesModel entries of subtrees: they declare ports.
func (c *compiler) declareModels() {
	for _, m := range c.doc.Models {
		if m.Kind == "SubTree" {
			c.subModels[m.ID] = m
		}
	}
}

// declareTrees registers the document's trees by ID before compiling any, so that
// SubTree may name a tree defined later in the file.
func (c *compiler) declareTrees() {
	unnamed := 0
	for _, t := range c.doc.Trees {
		id := t.ID
		if id == "" {
			if len(c.doc.Trees) > 1 {
				c.errorf(t.Pos, "a BehaviorTree needs an ID when the document has several")
				continue
			}
			id = "BehaviorTree_" + strconv.Itoa(unnamed)
			unnamed++
		}
		if _, taken := c.f.models[id]; taken {
			c.errorf(t.Pos, "tree ID %q is the ID of a node type", id)
			continue
		}
		if _, dup := c.defs[id]; dup {
			c.errorf(t.Pos, "tree %q is defined twice", id)
			continue
		}
		d := &treeDef{id: id}
		c.defs[id] = d
		c.added = append(c.added, d)
		c.sources = append(c.sources, treeSource{elem: t.Root, pos: t.Pos})
	}
}

func (c *compiler) chooseMain() {
	switch {
	case c.doc.MainTree != "":
		if _, ok := c.defs[c.doc.MainTree]; !ok {
			c.errorf(c.doc.MainTreePos, "main_tree_to_execute names no tree: %q%s", c.doc.MainTree, typo.Suggest(c.doc.MainTree, c.treeIDs()))
		}
		c.main = c.doc.MainTree
	case len(c.added) == 1:
		c.main = c.added[0].id
	}
}

func (c *compiler) treeIDs() []string {
	ids := make([]string, 0, len(c.defs))
	for id := range c.defs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

func (c *compiler) modelIDs() []string {
	ids := make([]string, 0, len(c.f.models))
	for id := range c.f.models {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// node compiles a node element and its children.
func (c *compiler) node(e *btxml.Element) *Spec {
	if e.Tag == "SubTree" {
		return c.subtree(e)
	}
	m, ok := c.last, c.last != nil && c.last.ID == e.ID
	if !ok {
		m, ok = c.f.models[e.ID]
		c.last = m
	}
	if !ok && c.f.mayMatch(e) { // a substitution rule may replace it (substitution.go)
		m, ok = c.f.unregistered(e, c.doc), true
	}
	if !ok {
		if _, isTree := c.defs[e.ID]; isTree {
			c.errorf(e.IDPos(), "unknown node %q; to instantiate the tree %q write <SubTree ID=%q/>", e.ID, e.ID, e.ID)
		} else {
			c.errorf(e.IDPos(), "unknown node %q%s", e.ID, typo.Suggest(e.ID, c.modelIDs()))
		}
		for _, child := range e.Children {
			c.node(child)
		}
		return nil
	}
	if e.Explicit() && e.Tag != m.Kind.String() {
		c.errorf(e.Pos, "<%s ID=%q>: %s is a %s", e.Tag, m.ID, m.ID, m.Kind)
	}
	s := c.spec(m, e)
	c.cur.nodes++
	if k := portAttrs(e); k > 0 {
		s.ports = take(&c.arena.ports, k)
	}
	for i := range e.Attrs {
		c.attr(s, &e.Attrs[i])
	}
	if len(m.Ports) > 0 {
		for _, p := range s.missingPorts() {
			c.errorf(e.Pos, "%s needs the port %q: set it, as %s=\"…\"", m.ID, p, p)
		}
	}
	if !shapeFits(m.Kind, len(e.Children)) {
		c.shapeError(s, e)
	}
	if len(e.Children) > 0 { // most nodes are leaves: leave their children nil
		kids := take(&c.arena.kids, len(e.Children))[:len(e.Children)]
		for i, child := range e.Children {
			kids[i] = c.node(child)
		}
		s.children = kids
	}
	return s
}

// portAttrs counts the attributes of e that may be ports.
func portAttrs(e *btxml.Element) int {
	n := 0
	for i := range e.Attrs {
		if isPortName(e.Attrs[i].Name) {
			n++
		}
	}
	return n
}

// spec returns a new spec of type m for the element e, from the arena.
func (c *compiler) spec(m *Model, e *btxml.Element) *Spec {
	if c.file == nil || c.file.file != e.Pos.File {
		c.file = &specMore{file: e.Pos.File}
	}
	s := c.arena.spec()
	s.model, s.line, s.col, s.more = m, e.Pos.Line, e.Pos.Col, c.file
	return s
}

// attr handles one attribute of a node: its name, a pre/post condition, a port, or an
// attribute bt does not use (such as Groot2's _uid), which is ignored.
func (c *compiler) attr(s *Spec, a *btxml.Attr) {
	if a.Name == "name" {
		s.name = a.Value
		return
	}
	if h, ok := HookByName(a.Name); ok {
		if parsed := c.script(a); parsed != nil {
			s.setHook(h, scriptHook(h, parsed))
		}
		return
	}
	if !isPortName(a.Name) {
		c.checkHookSpelling(a)
		return
	}
	def := s.model.port(a.Name)
	if def == nil {
		c.errorf(a.Pos, "%s has no port %q%s", s.model.ID, a.Name, typo.Suggest(a.Name, s.model.portNames()))
		return
	}
	s.ports = append(s.ports, portValue{name: a.Name, value: a.Value, parsed: c.checkPortValue(def, a)})
}

// checkHookSpelling notes an attribute that looks like a misspelt pre- or
// post-condition: BehaviorTree.CPP ignores unknown "_" attributes, and so does bt, but
// a silently ignored _skipif is worth a word.
func (c *compiler) checkHookSpelling(a *btxml.Attr) {
	if !strings.HasPrefix(a.Name, "_") || a.Name == "_autoremap" {
		return
	}
	for _, h := range hookNames {
		if a.Name != h && typo.Distance(a.Name, h) <= 2 {
			c.notes = append(c.notes, btxml.Note{Pos: a.Pos, Msg: fmt.Sprintf("attribute %s is ignored; did you mean %s?", a.Name, h)})
			return
		}
	}
}

// checkPortValue checks a literal port value now, so that a typo is reported with its
// position rather than at the first tick. It returns the parsed script of a port that
// holds one.
func (c *compiler) checkPortValue(def *PortDef, a *btxml.Attr) *script.Script {
	if _, ok := blackboardKey(a.Value, a.Name); ok {
		return nil
	}
	switch {
	case def.Dir == DirOutput:
		c.errorf(a.ValuePos(), "output port %q must name a blackboard entry like {key}, not %q", a.Name, a.Value)
	case def.script:
		return c.script(a)
	case def.Type == nil || def.Type.Kind() == reflect.String:
	default:
		if _, err := blackboard.Parse(a.Value, def.Type, c.f.enum); err != nil {
			c.errorf(a.ValuePos(), "port %q: %v", a.Name, err)
		}
	}
	return nil
}

// script parses the script of an attribute, reporting a syntax error at its position.
func (c *compiler) script(a *btxml.Attr) *script.Script {
	if parsed, ok := c.scripts[a.Value]; ok {
		return parsed
	}
	parsed, err := script.Parse(a.Value)
	if err == nil {
		if c.scripts == nil {
			c.scripts = map[string]*script.Script{}
		}
		c.scripts[a.Value] = parsed
		return parsed
	}
	pos, msg := a.ValuePos(), err.Error()
	var se *script.SyntaxError
	if errors.As(err, &se) {
		// Point at the error in the file; the message keeps the script's own rendering
		// (the line with a caret under the column) without its script-relative position.
		if se.Line > 1 {
			pos.Line += int32(se.Line - 1)
			pos.Col = int32(se.Col)
		} else {
			pos.Col += int32(se.Col - 1)
		}
		msg = strings.TrimPrefix(msg, fmt.Sprintf("%d:%d: ", se.Line, se.Col))
	}
	c.errorf(pos, "%s: %s", a.Name, msg)
	return nil
}

// shapeFits reports whether a node of kind k may have n children in XML.
func shapeFits(k Kind, n int) bool {
	switch k {
	case KindAction, KindCondition:
		return n == 0
	case KindDecorator:
		return n == 1
	case KindControl:
		return n > 0
	}
	return true
}

// shapeError reports the wrong number of children of a node (see shapeFits).
func (c *compiler) shapeError(s *Spec, e *btxml.Element) {
	k := len(e.Children)
	switch s.model.Kind {
	case KindAction, KindCondition:
		c.errorf(e.Pos, "%s is a leaf (%s): it has no children, found %d", s.model.ID, s.model.Kind, k)
	case KindDecorator:
		c.errorf(e.Pos, "%s is a Decorator: it has exactly one child, found %d", s.model.ID, k)
	case KindControl:
		c.errorf(e.Pos, "%s is a Control: it needs at least one child", s.model.ID)
	}
}

// subtree compiles <SubTree ID="X" …/>: its attributes remap the subtree's ports.
func (c *compiler) subtree(e *btxml.Element) *Spec {
	d, ok := c.defs[e.ID]
	if !ok {
		c.errorf(e.IDPos(), "no tree %q to instantiate%s", e.ID, typo.Suggest(e.ID, c.treeIDs()))
		return nil
	}
	s := c.spec(subTreeModel, e)
	s.edit().sub = d
	c.cur.nodes++
	c.cur.subs = append(c.cur.subs, s)
	for i := range e.Attrs {
		a := &e.Attrs[i]
		switch h, isHook := HookByName(a.Name); {
		case a.Name == "name":
			s.name = a.Value
		case isHook:
			if parsed := c.script(a); parsed != nil {
				s.setHook(h, scriptHook(h, parsed))
			}
		case a.Name == "_autoremap":
			on, err := strconv.ParseBool(a.Value)
			if err != nil {
				c.errorf(a.ValuePos(), "_autoremap must be true or false, not %q", a.Value)
			}
			s.edit().autoRemap = on
		case isPortName(a.Name):
			value := a.Value
			if value == "{=}" {
				value = "{" + a.Name + "}"
			}
			s.ports = append(s.ports, portValue{name: a.Name, value: value})
		}
	}
	if len(e.Children) > 0 {
		c.errorf(e.Pos, "a SubTree has no children, found %d", len(e.Children))
	}
	c.modelPorts(s, e)
	return s
}

// modelPorts applies the ports a TreeNodesModel declares for a subtree: one that is not
// remapped takes its default, and is an error without one (unless _autoremap).
func (c *compiler) modelPorts(s *Spec, e *btxml.Element) {
	m := c.subModels[e.ID]
	if m == nil || s.more.autoRemap {
		return
	}
	for _, p := range m.Ports {
		if _, given := s.Port(p.Name); given {
			continue
		}
		if !p.HasDefault || p.Default == "" {
			c.errorf(e.Pos, "the TreeNodesModel of subtree %q declares the port %q without a default: remap it", e.ID, p.Name)
			continue
		}
		s.ports = append(s.ports, portValue{name: p.Name, value: p.Default})
	}
}

// checkCycles reports subtrees that instantiate themselves, directly or not. Only the
// document's trees can be part of a cycle: a tree loaded earlier cannot name them.
func (c *compiler) checkCycles() {
	index := c.treeIndex()
	state := make([]uint8, len(c.added)) // 1: being visited, 2: done
	var visit func(i int, path []*treeDef)
	visit = func(i int, path []*treeDef) {
		state[i] = 1
		path = append(path, c.added[i])
		for _, s := range c.sources[i].subs {
			sub := s.subtree()
			j, ours := index[sub]
			switch {
			case !ours:
			case state[j] == 1:
				k := slices.Index(path, sub)
				c.errorf(s.Pos(), "subtree %q instantiates itself: %s", sub.id, cycle(path[k:], sub))
			case state[j] == 0:
				visit(j, path)
			}
		}
		state[i] = 2
	}
	for i := range c.added {
		if state[i] == 0 {
			visit(i, nil)
		}
	}
}

// treeIndex maps the document's trees to their index in added.
func (c *compiler) treeIndex() map[*treeDef]int {
	index := make(map[*treeDef]int, len(c.added))
	for i, d := range c.added {
		index[d] = i
	}
	return index
}

// sizeTrees records the number of nodes each of the document's trees expands to, so
// that building one need not count them (see newTreeOf). The trees have no cycles.
func (c *compiler) sizeTrees() {
	index := c.treeIndex()
	var size func(d *treeDef) int
	size = func(d *treeDef) int {
		i, ours := index[d]
		if d.size > 0 || !ours {
			return d.size // known, or a tree loaded earlier: known then
		}
		n := c.sources[i].nodes
		for _, s := range c.sources[i].subs {
			k := size(s.subtree())
			if k == 0 {
				return 0 // unknown: NewTree counts
			}
			n = min(n+k, maxNodes+1) // subtrees can multiply a size out of range
		}
		d.size = n
		return n
	}
	for _, d := range c.added {
		size(d)
	}
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
