package bt

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"runtime"
	"strings"
	"testing"
	"time"
)

// manyFieldsJSON returns a JSON snapshot whose one node has n fields, each of a name
// of its own, of the tree NewTree builds of one leaf.
func manyFieldsJSON(fingerprint string, n int) []byte {
	b := fmt.Appendf(nil, `{"format": "bt snapshot", "version": 1, "fingerprint": %q, "nodes": 1, "taken": "2025-01-01T00:00:00Z", "state": [{"uid": 1`, fingerprint)
	for i := range n {
		b = fmt.Appendf(b, `, "f%d": 1`, i)
	}
	return append(b, `}], "blackboards": [{"path": "", "entries": []}]}`...)
}

// manyNodesJSON returns a JSON snapshot of nodes nodes, each with fields fields.
func manyNodesJSON(fingerprint string, nodes, fields int) []byte {
	b := fmt.Appendf(nil, `{"format": "bt snapshot", "version": 1, "fingerprint": %q, "nodes": %d, "taken": "2025-01-01T00:00:00Z", "state": [`, fingerprint, nodes)
	for uid := 1; uid <= nodes; uid++ {
		if uid > 1 {
			b = append(b, ',')
		}
		b = fmt.Appendf(b, `{"uid": %d`, uid)
		for i := range fields {
			b = fmt.Appendf(b, `, "f%d": 1`, i)
		}
		b = append(b, '}')
	}
	return append(b, `], "blackboards": [{"path": "", "entries": []}]}`...)
}

// claimingBinary returns a binary snapshot whose root blackboard claims entries
// entries, followed by size zeros (each 6 zeros read as an empty entry), with a
// checksum that matches.
func claimingBinary(fingerprint string, size, entries int) []byte {
	b := append([]byte(nil), binaryMagic...)
	b = binary.AppendUvarint(b, snapshotVersion)
	b = appendBinString(b, "")
	b = appendBinString(b, fingerprint)
	b = binary.AppendUvarint(b, 1)
	b = binary.AppendVarint(b, time.Now().UnixNano())
	b = append(b, 0)
	b = binary.AppendUvarint(b, 0) // wake-ups
	b = binary.AppendUvarint(b, 0) // restarts
	b = binary.AppendUvarint(b, 0) // node states
	b = binary.AppendUvarint(b, 1) // blackboards
	b = binary.AppendUvarint(b, 0) // the root's
	b = appendBinString(b, "")
	b = binary.AppendUvarint(b, uint64(entries))
	b = append(b, make([]byte, size)...)
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
}

// Item 8 of issue 24: a node's line of 160,000 fields took 25 s to read (each field's
// name was compared with every one before it). A node has fewer than maxFields: more
// is refused as it is read, and reading a line takes linear time.
func TestReadSnapshotManyFields(t *testing.T) {
	const fp = "sha256:00000000000000000000000000000000"
	if _, err := ReadSnapshot(manyFieldsJSON(fp, maxFields)); err != nil {
		t.Errorf("%d fields: %v", maxFields, err)
	}
	for _, n := range []int{maxFields + 1, 20000} {
		_, err := ReadSnapshot(manyFieldsJSON(fp, n))
		if want := "bt: the snapshot is corrupt: node 1: more than 64 fields"; err == nil || err.Error() != want {
			t.Errorf("%d fields: got %v, want %s", n, err, want)
		}
	}
	for _, memo := range memberNames {
		if len(memberNames) > maxFields {
			t.Fatalf("%d names of fields (%s, …), more than maxFields", len(memberNames), memo)
		}
	}
}

// Tree.ReadSnapshot refuses a snapshot of another definition once it has read its
// head: what follows is not read, even when it would not read.
func TestTreeReadSnapshotChecksTheDefinitionFirst(t *testing.T) {
	mine, _ := NewTree(Sequence(AlwaysSuccess(), AlwaysFailure()))
	other, _ := NewTree(Fallback(AlwaysSuccess(), AlwaysFailure()))
	snap, err := other.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	js, _ := snap.MarshalJSON()
	bin, _ := snap.MarshalBinary()
	badJSON := bytes.Replace(js, []byte(`"blackboards": [`), []byte(`"blackboards": [7, `), 1) // JSON, but no snapshot
	badBin := claimingBinary(other.fingerprint(), 1000, 1000)                                  // claims more entries than it holds
	for _, c := range []struct {
		name string
		data []byte
	}{{"JSON", js}, {"binary", bin}, {"a JSON body that does not read", badJSON}, {"a binary body that does not read", badBin}} {
		_, err := mine.ReadSnapshot(c.data)
		if want := "bt: the snapshot is of another tree definition (its fingerprint is " + other.fingerprint(); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: got %v, want %s…", c.name, err, want)
		}
		if _, err := ReadSnapshot(c.data); strings.Contains(c.name, "body") != (err != nil) {
			t.Errorf("%s: the function ReadSnapshot: %v", c.name, err)
		}
	}
	s, err := other.ReadSnapshot(js)
	if err == nil {
		err = other.Restore(s)
	}
	if err != nil {
		t.Errorf("the tree's own snapshot: %v", err)
	}
	if _, err := new(Tree).ReadSnapshot(js); err != ErrEmptyTree {
		t.Errorf("an empty tree: %v", err)
	}
}

// Item 9 of issue 24: a binary snapshot whose blackboard claimed as many entries as it
// had bytes made a list of them before it was refused: 1.1 GB for a file of 10 MB.
// Every list is bounded by what the bytes left can encode.
func TestReadSnapshotBoundsAllocations(t *testing.T) {
	const size = 1 << 20
	fp := "sha256:00000000000000000000000000000000"
	for _, c := range []struct {
		name    string
		data    []byte
		perByte uint64 // bytes of memory per byte of input, at most
		ok      bool
	}{
		{"a count of entries the bytes cannot hold", claimingBinary(fp, size, size), 1, false},
		{"as many empty entries as the bytes hold", claimingBinary(fp, size/minEntrySize*minEntrySize, size/minEntrySize), 20, true},
	} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := ReadSnapshot(c.data)
		runtime.ReadMemStats(&after)
		if (err == nil) != c.ok {
			t.Errorf("%s: %v", c.name, err)
		}
		if got, most := after.TotalAlloc-before.TotalAlloc, c.perByte*uint64(len(c.data)); got > most {
			t.Errorf("%s: reading %d bytes allocated %d, more than %d", c.name, len(c.data), got, most)
		}
	}
}

// Restore lists the first maxRestoreErrors problems of a snapshot, and counts the
// others: a made-up one may have one per field of every node.
func TestRestoreBoundsItsProblems(t *testing.T) {
	tree, _ := NewTree(Sequence(AlwaysSuccess(), AlwaysSuccess(), AlwaysSuccess()))
	s, err := tree.ReadSnapshot(manyNodesJSON(tree.fingerprint(), 4, maxFields))
	if err != nil {
		t.Fatal(err)
	}
	err = tree.Restore(s)
	if err == nil {
		t.Fatal("restored")
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != maxRestoreErrors+1 || lines[0] != `bt: Restore: node Sequence::1: unknown field "f0"` ||
		lines[maxRestoreErrors] != fmt.Sprintf("bt: Restore: and %d more problems", 4*maxFields-maxRestoreErrors) {
		t.Errorf("%d lines: %s … %s", len(lines), lines[0], lines[len(lines)-1])
	}
}

// FuzzReadSnapshot feeds arbitrary input to both readers (FuzzRestore goes on to
// Restore): they answer with an error, never a panic, and what they read writes as a
// binary snapshot that reads back to the same bytes.
func FuzzReadSnapshot(f *testing.F) {
	tree, _ := NewTree(Sequence(AlwaysSuccess(), Frames(3, AlwaysRunning())))
	tree.TickOnce()
	snap, _ := tree.Snapshot()
	js, _ := snap.MarshalJSON()
	bin, _ := snap.MarshalBinary()
	fp := tree.fingerprint()
	for _, seed := range [][]byte{js, bin, manyFieldsJSON(fp, 3), manyNodesJSON(fp, 2, 2), claimingBinary(fp, 12, 2), claimingBinary(fp, 12, 3)} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if bytes.HasPrefix(data, binaryMagic) && len(data) > len(binaryMagic)+4 && len(data)%2 == 0 {
			// Mend the checksum half the time, so that the fuzzer reaches what follows.
			body := data[:len(data)-4]
			binary.LittleEndian.PutUint32(data[len(body):], crc32.ChecksumIEEE(body))
		}
		s, err := ReadSnapshot(data)
		if err != nil {
			return
		}
		once, err := s.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		again, err := ReadSnapshot(once)
		if err != nil {
			t.Fatalf("a snapshot read from %q does not read back: %v", data, err)
		}
		if twice, _ := again.MarshalBinary(); !bytes.Equal(once, twice) {
			t.Fatalf("a snapshot read from %q reads back otherwise", data)
		}
	})
}
