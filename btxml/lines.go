package btxml

import (
	"strings"
	"unicode/utf8"
)

// lines tracks the line the scanner is on. The scanner reports every line
// end it passes (newline, or count for longer stretches), so the position of
// an offset on the current line costs a subtraction in an ASCII file, and a
// rune count since the last query otherwise. CR LF and lone CRs end a line
// like LF.
type lines struct {
	src       string
	file      string
	start     int   // where line 1 starts (after a BOM)
	ascii     bool  // src[start:] is ASCII: a column is a byte
	hasCR     bool  // src has a CR: count must look at every byte
	line      int32 // the current line
	lineStart int   // offset where it starts
	colOff    int   // non-ASCII files: an offset on the current line...
	col       int   // ...and its column
}

func newLines(file, src string, start int, ascii bool) lines {
	return lines{
		src: src, file: file, start: start, ascii: ascii,
		hasCR: strings.IndexByte(src, '\r') >= 0,
		line:  1, lineStart: start, colOff: start, col: 1,
	}
}

// pos returns the position of off, which must be on the current line.
func (l *lines) pos(off int) Pos {
	if l.ascii {
		return Pos{File: l.file, Line: l.line, Col: int32(off - l.lineStart + 1)}
	}
	return l.runePos(off)
}

func (l *lines) runePos(off int) Pos {
	if l.colOff < l.lineStart || off < l.colOff {
		l.colOff, l.col = l.lineStart, 1
	}
	l.col += runeCount(l.src[l.colOff:off])
	l.colOff = off
	return Pos{File: l.file, Line: l.line, Col: int32(l.col)}
}

// newline records a line end at offset i: the next line starts at i+1.
func (l *lines) newline(i int) {
	l.line++
	l.lineStart = i + 1
}

// cr reports whether the CR at offset i ends a line (it is not followed by
// an LF, which ends the line instead).
func (l *lines) cr(i int) bool { return i+1 == len(l.src) || l.src[i+1] != '\n' }

// count records the line ends in src[from:to].
func (l *lines) count(from, to int) {
	if !l.hasCR {
		for {
			i := strings.IndexByte(l.src[from:to], '\n')
			if i < 0 {
				return
			}
			from += i
			l.newline(from)
			from++
		}
	}
	for i := from; i < to; i++ {
		switch l.src[i] {
		case '\n':
			l.newline(i)
		case '\r':
			if l.cr(i) {
				l.newline(i)
			}
		}
	}
}

// posAt returns the position of any offset, counting from the top of the
// file: for error messages, which are few.
func (l *lines) posAt(off int) Pos {
	off = min(max(off, l.start), len(l.src))
	fresh := newLines(l.file, l.src, l.start, l.ascii)
	fresh.hasCR = l.hasCR
	fresh.count(l.start, off)
	return fresh.pos(off)
}

// runeCount counts the runes of s (the input was checked to be valid UTF-8,
// except before an invalid byte is reported).
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

// checkUTF8 reports whether s is ASCII, and the offset of its first invalid
// UTF-8 byte or of a U+FFFE or U+FFFF, which XML does not allow (-1 if there
// is none). ASCII runs go 32 bytes at a time.
func checkUTF8(s string) (ascii bool, bad int) {
	ascii = true
	for i := 0; i < len(s); {
		if w := s[i:]; len(w) >= 32 {
			if (load64(w, 0)|load64(w, 8)|load64(w, 16)|load64(w, 24))&0x8080808080808080 == 0 {
				i += 32
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

// load64 reads eight bytes of s at i as a little-endian word (the compiler
// turns it into one load).
func load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
