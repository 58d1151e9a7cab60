package snapcodec

import "testing"

// read reads a snapshot as bt's ReadSnapshot does.
func read(data []byte) (*Snapshot, error) {
	s := new(Snapshot)
	return s, s.Decode(data, nil)
}

// Item 8 of issue 24: a node's line of 160,000 fields took 25 s to read (each field's
// name was compared with every one before it). A node has MaxFields at most: more
// is refused as it is read, and reading a line takes linear time.
func TestReadManyFields(t *testing.T) {
	const fp = "sha256:00000000000000000000000000000000"
	if _, err := read(ManyFieldsJSON(fp, MaxFields)); err != nil {
		t.Errorf("%d fields: %v", MaxFields, err)
	}
	for _, n := range []int{MaxFields + 1, 20000} {
		_, err := read(ManyFieldsJSON(fp, n))
		if want := "bt: the snapshot is corrupt: node 1: more than 64 fields"; err == nil || err.Error() != want {
			t.Errorf("%d fields: got %v, want %s", n, err, want)
		}
	}
	for _, memo := range memberNames {
		if len(memberNames) > MaxFields {
			t.Fatalf("%d names of fields (%s, …), more than MaxFields", len(memberNames), memo)
		}
	}
}
