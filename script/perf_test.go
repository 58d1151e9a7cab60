package script

import (
	"runtime"
	"strings"
	"testing"
)

func TestParseAllocs(t *testing.T) {
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := Parse("a + b > 3 && c == 'x'"); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 4 {
		t.Errorf("Parse of a short script: %v allocations, want 4", allocs)
	}
}

// TestParseMemoryBound checks that a long script that fails early does not
// cost memory in proportion to its length: the parser sizes its arrays by
// the tokens it has, but only up to what it uses.
func TestParseMemoryBound(t *testing.T) {
	src := strings.Repeat("1+(", 100_000) + "1" // fails at nesting depth 500
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := Parse(src); err == nil || !strings.Contains(err.Error(), "nested too deeply") {
		t.Fatalf("got %v", err)
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("Parse allocated %d bytes for a script that fails after 500 nodes", got)
	}
}
