package script

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// reference evaluates a parsed script by walking its tree, straight from the
// rules in ops.go: no constant folding, no fused jumps, operands strictly
// left to right. The fuzz target checks that compiled programs agree with it.
type reference struct {
	env   *testEnv
	src   string
	slots map[string]*testVar
}

func (r *reference) run(s *Script) (Value, error) {
	var v Value
	for _, n := range s.stmts {
		var err error
		if v, err = r.eval(n); err != nil {
			return Value{}, (&Program{src: r.src}).runtimeError(err)
		}
	}
	return v, nil
}

func (r *reference) name(n *node) (Value, error) {
	if i, ok := r.env.enums[n.name]; ok {
		return Int(i), nil
	}
	tv := r.env.variable(n.name)
	v, err := tv.Load()
	if err != nil {
		return Value{}, loadError(&varSlot{v: tv, name: n.name, pos: r.firstUse(n.name)}, err)
	}
	return v, nil
}

// firstUse finds where the program binds a name: its first mention.
func (r *reference) firstUse(name string) int {
	lx := lexer{src: r.src}
	for {
		tok, err := lx.next()
		if err != nil || tok.kind == tEOF {
			return -1
		}
		if tok.kind == tIdent && r.src[tok.pos:tok.end] == name {
			return tok.pos
		}
	}
}

func (r *reference) eval(n *node) (Value, error) {
	switch n.op {
	case opConst:
		return n.val, nil
	case opName:
		return r.name(n)
	case opNeg, opNot, opCompl:
		x, err := r.eval(n.args[0])
		if err != nil {
			return Value{}, err
		}
		return unary(n.op, n.pos, x)
	case opAnd, opOr:
		x, err := r.eval(n.args[0])
		if err != nil {
			return Value{}, err
		}
		b, err := truth(n.op, n.pos, "left", x)
		if err != nil || b == (n.op == opOr) {
			return Bool(b), err
		}
		y, err := r.eval(n.args[1])
		if err != nil {
			return Value{}, err
		}
		b, err = truth(n.op, n.pos, "right", y)
		return Bool(b), err
	case opCond:
		c, err := r.eval(n.args[0])
		if err != nil {
			return Value{}, err
		}
		ok, err := condition(n.pos, c)
		if err != nil {
			return Value{}, err
		}
		if ok {
			return r.eval(n.args[1])
		}
		return r.eval(n.args[2])
	case opCompare:
		x, err := r.eval(n.args[0])
		if err != nil {
			return Value{}, err
		}
		for i, cmp := range n.cmps {
			y, err := r.eval(n.args[i+1])
			if err != nil {
				return Value{}, err
			}
			ok, err := compare(r.env, cmp.op, cmp.pos, x, y)
			if err != nil || !ok {
				return Bool(false), err
			}
			x = y
		}
		return Bool(true), nil
	case opDefine, opAssign, opAddAssign, opSubAssign, opMulAssign, opDivAssign:
		return r.assign(n)
	}
	x, err := r.eval(n.args[0])
	if err != nil {
		return Value{}, err
	}
	y, err := r.eval(n.args[1])
	if err != nil {
		return Value{}, err
	}
	return binary(n.op, n.pos, x, y)
}

func (r *reference) assign(n *node) (Value, error) {
	tv := r.env.variable(n.name)
	slot := &varSlot{v: tv, name: n.name, pos: r.firstUse(n.name)}
	if n.op != opDefine && !tv.Exists() {
		return Value{}, errorf(n.pos, "the entry %q does not exist; use := to create it", n.name)
	}
	x, err := r.eval(n.args[0])
	if err != nil {
		return Value{}, err
	}
	if x.kind == KindNil {
		return Value{}, notInitialised(n.pos, "right", n.op)
	}
	if n.op != opDefine && n.op != opAssign {
		cur, err := tv.Load()
		if err != nil {
			return Value{}, loadError(slot, err)
		}
		if cur.kind == KindNil {
			return Value{}, notInitialised(n.pos, "left", n.op)
		}
		if x, err = compound(n.op, n.pos, n.name, cur, x); err != nil {
			return Value{}, err
		}
	}
	if err := tv.Assign(x); err != nil {
		return Value{}, &evalError{pos: n.pos, msg: fmt.Sprintf("cannot assign %s to %q: %v", x.describe(), n.name, err), err: err}
	}
	v, err := tv.Load()
	if err != nil {
		return Value{}, loadError(slot, err)
	}
	return v, nil
}

// fuzzEnv is the environment of the fuzz target: a few typed entries, an
// empty one, enums, and whatever the script creates.
func fuzzEnv() *testEnv {
	e := newEnv().
		set("a", Int(2)).
		set("b", Int(5)).
		set("f", Float(2.5)).
		set("s", String("ab")).
		set("t", Bool(true)).
		set("bs", String("false")).
		set("n", String("3")).
		set("e", Value{}).
		set("@r", Int(-1)).
		set("p", Other(point{1, 2})).
		set("q", Other(point{3, 4})).
		set("sl", Other([]int{1}))
	e.enums["RED"] = 1
	e.enums["GREEN"] = 2
	return e
}

func snapshot(e *testEnv) string {
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(e.vars)) {
		v := e.vars[name]
		if v.exists {
			fmt.Fprintf(&b, "%s=%#v ", name, v.val)
		}
	}
	return b.String()
}

// fuzzSeeds are added to the corpus besides the test tables and the
// conformance scripts.
var fuzzSeeds = []string{
	"x := p; x == p && p != q",
	"p == sl || p < q",
	"a + b > 3 && s == 'ab'",
	"x := a; x += b; x * 2 >= 14 ? 'big' : 'small'",
	"a < b < 10 || !t && bs",
	"(a | b) & 7 ^ ~1",
	"'n=' .. a .. f .. t",
	"x := 0x1F; x /= 2",
	"e + 1",
	"RED == 1 ? GREEN : a",
	"x := a < (a := 9) < b",
	"a + (a := 10)",
	"@r -= 1; @r",
	"s += 'c'; s .. s",
	"f * -f / (b - 5)",
	"!n == false",
	"y := t ? x := 1 : 2; x",
	"a == 2.0000001 != false",
	"((a))",
	"1;;2\n3",
}

func FuzzScript(f *testing.F) {
	for _, src := range fuzzSeeds {
		f.Add(src)
	}
	for _, src := range syntaxErrorCases {
		f.Add(src)
	}
	for _, src := range conformanceScripts(f) {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 2000 {
			return // long inputs only slow the fuzzer down
		}
		s, err := Parse(src)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse error is %T, not *SyntaxError: %v", err, err)
			}
			if se.Offset < 0 || se.Offset > len(src) || se.Line < 1 || se.Col < 1 || se.Msg == "" {
				t.Fatalf("bad position %d (%d:%d) or message %q", se.Offset, se.Line, se.Col, se.Msg)
			}
			if utf8.ValidString(src) && !utf8.ValidString(se.Error()) {
				t.Fatalf("rendering broke UTF-8: %q", se.Error())
			}
			return
		}
		for range 2 { // the second run starts from the first run's effects
			env := fuzzEnv()
			p, err := s.Compile(env)
			if err != nil {
				var se *SyntaxError
				if !errors.As(err, &se) {
					t.Fatalf("Compile error is %T: %v", err, err)
				}
				return
			}
			refEnv := fuzzEnv()
			ref := &reference{env: refEnv, src: src}
			for range 2 {
				got, gotErr := p.Run()
				want, wantErr := ref.run(s)
				if gotErr != nil {
					var re *RuntimeError
					if !errors.As(gotErr, &re) {
						t.Fatalf("Run error is %T: %v", gotErr, gotErr)
					}
				}
				if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
					t.Fatalf("%q: error %v, reference %v\n%s", src, gotErr, wantErr, p.disassemble())
				}
				if gotErr == nil && !sameValue(got, want) {
					t.Fatalf("%q = %#v, reference %#v\n%s", src, got, want, p.disassemble())
				}
				if g, w := snapshot(env), snapshot(refEnv); g != w {
					t.Fatalf("%q: env %s, reference %s\n%s", src, g, w, p.disassemble())
				}
			}
		}
	})
}

// conformanceScripts returns the scripts of the conformance cases (the copies in
// the module's testdata).
func conformanceScripts(tb testing.TB) []string {
	files, _ := filepath.Glob("../testdata/conformance/*.xml")
	if len(files) == 0 {
		tb.Fatal("no conformance cases in ../testdata/conformance")
	}
	attr := regexp.MustCompile(`\b(?:code|_skipIf|_failureIf|_successIf|_while|_onSuccess|_onFailure|_post|_onHalted|if)="([^"]*)"`)
	unescape := strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&", "&quot;", `"`, "&apos;", "'", "&#10;", "\n")
	var out []string
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			tb.Fatal(err)
		}
		for _, m := range attr.FindAllStringSubmatch(string(data), -1) {
			out = append(out, unescape.Replace(m[1]))
		}
	}
	return out
}

// TestAgainstReference runs the fuzz target's check over the seeds and the
// conformance scripts; runCases does the same for every table case.
func TestAgainstReference(t *testing.T) {
	srcs := append(slices.Clone(fuzzSeeds), conformanceScripts(t)...)
	if n := len(srcs) - len(fuzzSeeds); n < 100 {
		t.Fatalf("only %d scripts in the conformance cases: is the pattern of conformanceScripts right?", n)
	}
	for _, src := range srcs {
		checkReference(t, src, fuzzEnv)
	}
}

func checkReference(t *testing.T, src string, mkEnv func() *testEnv) {
	t.Helper()
	s, err := Parse(src)
	if err != nil {
		return
	}
	env, refEnv := mkEnv(), mkEnv()
	p, err := s.Compile(env)
	if err != nil {
		return
	}
	ref := &reference{env: refEnv, src: src}
	for range 2 {
		got, gotErr := p.Run()
		want, wantErr := ref.run(s)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || (gotErr == nil && !sameValue(got, want)) || snapshot(env) != snapshot(refEnv) {
			t.Errorf("%q: got %#v, %v, env %s\nreference %#v, %v, env %s\n%s",
				src, got, gotErr, snapshot(env), want, wantErr, snapshot(refEnv), p.disassemble())
			return
		}
	}
}
