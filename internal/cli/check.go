package cli

import (
	"fmt"
	"slices"

	"github.com/gobt/bt/btxml"
)

var checkHelp = help{
	usage: "bt check [flags] FILE.xml...",
	text: `Check validates BehaviorTree.CPP files without running them: the XML, the node types
and their numbers of children, port names and literal values, scripts, subtrees and
their remappings. It loads each file (with its includes) on its own, builds every tree
that is not only used as a subtree, and prints every problem of every file as
"file:line:col: message". It exits with status 1 if there is any, and prints nothing
when all is well. Remarks on format-3 constructs that an upgrade to format 4 changes
go to stderr.

Trees that use node types implemented elsewhere — the custom nodes of a robotics
stack — check against their TreeNodesModel: kinds, numbers of children, port names
and literal values are checked without the implementations. The models come from
--models, and from the file's own <TreeNodesModel>, as Groot2 saves it.
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
	if err == nil {
		_, err = factoryWith(m) // its problems once, not once per file
	}
	if err != nil {
		c.printAll(err)
		return exitError
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

// printAll prints the problems of err on stdout, one per line.
func (c *cmd) printAll(err error) {
	for _, m := range messages(err) {
		fmt.Fprintln(c.stdout, m)
	}
}

// checkFile loads and builds the trees of one file; it returns its problems and the
// notes of its upgrade from format 3.
func checkFile(path string, m *models) (problems, notes []string) {
	f, err := factoryWith(m)
	if err != nil {
		return messages(err), nil
	}
	doc, dir, err := loadDocument(path)
	if err == nil {
		// The file's own TreeNodesModel (Groot2 saves one) declares its custom nodes.
		err = f.RegisterStandIns(doc.Models)
	}
	if err == nil {
		err = f.LoadDocument(doc)
	}
	for _, n := range f.Notes() {
		notes = append(notes, messages(located(&btxml.Error{Pos: n.Pos, Msg: "note: " + n.Msg}, dir))...)
	}
	if err != nil {
		return messages(located(err, dir)), notes
	}
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

// subtreesUsed returns the IDs of the trees that a <SubTree> of doc instantiates.
func subtreesUsed(doc *btxml.Document) map[string]bool {
	used := map[string]bool{}
	var walk func(e *btxml.Element)
	walk = func(e *btxml.Element) {
		if e == nil {
			return
		}
		if e.Tag == "SubTree" {
			used[e.ID] = true
		}
		for _, ch := range e.Children {
			walk(ch)
		}
	}
	for _, t := range doc.Trees {
		walk(t.Root)
	}
	return used
}
