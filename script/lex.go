package script

import "strconv"

type tokKind uint8

const (
	tEOF tokKind = iota
	tInt
	tReal
	tString
	tTrue
	tFalse
	tIdent

	tLParen
	tRParen
	tSemi
	tQuestion
	tColon

	tPlus
	tMinus
	tStar
	tSlash
	tDotDot
	tAmp
	tPipe
	tCaret
	tTilde
	tBang
	tAndAnd
	tOrOr

	tEq
	tNe
	tLt
	tGt
	tLe
	tGe

	tDefine    // :=
	tAssign    // =
	tAddAssign // +=
	tSubAssign // -=
	tMulAssign // *=
	tDivAssign // /=
)

// token is one lexeme: src[pos:end]. nl records a line break between the
// previous token and this one; a line break may separate statements.
type token struct {
	kind     tokKind
	pos, end int
	nl       bool
}

// lexer splits a script into tokens on demand, following BT.CPP 4.10's
// tokenizer: blanks are space, tab, CR and LF; strings are single-quoted with
// no escapes; identifiers are ASCII.
type lexer struct {
	src string
	off int
}

// next scans the token at the current offset.
func (lx *lexer) next() (token, *SyntaxError) {
	src := lx.src
	nl := false
	for lx.off < len(src) {
		c := src[lx.off]
		if c == '\n' {
			nl = true
		} else if c != ' ' && c != '\t' && c != '\r' {
			break
		}
		lx.off++
	}
	start := lx.off
	tok := token{pos: start, nl: nl}
	if start == len(src) {
		tok.kind, tok.end = tEOF, start
		return tok, nil
	}
	c := src[start]
	switch {
	case c == '\'':
		i := start + 1
		for i < len(src) && src[i] != '\'' {
			i++
		}
		if i == len(src) {
			return tok, newSyntaxError(src, start, "unterminated string")
		}
		tok.kind, tok.end = tString, i+1
	case isDigit(c):
		end, kind, ok := scanNumber(src, start)
		if !ok {
			return tok, newSyntaxError(src, start, "malformed number "+strconv.Quote(src[start:end]))
		}
		tok.kind, tok.end = kind, end
	case isIdentStart(c):
		i := start + 1
		for i < len(src) && isIdentChar(src[i]) {
			i++
		}
		if c == '@' && i == start+1 {
			return tok, newSyntaxError(src, start, "expected a name after '@'")
		}
		tok.kind, tok.end = tIdent, i
		switch src[start:i] {
		case "true":
			tok.kind = tTrue
		case "false":
			tok.kind = tFalse
		}
	default:
		kind, n := operator(src[start:])
		if n == 0 {
			return tok, unexpectedChar(src, start)
		}
		tok.kind, tok.end = kind, start+n
	}
	lx.off = tok.end
	return tok, nil
}

func unexpectedChar(src string, off int) *SyntaxError {
	c := src[off]
	msg := "unexpected character " + strconv.QuoteRune(rune(c))
	switch {
	case c == '"':
		msg += "; strings are written in single quotes"
	case c >= 0x80:
		msg = "unexpected non-ASCII character; names are ASCII letters, digits and '_'"
	case c < ' ' || c == 0x7f:
		msg = "unexpected control character " + strconv.QuoteRune(rune(c))
	}
	return newSyntaxError(src, off, msg)
}

// operator matches the longest operator at the start of s; n is 0 if none.
func operator(s string) (tokKind, int) {
	if len(s) >= 2 {
		switch s[:2] {
		case "..":
			return tDotDot, 2
		case "&&":
			return tAndAnd, 2
		case "||":
			return tOrOr, 2
		case "==":
			return tEq, 2
		case "!=":
			return tNe, 2
		case "<=":
			return tLe, 2
		case ">=":
			return tGe, 2
		case ":=":
			return tDefine, 2
		case "+=":
			return tAddAssign, 2
		case "-=":
			return tSubAssign, 2
		case "*=":
			return tMulAssign, 2
		case "/=":
			return tDivAssign, 2
		}
	}
	switch s[0] {
	case '+':
		return tPlus, 1
	case '-':
		return tMinus, 1
	case '*':
		return tStar, 1
	case '/':
		return tSlash, 1
	case '&':
		return tAmp, 1
	case '|':
		return tPipe, 1
	case '^':
		return tCaret, 1
	case '~':
		return tTilde, 1
	case '!':
		return tBang, 1
	case '<':
		return tLt, 1
	case '>':
		return tGt, 1
	case '=':
		return tAssign, 1
	case '?':
		return tQuestion, 1
	case ':':
		return tColon, 1
	case '(':
		return tLParen, 1
	case ')':
		return tRParen, 1
	case ';':
		return tSemi, 1
	}
	return tEOF, 0
}

// scanNumber scans a numeric literal starting at src[i], a digit. Like BT.CPP
// it rejects "65.", "3foo", "0x", "0x1F.5" and "1e", and stops before ".." so
// that "65..x" is 65 followed by the concatenation operator. On failure end
// covers the whole malformed lexeme.
func scanNumber(src string, i int) (end int, kind tokKind, ok bool) {
	n := len(src)
	garbage := func(i int) int {
		for i < n && (isIdentChar(src[i]) || src[i] == '.') {
			i++
		}
		return i
	}
	if src[i] == '0' && i+1 < n && (src[i+1] == 'x' || src[i+1] == 'X') {
		j := i + 2
		for j < n && isHexDigit(src[j]) {
			j++
		}
		if j == i+2 || (j < n && (src[j] == '.' || isIdentStart(src[j]))) {
			return garbage(j), tInt, false
		}
		return j, tInt, true
	}
	kind = tInt
	for i < n && isDigit(src[i]) {
		i++
	}
	if i < n && src[i] == '.' {
		switch {
		case i+1 < n && src[i+1] == '.':
			// "65..": an integer followed by the concatenation operator.
		case i+1 < n && isDigit(src[i+1]):
			kind = tReal
			i++
			for i < n && isDigit(src[i]) {
				i++
			}
		default:
			return garbage(i + 1), tReal, false
		}
	}
	if i < n && (src[i] == 'e' || src[i] == 'E') {
		kind = tReal
		i++
		if i < n && (src[i] == '+' || src[i] == '-') {
			i++
		}
		if i == n || !isDigit(src[i]) {
			return garbage(i), tReal, false
		}
		for i < n && isDigit(src[i]) {
			i++
		}
	}
	if i < n && isIdentStart(src[i]) {
		return garbage(i), kind, false
	}
	return i, kind, true
}

func isDigit(c byte) bool      { return '0' <= c && c <= '9' }
func isLetter(c byte) bool     { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isIdentStart(c byte) bool { return isLetter(c) || c == '_' || c == '@' }
func isIdentChar(c byte) bool  { return isLetter(c) || isDigit(c) || c == '_' }
func isHexDigit(c byte) bool {
	return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
