package btxml

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Write writes d as canonical XML: <root BTCPP_format=".."> (d.Format, 4 unless
// it is 3) with main_tree_to_execute and the other root attributes, then the
// includes, the trees and the models, in the order they are stored, indented
// by four spaces. Attributes keep their order. Nodes use the compact form,
// <Sequence name="x">, except <SubTree ID=".."> and the nodes whose ID cannot
// be a tag name (not an XML name, or one of the kind names), which keep their
// explicit form. Values escape &, <, >, " and write newlines, carriage
// returns and tabs as character references, so that they survive a round
// trip. Elements without children are self-closing.
//
// Write writes what d holds: a Document from Load has the trees and models of
// its includes and still lists the includes; set Includes to nil to write a
// self-contained file. Write fails only for data that XML cannot carry (an ID
// or attribute name that is not an XML name, a character XML does not allow)
// or that is not a document (an unknown model kind, a cycle of elements);
// then nothing is written.
func Write(w io.Writer, d *Document) error {
	return write(w, func(b *writer) { b.document(d) })
}

// WriteModels writes models as a TreeNodesModel document, the shape
// BehaviorTree.CPP's writeTreeNodesModelXML and Groot2 use: an element per
// model, sorted by ID, with its ports in declaration order as
// <input_port name=".." type=".." default="..">description</input_port>,
// a <description> if it has one, and its metadata as
// <MetadataFields><Metadata key="value"/></MetadataFields>.
func WriteModels(w io.Writer, models []*Model) error {
	if w == nil {
		return fmt.Errorf("btxml: nil writer")
	}
	if slices.Contains(models, nil) {
		return fmt.Errorf("btxml: nil model")
	}
	sorted := slices.Clone(models)
	slices.SortStableFunc(sorted, func(a, b *Model) int { return cmp.Compare(a.ID, b.ID) })
	return write(w, func(b *writer) {
		b.str("<root BTCPP_format=\"4\">\n")
		b.models(sorted, 1)
		b.str("</root>\n")
	})
}

// write runs fill twice: a dry run that checks the data and measures the
// output, then the real one through a buffer. So an invalid document writes
// nothing, and the output never has to be held in memory whole.
func write(w io.Writer, fill func(*writer)) error {
	var dry writer
	if fill(&dry); dry.err != nil {
		return dry.err
	}
	out := bufio.NewWriterSize(w, min(max(dry.n, 16), 64<<10))
	fill(&writer{out: out})
	return out.Flush()
}

// Past cycleCheckDepth the writer remembers the elements on the current
// path, to stop on element cycles, which only hand-built documents can have.
const cycleCheckDepth = 64

type writer struct {
	out  *bufio.Writer // nil in the dry run, which counts bytes in n
	n    int
	err  error
	path map[*Element]bool // elements being written, below cycleCheckDepth
}

func (b *writer) fail(format string, args ...any) {
	if b.err == nil {
		b.err = fmt.Errorf("btxml: "+format, args...)
	}
}

func (b *writer) str(parts ...string) {
	for _, s := range parts {
		if b.out == nil {
			b.n += len(s)
		} else {
			b.out.WriteString(s)
		}
	}
}

func (b *writer) indent(depth int) {
	for range depth {
		b.str("    ")
	}
}

func (b *writer) document(d *Document) {
	if d == nil {
		b.fail("nil document")
		return
	}
	format := 4
	if d.Format == 3 {
		format = 3
	}
	b.before(d.Comments, 0)
	b.str("<root BTCPP_format=\"" + strconv.Itoa(format) + "\"")
	if d.MainTree != "" {
		b.attr("main_tree_to_execute", d.MainTree)
	}
	b.attrs(d.Attrs)
	// An empty <TreeNodesModel> is written when comments were around or in it.
	models := len(d.Models) > 0 || hasAny(d.ModelsComments)
	switch {
	case len(d.Includes) == 0 && len(d.Trees) == 0 && !models && !hasInside(d.Comments):
		b.str("/>\n")
	default:
		b.str(">\n")
		for _, inc := range d.Includes {
			b.include(inc)
		}
		for _, t := range d.Trees {
			b.tree(t)
		}
		if models {
			b.modelsIn(d.Models, d.ModelsComments, 1)
		}
		b.inside(d.Comments, 1)
		b.str("</root>\n")
	}
	if d.Comments != nil {
		b.comments(d.Comments.After, 0)
	}
}

func (b *writer) include(inc *Include) {
	if inc == nil {
		b.fail("nil include")
		return
	}
	b.start("include", inc.Comments, 1)
	b.attr("path", inc.Path)
	if inc.RosPkg != "" {
		b.attr("ros_pkg", inc.RosPkg)
	}
	b.close("include", inc.Comments, 1)
}

// close ends an element without children: self-closing, or with the comments
// inside it.
func (b *writer) close(tag string, c *Comments, depth int) {
	switch {
	case c == nil:
		b.str("/>\n")
	case len(c.Inside) > 0:
		b.str(">\n")
		b.inside(c, depth+1)
		b.indent(depth)
		b.endTag(tag, c)
	default:
		b.str("/>")
		b.after(c)
	}
}

func (b *writer) tree(t *Tree) {
	if t == nil {
		b.fail("nil tree")
		return
	}
	b.start("BehaviorTree", t.Comments, 1)
	if t.ID != "" {
		b.attr("ID", t.ID)
	}
	b.attrs(t.Attrs)
	if t.Root == nil {
		b.close("BehaviorTree", t.Comments, 1)
		return
	}
	b.str(">\n")
	b.element(t.Root, 2)
	b.inside(t.Comments, 2)
	b.indent(1)
	b.endTag("BehaviorTree", t.Comments)
}

func (b *writer) element(e *Element, depth int) {
	if e == nil {
		b.fail("nil element")
		return
	}
	if depth > cycleCheckDepth {
		if b.path[e] {
			b.fail("element %s contains itself", e.ID)
			return
		}
		if b.path == nil {
			b.path = map[*Element]bool{}
		}
		b.path[e] = true
		defer delete(b.path, e)
	}
	tag, explicit := b.tag(e)
	if b.err != nil {
		return
	}
	b.start(tag, e.Comments, depth)
	if explicit {
		b.attr("ID", e.ID)
	} else if _, ok := e.Attr("ID"); ok {
		b.fail("node %s has an ID attribute but is written in the compact form", e.ID)
	}
	b.attrs(e.Attrs)
	if len(e.Children) == 0 {
		b.close(tag, e.Comments, depth)
		return
	}
	b.str(">\n")
	for _, c := range e.Children {
		if b.element(c, depth+1); b.err != nil {
			return
		}
	}
	b.inside(e.Comments, depth+1)
	b.indent(depth)
	b.endTag(tag, e.Comments)
}

// tag chooses the tag of a node element and whether it needs an ID attribute.
func (b *writer) tag(e *Element) (string, bool) {
	switch {
	case e.ID == "":
		b.fail("node <%s> without ID", e.Tag)
		return "", false
	case e.Tag == "SubTree" || e.Tag == "SubTreePlus":
		return e.Tag, true
	case isXMLName(e.ID) && !isKind(e.ID) && e.ID != "SubTreePlus":
		return e.ID, false
	case isKind(e.Tag):
		return e.Tag, true
	}
	b.fail("node ID %q is not an XML name and the node has no explicit kind", e.ID)
	return "", false
}

func (b *writer) models(models []*Model, depth int) { b.modelsIn(models, nil, depth) }

// modelsIn writes <TreeNodesModel> with the comments c.
func (b *writer) modelsIn(models []*Model, c *Comments, depth int) {
	b.start("TreeNodesModel", c, depth)
	if len(models) == 0 {
		b.close("TreeNodesModel", c, depth)
		return
	}
	b.str(">\n")
	for _, m := range models {
		b.model(m, depth+1)
	}
	b.inside(c, depth+1)
	b.indent(depth)
	b.endTag("TreeNodesModel", c)
}

func (b *writer) model(m *Model, depth int) {
	if m == nil {
		b.fail("nil model")
		return
	}
	if !isKind(m.Kind) {
		b.fail("model %s has kind %q (want Action, Condition, Control, Decorator or SubTree)", m.ID, m.Kind)
		return
	}
	b.start(m.Kind, m.Comments, depth)
	b.attr("ID", m.ID)
	b.attrs(m.Attrs)
	if len(m.Ports) == 0 && m.Description == "" && len(m.Metadata) == 0 {
		b.close(m.Kind, m.Comments, depth)
		return
	}
	b.str(">\n")
	for _, p := range m.Ports {
		b.port(p, depth+1)
	}
	if m.Description != "" {
		b.indent(depth + 1)
		b.str("<description>")
		b.text(m.Description)
		b.str("</description>\n")
	}
	if len(m.Metadata) > 0 {
		b.indent(depth + 1)
		b.str("<MetadataFields>\n")
		for _, a := range m.Metadata {
			b.indent(depth + 2)
			b.str("<Metadata")
			b.attrs([]Attr{a})
			b.str("/>\n")
		}
		b.indent(depth + 1)
		b.str("</MetadataFields>\n")
	}
	b.inside(m.Comments, depth+1)
	b.indent(depth)
	b.endTag(m.Kind, m.Comments)
}

func (b *writer) port(p PortModel, depth int) {
	tag := p.Dir + "_port"
	if p.Dir == "" || !isXMLName(tag) {
		b.fail("port %s has direction %q (want input, output or inout)", p.Name, p.Dir)
		return
	}
	b.start(tag, p.Comments, depth)
	b.attr("name", p.Name)
	if p.Type != "" {
		b.attr("type", p.Type)
	}
	if p.HasDefault || p.Default != "" {
		b.attr("default", p.Default)
	}
	if p.Required {
		b.attr("required", "true")
	}
	if p.Description == "" { // a port has no comments inside: its text is its description
		if p.Comments == nil || len(p.Comments.After) == 0 {
			b.str("/>\n")
			return
		}
		b.str("/>")
		b.after(p.Comments)
		return
	}
	b.str(">")
	b.text(p.Description)
	b.endTag(tag, p.Comments)
}

func (b *writer) attrs(attrs []Attr) {
	for _, a := range attrs {
		if !isXMLName(a.Name) {
			b.fail("attribute name %q is not an XML name", a.Name)
			return
		}
		b.attr(a.Name, a.Value)
	}
}

func (b *writer) attr(name, value string) {
	b.str(" ", name, "=\"")
	b.escape(value, true)
	b.str("\"")
}

func (b *writer) text(s string) { b.escape(s, false) }

// escape writes s with the references XML needs; in attribute values also
// those that keep newlines and tabs from being normalized to spaces.
func (b *writer) escape(s string, attr bool) {
	last, nonASCII := 0, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c > '>' {
			nonASCII = nonASCII || c >= utf8.RuneSelf
			continue
		}
		var esc string
		switch c {
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '"':
			if attr {
				esc = "&quot;"
			}
		case '\n':
			if attr {
				esc = "&#10;"
			}
		case '\t':
			if attr {
				esc = "&#9;"
			}
		case '\r':
			esc = "&#13;"
		default:
			if c < ' ' {
				b.fail("character %U cannot be written in XML", rune(c))
				return
			}
		}
		if esc != "" {
			b.str(s[last:i])
			b.str(esc)
			last = i + 1
		}
	}
	if nonASCII && !utf8.ValidString(s) {
		b.fail("invalid UTF-8 in %q", s)
		return
	}
	if nonASCII && strings.ContainsAny(s, "\uFFFE\uFFFF") {
		b.fail("character U+FFFE or U+FFFF cannot be written in XML")
		return
	}
	b.str(s[last:])
}
