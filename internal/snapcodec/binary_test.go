package snapcodec

import (
	"runtime"
	"testing"
)

// Item 9 of issue 24: a binary snapshot whose blackboard claimed as many entries as it
// had bytes made a list of them before it was refused: 1.1 GB for a file of 10 MB.
// Every list is bounded by what the bytes left can encode.
func TestReadBoundsAllocations(t *testing.T) {
	const size = 1 << 20
	fp := "sha256:00000000000000000000000000000000"
	for _, c := range []struct {
		name    string
		data    []byte
		perByte uint64 // bytes of memory per byte of input, at most
		ok      bool
	}{
		{"a count of entries the bytes cannot hold", ClaimingBinary(fp, size, size), 1, false},
		{"as many empty entries as the bytes hold", ClaimingBinary(fp, size/minEntrySize*minEntrySize, size/minEntrySize), 20, true},
	} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := read(c.data)
		runtime.ReadMemStats(&after)
		if (err == nil) != c.ok {
			t.Errorf("%s: %v", c.name, err)
		}
		if got, most := after.TotalAlloc-before.TotalAlloc, c.perByte*uint64(len(c.data)); got > most {
			t.Errorf("%s: reading %d bytes allocated %d, more than %d", c.name, len(c.data), got, most)
		}
	}
}
