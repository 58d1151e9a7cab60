package btlog

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"testing"

	"github.com/gobt/bt"
)

// encode writes a Log back as a .btlog file.
func encode(l *Log) []byte {
	b := append([]byte(headerMagic), protocol)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(l.XML)))
	b = append(b, l.XML...)
	b = binary.LittleEndian.AppendUint64(b, uint64(l.Start.UnixMicro()))
	for _, tr := range l.Transitions {
		b = AppendRecord(b, tr)
	}
	return b
}

// FuzzRead: any input gives a Log or a *FormatError inside the input, never a panic;
// a Log read without error writes back to the same bytes, its transitions chain, it
// prints a line per transition (at least) and its statistics end in the last statuses.
func FuzzRead(f *testing.F) {
	f.Add(handmade())
	f.Add(handmade(rec(0, 1, 1), rec(5, 2, 1), rec(6, 4, 1), rec(6, 5, 3), rec(7, 4, 2), rec(7, 5, 0)))
	f.Add(handmade(rec(1, 1, 1))[:40])
	if golden, err := os.ReadFile("testdata/mission.btlog"); err == nil {
		f.Add(golden)
	}
	f.Add([]byte("BTCPP4-FileLogger2\x01\x05\x00\x00\x00<a/>\x00"))
	f.Add(chain(20)) // subtrees chained below each other
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := Read(bytes.NewReader(data))
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("%v is a %T, not a *FormatError", err, err)
			}
			if fe.Offset < 0 || fe.Offset > int64(len(data)) {
				t.Fatalf("offset %d outside the %d bytes: %v", fe.Offset, len(data), err)
			}
			return
		}
		if back := encode(l); !bytes.Equal(back, data) {
			t.Fatalf("the Log writes back to other bytes:\n%q\n%q", back, data)
		}
		last := map[uint16]bt.Status{}
		for _, tr := range l.Transitions {
			if l.Node(tr.UID) == nil || tr.Status > bt.Skipped || tr.Previous != last[tr.UID] {
				t.Fatalf("transition %+v (last status %s)", tr, last[tr.UID])
			}
			last[tr.UID] = tr.Status
		}
		var out bytes.Buffer
		if err := l.WriteConsole(&out, &ConsoleOptions{Paths: true}); err != nil {
			t.Fatalf("WriteConsole: %v", err)
		}
		if lines := bytes.Count(out.Bytes(), []byte("\n")); lines < len(l.Transitions) { // a name may hold newlines
			t.Fatalf("WriteConsole wrote %d lines for %d transitions", lines, len(l.Transitions))
		}
		s := l.Stats()
		for uid, status := range last {
			if st, ok := s.ByUID(uid); !ok || st.Status != status {
				t.Fatalf("Stats of UID %d: %+v, %v; its last status is %s", uid, st, ok, status)
			}
		}
	})
}

// FuzzXMLNodes: the XML of a .btlog file gives sorted nodes with distinct UIDs whose
// parents are nodes, or an error inside the input, never a panic.
func FuzzXMLNodes(f *testing.F) {
	f.Add([]byte(handmadeXML))
	if golden, err := os.ReadFile("testdata/mission.uid.xml"); err == nil {
		f.Add(golden)
	}
	if golden, err := os.ReadFile("testdata/go.uid.xml"); err == nil {
		f.Add(golden)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		nodes, err := xmlNodes(data)
		if err != nil {
			var xe *xmlError
			if !errors.As(err, &xe) || xe.offset < 0 || xe.offset > int64(len(data)) {
				t.Fatalf("%v (%T)", err, err)
			}
			return
		}
		l := &Log{Nodes: nodes}
		for i, n := range nodes {
			if n.UID == 0 || i > 0 && n.UID <= nodes[i-1].UID {
				t.Fatalf("node %d: UID %d after %+v", i, n.UID, nodes[:i])
			}
			steps := 0
			for p := n.Parent; p != 0; p = l.Node(p).Parent {
				if l.Node(p) == nil || steps > len(nodes) {
					t.Fatalf("node %+v: parent %d missing, or a cycle", n, p)
				}
				steps++
			}
		}
	})
}
