package cli

import (
	"fmt"
	"io"
	"sync"
	"unicode"
	"unicode/utf8"
)

// What the commands print comes in good part from files that the user may not have
// written: the names and paths of nodes (from XML, .btlog and snapshot files), the
// restart list and the blackboard of a snapshot, the messages of Log nodes, models'
// descriptions, the errors that quote them. A terminal acts on some characters
// instead of showing them — ESC and the other C0 and C1 controls start sequences that
// move the cursor, rewrite the window's title, or set the clipboard; the
// bidirectional overrides reorder the text around them — so a file could forge or
// hide what a command prints. Every command's stdout and stderr therefore go through
// an escaper (see cmd.runEscaped), which writes those characters as escapes (\u001b)
// and lets ordinary text, newlines and tabs through; names in lists are quoted besides
// (quoted). That covers what each command prints, its own lines and those of the
// packages it prints with (btlog's console, tables and replays): run (ticks, the
// blackboard, errors, Log nodes' lines, the console of --log, --stats, the restart
// list of --restore, the notes of the file), replay, view, check, nodes and graph.
// Two commands write a document to stdout, for a file or a pipe, which they write as
// it is: convert and models (XML, which cannot hold C0 controls); their stderr is
// escaped.

// escaper writes what it is given to w with the characters a terminal would act on
// escaped (see printable). When color is set, the colours of the console logger go
// through as they are: the sequences that set the foreground colour or reset it
// (ESC [ 3n m, ESC [ 0 m), which move nothing and hide nothing; any other sequence is
// escaped. Writes may cut a character or a colour in two: its first part waits for
// the next write (or flush). It is safe for concurrent use.
type escaper struct {
	mu    sync.Mutex
	w     io.Writer
	color bool
	carry []byte // the start of a character or a colour cut by the end of a write
	buf   []byte
}

func (e *escaper) Write(p []byte) (int, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.write(p, false); err != nil {
		return 0, err
	}
	return len(p), nil
}

// flush writes the start of a character or colour that no write completed.
func (e *escaper) flush() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.carry) == 0 {
		return nil
	}
	return e.write(nil, true)
}

// write writes p, after what the last write left (carry); unless last, what p leaves
// cut waits for the next.
func (e *escaper) write(p []byte, last bool) error {
	in := p
	if len(e.carry) > 0 {
		in = append(e.carry, p...)
		e.carry = nil
	}
	b := e.buf[:0]
	for i := 0; i < len(in); {
		c := in[i]
		if c == 0x1b && e.color {
			n, whole := sgr(in[i:])
			if n > 0 {
				b = append(b, in[i:i+n]...)
				i += n
				continue
			}
			if !whole && !last { // it may be one: wait for the rest
				e.carry = append([]byte(nil), in[i:]...)
				break
			}
		}
		if c >= utf8.RuneSelf && !utf8.FullRune(in[i:]) && !last {
			e.carry = append([]byte(nil), in[i:]...)
			break
		}
		r, size := utf8.DecodeRune(in[i:])
		b = appendPrintable(b, in[i:i+size], r)
		i += size
	}
	e.buf = b
	_, err := e.w.Write(b)
	return err
}

// sgr returns the length of the colour sequence (ESC [ 3n m or ESC [ 0 m) that starts
// data, 0 if none, and whether data holds enough to tell.
func sgr(data []byte) (n int, whole bool) {
	for i := 1; i < len(data); i++ {
		c := data[i]
		switch {
		case i == 1 && c == '[',
			i == 2 && (c == '0' || c == '3'),
			i == 3 && data[2] == '3' && '0' <= c && c <= '7':
		case c == 'm' && (i == 3 && data[2] == '0' || i == 4):
			return i + 1, true
		default:
			return 0, true
		}
	}
	return 0, false
}

// printable returns s with the characters a terminal would act on written as escapes:
// the C0 controls but newline and tab, DEL, the C1 controls and the bidirectional
// formatting characters as \uXXXX (as JSON writes them, so that a JSON value printed
// stays one), and bytes that are not UTF-8 as \xXX. Ordinary text, in any script,
// stays as it is.
func printable(s string) string {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if needsEscape(r, size) {
			b := []byte(s[:i])
			for ; i < len(s); i += size {
				r, size = utf8.DecodeRuneInString(s[i:])
				b = appendPrintable(b, []byte(s[i:i+size]), r)
			}
			return string(b)
		}
		i += size
	}
	return s
}

// appendPrintable appends the character r, encoded as raw, or its escape.
func appendPrintable(b, raw []byte, r rune) []byte {
	switch {
	case r == utf8.RuneError && len(raw) == 1:
		return fmt.Appendf(b, `\x%02x`, raw[0])
	case needsEscape(r, len(raw)):
		return fmt.Appendf(b, `\u%04x`, r)
	}
	return append(b, raw...)
}

// needsEscape reports whether r, which takes size bytes, is a character that a
// terminal acts on (see printable), or a byte that is not UTF-8.
func needsEscape(r rune, size int) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < ' ' || r >= 0x7f && r < 0xa0:
		return true
	case r == utf8.RuneError:
		return size == 1
	}
	return r >= 0x200e && unicode.Is(unicode.Bidi_Control, r)
}

// escapedTo is the escaper of w: w's own if it is one.
func escapedTo(w io.Writer, color bool) *escaper {
	if e, ok := w.(*escaper); ok {
		return e
	}
	return &escaper{w: w, color: color}
}
