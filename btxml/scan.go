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

// rawAttr is an attribute as scanned; positions are byte offsets.
type rawAttr struct {
	name, value       string
	nameOff, valueOff int
}

// token is one item of element content. For tokStart, attrs is only valid
// until the next call of next.
type token struct {
	kind      tokKind
	name      string // tag name for tokStart and tokEnd
	off       int    // offset of '<', or of the text
	selfClose bool
	attrs     []rawAttr
	raw       string // tokText: the text as written (CDATA: its content)
	cdata     bool   // tokText: raw is a CDATA section's content
	nonSpace  int    // tokText: offset of the first non-space byte, or -1
}

const bom = "\xef\xbb\xbf"

// scanner reads tokens from src.
type scanner struct {
	src   string
	off   int
	lines lineCounter
	lim   Limits
	sink  *errorSink
	// failed is set by a fatal error: from then on next returns tokEOF.
	failed bool
	depth  int  // open elements
	nodes  *int // elements and attributes seen, shared by all files of a Load
	attrs  []rawAttr
}

func (s *scanner) pos(off int) Pos { return s.lines.pos(off) }

// fatal records a syntax error or an exceeded limit and stops the scan.
func (s *scanner) fatal(off int, format string, args ...any) {
	if s.failed {
		return
	}
	s.sink.add(s.pos(off), fmt.Sprintf(format, args...))
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
		switch {
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
		case strings.HasPrefix(rest, "</"):
			return s.endTag()
		default:
			return s.startTag()
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
	s.off += n + i + len(end)
}

func (s *scanner) text() token {
	start := s.off
	end := strings.IndexByte(s.src[start:], '<')
	if end < 0 {
		end = len(s.src)
	} else {
		end += start
	}
	s.off = end
	return s.textToken(start, s.src[start:end], false)
}

func (s *scanner) cdata() token {
	start := s.off
	body := start + len("<![CDATA[")
	i := strings.Index(s.src[body:], "]]>")
	if i < 0 {
		s.fatal(start, "unterminated CDATA section")
		return token{kind: tokEOF, off: start}
	}
	s.off = body + i + len("]]>")
	t := s.textToken(body, s.src[body:body+i], true)
	t.off = start
	return t
}

func (s *scanner) textToken(off int, raw string, cdata bool) token {
	if len(raw) > s.lim.MaxAttrLen {
		s.fatal(off, "text longer than %d bytes", s.lim.MaxAttrLen)
		return token{kind: tokEOF, off: off}
	}
	t := token{kind: tokText, off: off, raw: raw, cdata: cdata, nonSpace: -1}
	for i := 0; i < len(raw); i++ {
		if !isSpace(raw[i]) {
			t.nonSpace = off + i
			break
		}
	}
	return t
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (s *scanner) skipSpace(i int) int {
	for i < len(s.src) && isSpace(s.src[i]) {
		i++
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

func (s *scanner) startTag() token {
	start := s.off
	i := start + 1
	end := s.scanName(i)
	if end == i {
		s.fatal(start, "'<' not followed by a name")
		return token{kind: tokEOF, off: start}
	}
	if !s.count(start) {
		return token{kind: tokEOF, off: start}
	}
	t := token{kind: tokStart, name: s.src[i:end], off: start}
	s.attrs = s.attrs[:0]
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
				t.attrs = s.attrs
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
	t.attrs = s.attrs
	return t
}

// attr scans one attribute at i and returns the offset after it.
func (s *scanner) attr(i int, tag string) (int, bool) {
	nameEnd := s.scanName(i)
	if nameEnd == i {
		s.fatal(i, "unexpected %q in <%s>", s.runeAt(i), tag)
		return 0, false
	}
	name := s.src[i:nameEnd]
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
	vstart := j + 1
	n := strings.IndexByte(s.src[vstart:], s.src[j])
	if n < 0 {
		s.fatal(j, "unterminated value of attribute %s", name)
		return 0, false
	}
	if n > s.lim.MaxAttrLen {
		s.fatal(vstart, "value of attribute %s is longer than %d bytes", name, s.lim.MaxAttrLen)
		return 0, false
	}
	if len(s.attrs) >= s.lim.MaxAttrs {
		s.fatal(i, "more than %d attributes in <%s>", s.lim.MaxAttrs, tag)
		return 0, false
	}
	if !s.count(i) {
		return 0, false
	}
	value, ok := s.decode(vstart, s.src[vstart:vstart+n], true)
	if !ok {
		return 0, false
	}
	s.attrs = append(s.attrs, rawAttr{name: name, value: value, nameOff: i, valueOff: vstart})
	return vstart + n + 1, true
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
	var b strings.Builder
	b.Grow(len(raw))
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
	return b.String(), true
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
