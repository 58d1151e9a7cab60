package bt

import (
	"bytes"
	"errors"
	"fmt"
	"slices"

	"github.com/gobt/bt/blackboard"
)

// A reload replaces the definition under a running tree between two ticks; the package
// doc ("Hot reload") states the rule that matches the old nodes with the new and why.
// In short: a node's key is the chain of steps from the root to it, a step being the
// node's type, its name and its rank among the siblings of that type and name; a node
// keeps its state when an old node has its key, the same definition (appendPrint), the
// same children's keys in the same order, and its parent kept its state too.

// ReloadReport says what a reload changed. Paths are Node.Path's: those of nodes that
// went away are the old tree's.
type ReloadReport struct {
	Added   []string // nodes of the new definition that no old node matches
	Removed []string // old nodes that no node of the new definition matches
	Changed []string // nodes whose own definition (type, ports, conditions, children) changed
	Halted  []string // old nodes that were Running and were halted, with OnHalted
	Carried []string // changed nodes of yours whose StateSaver carried their state over
	Kept    int      // nodes that kept their state (and their behavior)

	uids []uint16 // the new UID of each old node (by old UID-1) that a new node matches; 0: none
}

// NewUID returns the UID in the reloaded tree of the node that had UID old before the
// reload, when a node of the new definition matches it (kept or re-created), else 0:
// what a viewer that keeps state by UID needs to carry it over.
func (r *ReloadReport) NewUID(old uint16) uint16 {
	if old == 0 || int(old) > len(r.uids) {
		return 0
	}
	return r.uids[old-1]
}

// String sums the report up on one line, as `bt run --watch` prints it.
func (r *ReloadReport) String() string {
	s := fmt.Sprintf("%d kept, %d added, %d removed, %d changed, %d halted",
		r.Kept, len(r.Added), len(r.Removed), len(r.Changed), len(r.Halted))
	if len(r.Carried) > 0 {
		s += fmt.Sprintf(", %d carried by their StateSaver", len(r.Carried))
	}
	return s
}

var errReloadTicking = errors.New("bt: Reload during a tick or a halt: reload between ticks, or from another goroutine with RequestReload")

// Reload replaces the tree's definition with the tree id ("" for the main tree) that f
// holds now — typically a Factory that loaded the edited XML — between two ticks, and
// keeps what the edit did not touch: the nodes that match keep their state (a running
// action goes on running), the blackboards keep their entries, and the tree keeps its
// options, observers and subscribers. See "Hot reload" in the package doc for which
// nodes match and what happens to the others.
//
// It is all or nothing: when the new definition does not build (a missing port, a
// subtree that is not there, a New function that fails), the tree is left as it was,
// running, and the error lists every problem with its file:line:col. Once it built,
// the nodes that went away or changed are halted (their Halt methods and _onHalted
// scripts run, observers see them go Idle), the tree takes the new structure, and the
// functions given to OnReload are told; an error then is what failed during those
// halts, and the tree is reloaded all the same.
//
// Reload must be called by the goroutine that ticks the tree, between ticks (or from a
// function given to Do); from another goroutine, use RequestReload. A tree whose last
// tick failed must be halted first.
func (t *Tree) Reload(f *Factory, id string) (*ReloadReport, error) {
	if f == nil {
		return nil, errors.New("bt: Reload: no factory")
	}
	d, err := f.definition(id)
	if err == nil {
		d, err = f.substitute(d)
	}
	if err != nil {
		return nil, err
	}
	cfg := t.cfg // the tree's options, with the factory's enum names
	if cfg.enumsOf != f {
		c := *cfg
		c.enums, c.enumsOf = f.enumLookup, f
		cfg = &c
	}
	return t.reload(d, cfg)
}

// ReloadSpec is Reload for a tree built with NewTree: root is the new definition.
func (t *Tree) ReloadSpec(root *Spec) (*ReloadReport, error) {
	d, err := root.flattened()
	if err != nil {
		return nil, err
	}
	return t.reload(d, t.cfg)
}

// RequestReload asks the goroutine that ticks the tree to reload it (Reload) at the
// start of its next tick, before any node ticks, as Do does; it may be called from any
// goroutine and returns at once. done, if not nil, is called on the ticking goroutine
// with Reload's results. f must not change until then: give a Factory of its own to
// each request (load the edited files into a new one).
func (t *Tree) RequestReload(f *Factory, id string, done func(*ReloadReport, error)) {
	t.Do(func() {
		r, err := t.Reload(f, id)
		if done != nil {
			done(r, err)
		}
	})
}

// OnReload makes fn hear of each reload of the tree, once the tree has its new
// structure: viewers (a monitor, a Groot2 publisher) redraw it from the tree then. fn
// runs on the ticking goroutine; call OnReload and cancel there too (or from Do).
func (t *Tree) OnReload(fn func(*ReloadReport)) (cancel func()) {
	if fn == nil {
		return func() {}
	}
	s, r := &fn, t.rareParts()
	r.reloaded = append(slices.Clip(r.reloaded), s)
	return func() {
		r.reloaded = slices.DeleteFunc(slices.Clone(r.reloaded), func(x *func(*ReloadReport)) bool { return x == s })
	}
}

// reload is Reload of the definition d, whose enum names are enums.
func (t *Tree) reload(d *treeDef, cfg *treeConfig) (*ReloadReport, error) {
	switch {
	case t.root == nil:
		return nil, ErrEmptyTree
	case t.ticking:
		return nil, errReloadTicking
	case t.attention.Load()&attnAborted != 0:
		return nil, errors.New("bt: Reload: an error stopped the tree's last tick: halt it first (Halt)")
	}
	if t.claims.Load() == nil { // made now, before the tree changes: see adopt
		fresh := make([]wakeClaim, len(t.nodes))
		t.claims.CompareAndSwap(nil, &fresh)
	}
	m := newMatcher(t)
	// The new nodes are built into a tree of their own, with the options of this one, so
	// that a definition that fails to build leaves this one untouched.
	nt := &Tree{cfg: cfg, bb: t.bb, owner: t.owner, repanic: t.repanic}
	if err := nt.build(d, m.board); err != nil {
		return nil, err
	}
	r := m.match(nt)
	carried := m.carry(nt, r)

	// The old tree's nodes that go away or change are halted while the tree still has
	// them, in a batch of their own for the observers, as Halt's.
	t.beginBatch(false)
	t.ticking = true
	errs := m.halt(t.root, r)
	t.ticking = false
	err := t.endBatch(false, joinErrors(errs))

	t.adopt(nt, m, carried)
	for _, fn := range t.rareParts().reloaded {
		(*fn)(r)
	}
	return r, err
}

// adopt gives t the nodes of nt, with the state of the old nodes that m kept.
func (t *Tree) adopt(nt *Tree, m *matcher, carried []bool) {
	observed := t.obs != nil
	// The goroutine of an async action kept with its work under way holds its node of
	// the tree the work started in, and asks for its wake-up by that node's UID: the
	// claims are as many as the nodes of the largest tree the tree has been, and reload
	// made them before the tree changed, so that such a goroutine never makes them from
	// a changing tree.
	old := t.claims.Load()
	claims := make([]wakeClaim, max(len(*old), len(nt.nodes)))
	for i := range nt.nodes {
		n := &nt.nodes[i]
		n.st.store(Idle)
		n.st.observe(observed)
		o := m.kept[n.meta.uid-1]
		if o == nil {
			continue
		}
		if carried[n.meta.uid-1] { // a new behavior, with the old one's state
			n.st.adopt(*o.st, false, observed)
		} else { // the old behavior, and its status as observers saw it
			n.st.adopt(*o.st, true, observed)
			n.t = o.t
		}
		claims[n.meta.uid-1].epoch.Store((*old)[o.meta.uid-1].epoch.Load())
	}
	t.def = nt.def
	if t.cfg != nt.cfg { // (unchanged, it is not written: async goroutines read it)
		t.cfg = nt.cfg
	}
	t.root, t.nodes, t.status = nt.root, nt.nodes, nt.status
	t.rareParts().keys = m.newKeys
	t.claims.Store(&claims)
	for i := range t.nodes {
		n := &t.nodes[i]
		n.meta.scope.tree = t
		if h, ok := n.core().(familyHolder); ok { // a kept control keeps its children at hand
			h.moveTo(n.family())
		}
	}
}

// familyHolder is a builtin control that keeps its children's slices (sequence,
// reactive): a kept one gets those of its new tree.
type familyHolder interface{ moveTo(family) }

func (f *family) moveTo(g family) { *f = g }

// boardFunc gives the blackboard of the subtree instance that the SubTree node n makes
// in the scope parent, and whether it is kept, remappings and values set.
type boardFunc func(n *Node, parent *scope) (*blackboard.Blackboard, bool)

// childBoard returns the blackboard of the subtree instance that the SubTree node n
// makes in the scope parent: a new child of parent's, or the one a reload keeps.
func (b *builder) childBoard(n *Node, parent *scope) (*blackboard.Blackboard, bool) {
	if b.boards != nil {
		return b.boards(n, parent)
	}
	d, r := n.def()
	return parent.bb.NewChild(d.moreOf(r).autoRemap), false // a SubTree has its more
}

// matcher matches the nodes of a tree with those of its new definition.
type matcher struct {
	old      *Tree
	oldKeys  []nodeKey         // the key of each old node, by UID-1
	byKey    map[nodeKey]*Node // the old nodes by key
	rel      map[relOf][]nodeKey
	boardKey map[*blackboard.Blackboard]nodeKey // the key of the SubTree of each blackboard of the new tree
	reused   map[*blackboard.Blackboard]bool    // the old blackboards the new tree keeps
	newKeys  []nodeKey
	matched  []*Node // by new UID-1: the old node of the same key
	kept     []*Node // by new UID-1: the old node whose state it takes
	under    []bool  // by new UID-1: the node's parent kept its state (the root's "parent" does)
	bufA     []byte
	bufB     []byte
}

// nodeKey is a node's key: a hash of the chain of steps from the root to the node, each
// a type, a name and a rank among siblings. Hashing keeps keys small in deep trees; 128
// bits make a collision of two keys of one tree as unlikely as a cosmic ray's bit flip.
type nodeKey [2]uint64

// relOf is a definition's records from one root: a tree definition, in one instance.
type relOf struct {
	d    *defs
	root uint32
}

func newMatcher(t *Tree) *matcher {
	m := &matcher{old: t, rel: map[relOf][]nodeKey{}, byKey: make(map[nodeKey]*Node, len(t.nodes)),
		boardKey: map[*blackboard.Blackboard]nodeKey{t.bb: {}}, reused: map[*blackboard.Blackboard]bool{t.bb: true}}
	m.oldKeys = t.rareParts().keys
	if len(m.oldKeys) != len(t.nodes) { // (a tree's structure changes only by reload)
		m.oldKeys = m.keys(t)
	}
	for n := range t.Nodes() {
		m.byKey[m.oldKeys[n.meta.uid-1]] = n
	}
	return m
}

// step returns the key of a node under the one whose key is parent: its type and name
// (stepOf) and its rank among the siblings of that type and name. Each half of the key
// is an FNV-1a hash, of its own offset, of the parent's half, the step and the rank.
func (m *matcher) step(parent nodeKey, typ, name string, rank int) nodeKey {
	const prime = 1099511628211
	k := nodeKey{parent[0] ^ 14695981039346656037, parent[1] ^ 0x9e3779b97f4a7c15}
	for i := range k {
		h := k[i] * prime
		for j := 0; j < len(typ); j++ {
			h = (h ^ uint64(typ[j])) * prime
		}
		h = (h ^ 0x1f) * prime // (a byte no ID has)
		for j := 0; j < len(name); j++ {
			h = (h ^ uint64(name[j])) * prime
		}
		k[i] = (h ^ uint64(rank+1)) * prime
		k[i] ^= k[i] >> 29 // (the two halves differ by their offsets only: mix them apart)
		k[i] *= uint64(0xbf58476d1ce4e5b9) + uint64(i)<<1
	}
	return k
}

// keys returns the key of every node of t, by UID-1. The nodes of a subtree instance
// are keyed from the key of the SubTree node that made it.
func (m *matcher) keys(t *Tree) []nodeKey {
	keys := make([]nodeKey, len(t.nodes))
	scopes := map[*scope]nodeKey{}
	for n := range t.Nodes() { // parents first: a subtree's scope is known before its nodes
		sc := n.meta.scope
		prefix, ok := scopes[sc]
		if !ok {
			if n.meta.uid > 1 {
				prefix = keys[n.meta.uid-2] // the SubTree node, just before its subtree's root
			}
			scopes[sc] = prefix
		}
		keys[n.meta.uid-1] = m.within(prefix, sc.defs, sc.root, n.meta.def)
	}
	return keys
}

// within returns the key of the record root+i of a tree definition, in the instance
// whose key is prefix.
func (m *matcher) within(prefix nodeKey, d *defs, root uint32, i uint16) nodeKey {
	rel := m.relKeys(d, root)[i]
	if prefix == (nodeKey{}) { // the main tree's
		return rel
	}
	return m.step(m.step(prefix, "", "", int(rel[0]>>1)), "", "", int(rel[1]>>1))
}

// relKeys returns the keys of the records of a tree definition from root, by their
// index from root.
func (m *matcher) relKeys(d *defs, root uint32) []nodeKey {
	if keys, ok := m.rel[relOf{d, root}]; ok {
		return keys
	}
	var keys []nodeKey
	set := func(i uint32, k nodeKey) {
		if j := int(i - root); j >= len(keys) {
			keys = append(keys, make([]nodeKey, j+1-len(keys))...)
		}
		keys[i-root] = k
	}
	var walk func(i uint32, key nodeKey)
	walk = func(i uint32, key nodeKey) {
		set(i, key)
		r := &d.nodes[i]
		kids := d.nodes[r.first : r.first+uint32(r.nkids)]
		var seen map[[2]string]int // the ranks, for many children
		if len(kids) > 8 {
			seen = map[[2]string]int{}
		}
		for j := range kids {
			typ, name := stepOf(d, &kids[j])
			rank := 0
			if seen != nil {
				rank = seen[[2]string{typ, name}]
				seen[[2]string{typ, name}] = rank + 1
			} else {
				for k := range j {
					if t, n := stepOf(d, &kids[k]); t == typ && n == name {
						rank++
					}
				}
			}
			walk(r.first+uint32(j), m.step(key, typ, name, rank))
		}
	}
	typ, name := stepOf(d, &d.nodes[root])
	walk(root, m.step(nodeKey{}, typ, name, 0))
	m.rel[relOf{d, root}] = keys
	return keys
}

// stepOf is what a record adds to the keys of the nodes under it: its type and name.
func stepOf(d *defs, r *defNode) (typ, name string) {
	typ = d.models[r.model].ID
	if id := d.moreOf(r).treeID(); id != "" {
		typ = id
	}
	return typ, d.names[r.name]
}

// board gives a subtree instance of the new tree the blackboard of the old instance of
// the same key, when its SubTree node is the same (tree, remappings, values) and its
// parent instance kept its blackboard too; else a new one.
func (m *matcher) board(n *Node, parent *scope) (*blackboard.Blackboard, bool) {
	pkey, ok := m.boardKey[parent.bb]
	key := m.within(pkey, parent.defs, parent.root, n.meta.def)
	if o := m.byKey[key]; ok && m.reused[parent.bb] && o != nil && o.NumChildren() == 1 && o.Kind() == KindSubTree && m.same(o, n) {
		bb := o.Child(0).Blackboard()
		m.boardKey[bb], m.reused[bb] = key, true
		return bb, true
	}
	d, r := n.def()
	bb := parent.bb.NewChild(d.moreOf(r).autoRemap)
	m.boardKey[bb] = key
	return bb, false
}

// same reports whether the old node o and the new node n have the same definition.
func (m *matcher) same(o, n *Node) bool {
	m.bufA, m.bufB = o.appendPrint(m.bufA[:0]), n.appendPrint(m.bufB[:0])
	return bytes.Equal(m.bufA, m.bufB)
}

// match matches the nodes of nt, the new tree, with the old ones.
func (m *matcher) match(nt *Tree) *ReloadReport {
	old := m.old
	r := &ReloadReport{uids: make([]uint16, len(old.nodes))}
	m.newKeys = m.keys(nt)
	m.matched = make([]*Node, len(nt.nodes))
	m.kept = make([]*Node, len(nt.nodes))
	m.under = make([]bool, len(nt.nodes))
	var walk func(n *Node, parentKept bool)
	walk = func(n *Node, parentKept bool) {
		i := n.meta.uid - 1
		o := m.byKey[m.newKeys[i]]
		m.matched[i], m.under[i] = o, parentKept
		kept := false
		if o == nil {
			r.Added = append(r.Added, n.Path())
		} else {
			r.uids[o.meta.uid-1] = n.meta.uid
			same := m.same(o, n) && m.sameKids(o, n)
			if !same {
				r.Changed = append(r.Changed, n.Path())
			}
			kept = same && parentKept
		}
		if kept {
			m.kept[i] = o
			r.Kept++
		}
		for c := range n.NumChildren() {
			walk(n.Child(c), kept)
		}
	}
	walk(nt.root, true)
	for o := range old.Nodes() {
		if r.uids[o.meta.uid-1] == 0 {
			r.Removed = append(r.Removed, o.Path())
		}
	}
	return r
}

// sameKids reports whether the children of o and n have the same keys, in order.
func (m *matcher) sameKids(o, n *Node) bool {
	if o.NumChildren() != n.NumChildren() {
		return false
	}
	for i := range n.NumChildren() {
		if m.oldKeys[o.Child(i).meta.uid-1] != m.newKeys[n.Child(i).meta.uid-1] {
			return false
		}
	}
	return true
}

// carry carries over the state of the changed nodes of yours that save it (StateSaver):
// a leaf of the same type whose parent kept its state, and whose old behavior is not an
// async action with work under way. It returns them by new UID-1 (m.kept has them too);
// one whose SaveState or RestoreState fails or panics is halted as changed.
func (m *matcher) carry(nt *Tree, r *ReloadReport) []bool {
	carried := make([]bool, len(nt.nodes))
	for n := range nt.Nodes() {
		i := n.meta.uid - 1
		o := m.matched[i]
		if o == nil || m.kept[i] != nil || !m.under[i] || n.NumChildren() > 0 || o.NumChildren() > 0 || o.ID() != n.ID() {
			continue
		}
		ou, ok1 := o.core().(*userNode)
		nu, ok2 := n.core().(*userNode)
		if !ok1 || !ok2 || ou.saver() == nil || nu.saver() == nil {
			continue
		}
		if a, ok := ou.beh.(*async); ok && a.run != nil {
			continue
		}
		var state []byte
		err := contained(func() (err error) { state, err = ou.saver().SaveState(o); return err })
		if err == nil {
			err = contained(func() error { return nu.saver().RestoreState(n, state) })
		}
		if err != nil {
			continue
		}
		carried[i], m.kept[i] = true, o
		r.Carried = append(r.Carried, n.Path())
	}
	return carried
}

// halt halts, from the old node o down, the Running nodes whose state no new node
// keeps, and returns what failed.
func (m *matcher) halt(o *Node, r *ReloadReport) []error {
	if nu := r.uids[o.meta.uid-1]; nu != 0 && m.kept[nu-1] == o {
		var errs []error
		for i := range o.NumChildren() {
			errs = append(errs, m.halt(o.Child(i), r)...)
		}
		return errs
	}
	if o.Status() != Running {
		return nil
	}
	for uid := o.meta.uid; uid <= lastUID(o); uid++ { // the nodes under o
		if n := m.old.Node(uid); n.Status() == Running {
			r.Halted = append(r.Halted, n.Path())
		}
	}
	if err := o.halt(); err != nil {
		return []error{err}
	}
	return nil
}
