package btxml

import (
	"fmt"
	"math/bits"
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
	tokEOF     tokKind = iota // end of input, or a fatal error happened
	tokStart                  // start tag (selfClose tells <x/>)
	tokEnd                    // end tag
	tokText                   // character data or CDATA section
	tokComment                // <!--raw-->
)

// token is one item of element content.
type token struct {
	kind      tokKind
	selfClose bool
	cdata     bool   // tokText: raw is a CDATA section's content
	name      string // tag name for tokStart and tokEnd
	off       int    // offset of '<', or of the text
	// pos is the position of '<' for tokStart, of the first non-space
	// byte (nonSpace) for tokText.
	pos Pos
	// attrs are the attributes of a start tag, with their positions, carved
	// from the scanner's slab: they stay valid.
	attrs    []Attr
	raw      string // tokText: the text as written (CDATA: its content); tokComment: its text
	nonSpace int    // tokText: offset of the first non-space byte, or -1
	// inline (tokComment) is set when no line ends between the markup before the
	// comment and the comment: it follows an element on that element's last line.
	inline bool
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
	depth  int // open elements
	// nodes counts elements, attributes and comments; a Load carries it from file to
	// file.
	nodes int
	// Attributes are scanned straight into a slab: attrSlab[attrMark:] are
	// those of the tag being scanned.
	attrSlab []Attr
	attrMark int
	// arena holds decoded values (those with references or CRs) back to
	// back; a Builder never changes bytes it has written, so each value can
	// be a substring of it.
	arena     strings.Builder
	arenaSize int
	// notes receives the remarks on what the scan accepted as tinyxml2 does but
	// XML does not (a raw '<' or a bare '&' in a value); nil drops them.
	notes *[]Note
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

// note records a remark at offset off, up to maxErrors of them.
func (s *scanner) note(off int, format string, args ...any) {
	if s.notes != nil && len(*s.notes) < maxErrors {
		*s.notes = append(*s.notes, Note{Pos: s.lines.posAt(off), Msg: fmt.Sprintf(format, args...)})
	}
}

// next returns the next token of element content, skipping processing
// instructions and white space between markup.
func (s *scanner) next() token { return s.scan(false) }

// nextText is next for elements whose text matters: white space between
// markup is a text token too.
func (s *scanner) nextText() token { return s.scan(true) }

func (s *scanner) scan(keepSpace bool) token {
	line := s.lines.line
	for !s.failed {
		start := s.off
		if start >= len(s.src) {
			break
		}
		if s.src[start] != '<' {
			i := s.skipSpace(start)
			if i-start > s.lim.MaxAttrLen {
				s.fatal(start, "text longer than %d bytes", s.lim.MaxAttrLen)
				break
			}
			s.off = i
			if keepSpace || i < len(s.src) && s.src[i] != '<' {
				return s.text(start)
			}
			continue
		}
		rest := s.src[start:]
		if len(rest) > 1 && isNameStart(rest[1]) {
			return s.startTag()
		}
		switch {
		case strings.HasPrefix(rest, "</"):
			return s.endTag()
		case strings.HasPrefix(rest, "<!--"):
			return s.comment(s.lines.line == line)
		case strings.HasPrefix(rest, "<?"):
			s.skipTo(2, "?>", "processing instruction")
		case strings.HasPrefix(rest, "<![CDATA["):
			return s.cdata()
		case strings.HasPrefix(rest, "<!DOCTYPE"):
			s.fatal(start, "DOCTYPE is not allowed (entity declarations are not supported)")
		case strings.HasPrefix(rest, "<!"):
			s.fatal(start, "unexpected %q", prefix(rest, 9))
		default:
			s.fatal(start, "'<' not followed by a name")
		}
	}
	return eof(s.off)
}

func eof(off int) token { return token{kind: tokEOF, off: off} }

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

// comment reads the comment that starts at s.off. It counts against MaxNodes,
// as the Document keeps it.
func (s *scanner) comment(inline bool) token {
	start := s.off
	end := strings.Index(s.src[start+4:], "-->")
	if end < 0 {
		s.fatal(start, "unterminated comment")
		return eof(start)
	}
	if !s.count() {
		s.tooMany(start)
		return eof(start)
	}
	t := token{kind: tokComment, off: start, pos: s.lines.pos(start), raw: s.src[start+4 : start+4+end], inline: inline}
	s.off = start + 4 + end + 3
	s.lines.count(start, s.off)
	return t
}

// text reads character data that starts at start; the white space up to
// s.off has been skipped.
func (s *scanner) text(start int) token {
	t := token{kind: tokText, off: start, nonSpace: -1}
	end := s.off
	if end < len(s.src) && s.src[end] != '<' {
		if i := strings.IndexByte(s.src[end:], '<'); i >= 0 {
			end += i
		} else {
			end = len(s.src)
		}
		if end-start > s.lim.MaxAttrLen {
			s.fatal(start, "text longer than %d bytes", s.lim.MaxAttrLen)
			return eof(start)
		}
		t.nonSpace, t.pos = s.off, s.lines.pos(s.off)
		s.lines.count(s.off, end)
		s.off = end
	}
	t.raw = s.src[start:end]
	return t
}

func (s *scanner) cdata() token {
	start := s.off
	body := start + len("<![CDATA[")
	i := strings.Index(s.src[body:], "]]>")
	if i < 0 {
		s.fatal(start, "unterminated CDATA section")
		return eof(start)
	}
	if i > s.lim.MaxAttrLen {
		s.fatal(body, "text longer than %d bytes", s.lim.MaxAttrLen)
		return eof(start)
	}
	s.off = body + i + len("]]>")
	t := token{kind: tokText, off: start, raw: s.src[body : body+i], cdata: true, nonSpace: -1}
	if j := s.skipSpace(body); j < body+i {
		t.nonSpace, t.pos = j, s.lines.pos(j)
		s.lines.count(j, s.off)
	}
	return t
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// spaces is eight spaces, read as a word.
const spaces = 0x2020202020202020

// skipSpace returns the offset of the first non-space byte at or after i,
// counting the lines it passes.
func (s *scanner) skipSpace(i int) int {
	src := s.src
	for i < len(src) {
		switch src[i] {
		case ' ':
			// Indentation comes in runs of spaces: skip them a word at a
			// time.
			for i++; i+8 <= len(src); i += 8 {
				if w := load64(src, i) ^ spaces; w != 0 {
					i += bits.TrailingZeros64(w) / 8
					break
				}
			}
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

// scanName returns the end of the name that starts at i, whose first byte
// the caller has checked.
func (s *scanner) scanName(i int) int {
	src := s.src
	for i++; i < len(src) && isNameByte(src[i]); i++ {
	}
	return i
}

// nameAt reports whether a name starts at i.
func (s *scanner) nameAt(i int) bool { return i < len(s.src) && isNameStart(s.src[i]) }

func (s *scanner) endTag() token {
	start := s.off
	i := start + 2
	if !s.nameAt(i) {
		s.fatal(start, "invalid end tag")
		return eof(start)
	}
	end := s.scanName(i)
	name := s.src[i:end]
	j := s.skipSpace(end)
	if j >= len(s.src) || s.src[j] != '>' {
		s.fatal(start, "expected '>' to end </%s", name)
		return eof(start)
	}
	s.off = j + 1
	s.depth--
	return token{kind: tokEnd, name: name, off: start}
}

// startTag scans a start tag; next has checked that a name follows '<'.
func (s *scanner) startTag() token {
	start := s.off
	if !s.count() {
		s.tooMany(start)
		return eof(start)
	}
	i := s.scanName(start + 1)
	name := s.src[start+1 : i]
	pos := s.lines.pos(start)
	s.attrMark = len(s.attrSlab)
	for {
		if i < len(s.src) && s.src[i] == ' ' { // one space is the rule
			i++
		}
		if i < len(s.src) && isSpace(s.src[i]) {
			i = s.skipSpace(i)
		}
		if i >= len(s.src) {
			s.fatal(start, "unterminated start tag <%s", name)
			return eof(start)
		}
		switch s.src[i] {
		case '>':
			s.off = i + 1
			// Trees are checked against MaxDepth by the parser with a
			// clearer message; this bound covers every other element.
			if s.depth++; s.depth > s.lim.MaxDepth+3 {
				s.fatal(start, "elements nested deeper than %d levels", s.lim.MaxDepth+3)
				return eof(start)
			}
			return token{kind: tokStart, name: name, off: start, pos: pos, attrs: s.tagAttrs()}
		case '/':
			if i+1 >= len(s.src) || s.src[i+1] != '>' {
				s.fatal(i, "expected '>' after '/'")
				return eof(start)
			}
			s.off = i + 2
			return token{kind: tokStart, name: name, off: start, pos: pos, attrs: s.tagAttrs(), selfClose: true}
		}
		var ok bool
		if i, ok = s.attr(i, name); !ok {
			return eof(start)
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

// count counts an element or attribute against MaxNodes; if there are too
// many, the caller calls tooMany.
func (s *scanner) count() bool {
	s.nodes++
	return s.nodes <= s.lim.MaxNodes
}

func (s *scanner) tooMany(off int) {
	s.fatal(off, "more than %d elements, attributes and comments", s.lim.MaxNodes)
}

// plainLow has a bit for each byte below 0x40 that an attribute value may
// contain as it is: not a control character, a quote, '&' or '<'.
const plainLow uint64 = 1<<64 - 1<<0x20 - 1<<'"' - 1<<'&' - 1<<'\'' - 1<<'<'

// scanValue finds the quote that ends the value starting at i, and tells
// whether the value is plain: free of references, CRs, control characters
// and '<', so that it needs no decoding. It returns len(src) if there is no
// quote. It goes eight bytes at a time to the next byte that is the quote,
// '&', '<' or below ' '.
func (s *scanner) scanValue(i int, quote byte) (end int, plain bool) {
	src := s.src
	q := 0x0101010101010101 * uint64(quote)
	plain = true
	for i+8 <= len(src) {
		w := load64(src, i)
		m := zeroByte(w^q) | specialBytes(w)
		if m == 0 {
			i += 8
			continue
		}
		// The lowest flagged byte is a true one (false ones only come
		// above a true one).
		i += bits.TrailingZeros64(m) / 8
		if src[i] == quote {
			return i, plain
		}
		plain = false
		i++
	}
	for ; i < len(src); i++ {
		c := src[i]
		if c >= 0x40 || plainLow>>(c&63)&1 != 0 {
			continue
		}
		if c == quote {
			return i, plain
		}
		if c != '"' && c != '\'' {
			plain = false
		}
	}
	return i, plain
}

// zeroByte has the high bit set in the bytes of its result that are zero in
// w, and perhaps in bytes above them; it is zero if w has no zero byte.
func zeroByte(w uint64) uint64 { return (w - 0x0101010101010101) &^ w & 0x8080808080808080 }

// specialBytes flags, like zeroByte, the bytes of w that are '&', '<' or
// below ' '.
func specialBytes(w uint64) uint64 {
	const ones = 0x0101010101010101
	return zeroByte(w^(ones*'&')) | zeroByte(w^(ones*'<')) | (w-ones*' ')&^w&0x8080808080808080
}

// attr scans one attribute at i and returns the offset after it.
func (s *scanner) attr(i int, tag string) (int, bool) {
	if !s.nameAt(i) {
		s.fatal(i, "unexpected %q in <%s>", s.runeAt(i), tag)
		return 0, false
	}
	nameEnd := s.scanName(i)
	name := s.src[i:nameEnd]
	namePos := s.lines.pos(i)
	j := nameEnd
	if j >= len(s.src) || s.src[j] != '=' { // name="value" is the rule
		j = s.skipSpace(j)
		if j >= len(s.src) || s.src[j] != '=' {
			s.fatal(i, "attribute %s has no value", name)
			return 0, false
		}
	}
	if j++; j < len(s.src) && isSpace(s.src[j]) {
		j = s.skipSpace(j)
	}
	if j >= len(s.src) || s.src[j] != '"' && s.src[j] != '\'' {
		s.fatal(j, "value of attribute %s must be quoted", name)
		return 0, false
	}
	quote, vstart := s.src[j], j+1
	valuePos := s.lines.pos(vstart)
	k, plain := s.scanValue(vstart, quote)
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
	if !s.count() {
		s.tooMany(i)
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
	// Field by field: a struct copy would take the slower bulk write
	// barrier while the garbage collector runs.
	a := s.newAttr()
	a.Name, a.Value, a.Pos = name, value, namePos
	a.valueLine, a.valueCol = valuePos.Line, valuePos.Col
	return k + 1, true
}

func (s *scanner) runeAt(i int) rune {
	r, _ := utf8.DecodeRuneInString(s.src[i:])
	return r
}

// decode replaces references and normalizes line ends in raw, which starts
// at offset off.
//
// It reads what tinyxml2, BehaviorTree.CPP's parser, reads, with a note:
// a '<' in an attribute value and an '&' that does not start a reference are
// taken as they are. What would be ambiguous stays an error: an '&' that
// starts what looks like a reference must be a known one, and a '<' that
// looks like the start of a tag at the start of a line or after a '>' (where
// a value that runs on because of a missing quote has them).
func (s *scanner) decode(off int, raw string, attr bool) (string, bool) {
	amp, cr := false, false
	lt, bare := false, false // a '<', a bare '&' was noted
	for i := 0; i < len(raw); i++ {
		if i+8 <= len(raw) {
			// Go to the next byte that may need attention.
			m := specialBytes(load64(raw, i))
			if m == 0 {
				i += 7
				continue
			}
			i += bits.TrailingZeros64(m) / 8
		}
		switch c := raw[i]; {
		case c >= ' ' && c != '&' && c != '<':
		case c == '&':
			amp = true
			if _, n, msg := reference(raw[i:]); n == 0 && msg == "" && !bare {
				bare = true
				s.note(off+i, "'&' taken as it is; write &amp;")
			}
		case c == '\r':
			cr = true
		case c == '<':
			if !attr {
				break
			}
			if tagLike(raw, i) {
				s.fatal(off+i, "'<' in attribute value starts what looks like a tag: is a closing quote missing? (write &lt; if it belongs to the value)")
				return "", false
			}
			if !lt {
				lt = true
				s.note(off+i, "'<' in attribute value taken as it is; write &lt;")
			}
		case c != '\t' && c != '\n':
			s.fatal(off+i, "invalid character %U", rune(c))
			return "", false
		}
	}
	if !amp && !cr {
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
			if n == 0 { // a bare '&', noted above
				r, n = '&', 1
			}
			b.WriteRune(r)
			i += n
		default:
			j := i + 1
			if cr {
				for j < len(raw) && raw[j] != '&' && raw[j] != '\r' {
					j++
				}
			} else if k := strings.IndexByte(raw[j:], '&'); k >= 0 {
				j += k
			} else {
				j = len(raw)
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
func (s *scanner) decodeText(t *token) (string, bool) {
	if !t.cdata {
		return s.decode(t.off, t.raw, false)
	}
	if strings.IndexByte(t.raw, '\r') < 0 {
		return t.raw, true
	}
	r := strings.ReplaceAll(t.raw, "\r\n", "\n")
	return strings.ReplaceAll(r, "\r", "\n"), true
}

// tagLike reports whether the '<' at raw[i] looks like the start of a tag
// where a value that runs on because of a missing closing quote has one:
// followed by a name or by '/', '!' or '?', and preceded, blanks aside, by a
// line end, a '>' or nothing. A script's "a<b" and "x < 25" are not.
func tagLike(raw string, i int) bool {
	if i+1 >= len(raw) || !isNameStart(raw[i+1]) && raw[i+1] != '/' && raw[i+1] != '!' && raw[i+1] != '?' {
		return false
	}
	j := i - 1
	for j >= 0 && (raw[j] == ' ' || raw[j] == '\t') {
		j--
	}
	return j < 0 || raw[j] == '\n' || raw[j] == '\r' || raw[j] == '>'
}

// reference decodes the entity or character reference at the start of s
// (which starts with '&'). It returns the character and the length of the
// reference, or an error message; a length of 0 and no message mean that the
// '&' starts no reference (tinyxml2 keeps it as it is). A reference is a name,
// or '#' and letters and digits, between '&' and ';'.
func reference(s string) (rune, int, string) {
	end := 1
	if end < len(s) && s[end] == '#' {
		end++
	}
	for end < len(s) && end <= 16 && isNameByte(s[end]) {
		end++
	}
	if end == 1 || end >= len(s) || s[end] != ';' {
		return 0, 0, ""
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
