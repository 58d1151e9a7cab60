package bt

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"strings"
	"testing"

	"github.com/gobt/bt/internal/snapcodec"
)

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
	badBin := snapcodec.ClaimingBinary(other.fingerprint(), 1000, 1000)                        // claims more entries than it holds
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

// Restore lists the first maxRestoreErrors problems of a snapshot, and counts the
// others: a made-up one may have one per field of every node.
func TestRestoreBoundsItsProblems(t *testing.T) {
	tree, _ := NewTree(Sequence(AlwaysSuccess(), AlwaysSuccess(), AlwaysSuccess()))
	s, err := tree.ReadSnapshot(snapcodec.ManyNodesJSON(tree.fingerprint(), 4, snapcodec.MaxFields))
	if err != nil {
		t.Fatal(err)
	}
	err = tree.Restore(s)
	if err == nil {
		t.Fatal("restored")
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != maxRestoreErrors+1 || lines[0] != `bt: Restore: node Sequence::1: unknown field "f0"` ||
		lines[maxRestoreErrors] != fmt.Sprintf("bt: Restore: and %d more problems", 4*snapcodec.MaxFields-maxRestoreErrors) {
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
	for _, seed := range [][]byte{js, bin, snapcodec.ManyFieldsJSON(fp, 3), snapcodec.ManyNodesJSON(fp, 2, 2), snapcodec.ClaimingBinary(fp, 12, 2), snapcodec.ClaimingBinary(fp, 12, 3)} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if bytes.HasPrefix(data, []byte(snapcodec.Magic)) && len(data) > len(snapcodec.Magic)+4 && len(data)%2 == 0 {
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

// TestSnapshotStatusNames: the JSON encoding spells statuses as Status does, and reads
// them as ParseStatus does, errors included.
func TestSnapshotStatusNames(t *testing.T) {
	for s := range 256 {
		name := Status(s).String()
		if got := snapcodec.StatusName(uint8(s)); got != name {
			t.Errorf("status %d: the encoding writes %q, Status %q", s, got, name)
		}
		want, wantErr := ParseStatus(name)
		got, err := snapcodec.ParseStatus(name)
		if fmt.Sprint(err) != fmt.Sprint(wantErr) || err == nil && Status(got) != want {
			t.Errorf("%q: the encoding reads %v, %v; ParseStatus %v, %v", name, got, err, want, wantErr)
		}
	}
}
