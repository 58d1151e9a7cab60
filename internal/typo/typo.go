// Package typo finds the known name a misspelt one was probably meant to be, for the
// "did you mean" of error messages.
package typo

import (
	"slices"
	"strconv"
	"strings"
)

// maxLen bounds the names compared: typo hints are for short names, and the distance
// costs the product of the lengths (the names may come from a hostile file).
const maxLen = 64

// maxSuggested bounds how many names one hint offers.
const maxSuggested = 4

// Suggest returns `; did you mean "x"?` naming the candidates closest to name — every
// one at the smallest distance, in the order given (`; did you mean "Log" or "Loop"?`)
// — or "" when none is close enough to be a likely typo. Case slips count as typos.
func Suggest(name string, candidates []string) string {
	if len(name) > maxLen {
		return ""
	}
	var best []string
	bestDist := len(name)/3 + 2
	for _, c := range candidates {
		if len(c) > maxLen || abs(len(c)-len(name)) > bestDist {
			continue // the lengths alone are too far apart
		}
		switch d := Distance(name, c); {
		case d < bestDist:
			best, bestDist = append(best[:0], c), d
		case d == bestDist && len(best) > 0 && len(best) < maxSuggested && !slices.Contains(best, c):
			best = append(best, c)
		}
	}
	if len(best) == 0 {
		return ""
	}
	return "; did you mean " + orList(best) + "?"
}

// orList quotes names and joins them as "a", "b" or "c".
func orList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// Distance is the Levenshtein distance between a and b, case-insensitive for ASCII
// letters.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if lower(ra[i-1]) == lower(rb[j-1]) {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

func lower(r rune) rune {
	if 'A' <= r && r <= 'Z' {
		return r + 'a' - 'A'
	}
	return r
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
