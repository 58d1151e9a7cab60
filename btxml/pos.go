package btxml

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// Pos is a position in a file. Line and Col are 1-based; Col counts
// Unicode characters (runes), so a tab is one column and "é" is one column.
// A Pos with Line 0 only names a file (or nothing).
//
// Line and Col are int32, which keeps a Pos at 24 bytes: a Document holds
// two for every element and attribute. Limits.MaxBytes keeps files small
// enough for them.
type Pos struct {
	File string
	Line int32
	Col  int32
}

// at returns the position line:col in p's file, or the zero Pos if line is
// 0.
func (p Pos) at(line, col int32) Pos {
	if line == 0 {
		return Pos{}
	}
	return Pos{File: p.File, Line: line, Col: col}
}

// IsValid reports whether p has a line number.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String returns "file:line:col", "line:col" when there is no file name,
// "file" when there is no line and "-" when there is neither.
func (p Pos) String() string {
	if p.Line <= 0 {
		if p.File == "" {
			return "-"
		}
		return p.File
	}
	lc := strconv.Itoa(int(p.Line)) + ":" + strconv.Itoa(int(p.Col))
	if p.File == "" {
		return lc
	}
	return p.File + ":" + lc
}

// comparePos orders positions by file name, then line, then column.
func comparePos(a, b Pos) int {
	if c := strings.Compare(a.File, b.File); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Line, b.Line); c != 0 {
		return c
	}
	return cmp.Compare(a.Col, b.Col)
}

// Error is a problem found in a document, at a position.
type Error struct {
	Pos Pos
	Msg string
	// Err is the underlying error, if any (for example the fs.PathError of
	// an include that cannot be opened); errors.Is and errors.As see it.
	Err error
}

// Error returns "file:line:col: msg".
func (e *Error) Error() string {
	if e.Pos.File == "" && e.Pos.Line <= 0 {
		return e.Msg
	}
	return e.Pos.String() + ": " + e.Msg
}

// Unwrap returns the underlying error, if any.
func (e *Error) Unwrap() error { return e.Err }

// ErrorList is a list of errors sorted by position. Parse and Load return
// their errors as an ErrorList.
type ErrorList []*Error

// Error returns the errors, one per line.
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Err returns l as an error, or nil if l is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Unwrap returns the errors of the list, for errors.Is and errors.As.
func (l ErrorList) Unwrap() []error {
	errs := make([]error, len(l))
	for i, e := range l {
		errs[i] = e
	}
	return errs
}

// Sort sorts the list by position; errors at the same position keep their
// order.
func (l ErrorList) Sort() {
	slices.SortStableFunc(l, func(a, b *Error) int { return comparePos(a.Pos, b.Pos) })
}

// maxErrors bounds the errors kept for one Parse or Load, so that a hostile
// document with an error on every element cannot make the report huge.
const maxErrors = 100

// errorSink collects errors up to maxErrors.
type errorSink struct {
	list  ErrorList
	extra bool // errors were dropped
}

func (s *errorSink) add(pos Pos, msg string) { s.addErr(&Error{Pos: pos, Msg: msg}) }

func (s *errorSink) addErr(e *Error) {
	if len(s.list) >= maxErrors {
		s.extra = true
		return
	}
	s.list = append(s.list, e)
}

// result returns the sorted errors, with a final note when some were dropped.
func (s *errorSink) result() ErrorList {
	l := slices.Clone(s.list)
	l.Sort()
	if s.extra {
		l = append(l, &Error{Msg: "too many errors"})
	}
	return l
}
