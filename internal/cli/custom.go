package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gobt/bt"
	"github.com/gobt/bt/btxml"
	"github.com/gobt/bt/internal/typo"
)

// unknownTypes returns the node types that the trees of doc use and that f does not
// know — a program's own nodes, whose models were not given — in the order they first
// appear: in custom those that look like a program's own, in typos those whose name
// is close to a known one (the error's "did you mean" answers them, unless they are a
// program's own too).
func unknownTypes(doc *btxml.Document, f *bt.Factory) (custom, typos []string) {
	if doc == nil {
		return nil, nil
	}
	var known []string
	for _, m := range f.Models() {
		known = append(known, m.ID)
	}
	walkElements(doc, func(e *btxml.Element) {
		if e.Tag == "SubTree" || doc.Tree(e.ID) != nil || slices.Contains(custom, e.ID) || slices.Contains(typos, e.ID) {
			return
		}
		switch _, ok := f.Model(e.ID); {
		case ok:
		case typo.Suggest(e.ID, known) == "":
			custom = append(custom, e.ID)
		default:
			typos = append(typos, e.ID)
		}
	})
	return custom, typos
}

// walkElements calls fn with every element of the trees of doc.
func walkElements(doc *btxml.Document, fn func(e *btxml.Element)) {
	var walk func(e *btxml.Element)
	walk = func(e *btxml.Element) {
		if e == nil {
			return
		}
		fn(e)
		for _, ch := range e.Children {
			walk(ch)
		}
	}
	for _, t := range doc.Trees {
		walk(t.Root)
	}
}

// hintCustomNodes says once, after the errors naming them, what to do about node types
// that bt does not know: they are a program's own, and need their models (or mocks).
// typos are those that look like misspelt builtins: they are named only when there
// is nothing else to say. run says whether the command is "bt run", which can mock
// them on the spot.
func hintCustomNodes(w io.Writer, custom, typos []string, run bool) {
	dry := "bt run --mock-all FILE.xml"
	if run {
		dry = "add --mock-all"
	}
	if len(custom) == 0 {
		if len(typos) > 0 {
			fmt.Fprintf(w, "bt: if %s is a node type of your program rather than a typo, give its model with --models MODELS.xml, or for a dry run %s.\n", strings.Join(typos, ", "), dry)
		}
		return
	}
	what := "a node type"
	if len(custom) > 1 {
		what = fmt.Sprintf("%d node types", len(custom))
	}
	fmt.Fprintf(w, "bt: %s that bt does not know: %s.\n", what, strings.Join(custom, ", "))
	fmt.Fprint(w, "bt: A program's own nodes are declared by their TreeNodesModel: give it with --models MODELS.xml\n")
	fmt.Fprint(w, "bt: (a Go program writes it with Factory.WriteModels, BehaviorTree.CPP with writeTreeNodesModelXML,\n")
	fmt.Fprint(w, "bt: Groot2 saves its palette in the project), or put a <TreeNodesModel> in the file;\n")
	fmt.Fprint(w, "bt: bt models --from FILE.xml starts one from the way the tree uses them.\n")
	if run {
		fmt.Fprint(w, "bt: For a dry run without them, add --mock-all: each becomes a mock that returns SUCCESS.\n")
	} else {
		fmt.Fprint(w, "bt: For a dry run without them: bt run --mock-all FILE.xml.\n")
	}
}

// inferModels makes a TreeNodesModel entry for each node type of doc that f does not
// know, from the way doc uses it, so that --mock-all can mock it without a models file:
// its kind from its tag (<Action ID="X">) or its children (none: an Action, one: a
// Decorator, more: a Control), its ports from its attributes (of unknown type; those
// that name an entry, "{key}", may be written too).
func inferModels(doc *btxml.Document, f *bt.Factory) []*btxml.Model {
	custom, typos := unknownTypes(doc, f)
	unknown := append(custom, typos...) // a typo is mocked too, and named on stderr
	byID := map[string]*btxml.Model{}
	kids := map[string]int{}
	walkElements(doc, func(e *btxml.Element) {
		if !slices.Contains(unknown, e.ID) {
			return
		}
		m := byID[e.ID]
		if m == nil {
			m = &btxml.Model{ID: e.ID, Pos: e.Pos}
			byID[e.ID] = m
		}
		kids[e.ID] = max(kids[e.ID], len(e.Children))
		if e.Explicit() {
			m.Kind = e.Tag
		}
		for _, a := range e.Attrs {
			if a.Name == "name" || a.Name == "ID" || strings.HasPrefix(a.Name, "_") ||
				slices.ContainsFunc(m.Ports, func(p btxml.PortModel) bool { return p.Name == a.Name }) {
				continue
			}
			dir := btxml.DirInput
			if strings.HasPrefix(a.Value, "{") && strings.HasSuffix(a.Value, "}") {
				dir = btxml.DirInOut
			}
			m.Ports = append(m.Ports, btxml.PortModel{Dir: dir, Name: a.Name, Pos: a.Pos})
		}
	})
	var out []*btxml.Model
	for _, id := range unknown {
		m := byID[id]
		switch {
		case m.Kind != "":
		case kids[id] == 0:
			m.Kind = "Action"
		case kids[id] == 1:
			m.Kind = "Decorator"
		default:
			m.Kind = "Control"
		}
		out = append(out, m)
	}
	return out
}
