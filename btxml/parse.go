package btxml

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Parse parses one document. Includes are recorded, not followed. The error,
// if any, is an ErrorList with every problem found; the Document is returned
// even then (nil only if data is too large), but it may be incomplete.
func Parse(file string, data []byte) (*Document, error) {
	return Limits{}.Parse(file, data)
}

// parser builds a Document from the tokens of one file. Syntax errors and
// exceeded limits stop it (the scanner's fatal); everything else is recorded
// and parsing goes on, so that one pass reports all the problems it can.
type parser struct {
	scanner
	file string
	doc  *Document
	// noID lists the trees written without ID, to check that the file has a
	// single tree.
	noID        []*Tree
	modelsSeen  bool
	subTreePlus []Pos // <SubTreePlus> elements, an error in format 4
	// Elements and child lists are carved from slabs (and attributes, by
	// the scanner): a few large allocations instead of one per element.
	// Element n is elemSlabs[n/slabSize][n%slabSize].
	elemSlabs [][]Element
	nElems    int
	kidSlab   []*Element
	// kids holds the children being collected for every open element, as
	// element numbers: unlike pointers, they cost the garbage collector
	// nothing to store.
	kids []int
	// pending are the comments waiting for the next sibling, and after the
	// comments of the element that ended last, if a comment on its line may
	// follow it (see comments.go).
	pending []Comment
	after   **Comments
}

const slabSize = 256

func (p *parser) newElement() (*Element, int) {
	n := p.nElems
	if n%slabSize == 0 {
		p.elemSlabs = append(p.elemSlabs, make([]Element, slabSize))
	}
	p.nElems++
	return p.element(n), n
}

func (p *parser) element(n int) *Element { return &p.elemSlabs[n/slabSize][n%slabSize] }

func (p *parser) takeKids(n int) []*Element {
	if cap(p.kidSlab)-len(p.kidSlab) < n {
		p.kidSlab = make([]*Element, 0, max(4*slabSize, n))
	}
	l := len(p.kidSlab)
	p.kidSlab = p.kidSlab[:l+n]
	return p.kidSlab[l : l+n : l+n]
}

func (p *parser) errorf(pos Pos, format string, args ...any) {
	p.sink.add(pos, fmt.Sprintf(format, args...))
}

// notef adds a note to the document, up to maxErrors of them.
func (p *parser) notef(pos Pos, format string, args ...any) {
	if len(p.doc.Notes) < maxErrors {
		p.doc.Notes = append(p.doc.Notes, Note{Pos: pos, Msg: fmt.Sprintf(format, args...)})
	}
}

// parseFile parses one file. nodes counts elements, attributes and comments across
// files. It always
// returns a Document, possibly incomplete; ok is false if a syntax error or
// an exceeded limit stopped the parse.
func parseFile(file string, src string, lim Limits, sink *errorSink, nodes *int) (d *Document, ok bool) {
	p := &parser{file: file, doc: &Document{File: file, Format: 4}}
	p.scanner = scanner{src: src, lim: lim, sink: sink, nodes: *nodes, notes: &p.doc.Notes}
	p.lines = newLines(file, src, 0, false)
	p.parse()
	*nodes = p.nodes
	return p.doc, !p.failed
}

// parse reads: BOM? XMLDecl? Misc* <root>...</root> Misc*
func (p *parser) parse() {
	if !p.prolog() {
		return
	}
	for {
		t := p.next()
		switch t.kind {
		case tokEOF:
			if !p.failed {
				p.fatal(t.off, "no <root> element")
			}
			return
		case tokText:
			if t.nonSpace >= 0 {
				p.fatal(t.nonSpace, "text outside <root>")
				return
			}
		case tokComment:
			p.comment(&t)
		case tokEnd:
			p.fatal(t.off, "unexpected </%s>", t.name)
			return
		case tokStart:
			if t.name != "root" {
				p.fatal(t.off, "the top element must be <root>, not <%s>", t.name)
				return
			}
			p.parseRoot(&t)
			p.epilog()
			p.finish()
			return
		}
	}
}

// prolog checks the encoding and skips the BOM and the XML declaration.
func (p *parser) prolog() bool {
	src := p.src
	switch {
	case strings.HasPrefix(src, bom):
		p.off = len(bom)
	case strings.HasPrefix(src, "\xfe\xff"), strings.HasPrefix(src, "\xff\xfe"):
		p.fatal(0, "UTF-16 is not supported; use UTF-8")
		return false
	}
	ascii, bad := checkUTF8(src[p.off:])
	p.lines = newLines(p.file, src, p.off, ascii)
	if bad >= 0 {
		bad += p.off
		if r, size := utf8.DecodeRuneInString(src[bad:]); size > 1 {
			p.fatal(bad, "invalid character %U", r)
		} else {
			p.fatal(bad, "invalid UTF-8")
		}
		return false
	}
	if rest := src[p.off:]; strings.HasPrefix(rest, "<?xml") && len(rest) > 5 && (isSpace(rest[5]) || rest[5] == '?') {
		end := strings.Index(rest, "?>")
		if end < 0 {
			p.fatal(p.off, "unterminated XML declaration")
			return false
		}
		if enc, off, ok := declEncoding(rest[:end]); ok && !isUTF8Name(enc) {
			p.fatal(p.off+off, "unsupported encoding %q; use UTF-8", enc)
			return false
		}
		p.lines.count(p.off, p.off+end+2)
		p.off += end + 2
	}
	return true
}

// declEncoding finds the encoding pseudo-attribute of an XML declaration.
func declEncoding(decl string) (enc string, off int, ok bool) {
	i := strings.Index(decl, "encoding")
	if i < 0 {
		return "", 0, false
	}
	rest := strings.TrimLeft(decl[i+len("encoding"):], " \t\r\n")
	if !strings.HasPrefix(rest, "=") {
		return "", 0, false
	}
	rest = strings.TrimLeft(rest[1:], " \t\r\n")
	if rest == "" || rest[0] != '"' && rest[0] != '\'' {
		return "", 0, false
	}
	end := strings.IndexByte(rest[1:], rest[0])
	if end < 0 {
		return "", 0, false
	}
	return rest[1 : 1+end], len(decl) - len(rest) + 1, true
}

func isUTF8Name(enc string) bool {
	switch strings.ToLower(enc) {
	case "utf-8", "utf8", "us-ascii", "ascii":
		return true
	}
	return false
}

// epilog checks that only comments and spaces follow </root>.
func (p *parser) epilog() {
	for {
		t := p.next()
		switch t.kind {
		case tokEOF:
			return
		case tokText:
			if t.nonSpace >= 0 {
				p.fatal(t.nonSpace, "text after </root>")
				return
			}
		case tokComment:
			if c, ok := p.newComment(&t); ok {
				if p.doc.Comments == nil {
					p.doc.Comments = &Comments{}
				}
				p.doc.Comments.After = append(p.doc.Comments.After, c)
			}
		default:
			p.fatal(t.off, "element after </root>")
			return
		}
	}
}

// attrs returns the attributes of a start tag, without duplicates, which it
// reports (the first one wins).
func (p *parser) attrs(t *token) []Attr {
	if all := t.attrs; len(all) <= 16 && !hasDup(all) {
		return all
	}
	return p.dedup(t)
}

// hasDup reports whether two attributes have the same name; it compares
// every pair, which is quicker than a map for a few.
func hasDup(attrs []Attr) bool {
	for i := 1; i < len(attrs); i++ {
		for j := range i {
			if attrs[j].Name == attrs[i].Name {
				return true
			}
		}
	}
	return false
}

// dedup removes and reports the duplicate attributes of t.
func (p *parser) dedup(t *token) []Attr {
	all := t.attrs
	var seen map[string]bool
	if len(all) > 16 {
		seen = make(map[string]bool, len(all))
	}
	n := 0
	for i := range all {
		name := all[i].Name
		if seen == nil && attrIndex(all[:n], name) >= 0 || seen != nil && seen[name] {
			p.errorf(all[i].Pos, "duplicate attribute %s in <%s>", name, t.name)
			continue
		}
		if seen != nil {
			seen[name] = true
		}
		if n != i {
			all[n] = all[i]
		}
		n++
	}
	if n == len(all) {
		return all
	}
	clear(all[n:])
	if n == 0 {
		return nil
	}
	return all[:n:n]
}

// content reads the children of the element started by t until its end tag,
// calling child for each child element (which must consume it) and reporting
// text. It returns false if the input ended first.
func (p *parser) content(t *token, child func(token)) bool {
	if t.selfClose {
		return true
	}
	for {
		c := p.next()
		switch c.kind {
		case tokEOF:
			if !p.failed {
				p.fatal(c.off, "missing </%s> for <%s> at %s", t.name, t.name, lineCol(t.pos))
			}
			return false
		case tokText:
			p.strayText(&c, t.name)
		case tokComment:
			p.comment(&c)
		case tokEnd:
			return p.end(t, &c)
		case tokStart:
			child(c)
		}
	}
}

// strayText notes text inside an element that holds only elements: tinyxml2,
// BehaviorTree.CPP's parser, ignores it, and so does btxml, but it is often a
// typo or what is left of a forgotten quote. White space is no text.
func (p *parser) strayText(c *token, in string) {
	if c.nonSpace < 0 {
		return
	}
	text := strings.TrimSpace(c.raw)
	if len(text) > 40 {
		text = text[:37] + "..."
	}
	p.notef(c.pos, "text %q in <%s> is ignored", text, in)
}

// lineCol formats a position without its file, for messages.
func lineCol(pos Pos) string {
	pos.File = ""
	return pos.String()
}

// end checks that the end tag c closes the element t.
func (p *parser) end(t, c *token) bool {
	if c.name != t.name {
		p.fatal(c.off, "</%s> does not match <%s> at %s", c.name, t.name, lineCol(t.pos))
		return false
	}
	return true
}

// skip consumes an element that was already reported, and the comments in it.
func (p *parser) skip(t *token) {
	p.dropComments(func() { p.content(t, p.skipChild) })
}

func (p *parser) skipChild(c token) {
	p.skip(&c)
}

// textContent reads the text of an element that may only contain text.
func (p *parser) textContent(t *token) string {
	if t.selfClose {
		return ""
	}
	var text strings.Builder
	for {
		c := p.nextText()
		switch c.kind {
		case tokEOF:
			if !p.failed {
				p.fatal(c.off, "missing </%s>", t.name)
			}
			return ""
		case tokText:
			s, ok := p.decodeText(&c)
			if !ok {
				return ""
			}
			text.WriteString(s)
		case tokEnd:
			p.end(t, &c)
			return text.String()
		case tokStart:
			p.errorf(c.pos, "unexpected element <%s> in <%s>", c.name, t.name)
			p.skip(&c)
		}
		// Comments in text are dropped.
	}
}

// parseRoot reads <root BTCPP_format=".." main_tree_to_execute="..">.
func (p *parser) parseRoot(t *token) {
	d := p.doc
	d.Pos = t.pos
	format := ""
	var formatPos Pos
	for _, a := range p.attrs(t) {
		switch a.Name {
		case "BTCPP_format":
			format, formatPos = a.Value, a.ValuePos()
		case "main_tree_to_execute":
			d.MainTree, d.MainTreePos = a.Value, a.ValuePos()
			if a.Value == "" {
				p.errorf(a.ValuePos(), "empty main_tree_to_execute")
			}
		default:
			d.Attrs = append(d.Attrs, a)
		}
	}
	p.open(&d.Comments)
	p.content(t, func(c token) {
		switch c.name {
		case "include":
			p.parseInclude(&c)
		case "BehaviorTree":
			p.parseTree(&c)
		case "TreeNodesModel":
			p.parseModels(&c)
		default:
			p.errorf(c.pos, "unknown element <%s> in <root>", c.name)
			p.skip(&c)
		}
	})
	p.close(&d.Comments)
	switch format {
	case "4":
		d.Format = 4
	case "3":
		d.Format = 3
	case "":
		if formatPos.IsValid() {
			p.errorf(formatPos, "empty BTCPP_format (want \"3\" or \"4\")")
		} else {
			d.Format = detectFormat(d)
		}
	default:
		p.errorf(formatPos, "unsupported BTCPP_format %q (want \"3\" or \"4\")", format)
	}
}

// finish applies the checks that need the whole file.
func (p *parser) finish() {
	for _, t := range p.doc.Trees {
		t.Format = p.doc.Format
	}
	if p.failed {
		return // the file is incomplete: these checks would mislead
	}
	if p.doc.Format == 4 {
		for _, pos := range p.subTreePlus {
			p.errorf(pos, "<SubTreePlus> is format 3: write <SubTree> (and _autoremap for __autoremap), or declare BTCPP_format=\"3\"")
		}
	}
	if len(p.doc.Trees) > 1 {
		for _, t := range p.noID {
			p.errorf(t.Pos, "<BehaviorTree> needs an ID attribute when the file has several trees")
		}
	}
}

// parseInclude reads <include path=".." ros_pkg=".."/>.
func (p *parser) parseInclude(t *token) {
	inc := &Include{Pos: t.pos}
	hasPath := false
	for _, a := range p.attrs(t) {
		switch a.Name {
		case "path":
			inc.Path, hasPath = a.Value, true
			if a.Value == "" {
				p.errorf(a.ValuePos(), "empty include path")
			}
		case "ros_pkg":
			inc.RosPkg = a.Value
		default:
			p.errorf(a.Pos, "unknown attribute %s in <include>", a.Name)
		}
	}
	if !hasPath {
		p.errorf(inc.Pos, "<include> needs a path attribute")
	}
	p.open(&inc.Comments)
	p.content(t, func(c token) {
		p.errorf(c.pos, "unexpected element <%s> in <include>", c.name)
		p.skip(&c)
	})
	p.close(&inc.Comments)
	p.doc.Includes = append(p.doc.Includes, inc)
}

// parseTree reads <BehaviorTree ID="..">, which holds exactly one node.
func (p *parser) parseTree(t *token) {
	tree := &Tree{Pos: t.pos}
	hasID := false
	for _, a := range p.attrs(t) {
		if a.Name != "ID" {
			tree.Attrs = append(tree.Attrs, a)
			continue
		}
		tree.ID, hasID = a.Value, true
		if err := ValidName(a.Value); err != nil {
			p.errorf(a.ValuePos(), "invalid tree ID %q: %v", a.Value, err)
		}
	}
	if !hasID {
		p.noID = append(p.noID, tree)
	}
	n := 0
	p.open(&tree.Comments)
	p.content(t, func(c token) {
		e := p.parseNode(c, 1)
		if n == 0 {
			tree.Root = p.element(e)
		}
		n++
	})
	p.close(&tree.Comments)
	if n != 1 && !p.failed {
		p.errorf(tree.Pos, "<BehaviorTree> must have exactly one child element, not %d", n)
	}
	p.doc.Trees = append(p.doc.Trees, tree)
}

// parseNode reads a node element at the given tree depth, and its children,
// and returns its number.
func (p *parser) parseNode(t token, depth int) int {
	e, num := p.newElement()
	e.Tag = t.name
	e.Pos = t.pos
	p.open(&e.Comments)
	if depth > p.lim.MaxDepth {
		p.fatal(t.off, "tree nested deeper than %d levels", p.lim.MaxDepth)
		return num
	}
	// SubTreePlus is format 3's explicit spelling of SubTree.
	explicit := isKind(t.name) || t.name == "SubTreePlus"
	if t.name == "SubTreePlus" {
		p.subTreePlus = append(p.subTreePlus, e.Pos)
	}
	if !explicit {
		e.ID = t.name
		e.idLine, e.idCol = t.pos.Line, t.pos.Col+1 // the name follows '<'
	}
	e.Attrs = p.attrs(&t)
	if i := attrIndex(e.Attrs, "ID"); i >= 0 {
		id := e.Attrs[i]
		e.Attrs = removeAttr(e.Attrs, i)
		if explicit {
			e.ID, e.idLine, e.idCol = id.Value, id.valueLine, id.valueCol
			if id.Value == "" {
				p.errorf(id.ValuePos(), "empty ID in <%s>", t.name)
			}
		} else {
			p.errorf(id.Pos, "attribute ID is not allowed in <%s> (only <Action>, <Condition>, <Control>, <Decorator> and <SubTree> take one)", t.name)
		}
	} else if explicit {
		p.errorf(e.Pos, "<%s> needs an ID attribute", t.name)
	}
	if t.selfClose {
		p.after = &e.Comments
		return num
	}
	mark := len(p.kids)
	for {
		c := p.next()
		switch c.kind {
		case tokStart:
			p.kids = append(p.kids, p.parseNode(c, depth+1))
			continue
		case tokText:
			p.strayText(&c, t.name)
			continue
		case tokComment:
			p.comment(&c)
			continue
		case tokEOF:
			if !p.failed {
				p.fatal(c.off, "missing </%s> for <%s> at %s", t.name, t.name, lineCol(t.pos))
			}
		case tokEnd:
			p.end(&t, &c)
		}
		break
	}
	if n := len(p.kids) - mark; n > 0 {
		e.Children = p.takeKids(n)
		for i, k := range p.kids[mark:] {
			e.Children[i] = p.element(k)
		}
		p.kids = p.kids[:mark]
	}
	p.close(&e.Comments)
	return num
}

func attrIndex(attrs []Attr, name string) int {
	for i := range attrs {
		if attrs[i].Name == name {
			return i
		}
	}
	return -1
}

// removeAttr removes attrs[i] in place; the result keeps a capacity equal to
// its length.
func removeAttr(attrs []Attr, i int) []Attr {
	copy(attrs[i:], attrs[i+1:])
	n := len(attrs) - 1
	if n == 0 {
		return nil
	}
	return attrs[:n:n]
}

// parseModels reads <TreeNodesModel>.
func (p *parser) parseModels(t *token) {
	if p.modelsSeen {
		p.errorf(t.pos, "only one <TreeNodesModel> is allowed")
	}
	p.modelsSeen = true
	for _, a := range p.attrs(t) {
		p.errorf(a.Pos, "unknown attribute %s in <TreeNodesModel>", a.Name)
	}
	p.open(&p.doc.ModelsComments)
	p.content(t, func(c token) {
		if !isKind(c.name) {
			p.errorf(c.pos, "unknown element <%s> in <TreeNodesModel> (want Action, Condition, Control, Decorator or SubTree)", c.name)
			p.skip(&c)
			return
		}
		p.parseModel(&c)
	})
	p.close(&p.doc.ModelsComments)
}
