package btlog

import (
	"cmp"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/gobt/bt"
	"github.com/gobt/bt/btxml"
)

// WriteTreeXML writes the tree t as XML with the UID of every node, in the shape of
// BehaviorTree.CPP's WriteTreeToXML(tree, true, true), which .btlog files carry and
// Groot2 reads: a <BehaviorTree ID=".." _fullpath=".."> per tree instance (the main
// tree, whose _fullpath is "", then each subtree instance in UID order, whose
// _fullpath is the instance's path: its SubTree node's, without the ::UID of a node
// named like its tree), each node with its name, _uid, ports and
// scripted pre/post conditions, a SubTree as <SubTree ID=".." _fullpath=".." _uid="..">
// without children (and with its name, if it has one, which BehaviorTree.CPP leaves out
// but which loading the XML again needs), and a TreeNodesModel with the model of every node type the tree
// uses, builtin or not, sorted by ID.
//
// It works for any tree, built from XML or in Go. A tree built with bt.NewTree has no
// ID and is written as "MainTree". Input ports left unset are written with their
// model's default, as BehaviorTree.CPP does. Differences from BehaviorTree.CPP: ports
// keep the order they were set in (BehaviorTree.CPP's follows a hash map); pre/post
// conditions written in Go (bt.Spec.Pre and Post) have no text and are left out; the
// TreeNodesModel lists the node types the tree uses rather than every type its factory
// knows.
func WriteTreeXML(w io.Writer, t *bt.Tree) error {
	if w == nil {
		return errors.New("btlog: nil writer")
	}
	if t == nil {
		return errNilTree
	}
	return btxml.Write(w, treeDocument(t))
}

// treeDocument is the document WriteTreeXML writes.
func treeDocument(t *bt.Tree) *btxml.Document {
	d := &btxml.Document{Format: 4}
	id := t.ID()
	if id == "" {
		id = "MainTree"
	}
	models := map[*bt.Model]bool{}
	if root := t.Root(); root != nil {
		main := &btxml.Tree{ID: id, Attrs: []btxml.Attr{{Name: "_fullpath"}}}
		d.Trees = append(d.Trees, main)
		main.Root = element(d, root, models)
	}
	for m := range models {
		d.Models = append(d.Models, m.XML())
	}
	slices.SortFunc(d.Models, func(a, b *btxml.Model) int { return cmp.Compare(a.ID, b.ID) })
	return d
}

// element makes the element of n and its children; a SubTree adds the tree it
// instantiates to d.
func element(d *btxml.Document, n *bt.Node, models map[*bt.Model]bool) *btxml.Element {
	spec := n.Spec()
	models[spec.Model()] = true
	uid := btxml.Attr{Name: "_uid", Value: strconv.Itoa(int(n.UID()))}
	if sub := spec.SubTreeID(); sub != "" && n.NumChildren() == 1 {
		e := &btxml.Element{Tag: "SubTree", ID: sub}
		if spec.Name() != "" { // in the path, and to load the XML again
			e.Attrs = append(e.Attrs, btxml.Attr{Name: "name", Value: spec.Name()})
		}
		e.Attrs = append(e.Attrs, btxml.Attr{Name: "_fullpath", Value: n.Path()}, uid)
		e.Attrs = append(portAttrs(e.Attrs, spec, false), hookAttrs(spec)...)
		tree := &btxml.Tree{ID: sub, Attrs: []btxml.Attr{{Name: "_fullpath", Value: instancePath(n, spec)}}}
		d.Trees = append(d.Trees, tree) // before the subtrees inside it, as UIDs go
		tree.Root = element(d, n.Child(0), models)
		return e
	}
	e := &btxml.Element{Tag: n.Kind().String(), ID: n.ID(), Attrs: []btxml.Attr{{Name: "name", Value: n.Name()}, uid}}
	e.Attrs = append(portAttrs(e.Attrs, spec, true), hookAttrs(spec)...)
	for i := range n.NumChildren() {
		e.Children = append(e.Children, element(d, n.Child(i), models))
	}
	return e
}

// instancePath returns the path of the subtree instance that the SubTree node n
// makes: its own path, but for a node named like the tree, whose path ends in ::UID
// and whose instance's does not (as BehaviorTree.CPP names them).
func instancePath(n *bt.Node, spec *bt.Spec) string {
	if spec.Name() == spec.SubTreeID() {
		return strings.TrimSuffix(n.Path(), "::"+strconv.Itoa(int(n.UID())))
	}
	return n.Path()
}

// portAttrs appends the ports set on spec and, with defaults, the input ports left
// unset that have a default (and output ports whose default names an entry).
func portAttrs(attrs []btxml.Attr, spec *bt.Spec, defaults bool) []btxml.Attr {
	for name, value := range spec.Ports() {
		attrs = append(attrs, btxml.Attr{Name: name, Value: value})
	}
	if !defaults {
		return attrs
	}
	for _, p := range spec.Model().Ports {
		if _, set := spec.Port(p.Name); set || p.Default == "" {
			continue
		}
		if p.Dir != bt.DirOutput || isEntry(p.Default) {
			attrs = append(attrs, btxml.Attr{Name: p.Name, Value: p.Default})
		}
	}
	return attrs
}

// isEntry reports whether a port value names a blackboard entry: "{key}".
func isEntry(v string) bool { return len(v) >= 3 && v[0] == '{' && v[len(v)-1] == '}' }

// hookOrder is the order BehaviorTree.CPP writes pre/post conditions in: its enums'.
var hookOrder = [...]bt.Cond{bt.FailureIf, bt.SuccessIf, bt.SkipIf, bt.While,
	bt.OnHalted, bt.OnFailure, bt.OnSuccess, bt.Post}

func hookAttrs(spec *bt.Spec) []btxml.Attr {
	var attrs []btxml.Attr
	for _, h := range hookOrder {
		if script, ok := spec.CondScript(h); ok {
			attrs = append(attrs, btxml.Attr{Name: h.String(), Value: script})
		}
	}
	return attrs
}
