package btxml

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/fstest"
)

// bigDocument returns a document of n nodes (n-1 a multiple of 10) in Groot2's layout: a
// Sequence of Fallbacks of nine leaves, each with a name and two ports.
func bigDocument(n int) []byte {
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<root BTCPP_format=\"4\" main_tree_to_execute=\"Main\">\n")
	b.WriteString("    <BehaviorTree ID=\"Main\">\n        <Sequence name=\"root\">\n")
	for i := 0; i < n/10; i++ {
		fmt.Fprintf(&b, "            <Fallback name=\"step_%d\">\n", i)
		for j := range 9 {
			switch j % 3 {
			case 0:
				fmt.Fprintf(&b, "                <MoveTo name=\"move_%d_%d\" goal=\"{goal_%d}\" speed=\"0.%d\"/>\n", i, j, j, j)
			case 1:
				fmt.Fprintf(&b, "                <Script code=\"counter += 1; done := counter &gt;= %d\"/>\n", i)
			default:
				fmt.Fprintf(&b, "                <IsBatteryOk name=\"battery_%d_%d\" min=\"%d\" _skipIf=\"skip\"/>\n", i, j, j)
			}
		}
		b.WriteString("            </Fallback>\n")
	}
	b.WriteString("        </Sequence>\n    </BehaviorTree>\n</root>\n")
	return []byte(b.String())
}

func countNodes(e *Element) int {
	n := 1
	for _, c := range e.Children {
		n += countNodes(c)
	}
	return n
}

func TestBigDocument(t *testing.T) {
	d := mustParse(t, "big.xml", string(bigDocument(10001)))
	if n := countNodes(d.Trees[0].Root); n != 10001 {
		t.Fatalf("%d nodes", n)
	}
	checkRoundTrip(t, d)
}

// BenchmarkParse10k parses a 10,000-node file.
func BenchmarkParse10k(b *testing.B) {
	data := bigDocument(10001)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("big.xml", data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParse10kCRLF is the same file with CR LF line ends.
func BenchmarkParse10kCRLF(b *testing.B) {
	data := bytes.ReplaceAll(bigDocument(10001), []byte("\n"), []byte("\r\n"))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("big.xml", data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoad10k loads the same file through an fs.FS.
func BenchmarkLoad10k(b *testing.B) {
	fsys := fstest.MapFS{"big.xml": {Data: bigDocument(10001)}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(fsys, "big.xml"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWrite10k writes the 10,000-node document.
func BenchmarkWrite10k(b *testing.B) {
	d, err := Parse("big.xml", bigDocument(10001))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := Write(io.Discard, d); err != nil {
			b.Fatal(err)
		}
	}
}
