package cli

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"

	"github.com/gobt/bt"
	"github.com/gobt/bt/btxml"
	"github.com/gobt/bt/internal/typo"
)

var checkHelp = help{
	usage: "bt check [flags] FILE.xml...",
	text: `Check validates BehaviorTree.CPP files without running them: the XML, the node types
and their numbers of children, port names and literal values, scripts, subtrees and
their remappings. It loads each file (with its includes) on its own, with the trees it
instantiates but does not define taken from the other files given (as a program that
loads them all into one factory finds them; a subtree none of them defines is an
error), builds every tree of the file that is not only used as a subtree, and prints
every problem of every file as "file:line:col: message". It exits with status 1 if there is any, and prints nothing
when all is well. Remarks ("file:line:col: note: …") go to stderr: format-3
constructs that an upgrade to format 4 changes, and what a models file holds that
BehaviorTree.CPP does not read.

Trees that use node types implemented elsewhere — the custom nodes of a robotics
stack — check against their TreeNodesModel: kinds, numbers of children, port names
and literal values are checked without the implementations. The models come from
--models, and from the file's own <TreeNodesModel>, as Groot2 saves it. As
BehaviorTree.CPP does not read them, a port element it does not define (Nav2's
<bidirectional_port>) is a port of unknown direction, and a port's default is
documentation, which need not be of the port's type: both are notes.
`,
	example: `bt check examples/sniper/*.xml examples/patrol/*.xml
bt check --models examples/nav2/nav2_models.xml examples/*/*.xml`,
}

// check implements "bt check".
func (c *cmd) check(args []string) int {
	fs := flags("check")
	models := fs.String("models", "", "declare the node types of the TreeNodesModel file `MODELS.xml`")
	files, code, ok := c.parse(fs, checkHelp, args)
	switch {
	case !ok:
		return code
	case len(files) == 0:
		return c.usageError(checkHelp, "check needs at least one FILE.xml")
	}
	m, err := readModels(*models)
	var mf *bt.Factory
	if err == nil {
		mf, err = factoryWith(m) // its problems and notes once, not once per file
	}
	if err != nil {
		printAll(c.stdout, err) // check's problems are its output
		return exitError
	}
	if m != nil {
		notes := append(slices.Clone(m.notes), mf.Notes()...)
		slices.SortStableFunc(notes, func(a, b btxml.Note) int {
			return cmp.Or(cmp.Compare(a.Pos.File, b.Pos.File), cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Col, b.Pos.Col))
		})
		for _, n := range notesOf(notes, m.dir) {
			fmt.Fprintln(c.stderr, n)
		}
	}
	status := exitOK
	var unknown, typos []string
	for _, path := range files {
		problems, notes, types, misspelt := checkFile(path, m, files)
		for _, p := range problems {
			fmt.Fprintln(c.stdout, p)
			status = exitError
		}
		for _, n := range notes {
			fmt.Fprintln(c.stderr, n)
		}
		unknown, typos = union(unknown, types), union(typos, misspelt)
	}
	hintCustomNodes(c.stderr, unknown, typos, false)
	return status
}

// union adds to list the names of more that it does not hold yet.
func union(list, more []string) []string {
	for _, id := range more {
		if !slices.Contains(list, id) {
			list = append(list, id)
		}
	}
	return list
}

// printAll prints the problems of err on w, one per line.
func printAll(w io.Writer, err error) {
	for _, m := range messages(err) {
		fmt.Fprintln(w, m)
	}
}

// checkFile loads and builds the trees of one file; it returns its problems and the
// notes on it (those of the models file were printed already), and the node types it
// uses that bt does not know (see hintCustomNodes). The trees it
// instantiates but does not define come from the other files of the set checked, as
// when a program loads them all into one factory; its own trees win over theirs, and
// their problems are theirs to report.
func checkFile(path string, m *models, set []string) (problems, notes, unknown, typos []string) {
	f, err := factoryWith(m)
	if err != nil {
		return messages(err), nil, nil, nil
	}
	doc, dir, err := loadDocument(path)
	if err == nil {
		supplySubtrees(f, doc, dir, path, set)
	}
	known := len(f.Notes())
	if err == nil {
		// The file's own TreeNodesModel (Groot2 saves one) declares its custom nodes.
		err = f.RegisterStandIns(doc.Models)
	}
	if err == nil {
		err = f.LoadDocument(doc)
	} else if doc != nil {
		notes = notesOf(doc.Notes, dir)
	}
	notes = append(notes, notesOf(f.Notes()[known:], dir)...)
	// A missing subtree is an error of NewTree, not of the load; it is reported also
	// when the load fails, and by NewTree in the same words.
	missing := missingSubtrees(doc, f.TreeIDs())
	if err != nil {
		unknown, typos = unknownTypes(doc, f)
		return append(messages(located(err, dir)), messages(located(missing, dir))...), notes, unknown, typos
	}
	if len(doc.Trees) == 0 && len(doc.Models) == 0 {
		// Nothing to check is a mistake: the wrong file, or a file not yet written.
		return []string{path + ": the file defines no tree (no <BehaviorTree>) and no node models: nothing to check"}, notes, nil, nil
	}
	problems = messages(located(missing, dir))
	used := subtreesUsed(doc)
	own := ownFiles(doc)
	for _, t := range doc.Trees {
		if used[t.ID] || !own[t.Pos.File] {
			continue // built where it is used, with its remappings
		}
		if _, err := f.NewTree(t.ID); err != nil {
			for _, m := range messagesIn(located(only(err, own), dir), path) {
				if !slices.Contains(problems, m) {
					problems = append(problems, m)
				}
			}
		}
	}
	return problems, notes, nil, nil
}

// ownFiles returns the files doc was read from (the file and its includes), as its
// positions name them.
func ownFiles(doc *btxml.Document) map[string]bool {
	own := map[string]bool{doc.File: true}
	for _, t := range doc.Trees {
		own[t.Pos.File] = true
	}
	return own
}

// only returns the problems of err that are in the files own (or have no position).
func only(err error, own map[string]bool) error {
	var keep []error
	var walk func(err error)
	walk = func(err error) {
		var pe *btxml.Error
		switch e := err.(type) {
		case nil:
		case interface{ Unwrap() []error }:
			for _, sub := range e.Unwrap() {
				walk(sub)
			}
		default:
			if errors.As(err, &pe) && pe.Pos.File != "" && !own[pe.Pos.File] {
				return
			}
			keep = append(keep, err)
		}
	}
	walk(err)
	return errors.Join(keep...)
}

// supplySubtrees loads into f, before doc, the other files of the set that define the
// trees doc instantiates without defining them, and those those trees need. Their
// positions are rewritten relative to dir, doc's directory. Files that do not load
// are left out: they report their own problems.
func supplySubtrees(f *bt.Factory, doc *btxml.Document, dir, path string, set []string) {
	defined := map[string]bool{}
	for _, t := range doc.Trees {
		defined[t.ID] = true
	}
	var need []string
	addNeeds := func(d *btxml.Document) {
		walkSubTrees(d, func(e *btxml.Element) {
			if !defined[e.ID] && !slices.Contains(need, e.ID) {
				need = append(need, e.ID)
			}
		})
	}
	addNeeds(doc)
	var supply []*btxml.Document
	for k := 0; k < len(need); k++ {
		for _, other := range set {
			if other == path || defined[need[k]] {
				continue
			}
			d, odir, err := loadDocument(other)
			if err != nil || !slices.ContainsFunc(d.Trees, func(t *btxml.Tree) bool { return t.ID == need[k] }) {
				continue
			}
			relocate(d, dir, odir)
			for _, t := range d.Trees {
				defined[t.ID] = true
			}
			supply = append(supply, d)
			addNeeds(d)
		}
	}
	for _, d := range supply {
		if f.RegisterStandIns(d.Models) == nil {
			_ = f.LoadDocument(d)
		}
	}
}

// relocate rewrites the positions of d, a document read from odir, relative to dir.
func relocate(d *btxml.Document, dir, odir string) {
	if filepath.Clean(dir) == filepath.Clean(odir) {
		return
	}
	rel := func(p *btxml.Pos) {
		if p.File != "" {
			if r, err := filepath.Rel(dir, filepath.Join(odir, p.File)); err == nil {
				p.File = filepath.ToSlash(r)
			}
		}
	}
	var walk func(e *btxml.Element)
	walk = func(e *btxml.Element) {
		if e == nil {
			return
		}
		rel(&e.Pos)
		for i := range e.Attrs {
			rel(&e.Attrs[i].Pos)
		}
		for _, c := range e.Children {
			walk(c)
		}
	}
	for _, t := range d.Trees {
		rel(&t.Pos)
		walk(t.Root)
	}
	for _, m := range d.Models {
		rel(&m.Pos)
		for i := range m.Ports {
			rel(&m.Ports[i].Pos)
		}
	}
}

// notesOf formats notes on files whose positions are relative to dir.
func notesOf(notes []btxml.Note, dir string) []string {
	var out []string
	for _, n := range notes {
		out = append(out, messages(located(&btxml.Error{Pos: n.Pos, Msg: "note: " + n.Msg}, dir))...)
	}
	return out
}

// missingSubtrees reports the <SubTree> elements of doc that name none of its trees and
// none of registered, as Factory.NewTree does.
func missingSubtrees(doc *btxml.Document, registered []string) error {
	if doc == nil {
		return nil
	}
	ids := slices.Clone(registered)
	for _, t := range doc.Trees {
		ids = append(ids, t.ID)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	var errs []error
	walkSubTrees(doc, func(e *btxml.Element) {
		if _, found := slices.BinarySearch(ids, e.ID); !found {
			errs = append(errs, &btxml.Error{Pos: e.Pos, Msg: fmt.Sprintf("no tree %q to instantiate%s", e.ID, typo.Suggest(e.ID, ids))})
		}
	})
	return errors.Join(errs...)
}

// walkSubTrees calls fn with every <SubTree> element of doc.
func walkSubTrees(doc *btxml.Document, fn func(e *btxml.Element)) {
	var walk func(e *btxml.Element)
	walk = func(e *btxml.Element) {
		if e == nil {
			return
		}
		if e.Tag == "SubTree" {
			fn(e)
		}
		for _, ch := range e.Children {
			walk(ch)
		}
	}
	for _, t := range doc.Trees {
		walk(t.Root)
	}
}

// subtreesUsed returns the IDs of the trees that a <SubTree> of doc instantiates.
func subtreesUsed(doc *btxml.Document) map[string]bool {
	used := map[string]bool{}
	walkSubTrees(doc, func(e *btxml.Element) { used[e.ID] = true })
	return used
}
