// Package typo finds the known name a misspelt one was probably meant to be, for the
// "did you mean" of error messages.
package typo

import "fmt"

// maxLen bounds the names compared: typo hints are for short names, and the distance
// costs the product of the lengths (the names may come from a hostile file).
const maxLen = 64

// Suggest returns `; did you mean "x"?` naming the candidate closest to name, or ""
// when none is close enough to be a likely typo. Case slips count as typos.
func Suggest(name string, candidates []string) string {
	if len(name) > maxLen {
		return ""
	}
	best, bestDist := "", len(name)/3+2
	for _, c := range candidates {
		if len(c) > maxLen || abs(len(c)-len(name)) >= bestDist {
			continue // the lengths alone are too far apart
		}
		if d := Distance(name, c); d < bestDist {
			best, bestDist = c, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf("; did you mean %q?", best)
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
