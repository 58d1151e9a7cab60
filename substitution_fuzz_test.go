package bt_test

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

// FuzzLoadSubstitutions feeds substitution files to the loader: it must not panic, and
// a file it accepts must give rules that a tree can be built with or that fail cleanly.
func FuzzLoadSubstitutions(f *testing.F) {
	for _, seed := range []string{
		`{}`,
		`{"TestNodeConfigs": {"a": {"return_status": "FAILURE", "async_delay": 20, "post_script": "x := 1"}}, "SubstitutionRules": {"*": "a"}}`,
		`{"TestNodeConfigs": {"b": {"return_status_script": "ok ? SUCCESS : FAILURE"}}, "SubstitutionRules": {"Say": "b", "x/y?": "AlwaysSuccess"}}`,
		`{"SubstitutionRules": {"hello": "NoSuchNode"}}`,
		`{"TestNodeConfigs": {"c": {"return_status": "IDLE"}}}`,
		`{"TestNodeConfigs": null, "SubstitutionRules": null}`,
		`[1, 2]`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, rules string) {
		fac := NewFactory()
		if err := fac.Register(say); err != nil {
			t.Fatal(err)
		}
		if err := fac.LoadSubstitutions([]byte(rules)); err != nil {
			return
		}
		if err := fac.LoadString("subst.xml", substXML); err != nil {
			return // a rule made an unknown node acceptable, or not
		}
		tree, err := fac.NewTree("", WithClock(bttest.NewClock(epoch)))
		if err != nil {
			return
		}
		for range 3 {
			if _, err := tree.TickOnce(); err != nil {
				return
			}
		}
		if err := tree.Halt(); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzWildcard checks the matcher against a regular expression made from the pattern.
func FuzzWildcard(f *testing.F) {
	for _, seed := range [][2]string{
		{"mysub/action_*", "mysub/action_1"}, {"*/Follow*", "nav/FollowPath::7"}, {"a?c", "abc"},
		{"**a*?", "bbab"}, {"*", ""}, {"é?", "éà"}, {"a*b*c*d", "aXbYcZ"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, pattern, text string) {
		if !utf8.ValidString(pattern) || !utf8.ValidString(text) || len(pattern) > 64 || len(text) > 256 {
			return
		}
		var re strings.Builder
		re.WriteString(`(?s)^`)
		for _, r := range pattern {
			switch r {
			case '*':
				re.WriteString(`.*`)
			case '?':
				re.WriteString(`.`)
			default:
				re.WriteString(regexp.QuoteMeta(string(r)))
			}
		}
		re.WriteString(`$`)
		want := regexp.MustCompile(re.String()).MatchString(text)
		if got := Wildcard(pattern, text); got != want {
			t.Errorf("Wildcard(%q, %q) = %v, want %v", pattern, text, got, want)
		}
	})
}
