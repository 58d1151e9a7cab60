package bt

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/gobt/bt/btxml"
)

// genTreeXML writes a document whose main tree has about n nodes: Sequences, Fallbacks
// and ReactiveSequences of ten children over AlwaysSuccess and AlwaysFailure leaves, and
// with scripts, one leaf in ten a ScriptCondition (a script to parse and compile).
func genTreeXML(n int, scripts bool) string {
	var b strings.Builder
	b.WriteString(`<root BTCPP_format="4"><BehaviorTree ID="Main">` + "\n")
	count := 0
	var gen func(depth int)
	gen = func(depth int) {
		count++
		if depth == 0 || count >= n {
			switch count % 10 {
			case 3:
				if scripts {
					b.WriteString(`<ScriptCondition code="x &lt; 3"/>`)
				} else {
					b.WriteString(`<AlwaysSuccess/>`)
				}
			case 7:
				b.WriteString(`<AlwaysFailure/>`)
			default:
				b.WriteString(`<AlwaysSuccess name="leaf"/>`)
			}
			b.WriteString("\n")
			return
		}
		tag := [...]string{"Sequence", "Fallback", "ReactiveSequence"}[depth%3]
		fmt.Fprintf(&b, "<%s>\n", tag)
		for i := 0; i < 10 && count < n; i++ {
			gen(depth - 1)
		}
		fmt.Fprintf(&b, "</%s>\n", tag)
	}
	b.WriteString(`<Sequence><Script code="x := 0"/>` + "\n")
	count += 2
	for count < n {
		gen(3)
	}
	b.WriteString("</Sequence></BehaviorTree></root>\n")
	return b.String()
}

func BenchmarkParseAndBuild10k(b *testing.B)        { benchParseAndBuild(b, false) }
func BenchmarkParseAndBuild10kScripts(b *testing.B) { benchParseAndBuild(b, true) }

func benchParseAndBuild(b *testing.B, scripts bool) {
	src := genTreeXML(10000, scripts)
	b.ReportAllocs()
	for b.Loop() {
		f := NewFactory()
		if err := f.LoadString("big.xml", src); err != nil {
			b.Fatal(err)
		}
		if _, err := f.NewTree(""); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBuildFromParsed10k(b *testing.B)        { benchBuildFromParsed(b, false) }
func BenchmarkBuildFromParsed10kScripts(b *testing.B) { benchBuildFromParsed(b, true) }

func benchBuildFromParsed(b *testing.B, scripts bool) {
	doc, err := btxml.Parse("big.xml", []byte(genTreeXML(10000, scripts)))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		f := NewFactory()
		if err := f.LoadDocument(doc); err != nil {
			b.Fatal(err)
		}
		if _, err := f.NewTree(""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNewTree10k is the second half of BuildFromParsed10k: a Tree from the
// definition a Factory loaded (what BehaviorTree.CPP's createTree does with the XML it
// registered).
func BenchmarkNewTree10k(b *testing.B) {
	f := NewFactory()
	if err := f.LoadString("big.xml", genTreeXML(10000, false)); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := f.NewTree(""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkInstantiate100 builds a 100-node tree from a loaded definition, as an agent
// of a crowd would; B/node is the heap a built node costs. The tree has controls and
// actions; in the Scripts variant one leaf in ten is a ScriptCondition. The Spec
// variant builds the same tree from its definition in Go (Factory.Definition), with
// NewTree.
func BenchmarkInstantiate100(b *testing.B)        { benchInstantiate(b, false, false) }
func BenchmarkInstantiate100Scripts(b *testing.B) { benchInstantiate(b, true, false) }
func BenchmarkInstantiate100Spec(b *testing.B)    { benchInstantiate(b, false, true) }

func benchInstantiate(b *testing.B, scripts, spec bool) {
	f := NewFactory()
	if err := f.LoadString("small.xml", genTreeXML(100, scripts)); err != nil {
		b.Fatal(err)
	}
	root, err := f.Definition("")
	if err != nil {
		b.Fatal(err)
	}
	build := func() (*Tree, error) { return f.NewTree("") }
	if spec {
		build = func() (*Tree, error) { return NewTree(root) }
	}
	var nodes int
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ReportAllocs()
	for b.Loop() {
		tree, err := build()
		if err != nil {
			b.Fatal(err)
		}
		nodes = tree.Len()
	}
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/float64(nodes), "B/node")
}

func TestGeneratedTreeSizes(t *testing.T) {
	for _, n := range []int{100, 10000} {
		f := NewFactory()
		if err := f.LoadString("gen.xml", genTreeXML(n, true)); err != nil {
			t.Fatal(err)
		}
		tree, err := f.NewTree("")
		if err != nil {
			t.Fatal(err)
		}
		if got := tree.Len(); got < n || got > n+n/20 {
			t.Errorf("asked for %d nodes, got %d", n, got)
		}
		if s, err := tree.TickOnce(); err != nil || s == Idle {
			t.Errorf("tick: %v %v", s, err)
		}
	}
}
