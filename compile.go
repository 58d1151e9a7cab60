package bt

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gobt/bt/btxml"
	"github.com/gobt/bt/internal/typo"
	"github.com/gobt/bt/script"
)

// compiler turns the trees of an XML document into definitions (defs), checking them
// against the factory's node types and collecting every problem with its position.
type compiler struct {
	f         *Factory
	doc       *btxml.Document
	d         *defs               // the document's definitions
	defs      map[string]*treeDef // every tree a SubTree may name: registered and new
	added     []*treeDef          // the document's trees
	sources   []treeSource        // what is known of added[i] while compiling it
	cur       *treeSource         // the tree being compiled
	subModels map[string]*btxml.Model
	main      string
	errs      btxml.ErrorList
	notes     []btxml.Note
	// Trees repeat node types: the compiler remembers where it put them in d.models.
	ids     idCache
	byModel map[*Model]uint16
	file    uint16 // index in d.files of the file of the node compiled last
	// scripts are the scripts parsed so far, by text: a document repeats them, and
	// nodes may share a parsed script (it caches its compiled code for every tree).
	scripts map[string]*script.Script
}

// treeSource is what the compiler knows of one of the document's trees.
type treeSource struct {
	id   string
	elem *btxml.Element // its root
	pos  btxml.Pos
	subs []uint32 // the records of its SubTree nodes, in document order
	// subNames are the names given to its SubTree nodes, and where: two of one tree
	// would have the same path (see subtreeName).
	subNames map[string]btxml.Pos
	nodes    int // its nodes, without those of the subtrees it instantiates
}

// reserve sizes the definition's tables for the elements of trees, which spares growing
// them.
func (c *compiler) reserve(trees []*btxml.Tree) {
	var nodes, ports int
	for _, t := range trees {
		if t.Root != nil {
			countElements(t.Root, &nodes, &ports)
		}
	}
	c.d.nodes = make([]defNode, 0, nodes)
	c.d.ports = make([]portValue, 0, ports)
}

// countElements adds the elements rooted at e and their port attributes to nodes and ports.
func countElements(e *btxml.Element, nodes, ports *int) {
	*nodes++
	*ports += portAttrs(e)
	for _, c := range e.Children {
		countElements(c, nodes, ports)
	}
}

// alloc adds k records and returns the index of the first.
func (c *compiler) alloc(k int) uint32 {
	i := len(c.d.nodes)
	c.d.nodes = append(c.d.nodes, make([]defNode, k)...)
	return uint32(i)
}

func newCompiler(f *Factory, doc *btxml.Document) *compiler {
	c := &compiler{f: f, doc: doc, d: newDefs(), defs: map[string]*treeDef{}, subModels: map[string]*btxml.Model{},
		byModel: map[*Model]uint16{}}
	for id, d := range f.trees {
		c.defs[id] = d
	}
	return c
}

func (c *compiler) errorf(pos btxml.Pos, format string, args ...any) {
	c.errs = append(c.errs, &btxml.Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

func (c *compiler) compile() {
	c.reserve(c.doc.Trees)
	c.declareModels()
	c.declareTrees()
	for i, d := range c.added {
		c.cur = &c.sources[i]
		if c.cur.elem == nil {
			c.errorf(c.cur.pos, "BehaviorTree %q has no root node", d.id)
			continue
		}
		d.defs, d.root = c.d, c.alloc(1)
		c.node(c.cur.elem, d.root)
	}
	if len(c.d.files) > maxWide+1 { // a Document made by hand, not one read from files
		c.errorf(btxml.Pos{File: c.doc.File}, "the nodes switch files more than %d times", maxWide)
	}
	c.checkCycles()
	c.chooseMain()
	for i, d := range c.added {
		d.subs = c.sources[i].subs
		if d.subs == nil {
			d.size = c.sources[i].nodes // else known when it is linked
		}
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
	ours := map[string]btxml.Pos{}
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
		if other, dup := ours[id]; dup {
			c.errorf(t.Pos, "tree %q is defined twice in the document (first at %s)", id, other)
			continue
		}
		ours[id] = t.Pos
		// A tree registered before is replaced (see Factory.LoadDocument).
		d := &treeDef{id: id}
		c.defs[id] = d
		c.added = append(c.added, d)
		c.sources = append(c.sources, treeSource{id: id, elem: t.Root, pos: t.Pos})
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
	default: // the top file's only tree, as BehaviorTree.CPP counts the trees of that file
		var own []*treeDef
		for i, d := range c.added {
			if c.sources[i].pos.File == c.doc.File {
				own = append(own, d)
			}
		}
		if len(own) == 1 {
			c.main = own[0].id
		}
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

// node compiles a node element into the record i, and its children.
func (c *compiler) node(e *btxml.Element, i uint32) {
	if e.Tag == "SubTree" {
		c.subtree(e, i)
		return
	}
	k, ok := c.model(e)
	if !ok {
		if _, isTree := c.defs[e.ID]; isTree {
			c.errorf(e.IDPos(), "unknown node %q; to instantiate the tree %q write <SubTree ID=%q/>", e.ID, e.ID, e.ID)
		} else {
			c.errorf(e.IDPos(), "unknown node %q%s", e.ID, typo.Suggest(e.ID, c.modelIDs()))
		}
		c.children(e)
		return
	}
	m := c.d.models[k]
	if e.Explicit() && e.Tag != m.Kind.String() { // BehaviorTree.CPP loads it all the same
		c.notes = append(c.notes, btxml.Note{Pos: e.Pos, Msg: fmt.Sprintf("<%s ID=%q>: %s is a %s", e.Tag, m.ID, m.ID, m.Kind)})
	}
	c.cur.nodes++
	r := c.record(i, k, e)
	for j := range e.Attrs {
		c.attr(r, m, &e.Attrs[j])
	}
	if len(m.Ports) > 0 {
		for _, p := range c.d.missingPorts(r, m) {
			c.errorf(e.Pos, "%v: set it, as %s=\"…\"", missingPort(m, p), p)
		}
	}
	if !shapeFits(m.Kind, len(e.Children)) {
		c.errorf(e.Pos, "%v", shapeError(m, len(e.Children)))
	}
	first, n := c.children(e) // which adds records: r is stale
	c.d.nodes[i].first, c.d.nodes[i].nkids = first, n
	if m == reactiveSequenceModel {
		c.checkAsyncChildren(m, e, first, n)
	}
}

// checkAsyncChildren reports a ReactiveSequence e with more than one AsyncSequence
// child (see asyncChildren); its children are the n records from first.
func (c *compiler) checkAsyncChildren(m *Model, e *btxml.Element, first uint32, n uint16) {
	kid := func(j int) *Model {
		if r := &c.d.nodes[first+uint32(j)]; r.line > 0 { // 0: not compiled, an error
			return c.d.models[r.model]
		}
		return nil
	}
	at := func(j int) string {
		p := e.Children[j].Pos
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	if err := asyncChildren(m, int(n), kid, at); err != nil {
		c.errorf(e.Pos, "%v", err)
	}
}

// children compiles the children of e into new, contiguous records and returns the
// first and how many.
func (c *compiler) children(e *btxml.Element) (first uint32, n uint16) {
	if len(e.Children) > maxWide {
		c.errorf(e.Pos, "%s has %d children, more than the %d a node may have", e.ID, len(e.Children), maxWide)
		return 0, 0
	}
	first = c.alloc(len(e.Children))
	for j, child := range e.Children {
		c.node(child, first+uint32(j))
	}
	return first, uint16(len(e.Children))
}

// model returns the index in the models of e's node type; false if there is none.
func (c *compiler) model(e *btxml.Element) (uint16, bool) {
	seen := c.ids.slot(e.ID)
	if seen.id == e.ID && e.ID != "" {
		return seen.k, true
	}
	m, ok := c.f.models[e.ID]
	if !ok {
		if !c.f.mayMatch(e) {
			return 0, false
		}
		// A substitution rule may replace it (substitution.go): each such node gets a
		// model of its own.
		return c.addModel(c.f.unregistered(e, c.doc), e), true
	}
	k := c.addModel(m, e)
	*seen = idSlot{e.ID, k}
	return k, true
}

// idCache remembers the model indexes of the node IDs seen last, by a hash of their
// length and last byte: a document repeats a few IDs, and comparing two short strings
// costs less than looking one up in a map.
type idCache [32]idSlot

type idSlot struct {
	id string
	k  uint16 // index in the models
}

func (c *idCache) slot(id string) *idSlot {
	h := len(id)
	if h > 0 {
		h += int(id[h-1])
	}
	return &c[h%len(c)]
}

// addModel returns the index of m, the type of e, in the models.
func (c *compiler) addModel(m *Model, e *btxml.Element) uint16 {
	k, ok := c.d.addModel(c.byModel, m)
	if !ok {
		c.errorf(e.Pos, "the document has more than %d node types", maxWide+1)
	}
	return k
}

// record starts the record i of the element e, a node of type k, and returns it. The
// record is valid until records are added.
func (c *compiler) record(i uint32, k uint16, e *btxml.Element) *defNode {
	if c.d.files[c.file] != e.Pos.File { // (compile checks that the index fits)
		c.file = uint16(len(c.d.files))
		c.d.files = append(c.d.files, e.Pos.File)
	}
	r := &c.d.nodes[i]
	r.model, r.file, r.line, r.col = k, c.file, e.Pos.Line, e.Pos.Col
	r.ports = uint32(len(c.d.ports))
	return r
}

// name returns the index of a node's name in the names.
func (c *compiler) name(s string) uint32 {
	last := len(c.d.names) - 1
	if s == c.d.names[last] {
		return uint32(last)
	}
	c.d.names = append(c.d.names, s)
	return uint32(last + 1)
}

// more returns the rarer parts of the record r, giving it some if it has none.
func (c *compiler) more(r *defNode) *specMore {
	if r.more == 0 {
		r.more = uint32(len(c.d.extras))
		c.d.extras = append(c.d.extras, specMore{})
	}
	return &c.d.extras[r.more]
}

// setCond attaches a pre- or post-condition to the record r.
func (c *compiler) setCond(r *defNode, h Cond, def condDef) {
	m := c.more(r)
	if m.conds == nil {
		m.conds = new([numConds]condDef)
	}
	m.conds[h] = def
}

// addPort sets a port of the record r, the last record given ports.
func (c *compiler) addPort(r *defNode, p portValue, a btxml.Pos) {
	if r.nports == maxWide {
		c.errorf(a, "more than %d ports", maxWide)
		return
	}
	c.d.ports = append(c.d.ports, p)
	r.nports++
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

// attr handles one attribute of a node of type m: its name, a pre/post condition, a
// port, or an attribute bt does not use (such as Groot2's _uid), which is kept for the
// program (Node.Attribute).
func (c *compiler) attr(r *defNode, m *Model, a *btxml.Attr) {
	if a.Name == "name" {
		r.name = c.name(a.Value)
		return
	}
	if h, ok := CondByName(a.Name); ok {
		if parsed := c.script(a); parsed != nil {
			c.setCond(r, h, scriptCond(h, parsed))
		}
		return
	}
	if !isPortName(a.Name) {
		c.checkCondSpelling(a)
		if a.Name != "_autoremap" {
			c.keepAttribute(r, a)
		}
		return
	}
	def := m.port(a.Name)
	if def == nil {
		c.errorf(a.Pos, "%v", undeclaredPort(m, a.Name))
		return
	}
	c.addPort(r, portValue{name: a.Name, value: a.Value, parsed: c.checkPortValue(def, a)}, a.Pos)
}

// keepAttribute keeps an attribute that is not a port (Node.Attribute), as
// BehaviorTree.CPP keeps it in other_attributes.
func (c *compiler) keepAttribute(r *defNode, a *btxml.Attr) {
	m := c.more(r)
	m.attrs = append(m.attrs, attribute{a.Name, a.Value})
}

// checkCondSpelling notes an attribute that looks like a misspelt pre- or
// post-condition: BehaviorTree.CPP ignores unknown "_" attributes, and so does bt, but
// a silently ignored _skipif is worth a word.
func (c *compiler) checkCondSpelling(a *btxml.Attr) {
	if h, ok := nearCond(a.Name); ok {
		c.notes = append(c.notes, btxml.Note{Pos: a.Pos, Msg: fmt.Sprintf("attribute %s is ignored; did you mean %s?", a.Name, h)})
	}
}

// nearCond returns the pre- or post-condition that the attribute name, which is none,
// looks like a misspelling of.
func nearCond(name string) (string, bool) {
	if !strings.HasPrefix(name, "_") || name == "_autoremap" {
		return "", false
	}
	for _, h := range condNames {
		if name != h && typo.Distance(name, h) <= 2 {
			return h, true
		}
	}
	return "", false
}

// checkPortValue checks a literal port value now, so that a typo is reported with its
// position rather than at the first tick. It returns the parsed script of a port that
// holds one.
func (c *compiler) checkPortValue(def *PortDef, a *btxml.Attr) *script.Script {
	if _, ok := blackboardKey(a.Value, a.Name); ok {
		return nil
	}
	if def.script && def.Dir != DirOutput {
		return c.script(a)
	}
	if err := checkLiteral(def, a.Value, c.f.enum); err != nil {
		c.errorf(a.ValuePos(), "%v", err)
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

// subtree compiles <SubTree ID="X" …/> into the record i: its attributes remap the
// subtree's ports.
func (c *compiler) subtree(e *btxml.Element, i uint32) {
	r := c.record(i, c.addModel(subTreeModel, e), e)
	// The tree is found by its ID when a tree is created (link.go): it may be defined
	// by a document loaded later, or again.
	c.more(r).subID = e.ID
	c.cur.nodes++
	c.cur.subs = append(c.cur.subs, i)
	for j := range e.Attrs {
		a := &e.Attrs[j]
		switch h, isCond := CondByName(a.Name); {
		case a.Name == "name":
			r.name = c.name(a.Value)
			c.subtreeName(e, a)
		case isCond:
			if parsed := c.script(a); parsed != nil {
				c.setCond(r, h, scriptCond(h, parsed))
			}
		case a.Name == "_autoremap":
			on, err := strconv.ParseBool(a.Value)
			if err != nil {
				c.errorf(a.ValuePos(), "_autoremap must be true or false, not %q", a.Value)
			}
			c.more(r).autoRemap = on
		case isPortName(a.Name):
			value := a.Value
			if value == "{=}" {
				value = "{" + a.Name + "}"
			}
			c.addPort(r, portValue{name: a.Name, value: value}, a.Pos)
		default:
			c.keepAttribute(r, a)
		}
	}
	if len(e.Children) > 0 {
		c.errorf(e.Pos, "a SubTree has no children, found %d", len(e.Children))
	}
}

// subtreeName refuses a SubTree named as another SubTree of the same tree, as
// BehaviorTree.CPP does (since Groot2's issue 56): the two instances would have one
// path, in logs, Groot2 and the monitor. A SubTree without a name has its own path
// (ID::UID).
func (c *compiler) subtreeName(e *btxml.Element, name *btxml.Attr) {
	if other, dup := c.cur.subNames[name.Value]; dup {
		c.errorf(name.Pos, "two SubTrees of tree %q are named %q, here and at %d:%d: their instances would have the same path; give them different names",
			c.cur.id, name.Value, other.Line, other.Col)
		return
	}
	if c.cur.subNames == nil {
		c.cur.subNames = map[string]btxml.Pos{}
	}
	c.cur.subNames[name.Value] = name.Pos
}

// sub returns the tree the SubTree record i instantiates as the document's trees are
// now (nil: none of them), and where it is written.
func (c *compiler) sub(i uint32) (*treeDef, btxml.Pos) {
	r := &c.d.nodes[i]
	return c.defs[c.d.extras[r.more].subID], btxml.Pos{File: c.d.files[r.file], Line: r.line, Col: r.col}
}

// checkCycles reports the document's subtrees that instantiate themselves, directly
// or not, as it defines them. Cycles through trees of other documents are found when
// a tree is created (link.go).
func (c *compiler) checkCycles() {
	index := c.treeIndex()
	state := make([]uint8, len(c.added)) // 1: being visited, 2: done
	var visit func(i int, path []*treeDef)
	visit = func(i int, path []*treeDef) {
		state[i] = 1
		path = append(path, c.added[i])
		for _, s := range c.sources[i].subs {
			sub, pos := c.sub(s)
			j, ours := index[sub]
			switch {
			case !ours: // another document's tree, or none
			case state[j] == 1:
				k := slices.Index(path, sub)
				c.errorf(pos, "subtree %q instantiates itself: %s", sub.id, cycle(path[k:], sub))
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
