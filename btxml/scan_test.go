package btxml

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// The scanner's word-at-a-time loops and bit masks must agree with the plain
// byte-by-byte definitions.

func TestNameBytes(t *testing.T) {
	start := func(c byte) bool {
		return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == ':' || c >= 0x80
	}
	for i := range 256 {
		c := byte(i)
		if got, want := isNameStart(c), start(c); got != want {
			t.Errorf("isNameStart(%q) = %v", c, got)
		}
		want := start(c) || '0' <= c && c <= '9' || c == '-' || c == '.'
		if got := isNameByte(c); got != want {
			t.Errorf("isNameByte(%q) = %v", c, got)
		}
	}
}

// randomText returns n bytes drawn mostly from the bytes that matter to the
// scanner.
func randomText(r *rand.Rand, n int) string {
	const alphabet = "  \t\n\r\"'&<>=;abcXYZ019_-\x00\x01\x1f\x7f"
	var b strings.Builder
	for range n {
		switch r.IntN(8) {
		case 0:
			b.WriteString("é") // two bytes, both >= 0x80
		case 1:
			b.WriteByte(byte(r.IntN(256)))
		default:
			b.WriteByte(alphabet[r.IntN(len(alphabet))])
		}
	}
	return b.String()
}

func TestScanValue(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		src := randomText(r, r.IntN(40))
		quote := byte('"')
		if r.IntN(2) == 0 {
			quote = '\''
		}
		// The obvious definition.
		end, plain := len(src), true
		for i := 0; i < len(src); i++ {
			if c := src[i]; c == quote {
				end = i
				break
			} else if c < ' ' || c == '&' || c == '<' {
				plain = false
			}
		}
		s := scanner{src: src}
		if gotEnd, gotPlain := s.scanValue(0, quote); gotEnd != end || end < len(src) && gotPlain != plain {
			t.Fatalf("scanValue(%q, %c) = %d, %v; want %d, %v", src, quote, gotEnd, gotPlain, end, plain)
		}
	}
}

func TestSkipSpace(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		src := strings.Repeat(" ", r.IntN(20)) + randomText(r, r.IntN(30))
		from := r.IntN(len(src) + 1)
		end := from
		for end < len(src) && isSpace(src[end]) {
			end++
		}
		s := scanner{src: src, lines: newLines("", src, 0, true)}
		s.lines.count(0, from)
		want := s.lines
		want.count(from, end)
		if got := s.skipSpace(from); got != end || s.lines.line != want.line || s.lines.lineStart != want.lineStart {
			t.Fatalf("skipSpace(%q, %d) = %d at line %d from %d; want %d at line %d from %d",
				src, from, got, s.lines.line, s.lines.lineStart, end, want.line, want.lineStart)
		}
	}
}
