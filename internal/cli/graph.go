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

var graphHelp = help{
	usage: "bt graph [flags] FILE.xml",
	text: `Graph draws a tree: as an indented text tree (the default), as Graphviz DOT (render
it with "dot -Tsvg") or as a Mermaid flowchart (GitHub and many editors render it
inside a mermaid code block). It draws --main, else the document's main tree, else
its only tree, else every tree of the document. Subtrees are drawn expanded under
their SubTree node, which keeps its own shape. Nodes are numbered n1, n2 … depth-first
(for one tree: as their UIDs in the built tree), and every attribute but the name is
shown.

Shapes by kind: Control — rounded box, Decorator — hexagon, Action — box, Condition —
ellipse (stadium in Mermaid), SubTree — 3-D box (subroutine in Mermaid); a node of
unknown type — dashed box (asymmetric in Mermaid). The kinds of node types that bt
does not know come from --models or the file's own TreeNodesModel; the file is not
otherwise validated (see "bt check").
`,
	example: `bt graph examples/patrol/patrol.xml
bt graph --format dot examples/sniper/sniper.xml | dot -Tsvg > sniper.svg
bt graph --format mermaid --main Async examples/fallbacks/fallbacks.xml`,
}

// graph implements "bt graph".
func (c *cmd) graph(args []string) int {
	fs := flags("graph")
	format := fs.String("format", "text", "draw as `FORMAT`: dot, mermaid or text")
	main := fs.String("main", "", "draw the tree `ID`")
	models := fs.String("models", "", "take the kinds of node types from the TreeNodesModel file `MODELS.xml`")
	files, code, ok := c.parse(fs, graphHelp, args)
	switch {
	case !ok:
		return code
	case len(files) != 1:
		return c.usageError(graphHelp, "graph needs one FILE.xml, got %d arguments", len(files))
	case !slices.Contains([]string{"dot", "mermaid", "text"}, *format):
		return c.usageError(graphHelp, "unknown --format %q: want dot, mermaid or text", *format)
	}
	f, err := factory(*models)
	if err != nil {
		c.fail(err)
		return exitError
	}
	doc, dir, err := loadDocument(files[0])
	if err != nil {
		c.fail(located(err, dir))
		return exitError
	}
	btxml.Upgrade(doc)
	trees, err := pickTrees(doc, *main)
	if err != nil {
		c.fail(err)
		return exitError
	}
	g := &grapher{f: f, doc: doc}
	var drawn []*gtree
	for _, t := range trees {
		drawn = append(drawn, &gtree{id: t.ID, root: g.node(t.Root, []string{t.ID})})
	}
	if g.uid > maxGraphNodes {
		c.fail(fmt.Errorf("%s: the drawing would have more than %d nodes (subtrees are expanded); draw a subtree with --main", files[0], maxGraphNodes))
		return exitError
	}
	var unknown []string
	walk(drawn, func(n *gnode) {
		if n.kind == "" && !slices.Contains(unknown, n.id) {
			unknown = append(unknown, n.id)
		}
	})
	if len(unknown) > 0 {
		// Drawn all the same, but a misspelt builtin looks like a custom node: say so.
		fmt.Fprintf(c.stderr, "bt: note: node types that bt does not know, drawn as unknown: %s (give their models with --models MODELS.xml; bt check says which are typos)\n", strings.Join(unknown, ", "))
	}
	switch *format {
	case "dot":
		writeDOT(c.stdout, drawn)
	case "mermaid":
		writeMermaid(c.stdout, drawn)
	default:
		writeText(c.stdout, drawn)
	}
	return exitOK
}

// fail prints the problems of err on stderr.
func (c *cmd) fail(err error) {
	for _, m := range messages(err) {
		fmt.Fprintf(c.stderr, "bt: %s\n", m)
	}
}

// pickTrees chooses what to draw: the tree id, else the main tree, else every tree.
func pickTrees(doc *btxml.Document, id string) ([]*btxml.Tree, error) {
	if id == "" {
		id = doc.MainTree
	}
	if id == "" {
		if len(doc.Trees) == 0 {
			return nil, fmt.Errorf("%s: no BehaviorTree to draw", doc.File)
		}
		return doc.Trees, nil
	}
	if t := doc.Tree(id); t != nil {
		return []*btxml.Tree{t}, nil
	}
	var ids []string
	for _, t := range doc.Trees {
		ids = append(ids, t.ID)
	}
	return nil, fmt.Errorf("no tree %q in %s: the trees are %s%s", id, doc.File, quoted(ids), typo.Suggest(id, ids))
}

// A gtree is a tree to draw, a gnode one of its nodes.
type gtree struct {
	id   string
	root *gnode // nil for an empty BehaviorTree
}

type gnode struct {
	uid   int
	kind  string // Action, Condition, Control, Decorator, SubTree, or "" when unknown
	id    string // the node type; for a SubTree, the tree it instantiates
	name  string
	attrs []btxml.Attr // all but the name
	note  string       // why a SubTree is not expanded
	kids  []*gnode
}

// maxGraphNodes bounds a drawing: subtrees instantiated several times in subtrees that
// are themselves instantiated several times multiply. A built tree has at most as many
// nodes (its UIDs are 16 bits).
const maxGraphNodes = 1<<16 - 1

// grapher turns document elements into gnodes, expanding subtrees.
type grapher struct {
	f   *bt.Factory
	doc *btxml.Document
	uid int
}

// node converts e and its children; inside lists the trees being expanded, so that a
// subtree that instantiates itself is drawn once.
func (g *grapher) node(e *btxml.Element, inside []string) *gnode {
	if e == nil || g.uid > maxGraphNodes {
		return nil
	}
	g.uid++
	n := &gnode{uid: g.uid, kind: g.kind(e), id: e.ID}
	for _, a := range e.Attrs {
		if a.Name == "name" {
			n.name = a.Value
		} else {
			n.attrs = append(n.attrs, a)
		}
	}
	if n.kind == "SubTree" {
		switch t := g.doc.Tree(e.ID); {
		case t == nil:
			n.note = "no such tree"
		case slices.Contains(inside, e.ID):
			n.note = "recursive"
		default:
			if k := g.node(t.Root, append(inside, e.ID)); k != nil {
				n.kids = append(n.kids, k)
			}
		}
		return n
	}
	for _, ch := range e.Children {
		if k := g.node(ch, inside); k != nil {
			n.kids = append(n.kids, k)
		}
	}
	return n
}

func (g *grapher) kind(e *btxml.Element) string {
	if e.Tag == "SubTree" {
		return "SubTree"
	}
	if m, ok := g.f.Model(e.ID); ok {
		return m.Kind.String()
	}
	if m := g.doc.Model(e.ID); m != nil {
		return m.Kind
	}
	if e.Explicit() {
		return e.Tag
	}
	return ""
}

// title is the first line of a node's label: its name, or its type.
func (n *gnode) title() string {
	if n.name != "" {
		return n.name
	}
	return n.id
}

// subtitle is the second line, when the title does not say it all: the type of a
// named node, or the SubTree's note.
func (n *gnode) subtitle() string {
	var parts []string
	switch {
	case n.kind == "SubTree" && n.name != "" && n.name != n.id:
		parts = append(parts, "SubTree "+n.id)
	case n.kind == "SubTree":
		parts = append(parts, "SubTree")
	case n.name != "" && n.name != n.id:
		parts = append(parts, n.id)
	}
	if n.note != "" {
		parts = append(parts, n.note)
	}
	return strings.Join(parts, ", ")
}

// quote writes a value between double quotes, escaping what would break the line.
func quote(v string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`, "\r", `\r`)
	return `"` + r.Replace(v) + `"`
}

// writeText draws the trees as indented text trees:
//
//	Sniper
//	└── ReactiveSequence
//	    ├── IsEnemyVisible (ScriptCondition) code="…"
//	    └── Shoot (Script) code="…"
func writeText(w io.Writer, trees []*gtree) {
	for i, t := range trees {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w, t.id)
		if t.root != nil {
			writeTextNode(w, t.root, "", true)
		}
	}
}

func writeTextNode(w io.Writer, n *gnode, prefix string, last bool) {
	branch, next := "├── ", "│   "
	if last {
		branch, next = "└── ", "    "
	}
	line := n.title()
	if sub := n.subtitle(); sub != "" {
		line += " (" + sub + ")"
	}
	for _, a := range n.attrs {
		line += " " + a.Name + "=" + quote(a.Value)
	}
	fmt.Fprintf(w, "%s%s%s\n", prefix, branch, line)
	for i, k := range n.kids {
		writeTextNode(w, k, prefix+next, i == len(n.kids)-1)
	}
}

// labelLines are the lines of a node's label in a drawing: title, subtitle and the
// attributes, shortened.
func (n *gnode) labelLines() []string {
	lines := []string{n.title()}
	if sub := n.subtitle(); sub != "" {
		lines = append(lines, "("+sub+")")
	}
	for _, a := range n.attrs {
		lines = append(lines, shorten(a.Name+"="+a.Value, 40))
	}
	return lines
}

// shorten cuts s to at most max characters, and to its first line.
func shorten(s string, max int) string {
	cut := false
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s, cut = s[:i], true
	}
	if r := []rune(s); len(r) > max {
		s, cut = string(r[:max-1]), true
	}
	if cut {
		s += "…"
	}
	return s
}

// walk visits the nodes of the trees in UID order.
func walk(trees []*gtree, visit func(n *gnode)) {
	var rec func(n *gnode)
	rec = func(n *gnode) {
		visit(n)
		for _, k := range n.kids {
			rec(k)
		}
	}
	for _, t := range trees {
		if t.root != nil {
			rec(t.root)
		}
	}
}

// label is the node's label lines, each escaped with esc, joined by sep.
func (n *gnode) label(esc *strings.Replacer, sep string) string {
	lines := n.labelLines()
	for j := range lines {
		lines[j] = esc.Replace(lines[j])
	}
	return strings.Join(lines, sep)
}

// dotShape gives the attributes that draw a node of kind in DOT.
func dotShape(kind string) string {
	switch kind {
	case "Control":
		return `shape=box, style="rounded,filled", fillcolor="#dae8fc"`
	case "Decorator":
		return `shape=hexagon, style=filled, fillcolor="#fff2cc"`
	case "Action":
		return `shape=box, style=filled, fillcolor="#d5e8d4"`
	case "Condition":
		return `shape=ellipse, style=filled, fillcolor="#ffe6cc"`
	case "SubTree":
		return `shape=box3d, style=filled, fillcolor="#e1d5e7"`
	}
	return `shape=box, style=dashed`
}

// writeDOT draws the trees in Graphviz DOT, one cluster per tree.
func writeDOT(w io.Writer, trees []*gtree) {
	esc := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	fmt.Fprint(w, "digraph bt {\n\tordering=out;\n\tnode [fontname=\"Helvetica\", fontsize=11];\n")
	for i, t := range trees {
		fmt.Fprintf(w, "\tsubgraph cluster_%d {\n\t\tlabel=\"%s\";\n", i+1, esc.Replace(t.id))
		walk([]*gtree{t}, func(n *gnode) {
			fmt.Fprintf(w, "\t\tn%d [label=\"%s\", %s];\n", n.uid, n.label(esc, `\n`), dotShape(n.kind))
		})
		walk([]*gtree{t}, func(n *gnode) {
			for _, k := range n.kids {
				fmt.Fprintf(w, "\t\tn%d -> n%d;\n", n.uid, k.uid)
			}
		})
		fmt.Fprint(w, "\t}\n")
	}
	fmt.Fprint(w, "}\n")
}

// mermaidShape gives the brackets around the label of a node of kind, and its class.
func mermaidShape(kind string) (open, close, class string) {
	switch kind {
	case "Control":
		return `("`, `")`, "control"
	case "Decorator":
		return `{{"`, `"}}`, "decorator"
	case "Action":
		return `["`, `"]`, "action"
	case "Condition":
		return `(["`, `"])`, "condition"
	case "SubTree":
		return `[["`, `"]]`, "subtree"
	}
	return `>"`, `"]`, "unknown"
}

// writeMermaid draws the trees as a Mermaid flowchart, one subgraph per tree.
func writeMermaid(w io.Writer, trees []*gtree) {
	// Mermaid reads entity codes in labels: quotes and markup characters must be coded.
	esc := strings.NewReplacer(`"`, "#34;", "<", "#60;", ">", "#62;", "&", "#38;", "#", "#35;")
	fmt.Fprintln(w, "flowchart TD")
	for i, t := range trees {
		fmt.Fprintf(w, "    subgraph t%d [\"%s\"]\n", i+1, esc.Replace(t.id))
		walk([]*gtree{t}, func(n *gnode) {
			open, close, class := mermaidShape(n.kind)
			fmt.Fprintf(w, "        n%d%s%s%s:::%s\n", n.uid, open, n.label(esc, "<br/>"), close, class)
		})
		walk([]*gtree{t}, func(n *gnode) {
			for _, k := range n.kids {
				fmt.Fprintf(w, "        n%d --> n%d\n", n.uid, k.uid)
			}
		})
		fmt.Fprintln(w, "    end")
	}
	fmt.Fprint(w, `    classDef control fill:#dae8fc,stroke:#6c8ebf
    classDef decorator fill:#fff2cc,stroke:#d6b656
    classDef action fill:#d5e8d4,stroke:#82b366
    classDef condition fill:#ffe6cc,stroke:#d79b00
    classDef subtree fill:#e1d5e7,stroke:#9673a6
    classDef unknown fill:#ffffff,stroke:#666666,stroke-dasharray:4
`)
}
