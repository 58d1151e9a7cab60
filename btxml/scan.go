package btxml

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file is the tokenizer: a hand-written scanner for the XML subset that
// BehaviorTree.CPP files use (elements, attributes, text, CDATA, comments and
// processing instructions; no DOCTYPE and no namespace processing). It works on
// the file as one string, so names and most attribute values are substrings
// of it and cost no allocation.

type tokKind uint8

const (
	tokEOF   tokKind = iota // end of input, or a fatal error happened
	tokStart                // start tag (selfClose tells <x/>)
	tokEnd                  // end tag
	tokText                 // character data or CDATA section
)

// token is one item of element content.
type token struct {
	kind      tokKind
	selfClose bool
	cdata     bool   // tokText: raw is a CDATA section's content
	name      string // tag name for tokStart and tokEnd
	off       int    // offset of '<', or of the text
	pos       Pos    // position of off (tokStart only)
	// attrs are the attributes of a start tag, with their positions, carved
	// from the scanner's slab: they stay valid.
	attrs    []Attr
	raw      string // tokText: the text as written (CDATA: its content)
	nonSpace int    // tokText: offset of the first non-space byte, or -1
	nsPos    Pos    // tokText: position of nonSpace
}

const bom = "\xef\xbb\xbf"

// scanner reads tokens from src.
type scanner struct {
	src   string
	off   int
	lines lines
	lim   Limits
	sink  *errorSink
	// failed is set by a fatal error: from then on next returns tokEOF.
	failed bool
	depth  int  // open elements
	nodes  *int // elements and attributes seen, shared by all files of a Load
	// Attributes are scanned straight into a slab: attrSlab[attrMark:] are
	// those of the tag being scanned.
	attrSlab []Attr
	attrMark int
	// arena holds decoded values (those with references or CRs) back to
	// back; a Builder never changes bytes it has written, so each value can
	// be a substring of it.
	arena     strings.Builder
	arenaSize int
}

const attrSlabSize = 512

// fatal records a syntax error or an exceeded limit and stops the scan.
func (s *scanner) fatal(off int, format string, args ...any) {
	if s.failed {
		return
	}
	s.sink.add(s.lines.posAt(off), fmt.Sprintf(format, args...))
	s.failed = true
	s.off = len(s.src)
}

// next returns the next token of element content, skipping comments and
// processing instructions.
func (s *scanner) next() token {
	for !s.failed {
		if s.off >= len(s.src) {
			return token{kind: tokEOF, off: s.off}
		}
		if s.src[s.off] != '<' {
			return s.text()
		}
		rest := s.src[s.off:]
		if len(rest) > 1 && isNameStart(rest[1]) {
			return s.startTag()
		}
		switch {
		case strings.HasPrefix(rest, "</"):
			return s.endTag()
		case strings.HasPrefix(rest, "<!--"):
			s.skipTo(4, "-->", "comment")
		case strings.HasPrefix(rest, "<?"):
			s.skipTo(2, "?>", "processing instruction")
		case strings.HasPrefix(rest, "<![CDATA["):
			return s.cdata()
		case strings.HasPrefix(rest, "<!DOCTYPE"):
			s.fatal(s.off, "DOCTYPE is not allowed (entity declarations are not supported)")
		case strings.HasPrefix(rest, "<!"):
			s.fatal(s.off, "unexpected %q", prefix(rest, 9))
		default:
			s.fatal(s.off, "'<' not followed by a name")
		}
	}
	return token{kind: tokEOF, off: s.off}
}

func prefix(s string, n int) string {
	if len(s) > n {
		s = s[:n]
	}
	return s
}

// skipTo skips a construct that starts at s.off, n bytes long so far, up to
// and including end.
func (s *scanner) skipTo(n int, end, what string) {
	i := strings.Index(s.src[s.off+n:], end)
	if i < 0 {
		s.fatal(s.off, "unterminated %s", what)
		return
	}
	to := s.off + n + i + len(end)
	s.lines.count(s.off, to)
	s.off = to
}

func (s *scanner) text() token {
	start := s.off
	end := strings.IndexByte(s.src[start:], '<')
	if end < 0 {
		end = len(s.src)
	} else {
		end += start
	}
	if end-start > s.lim.MaxAttrLen {
		s.fatal(start, "text longer than %d bytes", s.lim.MaxAttrLen)
		return token{kind: tokEOF, off: start}
	}
	s.off = end
	t := token{kind: tokText, off: start, raw: s.src[start:end]}
	t.nonSpace, t.nsPos = s.passText(start, end)
	return t
}

func (s *scanner) cdata() token {
	start := s.off
	body := start + len("<![CDATA[")
	i := strings.Index(s.src[body:], "]]>")
	if i < 0 {
		s.fatal(start, "unterminated CDATA section")
		return token{kind: tokEOF, off: start}
	}
	if i > s.lim.MaxAttrLen {
		s.fatal(body, "text longer than %d bytes", s.lim.MaxAttrLen)
		return token{kind: tokEOF, off: start}
	}
	s.off = body + i + len("]]>")
	t := token{kind: tokText, off: start, raw: s.src[body : body+i], cdata: true}
	t.nonSpace, t.nsPos = s.passText(body, body+i)
	s.lines.count(body+i, s.off)
	return t
}

// passText counts the lines of the text src[from:to] and returns the offset
// and position of its first non-space byte (-1 if there is none).
func (s *scanner) passText(from, to int) (int, Pos) {
	i := s.skipSpace(from)
	if i >= to {
		return -1, Pos{}
	}
	pos := s.lines.pos(i)
	s.lines.count(i, to)
	return i, pos
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// skipSpace returns the offset of the first non-space byte at or after i,
// counting the lines it passes.
func (s *scanner) skipSpace(i int) int {
	src := s.src
	for i < len(src) {
		switch src[i] {
		case ' ':
			// Indentation comes in runs of spaces.
			for i+8 <= len(src) && src[i:i+8] == "        " {
				i += 8
			}
			i++
		case '\t':
			i++
		case '\n':
			s.lines.newline(i)
			i++
		case '\r':
			if s.lines.cr(i) {
				s.lines.newline(i)
			}
			i++
		default:
			return i
		}
	}
	return i
}

func (s *scanner) scanName(i int) int {
	if i >= len(s.src) || !isNameStart(s.src[i]) {
		return i
	}
	i++
	for i < len(s.src) && isNameByte(s.src[i]) {
		i++
	}
	return i
}

func (s *scanner) endTag() token {
	start := s.off
	i := start + 2
	end := s.scanName(i)
	if end == i {
		s.fatal(start, "invalid end tag")
		return token{kind: tokEOF, off: start}
	}
	name := s.src[i:end]
	j := s.skipSpace(end)
	if j >= len(s.src) || s.src[j] != '>' {
		s.fatal(start, "expected '>' to end </%s", name)
		return token{kind: tokEOF, off: start}
	}
	s.off = j + 1
	s.depth--
	return token{kind: tokEnd, name: name, off: start}
}

// startTag scans a start tag; next has checked that a name follows '<'.
func (s *scanner) startTag() token {
	start := s.off
	i := start + 1
	end := s.scanName(i)
	if !s.count(start) {
		return token{kind: tokEOF, off: start}
	}
	t := token{kind: tokStart, name: s.src[i:end], off: start, pos: s.lines.pos(start)}
	s.attrMark = len(s.attrSlab)
	for i = end; ; {
		i = s.skipSpace(i)
		if i >= len(s.src) {
			s.fatal(start, "unterminated start tag <%s", t.name)
			return token{kind: tokEOF, off: start}
		}
		switch s.src[i] {
		case '>':
			s.off = i + 1
			return s.open(t)
		case '/':
			if i+1 < len(s.src) && s.src[i+1] == '>' {
				s.off = i + 2
				t.selfClose = true
				t.attrs = s.tagAttrs()
				return t
			}
			s.fatal(i, "expected '>' after '/'")
			return token{kind: tokEOF, off: start}
		}
		var ok bool
		if i, ok = s.attr(i, t.name); !ok {
			return token{kind: tokEOF, off: start}
		}
	}
}

// tagAttrs returns the attributes of the tag just scanned, with a capacity
// equal to their number, so that an append by a user copies instead of
// overwriting a neighbour.
func (s *scanner) tagAttrs() []Attr {
	n := len(s.attrSlab)
	if n == s.attrMark {
		return nil
	}
	return s.attrSlab[s.attrMark:n:n]
}

// newAttr adds an attribute to the tag being scanned.
func (s *scanner) newAttr() *Attr {
	if len(s.attrSlab) == cap(s.attrSlab) {
		// Move the tag's attributes so far to a new slab.
		have := s.attrSlab[s.attrMark:]
		slab := make([]Attr, len(have), max(attrSlabSize, 2*len(have)+1))
		copy(slab, have)
		s.attrSlab, s.attrMark = slab, 0
	}
	s.attrSlab = s.attrSlab[:len(s.attrSlab)+1]
	return &s.attrSlab[len(s.attrSlab)-1]
}

// count counts an element or attribute against MaxNodes.
func (s *scanner) count(off int) bool {
	*s.nodes++
	if *s.nodes > s.lim.MaxNodes {
		s.fatal(off, "more than %d elements and attributes", s.lim.MaxNodes)
		return false
	}
	return true
}

// open accounts for a start tag that has content.
func (s *scanner) open(t token) token {
	s.depth++
	// Trees are checked against MaxDepth by the parser with a clearer
	// message; this bound covers every other element.
	if s.depth > s.lim.MaxDepth+3 {
		s.fatal(t.off, "elements nested deeper than %d levels", s.lim.MaxDepth+3)
		return token{kind: tokEOF, off: t.off}
	}
	t.attrs = s.tagAttrs()
	return t
}

// plainLow has a bit for each byte below 0x40 that an attribute value may
// contain as it is: not a control character, a quote, '&' or '<'.
const plainLow uint64 = 1<<64 - 1<<0x20 - 1<<'"' - 1<<'&' - 1<<'\'' - 1<<'<'

// attr scans one attribute at i and returns the offset after it.
func (s *scanner) attr(i int, tag string) (int, bool) {
	nameEnd := s.scanName(i)
	if nameEnd == i {
		s.fatal(i, "unexpected %q in <%s>", s.runeAt(i), tag)
		return 0, false
	}
	name := s.src[i:nameEnd]
	namePos := s.lines.pos(i)
	j := s.skipSpace(nameEnd)
	if j >= len(s.src) || s.src[j] != '=' {
		s.fatal(i, "attribute %s has no value", name)
		return 0, false
	}
	j = s.skipSpace(j + 1)
	if j >= len(s.src) || s.src[j] != '"' && s.src[j] != '\'' {
		s.fatal(j, "value of attribute %s must be quoted", name)
		return 0, false
	}
	quote, vstart := s.src[j], j+1
	valuePos := s.lines.pos(vstart)
	// Find the closing quote, noting whether the value needs decode.
	k, plain := vstart, true
	for ; k < len(s.src); k++ {
		c := s.src[k]
		if c >= 0x40 || plainLow>>(c&63)&1 != 0 {
			continue
		}
		if c == quote {
			break
		}
		if c != '"' && c != '\'' {
			plain = false
		}
	}
	if k >= len(s.src) {
		s.fatal(j, "unterminated value of attribute %s", name)
		return 0, false
	}
	if k-vstart > s.lim.MaxAttrLen {
		s.fatal(vstart, "value of attribute %s is longer than %d bytes", name, s.lim.MaxAttrLen)
		return 0, false
	}
	if len(s.attrSlab)-s.attrMark >= s.lim.MaxAttrs {
		s.fatal(i, "more than %d attributes in <%s>", s.lim.MaxAttrs, tag)
		return 0, false
	}
	if !s.count(i) {
		return 0, false
	}
	value := s.src[vstart:k]
	if !plain {
		var ok bool
		if value, ok = s.decode(vstart, value, true); !ok {
			return 0, false
		}
		s.lines.count(vstart, k)
	}
	*s.newAttr() = Attr{Name: name, Value: value, Pos: namePos, ValuePos: valuePos}
	return k + 1, true
}

func (s *scanner) runeAt(i int) rune {
	r, _ := utf8.DecodeRuneInString(s.src[i:])
	return r
}

// decode replaces references and normalizes line ends in raw, which starts
// at offset off. In attribute values '<' is an error.
func (s *scanner) decode(off int, raw string, attr bool) (string, bool) {
	clean := true
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c > '<' || c >= ' ' && c != '&' && c != '<' {
			continue // the common case, first
		}
		switch {
		case c == '&' || c == '\r':
			clean = false
		case c == '<':
			if attr {
				s.fatal(off+i, "'<' in attribute value must be written &lt;")
				return "", false
			}
		case c != '\t' && c != '\n':
			s.fatal(off+i, "invalid character %U", rune(c))
			return "", false
		}
	}
	if clean {
		return raw, true
	}
	b := s.reserve(len(raw))
	mark := b.Len()
	for i := 0; i < len(raw); {
		switch c := raw[i]; c {
		case '\r':
			b.WriteByte('\n')
			i++
			if i < len(raw) && raw[i] == '\n' {
				i++
			}
		case '&':
			r, n, msg := reference(raw[i:])
			if msg != "" {
				s.fatal(off+i, "%s", msg)
				return "", false
			}
			b.WriteRune(r)
			i += n
		default:
			j := i + 1
			for j < len(raw) && raw[j] != '&' && raw[j] != '\r' {
				j++
			}
			b.WriteString(raw[i:j])
			i = j
		}
	}
	return b.String()[mark:], true
}

// reserve returns the arena with room for n more bytes (a decoded value is
// never longer than the raw one).
func (s *scanner) reserve(n int) *strings.Builder {
	if s.arena.Cap()-s.arena.Len() < n {
		s.arenaSize = min(max(2*s.arenaSize, 1<<10), 64<<10)
		s.arena.Reset() // drops the full buffer, which the values keep
		s.arena.Grow(max(n, s.arenaSize))
	}
	return &s.arena
}

// decodeText decodes a text token; CDATA content only has its line ends
// normalized.
func (s *scanner) decodeText(t token) (string, bool) {
	if !t.cdata {
		return s.decode(t.off, t.raw, false)
	}
	if strings.IndexByte(t.raw, '\r') < 0 {
		return t.raw, true
	}
	r := strings.ReplaceAll(t.raw, "\r\n", "\n")
	return strings.ReplaceAll(r, "\r", "\n"), true
}

// reference decodes the entity or character reference at the start of s
// (which starts with '&'). It returns the character, the length of the
// reference, or an error message.
func reference(s string) (rune, int, string) {
	end := strings.IndexByte(s[:min(len(s), 16)], ';')
	if end < 0 {
		return 0, 0, "'&' must be written &amp; (or start a reference ending with ';')"
	}
	name := s[1:end]
	switch name {
	case "lt":
		return '<', end + 1, ""
	case "gt":
		return '>', end + 1, ""
	case "amp":
		return '&', end + 1, ""
	case "quot":
		return '"', end + 1, ""
	case "apos":
		return '\'', end + 1, ""
	}
	if !strings.HasPrefix(name, "#") {
		return 0, 0, fmt.Sprintf("unknown entity &%s;", name)
	}
	digits, base := name[1:], 10
	if strings.HasPrefix(digits, "x") {
		digits, base = digits[1:], 16
	}
	n, err := strconv.ParseUint(digits, base, 32)
	if err != nil || digits == "" || digits[0] == '+' || !isXMLChar(rune(n)) {
		return 0, 0, fmt.Sprintf("invalid character reference &%s;", name)
	}
	return rune(n), end + 1, ""
}

// isXMLChar reports whether r may appear in an XML 1.0 document.
func isXMLChar(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\r':
		return true
	case r < 0x20:
		return false
	case r <= 0xD7FF:
		return true
	case r < 0xE000:
		return false
	case r <= 0xFFFD:
		return true
	case r < 0x10000:
		return false
	}
	return r <= 0x10FFFF
}
