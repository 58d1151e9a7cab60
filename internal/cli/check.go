package cli

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/gobt/bt"
	"github.com/gobt/bt/btxml"
	"github.com/gobt/bt/internal/typo"
)

var checkHelp = help{
	usage: "bt check [flags] FILE.xml...",
	text: `Check validates BehaviorTree.CPP files without running them: the XML, the node types
and their numbers of children, port names and literal values, scripts, subtrees and
their remappings. It loads each file (with its includes) on its own, builds every tree
that is not only used as a subtree, and prints every problem of every file as
"file:line:col: message". It exits with status 1 if there is any, and prints nothing
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
	for _, path := range files {
		problems, notes := checkFile(path, m)
		for _, p := range problems {
			fmt.Fprintln(c.stdout, p)
			status = exitError
		}
		for _, n := range notes {
			fmt.Fprintln(c.stderr, n)
		}
	}
	return status
}

// printAll prints the problems of err on w, one per line.
func printAll(w io.Writer, err error) {
	for _, m := range messages(err) {
		fmt.Fprintln(w, m)
	}
}

// checkFile loads and builds the trees of one file; it returns its problems and the
// notes on it (those of the models file were printed already).
func checkFile(path string, m *models) (problems, notes []string) {
	f, err := factoryWith(m)
	if err != nil {
		return messages(err), nil
	}
	known := len(f.Notes())
	doc, dir, err := loadDocument(path)
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
	missing := missingSubtrees(doc)
	if err != nil {
		return append(messages(located(err, dir)), messages(located(missing, dir))...), notes
	}
	problems = messages(located(missing, dir))
	used := subtreesUsed(doc)
	for _, id := range f.TreeIDs() {
		if used[id] {
			continue // built where it is used, with its remappings
		}
		if _, err := f.NewTree(id); err != nil {
			for _, m := range messagesIn(located(err, dir), path) {
				if !slices.Contains(problems, m) {
					problems = append(problems, m)
				}
			}
		}
	}
	return problems, notes
}

// notesOf formats notes on files whose positions are relative to dir.
func notesOf(notes []btxml.Note, dir string) []string {
	var out []string
	for _, n := range notes {
		out = append(out, messages(located(&btxml.Error{Pos: n.Pos, Msg: "note: " + n.Msg}, dir))...)
	}
	return out
}

// missingSubtrees reports the <SubTree> elements of doc that name none of its trees, as
// Factory.NewTree does.
func missingSubtrees(doc *btxml.Document) error {
	if doc == nil {
		return nil
	}
	var ids []string
	for _, t := range doc.Trees {
		ids = append(ids, t.ID)
	}
	slices.Sort(ids)
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
