package script

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// loweringScripts exercise what lower.go does to the code: fused operands,
// short-circuit constructs evaluated as expressions (nested, chained, fed
// into other operators or assignments), and packed registers.
var loweringScripts = []string{
	"a + b > 3 && s == 'ab'",
	"a > b && a < b && b > a",
	"a < b && a > b && b > a",
	"a < b && b > a && a > 1",
	"a > b || a < b || b > a",
	"a < b || a > b || b < a",
	"(a > b || a < b) && b > a",
	"a < b && (b < a || a == 2)",
	"a > b || a == 2 && s == 'x'",
	"!(a > b && b > a)",
	"!(a < b || b < a)",
	"a > b && b > a ? 1 : 2",
	"a < b && b > a ? a + b : a - b",
	"x := a > b && b > a; x",
	"x := a < b && b > a; !x",
	"(a < b && t) .. 'x'",
	"a .. (t && b < 1) .. (b < a || s)",
	"0 <= a < b <= 10",
	"0 <= a < b <= 10 && t",
	"b < a < 10 || s < 'b' < 'c'",
	"a < b < (b := 9)",
	"a + b * (a - b) > 3",
	"(a + b) * (a - b)",
	"-(a + b) / (a - b) < -2",
	"n := a + b; n * 2 >= 14 ? 'big' : 'small'",
	"t ? a + b : a - b",
	"t && e > 1",
	"e > 1 && t",
	"a > 1 && e",
	"a < 1 || e",
	"s == 'ab' && s != 'x' && s < 'b' && s >= 'a'",
	"f > 2 && f < 3 && f == 2.5000000001",
	"n == 3 && n < 4 && n != '3'",
	"bs && t",
	"!bs || t",
	"bs || t",
	"t && bs",
	"a > b || (a := 9) > b; a",
	"x := 1; x += a > b && t",
	"x := a; x += b; x * 2 >= 14 && x < 100",
	"(a | b) & 7 ^ 1 > 0 && (a & 1) == 0",
	"a > RED && GREEN == 2 && RED < b",
	"t && (x := a) > 1 && x < b; x",
	"a == 2 && (a := 3) == 3 && a == 3",
	"y := t ? x := 1 : 2; x",
	"s .. s == 'abab' || s + s == 'x'",
	"@r < 0 && -@r == 1",
	"zz > 1 && t",
	"t && zz > 1",
	"a > b && zz > 1",
	"a < b || zz > 1",
}

// loweringEnvs vary the values so that every guard goes both ways.
var loweringEnvs = []func() *testEnv{
	fuzzEnv,
	func() *testEnv { return fuzzEnv().set("a", Int(5)).set("b", Int(2)) },
	func() *testEnv { return fuzzEnv().set("a", Int(2)).set("b", Int(2)).set("t", Bool(false)) },
	func() *testEnv { return fuzzEnv().set("s", String("x")).set("bs", String("true")).set("f", Float(3)) },
	func() *testEnv { return fuzzEnv().set("a", String("2")).set("b", Float(5)) },
}

func TestLoweringAgainstReference(t *testing.T) {
	for _, src := range loweringScripts {
		for _, env := range loweringEnvs {
			checkReference(t, src, env)
		}
	}
}

func TestShortCircuitChains(t *testing.T) {
	// a > b && a < b && b > a once ran the last comparison after the first
	// had failed, and so gave true.
	tests := []struct {
		src  string
		want bool
	}{
		{"a > b && a < b && b > a", false},
		{"(a > b && a < b) && b > a", false},
		{"!(a > b && a < b)", true},
		{"a > b && a < b ? 'y' : 'n'", false},
		{"a < b || a > b || b < a", true},
		{"a > b || a > b || b > a", true},
		{"a > b || a > b || b < a", false},
	}
	for _, tc := range tests {
		v, err := Eval(tc.src, fuzzEnv())
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		got, _ := v.Truthy()
		if v.Kind() == KindString {
			got = v.Str() == "y"
		}
		if got != tc.want {
			t.Errorf("%s = %#v, want %v", tc.src, v, tc.want)
		}
	}
}

func TestNegatedComparisonErrors(t *testing.T) {
	// !(x != y) runs as x == y; its errors still name !=.
	for _, tc := range []struct{ src, want string }{
		{"!(s != e)", "right operand of != is not initialised"},
		{"!(e == s)", "left operand of == is not initialised"},
		{"!!(s == e)", "right operand of == is not initialised"},
		{"!(a != e) && t", "right operand of != is not initialised"},
	} {
		_, err := Eval(tc.src, fuzzEnv())
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.src, err, tc.want)
		}
		checkReference(t, tc.src, fuzzEnv)
	}
}

func TestCompileShares(t *testing.T) {
	s, err := Parse("a + b > 3 && c == 'x'")
	if err != nil {
		t.Fatal(err)
	}
	p1, err := s.Compile(newFieldEnv())
	if err != nil {
		t.Fatal(err)
	}
	env := newFieldEnv()
	p2, err := s.Compile(env)
	if err != nil {
		t.Fatal(err)
	}
	if p1.compiled != p2.compiled {
		t.Error("two Compiles with the same enums built the code twice")
	}
	env.c.v = String("y")
	if v, err := p1.Run(); err != nil || !sameValue(v, Bool(true)) {
		t.Errorf("p1.Run() = %#v, %v; want true", v, err)
	}
	if v, err := p2.Run(); err != nil || !sameValue(v, Bool(false)) {
		t.Errorf("p2.Run() = %#v, %v; want false (its own variables)", v, err)
	}
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := s.Compile(env); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 1 {
		t.Errorf("Compile of a short script: %v allocations, want 1", allocs)
	}
}

// TestCompileEnums checks that code compiled for one set of enums is not
// reused for another.
func TestCompileEnums(t *testing.T) {
	s, err := Parse("x := RED + 1; RED == 'RED' || RED > 5")
	if err != nil {
		t.Fatal(err)
	}
	run := func(enums map[string]int64) string {
		env := newEnv()
		env.enums = enums
		p, err := s.Compile(env)
		if err != nil {
			return err.Error()
		}
		v, err := p.Run()
		if err != nil {
			return err.Error()
		}
		return fmt.Sprintf("%#v x=%#v", v, env.vars["x"].val)
	}
	for i, tc := range []struct {
		enums map[string]int64
		want  string
	}{
		{map[string]int64{"RED": 1}, "script.Bool(true) x=script.Float(2)"},
		{map[string]int64{"RED": 7}, "script.Bool(true) x=script.Float(8)"},
		{map[string]int64{"RED": 1, "GREEN": 2}, "script.Bool(true) x=script.Float(2)"},
		{map[string]int64{}, `script "x := RED + 1; RED == 'RED' || RED > 5": the entry "RED" does not exist`},
		{map[string]int64{"RED": 1}, "script.Bool(true) x=script.Float(2)"},
	} {
		if got := run(tc.enums); got != tc.want {
			t.Errorf("%d: got %s\nwant %s", i, got, tc.want)
		}
	}
}

// TestCompileErrorOrder checks that a cached compile reports the same
// error as the first one: the first failure in the order of the source.
func TestCompileErrorOrder(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"bad_name := 1; RED := 2", `cannot bind "bad_name"`},
		{"RED := 2; bad_name := 1", `cannot assign to "RED"`},
		{"x := 1; bad_name + RED", `cannot bind "bad_name"`},
	} {
		s, err := Parse(tc.src)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 3 {
			env := newEnv()
			env.enums["RED"] = 1
			_, err := s.Compile(env)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s (compile %d): got %v, want %q", tc.src, i, err, tc.want)
			}
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Errorf("%s: error %T, want *SyntaxError", tc.src, err)
			}
		}
	}
	// A good script with a name the Env refuses: the cached code binds the
	// same names in the same order.
	s, _ := Parse("x := i; y := bad_name")
	for range 2 {
		env := newEnv()
		if _, err := s.Compile(env); err == nil || !strings.Contains(err.Error(), "1:14: cannot bind") {
			t.Errorf("got %v", err)
		}
		if got := strings.Join(env.binds, ","); got != "x,i,y,bad_name" {
			t.Errorf("Var calls %s", got)
		}
	}
}

// TestCompileConcurrent compiles one Script from several goroutines (run
// with -race).
func TestCompileConcurrent(t *testing.T) {
	s, err := Parse("n := a + b; n > 3 && c == 'x'")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				p, err := s.Compile(newFieldEnv())
				if err != nil {
					t.Error(err)
					return
				}
				if v, err := p.Run(); err != nil || !sameValue(v, Bool(true)) {
					t.Errorf("Run() = %#v, %v", v, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestPackedRegisters checks that scripts whose code uses many registers
// keep few.
func TestPackedRegisters(t *testing.T) {
	for _, tc := range []struct {
		src   string
		nregs int
	}{
		{"a + b > 3 && c == 'x'", 0},
		{"n += 1", 1},
		{"(a + b) * (a - b) + (a * b) * (a / b)", 2},
		{"0 <= a < 10", 1},
	} {
		s, err := Parse(tc.src)
		if err != nil {
			t.Fatal(err)
		}
		p, err := s.Compile(newFieldEnv())
		if err != nil {
			t.Fatal(err)
		}
		if p.nregs != tc.nregs {
			t.Errorf("%s: %d scratch slots, want %d\n%s", tc.src, p.nregs, tc.nregs, p.disassemble())
		}
	}
}

// TestLoweringGenerated checks generated nests of && || ?: ! comparison
// chains and assignments against the reference evaluator: the shapes that
// lower.go turns into expressions.
func TestLoweringGenerated(t *testing.T) {
	seed := uint64(1)
	rnd := func(n int) int {
		seed = seed*6364136223846793005 + 1442695040888963407
		return int(seed>>33) % n
	}
	atoms := []string{"a", "b", "t", "s", "e", "n", "bs", "f", "1", "2.5", "'ab'", "true", "RED"}
	cmps := []string{"<", "<=", ">", ">=", "==", "!="}
	var gen func(depth int) string
	gen = func(depth int) string {
		if depth == 0 {
			return atoms[rnd(len(atoms))]
		}
		switch rnd(9) {
		case 0:
			return gen(depth-1) + " && " + gen(depth-1)
		case 1:
			return gen(depth-1) + " || " + gen(depth-1)
		case 2:
			return "(" + gen(depth-1) + " ? " + gen(depth-1) + " : " + gen(depth-1) + ")"
		case 3:
			return "!(" + gen(depth-1) + ")"
		case 4:
			return gen(0) + " " + cmps[rnd(6)] + " " + gen(0) + " " + cmps[rnd(6)] + " " + gen(0)
		case 5:
			return "(" + gen(depth-1) + " + " + gen(depth-1) + ")"
		case 6:
			return "(x := " + gen(depth-1) + ")"
		case 7:
			return "(" + gen(depth-1) + ")"
		}
		return gen(depth-1) + " " + cmps[rnd(6)] + " " + gen(depth-1)
	}
	for range 1500 {
		src := gen(1 + rnd(4))
		if rnd(4) == 0 {
			src = "x := " + gen(1) + "; " + src
		}
		for _, env := range loweringEnvs {
			checkReference(t, src, env)
		}
		if t.Failed() {
			return
		}
	}
}
