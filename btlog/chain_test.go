package btlog

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"testing"
	"time"
)

// chain writes a .btlog whose tree chains n subtrees below each other: the main tree
// is a SubTree, whose tree is a SubTree, and so on, n deep, each <BehaviorTree> naming
// the path of the one before it. A reader that walks up the links made so far for each
// new one reads it in O(n²).
func chain(n int) []byte {
	x := chainXML(n)
	b := append([]byte(headerMagic), protocol)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(x)))
	b = append(b, x...)
	b = binary.LittleEndian.AppendUint64(b, uint64(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()))
	return AppendRecord(b, Transition{UID: uint16(n), Status: 1})
}

func chainXML(n int) []byte {
	var x bytes.Buffer
	x.WriteString(`<root BTCPP_format="4"><BehaviorTree ID="T" _fullpath="">`)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&x, `<SubTree ID="T" _fullpath="p%d" _uid="%d"/></BehaviorTree>`, i, i)
		if i < n {
			fmt.Fprintf(&x, `<BehaviorTree ID="T" _fullpath="p%d">`, i)
		}
	}
	x.WriteString(`</root>`)
	return x.Bytes()
}

// TestChainedSubtreesLinear reads a file whose subtrees chain 65,535 deep, and counts
// the steps the reader takes to link each subtree to its SubTree node without making a
// node its own ancestor: a few per link, not one per link above it.
func TestChainedSubtreesLinear(t *testing.T) {
	const n = 65535
	x := newXMLReader(chainXML(n))
	if err := x.read(); err != nil {
		t.Fatal(err)
	}
	nodes := x.finish()
	if len(nodes) != n {
		t.Fatalf("%d nodes, want %d", len(nodes), n)
	}
	for i, node := range nodes[1:] {
		if node.Parent != uint16(i+1) {
			t.Fatalf("node %d has parent %d, want %d", node.UID, node.Parent, i+1)
		}
	}
	if x.linkSteps > 4*n {
		t.Errorf("linking %d subtrees took %d steps: more than a few per link", n, x.linkSteps)
	}
}

// BenchmarkReadChain reads chained subtrees, n and 4n deep: linear reading takes about
// four times as long for 4n.
func BenchmarkReadChain(b *testing.B) {
	for _, n := range []int{16384, 65535} {
		data := chain(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := Read(bytes.NewReader(data)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
