package bt

import (
	"testing"

	"github.com/gobt/bt/blackboard"
	"github.com/gobt/bt/script"
)

// benchScriptEnv returns an Env over a fresh blackboard holding a = 2, b = 5,
// c = "x" and n = 0, as the engine builds it for a node.
func benchScriptEnv(tb testing.TB) *scope {
	tb.Helper()
	bb := blackboard.New()
	for key, v := range map[string]blackboard.Value{
		"a": blackboard.Int(2),
		"b": blackboard.Int(5),
		"c": blackboard.String("x"),
		"n": blackboard.Int(0),
	} {
		if err := bb.Entry(key).Set(v); err != nil {
			tb.Fatal(err)
		}
	}
	return &scope{tree: &Tree{cfg: specConfig}, bb: bb}
}

func compileBench(tb testing.TB, src string) *script.Program {
	tb.Helper()
	s, err := script.Parse(src)
	if err != nil {
		tb.Fatal(err)
	}
	p, err := s.Compile(benchScriptEnv(tb))
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// TestScriptEntryZeroAllocs checks that reading and writing blackboard entries
// from a script does not allocate.
func TestScriptEntryZeroAllocs(t *testing.T) {
	for _, src := range []string{"a + b > 3 && c == 'x'", "n += 1"} {
		p := compileBench(t, src)
		if v, err := p.Run(); err != nil || v.Kind() == script.KindNil {
			t.Fatalf("%s = %#v, %v", src, v, err)
		}
		if n := testing.AllocsPerRun(1000, func() { p.Run() }); n != 0 {
			t.Errorf("%s: %v allocations per run, want 0", src, n)
		}
	}
}

// BenchmarkScriptEntry is the acceptance expression evaluated through
// real blackboard entries (script.BenchmarkRun uses a fake Env).
func BenchmarkScriptEntry(b *testing.B) {
	for _, bc := range []struct{ name, src string }{
		{"Condition", "a + b > 3 && c == 'x'"},
		{"Increment", "n += 1"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			p := compileBench(b, bc.src)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.Run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkScriptCompile is the per-instance cost: one Compile per tree
// instance, against the blackboard of that instance.
func BenchmarkScriptCompile(b *testing.B) {
	s, err := script.Parse("a + b > 3 && c == 'x'")
	if err != nil {
		b.Fatal(err)
	}
	var env script.Env = benchScriptEnv(b) // converted once, as a node does
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Compile(env); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScriptInstances builds many instances of one tree definition (a
// crowd of agents): each instance compiles the definition's scripts again,
// which reuses the code compiled for the first one.
func BenchmarkScriptInstances(b *testing.B) {
	f := NewFactory()
	if err := f.LoadString("big.xml", genTreeXML(10000, true)); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := f.NewTree(""); err != nil {
			b.Fatal(err)
		}
	}
}
