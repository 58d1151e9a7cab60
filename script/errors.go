package script

import (
	"strconv"
	"strings"
)

// SyntaxError reports a static problem in a script: bad syntax found by Parse,
// or a name that Compile could not bind (an assignment to an enum name, or a
// variable the Env refused; Err then holds the Env's error).
//
// Offset is the byte offset in Src; Line and Col are 1-based, Col counting
// bytes as go/token does. Error renders the position, the message, the source
// line and a caret under the column:
//
//	1:6: expected an operand, found '*'
//	    x := * 3
//	         ^
//
// An engine that read the script from an XML attribute prefixes its own
// file:line:col.
type SyntaxError struct {
	Src    string
	Offset int
	Line   int
	Col    int
	Msg    string
	Err    error // the cause reported by Env.Var, if any
}

func newSyntaxError(src string, offset int, msg string) *SyntaxError {
	line, col := position(src, offset)
	return &SyntaxError{Src: src, Offset: offset, Line: line, Col: col, Msg: msg}
}

func (e *SyntaxError) Error() string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(e.Line))
	b.WriteByte(':')
	b.WriteString(strconv.Itoa(e.Col))
	b.WriteString(": ")
	b.WriteString(e.Msg)
	if text := sourceLine(e.Src, e.Offset); strings.TrimSpace(text) != "" {
		b.WriteString("\n    ")
		b.WriteString(text)
		b.WriteString("\n    ")
		b.WriteString(caretPad(text, e.Col-1))
		b.WriteByte('^')
	}
	return b.String()
}

// Unwrap returns the Env's error, if any.
func (e *SyntaxError) Unwrap() error { return e.Err }

// RuntimeError reports a failure while a Program runs: a missing variable, an
// operand of the wrong kind, a rejected assignment. Offset is the byte offset
// in Src of the operator that failed or, when a variable could not be read,
// of the first mention of its name. Err holds the Var's error when a Load or
// Assign failed.
type RuntimeError struct {
	Src    string
	Offset int
	Line   int // 1-based, from Offset
	Col    int // 1-based byte column, from Offset
	Msg    string
	Err    error
}

func (e *RuntimeError) Error() string {
	return "script " + strconv.Quote(e.Src) + ": " + e.Msg
}

// Unwrap returns the Var's error, if any.
func (e *RuntimeError) Unwrap() error { return e.Err }

// position converts a byte offset into a 1-based line and byte column.
func position(src string, offset int) (line, col int) {
	offset = min(max(offset, 0), len(src))
	line = 1 + strings.Count(src[:offset], "\n")
	start := strings.LastIndexByte(src[:offset], '\n') + 1
	return line, offset - start + 1
}

// sourceLine returns the line of src holding offset, without its line break.
func sourceLine(src string, offset int) string {
	offset = min(max(offset, 0), len(src))
	start := strings.LastIndexByte(src[:offset], '\n') + 1
	end := strings.IndexByte(src[offset:], '\n')
	if end < 0 {
		end = len(src)
	} else {
		end += offset
	}
	return strings.TrimSuffix(src[start:end], "\r")
}

// caretPad returns the padding that puts a caret under byte column col of
// line: tabs are kept so the caret lines up however tabs are shown, and a
// multi-byte character counts as one column on screen.
func caretPad(line string, col int) string {
	col = min(col, len(line))
	var b strings.Builder
	for _, r := range line[:col] {
		if r == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
}
