package script

import (
	"fmt"
	"testing"
)

// fieldVar is the cheapest possible Var: Load is a field read. It narrows
// integral floats into an Int entry, as the engine does.
type fieldVar struct{ v Value }

func (f *fieldVar) Load() (Value, error) { return f.v, nil }
func (f *fieldVar) Exists() bool         { return true }
func (f *fieldVar) Assign(v Value) error {
	if f.v.kind == KindInt && v.kind == KindFloat {
		x := v.Float()
		if x != float64(int64(x)) {
			return fmt.Errorf("%v is not an integer", x)
		}
		v = Int(int64(x))
	}
	f.v = v
	return nil
}

// fieldEnv is a map-free Env over a fixed set of variables.
type fieldEnv struct{ a, b, c, n fieldVar }

func newFieldEnv() *fieldEnv {
	return &fieldEnv{
		a: fieldVar{Int(2)},
		b: fieldVar{Int(5)},
		c: fieldVar{String("x")},
		n: fieldVar{Int(0)},
	}
}

func (e *fieldEnv) Var(name string) (Var, error) {
	switch name {
	case "a":
		return &e.a, nil
	case "b":
		return &e.b, nil
	case "c":
		return &e.c, nil
	case "n":
		return &e.n, nil
	}
	return nil, fmt.Errorf("no variable %q", name)
}

func (e *fieldEnv) Enum(string) (int64, bool) { return 0, false }

func compileField(tb testing.TB, src string) (*Program, *fieldEnv) {
	tb.Helper()
	s, err := Parse(src)
	if err != nil {
		tb.Fatal(err)
	}
	env := newFieldEnv()
	p, err := s.Compile(env)
	if err != nil {
		tb.Fatal(err)
	}
	return p, env
}

// benchScripts are the expressions whose evaluation must not allocate.
var benchScripts = map[string]string{
	"Condition":  "a + b > 3 && c == 'x'",
	"Increment":  "n += 1",
	"Literal":    "(2 + 3) * 4 > 10 && 'a' < 'b'",
	"Chain":      "0 <= a < b <= 10",
	"Ternary":    "a > b ? a : b",
	"Bitwise":    "(a | b) & 7 ^ 1",
	"Statements": "n := a; n += b; n * 2 >= 14",
	"Not":        "!(a == b) || c != 'y'",
}

func TestZeroAllocs(t *testing.T) {
	for name, src := range benchScripts {
		p, _ := compileField(t, src)
		allocs := testing.AllocsPerRun(1000, func() {
			if _, err := p.Run(); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%s (%s): %v allocations per run, want 0", name, src, allocs)
		}
	}
}

func TestBenchScriptResults(t *testing.T) {
	want := map[string]Value{
		"Condition":  Bool(true),
		"Increment":  Int(1),
		"Literal":    Bool(true),
		"Chain":      Bool(true),
		"Ternary":    Int(5),
		"Bitwise":    Float(6),
		"Statements": Bool(true),
		"Not":        Bool(true),
	}
	for name, src := range benchScripts {
		p, _ := compileField(t, src)
		got, err := p.Run()
		if err != nil || !sameValue(got, want[name]) {
			t.Errorf("%s (%s) = %#v, %v; want %#v", name, src, got, err, want[name])
		}
	}
}

func BenchmarkRun(b *testing.B) {
	for _, name := range []string{"Condition", "Increment", "Literal", "Chain", "Ternary", "Bitwise", "Statements", "Not"} {
		b.Run(name, func(b *testing.B) {
			p, _ := compileField(b, benchScripts[name])
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.Run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkConcat builds a new string each run: one allocation is expected.
func BenchmarkConcat(b *testing.B) {
	p, _ := compileField(b, "'a=' .. a .. ', c=' .. c")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Run(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("a + b > 3 && c == 'x'"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCompile(b *testing.B) {
	s, err := Parse("a + b > 3 && c == 'x'")
	if err != nil {
		b.Fatal(err)
	}
	env := newFieldEnv()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Compile(env); err != nil {
			b.Fatal(err)
		}
	}
}
