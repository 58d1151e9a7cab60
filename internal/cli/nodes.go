package cli

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/gobt/bt"
	"github.com/gobt/bt/btxml"
	"github.com/gobt/bt/internal/typo"
)

var nodesHelp = help{
	usage: "bt nodes [flags] [ID...]",
	text: `Nodes lists the node types bt knows — every builtin node, and the node types of
--models — or only those named: for each, its ID and kind, its description, and its
ports with their direction, name, type, default (or "required": a tree must set
the port) and description.
`,
	example: `bt nodes
bt nodes Repeat RetryUntilSuccessful
bt nodes --models examples/nav2/nav2_models.xml`,
}

// nodes implements "bt nodes".
func (c *cmd) nodes(args []string) int {
	fs := flags("nodes")
	models := fs.String("models", "", "also list the node types of the TreeNodesModel file `MODELS.xml`")
	ids, code, ok := c.parse(fs, nodesHelp, args)
	if !ok {
		return code
	}
	f, err := factory(*models)
	if err != nil {
		printAll(c.stderr, err)
		return exitError
	}
	list := f.Models()
	if len(ids) > 0 {
		var known []string
		for _, m := range list {
			known = append(known, m.ID)
		}
		list = list[:0:0]
		for _, id := range ids {
			m, ok := f.Model(id)
			if !ok {
				fmt.Fprintf(c.stderr, "bt: unknown node %q%s\n", id, typo.Suggest(id, known))
				return exitError
			}
			list = append(list, m)
		}
	}
	for i, m := range list {
		if i > 0 {
			fmt.Fprintln(c.stdout)
		}
		writeNode(c.stdout, m)
	}
	return exitOK
}

// writeNode writes one entry of the catalogue:
//
//	Repeat (Decorator)
//	    Ticks its child num_cycles times …
//	    input  num_cycles  int    repeat this many times
func writeNode(w io.Writer, m *bt.Model) {
	fmt.Fprintf(w, "%s (%s)\n", m.ID, m.Kind)
	if m.Description != "" {
		fmt.Fprintf(w, "    %s\n", strings.ReplaceAll(m.Description, "\n", "\n    "))
	}
	var rows bytes.Buffer
	tw := tabwriter.NewWriter(&rows, 0, 0, 2, ' ', 0)
	for _, p := range m.Ports {
		def := ""
		switch {
		case p.HasDefault:
			def = fmt.Sprintf("default %q", p.Default)
		case p.Required:
			def = "required"
		}
		fmt.Fprintf(tw, "    %s\t%s\t%s\t%s\t%s\n", p.Dir, p.Name, p.XMLType(), def, p.Description)
	}
	tw.Flush()
	for _, line := range strings.SplitAfter(rows.String(), "\n") {
		// An empty last column leaves padding behind.
		if trimmed := strings.TrimRight(line, " \n"); trimmed != "" {
			fmt.Fprintln(w, trimmed)
		}
	}
}

var modelsHelp = help{
	usage: "bt models [flags]",
	text: `Models writes the TreeNodesModel XML of the node types bt knows, in the shape
BehaviorTree.CPP writes it, for Groot2 or for "bt check --models". Builtin nodes,
which Groot2 knows already, are included only with --builtins; the node types of
--models are always included, as they were read (in canonical form, sorted by ID,
with their comments); one of the two flags is needed. A program's own node types are
known to the program only: it writes their models with Factory.WriteModels.

--from FILE.xml starts a models file for a tree whose node types bt does not know:
it writes a model for each, as the tree uses it — an Action for a node without
children, a Decorator with one, a Control with more; an input port per attribute,
inout when its value names an entry ({key}) — without types, which the program
knows. Edit it (Conditions, types, required ports) and give it to "bt check
--models" and "bt run --models".
`,
	example: `bt models --builtins > builtin_models.xml
bt models --from examples/nav2/navigate_v3.xml`,
}

// models implements "bt models".
func (c *cmd) models(args []string) int {
	fs := flags("models")
	builtins := fs.Bool("builtins", false, "include the builtin nodes")
	models := fs.String("models", "", "include the node types of the TreeNodesModel file `MODELS.xml`")
	from := fs.String("from", "", "write models for the node types `FILE.xml` uses that bt does not know, inferred from the tree")
	rest, code, ok := c.parse(fs, modelsHelp, args)
	switch {
	case !ok:
		return code
	case len(rest) > 0:
		return c.usageError(modelsHelp, "models takes no arguments, got %q", rest[0])
	case *from != "" && *builtins:
		return c.usageError(modelsHelp, "--from writes the models of a tree's unknown node types only: leave out --builtins")
	case *from != "":
		return c.modelsFrom(*from, *models)
	case !*builtins && *models == "":
		// Without either, the list would be empty: bt knows no program's nodes.
		return c.usageError(modelsHelp, "models writes the builtin nodes (--builtins) and those of a models file (--models MODELS.xml); give one of them: bt knows no program's own nodes, which a Go program writes with Factory.WriteModels")
	}
	f, err := factory(*models)
	if err != nil {
		printAll(c.stderr, err)
		return exitError
	}
	if err := f.WriteModels(c.stdout, *builtins); err != nil {
		fmt.Fprintf(c.stderr, "bt: %v\n", err)
		return exitError
	}
	return exitOK
}

// modelsFrom implements "bt models --from": the models of the node types the file at
// path uses and that bt (with the models of modelsPath) does not know, inferred from
// the file.
func (c *cmd) modelsFrom(path, modelsPath string) int {
	f, err := factory(modelsPath)
	var doc *btxml.Document
	dir := ""
	if err == nil {
		doc, dir, err = loadDocument(path)
	}
	if err == nil {
		err = f.RegisterStandIns(doc.Models)
	}
	if err != nil {
		printAll(c.stderr, located(err, dir))
		return exitError
	}
	inferred := inferModels(doc, f)
	if len(inferred) == 0 {
		fmt.Fprintf(c.stderr, "bt: %s uses no node type that bt does not know: there is no model to write\n", path)
		return exitError
	}
	for _, m := range inferred {
		m.Pos = btxml.Pos{} // the positions are those of the tree's elements
	}
	if err := btxml.WriteModels(c.stdout, inferred); err != nil {
		fmt.Fprintf(c.stderr, "bt: %v\n", err)
		return exitError
	}
	return exitOK
}
