package btxml

import (
	"strings"
	"unicode/utf8"
)

// lineCounter turns byte offsets into positions. The parser asks in
// increasing order of offset, so it walks the file once: it jumps from line
// to line with IndexByte and, within a line, counts runes only since the last
// query (not at all in an ASCII file). A query behind the last one starts
// again from the top: correct, but not expected.
type lineCounter struct {
	src    string
	file   string
	start  int  // where line 1 starts (after a BOM)
	ascii  bool // src is ASCII: a column is a byte
	loneCR bool // src has a CR not followed by LF: count byte by byte
	line   int  // line of the last query
	lineAt int  // offset where that line starts
	nextNL int  // offset of the first LF at or after lineAt, or len(src)
	off    int  // offset of the last query
	col    int  // its column
}

func newLineCounter(file, src string, start int, ascii bool) lineCounter {
	lc := lineCounter{src: src, file: file, start: start, ascii: ascii, loneCR: hasLoneCR(src)}
	lc.reset()
	return lc
}

func (lc *lineCounter) reset() {
	lc.line, lc.lineAt, lc.off, lc.col = 1, lc.start, lc.start, 1
	lc.nextNL = lc.findNL(lc.start)
}

func (lc *lineCounter) findNL(from int) int {
	if i := strings.IndexByte(lc.src[from:], '\n'); i >= 0 {
		return from + i
	}
	return len(lc.src)
}

func (lc *lineCounter) pos(off int) Pos {
	off = min(max(off, lc.start), len(lc.src))
	if off < lc.off {
		lc.reset()
	}
	if lc.loneCR {
		lc.slowAdvance(lc.src[lc.off:off])
	} else {
		for off > lc.nextNL {
			lc.line++
			lc.lineAt = lc.nextNL + 1
			lc.nextNL = lc.findNL(lc.lineAt)
			lc.off, lc.col = lc.lineAt, 1
		}
		if lc.ascii {
			lc.col = off - lc.lineAt + 1
		} else {
			lc.col += runeCount(lc.src[lc.off:off])
		}
	}
	lc.off = off
	return Pos{File: lc.file, Line: lc.line, Col: lc.col}
}

// runeCount counts the runes of s (invalid bytes count one each, but the
// input was checked to be valid UTF-8).
func runeCount(s string) int {
	if len(s) > 32 {
		return utf8.RuneCountInString(s)
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < 0x80 || s[i] >= 0xC0 { // not a continuation byte
			n++
		}
	}
	return n
}

// slowAdvance handles files with lone CRs, which end a line like LF does.
func (lc *lineCounter) slowAdvance(seg string) {
	for i := 0; i < len(seg); {
		c := seg[i]
		switch {
		case c == '\n':
			lc.line, lc.col = lc.line+1, 1
			i++
		case c == '\r':
			i++
			next := lc.off + i
			if next < len(lc.src) && lc.src[next] == '\n' {
				continue // the LF ends the line
			}
			lc.line, lc.col = lc.line+1, 1
		case c < utf8.RuneSelf:
			lc.col++
			i++
		default:
			_, size := utf8.DecodeRuneInString(seg[i:])
			lc.col++
			i += size
		}
	}
}

func hasLoneCR(s string) bool {
	for i := strings.IndexByte(s, '\r'); i >= 0; {
		if i+1 >= len(s) || s[i+1] != '\n' {
			return true
		}
		j := strings.IndexByte(s[i+1:], '\r')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// checkUTF8 reports whether s is ASCII, and the offset of its first invalid
// UTF-8 byte or of a U+FFFE or U+FFFF, which XML does not allow (-1 if there
// is none). ASCII runs go eight bytes at a time.
func checkUTF8(s string) (ascii bool, bad int) {
	ascii = true
	for i := 0; i < len(s); {
		if i+8 <= len(s) {
			w := s[i : i+8]
			if (w[0]|w[1]|w[2]|w[3]|w[4]|w[5]|w[6]|w[7])&0x80 == 0 {
				i += 8
				continue
			}
		}
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		ascii = false
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == 0xFFFE || r == 0xFFFF {
			return false, i
		}
		i += size
	}
	return ascii, -1
}
