package btxml

import (
	"strings"
	"unicode/utf8"
)

// The parser keeps comments where they were written, so that Write puts them back:
// a comment waits in pending for the next sibling, which takes it as Before; one that
// starts on the line where an element ended is that element's After; those left when
// an element ends are its Inside. Comments inside elements whose content is not kept
// as elements (port descriptions, <description>, <MetadataFields>, elements skipped
// after an error) are dropped.

// comment places the comment t.
func (p *parser) comment(t *token) {
	c, ok := p.newComment(t)
	if !ok {
		return
	}
	if t.inline && p.after != nil {
		if *p.after == nil {
			*p.after = &Comments{}
		}
		(*p.after).After = append((*p.after).After, c)
		return
	}
	p.pending = append(p.pending, c)
	p.after = nil
}

// open gives an element that starts the comments waiting before it.
func (p *parser) open(c **Comments) {
	if len(p.pending) > 0 {
		*c = &Comments{Before: p.pending}
		p.pending = nil
	}
	p.after = nil
}

// close gives an element that ends the comments left inside it, and makes it the
// element that a comment on the same line follows.
func (p *parser) close(c **Comments) {
	if len(p.pending) > 0 {
		if *c == nil {
			*c = &Comments{}
		}
		(*c).Inside = p.pending
		p.pending = nil
	}
	p.after = c
}

// dropComments runs read, which reads content whose comments are not kept.
func (p *parser) dropComments(read func()) {
	saved := p.pending
	p.pending = nil
	read()
	p.pending, p.after = saved, nil
}

// newComment makes the Comment of t, with line ends normalised to LF as in values.
// A comment holding a control character, which XML does not allow but tinyxml2
// accepts, is dropped with a note: Write could not write it back.
func (p *parser) newComment(t *token) (Comment, bool) {
	text := t.raw
	for i := 0; i < len(text); i++ {
		if c := text[i]; c < ' ' && c != '\t' && c != '\n' && c != '\r' {
			p.notef(t.pos, "comment dropped: it holds the character %U, which XML does not allow", rune(c))
			return Comment{}, false
		}
	}
	if strings.IndexByte(text, '\r') >= 0 {
		text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	}
	return Comment{Text: text, Pos: t.pos}, true
}

// start starts an element: the comments before it, then its start tag up to its
// attributes.
func (b *writer) start(tag string, c *Comments, depth int) {
	b.before(c, depth)
	b.indent(depth)
	b.str("<", tag)
}

// before writes the comments before an element, each on a line of its own.
func (b *writer) before(c *Comments, depth int) {
	if c != nil {
		b.comments(c.Before, depth)
	}
}

// inside writes the comments inside an element after its children.
func (b *writer) inside(c *Comments, depth int) {
	if c != nil {
		b.comments(c.Inside, depth)
	}
}

func (b *writer) comments(list []Comment, depth int) {
	for _, x := range list {
		b.indent(depth)
		b.comment(x.Text)
		b.str("\n")
	}
}

// endTag ends an element with </tag>, then the comments that follow it on its
// line, then the line end.
func (b *writer) endTag(tag string, c *Comments) {
	if c == nil || len(c.After) == 0 {
		b.str("</", tag, ">\n")
		return
	}
	b.str("</", tag, ">")
	b.after(c)
}

// after ends the last line of an element: the comments that follow it there, then
// the line end.
func (b *writer) after(c *Comments) {
	if c != nil {
		for _, x := range c.After {
			b.str(" ")
			b.comment(x.Text)
		}
	}
	b.str("\n")
}

// hasInside reports whether c holds comments for the inside of an element.
func hasInside(c *Comments) bool { return c != nil && len(c.Inside) > 0 }

// hasAny reports whether c holds any comment.
func hasAny(c *Comments) bool {
	return c != nil && len(c.Before)+len(c.After)+len(c.Inside) > 0
}

// comment writes <!--text-->. The text cannot hold "-->", which would end the
// comment, nor characters XML does not allow.
func (b *writer) comment(text string) {
	if strings.Contains(text, "-->") {
		b.fail("comment %q contains -->", shortText(text))
		return
	}
	for i := 0; i < len(text); i++ {
		if c := text[i]; c < ' ' && c != '\t' && c != '\n' {
			b.fail("character %U cannot be written in a comment", rune(c))
			return
		}
	}
	if !validText(text) {
		b.fail("invalid character in comment %q", shortText(text))
		return
	}
	b.str("<!--", text, "-->")
}

// validText reports whether s is UTF-8 without the characters XML does not allow.
func validText(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsAny(s, "\uFFFE\uFFFF")
}

// shortText shortens s for messages.
func shortText(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}
