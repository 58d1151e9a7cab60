package typo

import (
	"strings"
	"testing"
)

func TestSuggest(t *testing.T) {
	known := []string{"Sequence", "SequenceWithMemory", "Fallback", "AlwaysSuccess", "Log", "Loop", "Not"}
	for _, c := range []struct{ name, want string }{
		{"Sequnce", `; did you mean "Sequence"?`},
		{"sequence", `; did you mean "Sequence"?`},
		{"AlwaysSucess", `; did you mean "AlwaysSuccess"?`},
		{"FlyToTheMoon", ""},
		{"", ""},
		{strings.Repeat("x", 100), ""},
		// Every candidate at the smallest distance, in the order given.
		{"Lop", `; did you mean "Log" or "Loop"?`},
		{"Sequence_", `; did you mean "Sequence"?`},
	} {
		if got := Suggest(c.name, known); got != c.want {
			t.Errorf("Suggest(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"abc", "", 3}, {"kitten", "sitting", 3}, {"Abc", "aBC", 0}, {"é", "e", 1}} {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// TestSuggestIsCheapOnHostileNames: long names from a file must not cost quadratic time.
func TestSuggestIsCheapOnHostileNames(t *testing.T) {
	long := strings.Repeat("a", 1<<20)
	if n := testing.AllocsPerRun(1, func() { Suggest(long, []string{long}) }); n != 0 {
		t.Errorf("a 1 MiB name was compared (%v allocations)", n)
	}
}

func TestSuggestOffersAFewNames(t *testing.T) {
	got := Suggest("ab", []string{"aa", "ac", "ad", "ae", "af", "ag"})
	if want := `; did you mean "aa", "ac", "ad" or "ae"?`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
