package script

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func TestParseTree(t *testing.T) {
	tests := []struct{ src, want string }{
		{"1", "1"},
		{"x", "x"},
		{"@x", "@x"},
		{"'s'", `"s"`},
		{"true", "true"},
		{"1 + 2 * 3", "(+ 1 (* 2 3))"},
		{"1 * 2 + 3", "(+ (* 1 2) 3)"},
		{"a - b - c", "(- (- a b) c)"},
		{"a / b * c", "(* (/ a b) c)"},
		{"a .. b + c", "(+ (.. a b) c)"},
		{"a + b .. c", "(.. (+ a b) c)"},
		{"a & b + c", "(& a (+ b c))"},
		{"a | b & c", "(| a (& b c))"},
		{"a ^ b | c", "(| (^ a b) c)"},
		{"a | b ^ c", "(^ (| a b) c)"},
		{"a == b | c", "(a == (| b c))"},
		{"a < b < c", "(a < b < c)"},
		{"a < b == c != d", "(a < b == c != d)"},
		{"a < b && c", "(&& (a < b) c)"},
		{"a && b == c", "(&& a (b == c))"},
		{"a || b && c", "(|| a (&& b c))"},
		{"a && b || c", "(|| (&& a b) c)"},
		{"a || b || c", "(|| (|| a b) c)"},
		{"a ? b : c", "(?: a b c)"},
		{"a ? b : c ? d : e", "(?: a b (?: c d e))"},
		{"a ? b ? c : d : e", "(?: a (?: b c d) e)"},
		{"a || b ? c : d", "(?: (|| a b) c d)"},
		{"a ? b : c || d", "(?: a b (|| c d))"},
		{"a ? x := 1 : 2", "(?: a (:= x 1) 2)"},
		{"x := a ? b : c", "(:= x (?: a b c))"},
		{"x := y := 1", "(:= x (:= y 1))"},
		{"x = y + 1", "(= x (+ y 1))"},
		{"x += 1", "(+= x 1)"},
		{"x -= 1", "(-= x 1)"},
		{"x *= 1", "(*= x 1)"},
		{"x /= 1", "(/= x 1)"},
		{"(x) := 1", "(:= x 1)"},
		{"(x := 1) + 2", "(+ (:= x 1) 2)"},
		{"-a * b", "(* (- a) b)"},
		{"-a.. b", "(.. (- a) b)"},
		{"!a == b", "((! a) == b)"},
		{"!a && b", "(&& (! a) b)"},
		{"~a & b", "(& (~ a) b)"},
		{"- - a", "(- (- a))"},
		{"!!a", "(! (! a))"},
		{"-~!a", "(- (~ (! a)))"},
		{"(a + b) * c", "(* (+ a b) c)"},
		{"((a))", "a"},
		{"65..x", "(.. 65 x)"},
		{"1..2", "(.. 1 2)"},
		{"a-=1", "(-= a 1)"},
		{"a--1", "(- a (- 1))"},
		{"a=-1", "(= a (- 1))"},
		{"a==-1", "(a == (- 1))"},
		{"x:=1;y:=2", "(:= x 1); (:= y 2)"},
		{"x\ny", "x; y"},
	}
	for _, tc := range tests {
		s, err := Parse(tc.src)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.src, err)
			continue
		}
		var parts []string
		for _, n := range s.stmts {
			parts = append(parts, n.String())
		}
		if got := strings.Join(parts, "; "); got != tc.want {
			t.Errorf("Parse(%q) = %s, want %s", tc.src, got, tc.want)
		}
	}
}

// syntaxErrorCases are rendered into testdata/syntax_errors.golden.
var syntaxErrorCases = []string{
	"",
	"   \n\t ",
	";",
	"x := ",
	"x := * 3",
	"1 +",
	"(1 + 2",
	"((1 + 2)",
	"1 + 2)",
	"a b",
	"a := 1 b := 2",
	"x ? 1",
	"x ? 1 2",
	"1 + x := 3",
	"-x := 3",
	"a < b := 1",
	"x ? 1 : y := 2",
	"3 = 2",
	"'hello' = 'world'",
	"65.",
	"65.x",
	"3foo",
	"65.43foo",
	"0x",
	"0x1G",
	"0X100.",
	"1e",
	"1e+",
	"2.5Ex",
	".5",
	"1.5.3",
	"99999999999999999999",
	"0x10000000000000000",
	"1e400",
	"'unterminated",
	"x := 'abc",
	`x := "double"`,
	"x := 1 # comment",
	"x := 1 % 2",
	"x := a @ b",
	"@ := 1",
	"x := é",
	"x := \x01",
	"x :== 1",
	"x === 1",
	"a +",
	"+1",
	"x := 1;\ny := * 2",
	"first := 1\n\tsecond := (2 +\n\t\t3 +)",
	"résumé := 'x' +",
	"x := 1\r\ny := )",
	"true := 1",
	"x.y := 1",
}

func TestSyntaxErrorsGolden(t *testing.T) {
	var b strings.Builder
	for _, src := range syntaxErrorCases {
		_, err := Parse(src)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q): got %v, want a *SyntaxError", src, err)
			continue
		}
		if se.Src != src {
			t.Errorf("Parse(%q): Src = %q", src, se.Src)
		}
		if line, col := position(src, se.Offset); line != se.Line || col != se.Col {
			t.Errorf("Parse(%q): Line:Col %d:%d does not match Offset %d", src, se.Line, se.Col, se.Offset)
		}
		b.WriteString("== " + strconv.Quote(src) + "\n")
		b.WriteString(se.Error() + "\n\n")
	}
	golden(t, "syntax_errors.golden", b.String())
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (run go test -update and review the diff):\n%s", path, got)
	}
}

func TestSyntaxErrorPosition(t *testing.T) {
	tests := []struct {
		src       string
		line, col int
		msg       string
	}{
		{"x := * 3", 1, 6, "expected an operand, found '*'"},
		{"x := 1;\ny := * 2", 2, 6, "expected an operand, found '*'"},
		{"a\n\n  b c", 3, 5, "expected ';' or end of script, found 'c'"},
		{"", 1, 1, "empty script"},
		{"(1", 1, 3, "expected ')' to close the '(' at 1:1, found end of script"},
		{"1 + (2", 1, 7, "expected ')' to close the '(' at 1:5, found end of script"},
		{"x := 'abc", 1, 6, "unterminated string"},
		{"1 + x := 3", 1, 7, "the left side of := must be a variable name"},
	}
	for _, tc := range tests {
		_, err := Parse(tc.src)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q): got %v", tc.src, err)
			continue
		}
		if se.Line != tc.line || se.Col != tc.col || se.Msg != tc.msg {
			t.Errorf("Parse(%q) = %d:%d %q, want %d:%d %q", tc.src, se.Line, se.Col, se.Msg, tc.line, tc.col, tc.msg)
		}
	}
}

func TestSyntaxErrorRendering(t *testing.T) {
	_, err := Parse("first := 1\n\tsecond := (2 +)")
	want := "2:16: expected an operand, found ')'\n" +
		"    \tsecond := (2 +)\n" +
		"    \t              ^"
	if err == nil || err.Error() != want {
		t.Errorf("got:\n%v\nwant:\n%s", err, want)
	}
}

func TestDeepNesting(t *testing.T) {
	for _, src := range []string{
		strings.Repeat("(", 10000) + "1" + strings.Repeat(")", 10000),
		strings.Repeat("(", 10000),
		strings.Repeat("-", 10000) + "1",
		strings.Repeat("!", 10000) + "true",
		"1" + strings.Repeat(" + (1", 10000) + strings.Repeat(")", 10000),
		strings.Repeat("true ? 1 : ", 10000) + "2",
		strings.Repeat("x := ", 10000) + "1",
	} {
		_, err := Parse(src)
		if err == nil || !strings.Contains(err.Error(), "nested too deeply") {
			t.Errorf("Parse(%.20q...): got %v, want a nesting error", src, err)
		}
	}
	// Within the limit, deep expressions work.
	src := strings.Repeat("(", 200) + "1" + strings.Repeat(")", 200) + strings.Repeat(" + 1", 200)
	if v, err := Eval(src, nil); err != nil || v.Float() != 201 {
		t.Errorf("deep but legal: %#v, %v", v, err)
	}
	// Long comparison chains are flat.
	src = "0" + strings.Repeat(" < 1 <= 1", 2000)
	if _, err := Eval(src, nil); err != nil {
		t.Errorf("long chain: %v", err)
	}
}

// Item 9 of issue 13: a chain of left-associative operators (a + b + c …) is one
// level of nesting however long it is, and compiling and running it nests no deeper
// than the chain's parts: with the stack held small, a 30,000-term chain works.
func TestLongChainsAreFlat(t *testing.T) {
	defer debug.SetMaxStack(debug.SetMaxStack(4 << 20))
	const n = 30_000
	for _, c := range []struct {
		first, link string
		want        Value
	}{
		{"1", " + 1", Float(n)}, // arithmetic is done in doubles, as BT.CPP does
		{"x", " + x", Float(n)},
		{"x", " - x", Float(2 - n)},
		{"x", " * x + x", Float(n)},
		{"x", " & x | x ^ x", Float(0)},
		{"'a'", " .. 'b'", String("a" + strings.Repeat("b", n-1))},
		{"x == 1", " && x == 1", Bool(true)},
		{"x == 0", " || x == 0", Bool(false)},
		{"x == 1", " && x == 1 || x == 0", Bool(true)},
		{"(x == 1 && y > 1)", " || (x == 0 && y > 1)", Bool(true)},
		{"(x + 1) * 2 > 3", " && (x + 1) * 2 > 3", Bool(true)},
	} {
		src := c.first + strings.Repeat(c.link, n-1)
		env := newEnv().set("x", Int(1)).set("y", Int(2))
		v, err := Eval(src, env)
		if err != nil || v != c.want {
			t.Errorf("%s%s … (%d terms): got %v, %v; want %v", c.first, c.link, n, short(v), err, short(c.want))
		}
	}
}

func short(v Value) string {
	s := v.String()
	if len(s) > 20 {
		return s[:20] + "…"
	}
	return s
}

func TestNames(t *testing.T) {
	s, err := Parse("b := a + @root; c += b; a")
	if err != nil {
		t.Fatal(err)
	}
	names := s.Names()
	if got := strings.Join(names, " "); got != "@root a b c" {
		t.Errorf("Names() = %q", got)
	}
	names[0] = "changed"
	if s.Names()[0] != "@root" {
		t.Error("Names returned the script's own slice")
	}
	if s.Source() != "b := a + @root; c += b; a" {
		t.Errorf("Source() = %q", s.Source())
	}
}
