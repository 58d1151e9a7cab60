package bt

import (
	"fmt"
	"slices"

	"github.com/gobt/bt/btxml"
	"github.com/gobt/bt/internal/typo"
)

// Linking resolves the SubTree nodes of the trees a Factory read from XML. A document's
// definitions name the trees their SubTrees instantiate by ID, so that documents can be
// loaded in any order and a tree can be loaded again, replacing the old definition
// (BehaviorTree.CPP finds subtrees by ID when it creates a tree, too). When a tree is
// created, the Factory links its definition: a copy of it whose SubTree records point
// to the linked definitions of the trees registered under their IDs now. A SubTree
// whose tree is missing, or that instantiates itself, gets the error in its record,
// which NewTree reports at its position — unless a substitution rule replaces it.
//
// The Factory keeps the linked definitions until a document is loaded: trees built
// in between share them (and their specs and fingerprint), and trees built before a
// reload keep the definitions they were built from.

// linker links the trees reachable from one tree.
type linker struct {
	f     *Factory
	defs  map[*defs]*defs // the copies of the definitions met so far
	own   map[*defs]bool  // the copies with records and ports of their own
	stack []*treeDef      // the trees being linked, to find cycles
}

// linked returns the linked definition of the registered tree d.
func (f *Factory) linked(d *treeDef) *treeDef {
	if d.subs == nil {
		return d // no SubTree: nothing to link
	}
	f.linkMu.Lock()
	defer f.linkMu.Unlock()
	if lt := f.links[d]; lt != nil {
		return lt
	}
	if f.links == nil {
		f.links = map[*treeDef]*treeDef{}
	}
	l := linker{f: f, defs: map[*defs]*defs{}, own: map[*defs]bool{}}
	return l.tree(d)
}

// tree returns the linked definition of t, linking it if it is not yet.
func (l *linker) tree(t *treeDef) *treeDef {
	if t.subs == nil {
		return t
	}
	if lt := l.f.links[t]; lt != nil {
		return lt
	}
	l.stack = append(l.stack, t)
	d := l.copyOf(t.defs)
	for _, i := range t.subs {
		r := &t.defs.nodes[i]
		m := &d.extras[r.more]
		sub, ok := l.f.trees[m.subID]
		var msg string
		switch {
		case !ok:
			msg = fmt.Sprintf("no tree %q to instantiate%s", m.subID, typo.Suggest(m.subID, l.f.TreeIDs()))
		case slices.Contains(l.stack, sub):
			msg = fmt.Sprintf("subtree %q instantiates itself: %s", sub.id, cycle(l.stack[slices.Index(l.stack, sub):], sub))
		default:
			m.sub = l.tree(sub)
			l.modelPorts(d, i)
			continue
		}
		// The problem of the definition, at the SubTree element, whichever instance
		// meets it (see builder.fail).
		pos := btxml.Pos{File: d.files[r.file], Line: r.line, Col: r.col}
		m.errs = append(slices.Clip(m.errs), &btxml.Error{Pos: pos, Msg: msg})
	}
	l.stack = l.stack[:len(l.stack)-1]
	lt := &treeDef{id: t.id, defs: d, root: t.root}
	lt.size = d.size(t.root)
	l.f.links[t] = lt
	return lt
}

// copyOf returns the linker's copy of the definitions d, whose SubTree records it
// fills. The copy shares all but those records with d.
func (l *linker) copyOf(d *defs) *defs {
	if c := l.defs[d]; c != nil {
		return c
	}
	c := &defs{nodes: d.nodes, models: d.models, names: d.names, files: d.files, ports: d.ports,
		extras: slices.Clone(d.extras)}
	l.defs[d] = c
	return c
}

// modelPorts gives the SubTree record i of d the ports that the TreeNodesModel of its
// tree declares (BehaviorTree.CPP's subtree models, read when the tree is created as
// there): a port that is not remapped takes its default, and is an error without one
// (unless _autoremap).
func (l *linker) modelPorts(d *defs, i uint32) {
	r := &d.nodes[i]
	more := &d.extras[r.more]
	model := l.f.subModels[more.subID]
	if model == nil || more.autoRemap {
		return
	}
	var add []portValue
	for _, p := range model.Ports {
		switch {
		case d.port(r, p.Name) != nil: // remapped
		case p.Dir != btxml.DirInput && p.Dir != btxml.DirOutput && p.Dir != btxml.DirInOut:
			// <bidirectional_port> and the like: BehaviorTree.CPP reads no such port
		case !p.HasDefault || p.Default == "":
			more.errs = append(slices.Clip(more.errs), &btxml.Error{Pos: btxml.Pos{File: d.files[r.file], Line: r.line, Col: r.col},
				Msg: fmt.Sprintf("the TreeNodesModel of subtree %q declares the port %q without a default: remap it", more.subID, p.Name)})
		default:
			add = append(add, portValue{name: p.Name, value: p.Default})
		}
	}
	if len(add) == 0 || int(r.nports)+len(add) > maxWide {
		return
	}
	if !l.own[d] { // the records and ports are still those of the definition read
		d.nodes, d.ports = slices.Clone(d.nodes), slices.Clip(d.ports)
		l.own[d] = true
		r = &d.nodes[i]
	}
	// The record's ports, and the defaults after them, at the end of the table.
	start := len(d.ports)
	d.ports = append(append(d.ports, d.portsOf(r)...), add...)
	r.ports, r.nports = uint32(start), r.nports+uint16(len(add))
}
