package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The conformance cases and transition streams under testdata/conformance are byte-for-byte
// copies of ../shared/conformance's (see testdata/conformance/README.md): their expected
// outputs are BehaviorTree.CPP 4.10's. These tests compare bt with them as the shared Python
// checkers (check and check-streams) do, so that `go test` fails where .ci/run would.

const conformanceDir = "testdata/conformance"

// TestConformance runs every case as `bt run ARGS CASE.xml` and compares the output with the
// reference's: tick lines exactly, the blackboard key by key (numbers with a relative tolerance
// of 1e-9, booleans as 1/0, keys starting with "_" ignored, an expected null also matching a
// missing key), and for an expected error only that bt printed one and failed.
func TestConformance(t *testing.T) {
	for _, dir := range []string{"cases", "spec-cases"} {
		for _, xml := range caseFiles(t, filepath.Join(conformanceDir, dir)) {
			name := strings.TrimSuffix(filepath.Base(xml), ".xml")
			t.Run(dir+"/"+name, func(t *testing.T) {
				want, err := os.ReadFile(strings.TrimSuffix(xml, ".xml") + ".expected")
				if err != nil {
					t.Fatal(err)
				}
				args := append(caseArgs(t, xml), xml)
				out, errOut, code := runBT(t, append([]string{"run"}, args...)...)
				if problems := compareRun(parseRun(string(want)), parseRun(out), code); len(problems) > 0 {
					t.Errorf("bt run %s:\n  %s\nstdout:\n%sstderr:\n%s", strings.Join(args, " "),
						strings.Join(problems, "\n  "), out, errOut)
				}
			})
		}
	}
}

// TestConformanceStreams runs every case that has a stream with --log and compares the status
// changes, normalised to "NAME PREV>NEW" lines between the "tick N STATUS" lines, with those
// BehaviorTree.CPP's StdCoutLogger printed. In cases that use _skipIf, RUNNING>IDLE lines are
// left out on both sides: bt puts a control that returned SKIPPED back to IDLE at once, where
// the reference leaves it RUNNING until its parent resets it (a documented difference).
func TestConformanceStreams(t *testing.T) {
	cases := map[string]string{}
	for _, dir := range []string{"cases", "spec-cases"} {
		for _, xml := range caseFiles(t, filepath.Join(conformanceDir, dir)) {
			cases[strings.TrimSuffix(filepath.Base(xml), ".xml")] = xml
		}
	}
	streams, err := filepath.Glob(filepath.Join(conformanceDir, "streams", "*.txt"))
	if err != nil || len(streams) == 0 {
		t.Fatalf("no streams in %s (%v)", conformanceDir, err)
	}
	for _, stream := range streams {
		name := strings.TrimSuffix(filepath.Base(stream), ".txt")
		xml, ok := cases[name]
		if !ok {
			continue // as check-streams: a stream without its case is not compared
		}
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(stream)
			if err != nil {
				t.Fatal(err)
			}
			args := append(caseArgs(t, xml), "--log", xml)
			out, _, _ := runBT(t, append([]string{"run"}, args...)...)
			want, got := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n"), normaliseStream(out)
			if src, err := os.ReadFile(xml); err == nil && bytes.Contains(src, []byte("_skipIf")) {
				want, got = withoutRunningToIdle(want), withoutRunningToIdle(got)
			}
			if !slices.Equal(want, got) {
				t.Errorf("bt run %s: the status changes differ from BehaviorTree.CPP's\n%s",
					strings.Join(args, " "), lineDiff(want, got))
			}
		})
	}
}

// TestConformanceCopies fails when the copies under testdata/conformance drift from
// ../shared/conformance, where the cases are kept (skipped when it is not beside the
// repository, as in a clone of its own).
func TestConformanceCopies(t *testing.T) {
	shared := filepath.Join(moduleRoot, "..", "shared", "conformance")
	if _, err := os.Stat(shared); err != nil {
		t.Skipf("no %s beside the repository", shared)
	}
	for _, dir := range []string{"cases", "spec-cases", "streams"} {
		want, err := os.ReadDir(filepath.Join(shared, dir))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadDir(filepath.Join(conformanceDir, dir))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Errorf("%s: %d files here, %d in %s: copy them again", dir, len(got), len(want), shared)
		}
		for _, e := range want {
			a, errA := os.ReadFile(filepath.Join(shared, dir, e.Name()))
			b, errB := os.ReadFile(filepath.Join(conformanceDir, dir, e.Name()))
			if errA != nil || errB != nil || !bytes.Equal(a, b) {
				t.Errorf("%s/%s differs from %s's copy (%v, %v): copy it again", dir, e.Name(), shared, errA, errB)
			}
		}
	}
}

// caseFiles lists the cases (.xml files) of dir, sorted.
func caseFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.xml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no cases in %s (%v)", dir, err)
	}
	sort.Strings(files)
	for i, f := range files {
		if files[i], err = filepath.Abs(f); err != nil {
			t.Fatal(err)
		}
	}
	return files
}

// caseArgs returns the flags of a case: the first line of its .args file, or --ticks 20.
func caseArgs(t *testing.T, xml string) []string {
	t.Helper()
	data, err := os.ReadFile(strings.TrimSuffix(xml, ".xml") + ".args")
	if os.IsNotExist(err) {
		return []string{"--ticks", "20"}
	}
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(data), "\n")
	return strings.Fields(first)
}

// runOutput is what the checker reads of a run: tick lines, the blackboard, the first error
// line, and (in an .expected file) the exit status.
type runOutput struct {
	ticks      []string // "1 RUNNING"
	blackboard []string // the JSON of each blackboard line
	err        string
	exit       int
}

var (
	tickLine = regexp.MustCompile(`^tick\s+(\d+)\s+(\S+)$`)
	exitLine = regexp.MustCompile(`^exit\s+(-?\d+)$`)
)

func parseRun(text string) runOutput {
	var r runOutput
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		switch m := tickLine.FindStringSubmatch(line); {
		case m != nil:
			r.ticks = append(r.ticks, m[1]+" "+m[2])
		case line == "blackboard" || strings.HasPrefix(line, "blackboard ") || strings.HasPrefix(line, "blackboard\t"):
			r.blackboard = append(r.blackboard, strings.TrimSpace(line[len("blackboard"):]))
		case strings.HasPrefix(line, "error"):
			if r.err == "" {
				r.err = line
			}
		default:
			if m := exitLine.FindStringSubmatch(line); m != nil {
				r.exit, _ = strconv.Atoi(m[1])
			}
		}
	}
	return r
}

// compareRun returns what differs between the expected and the actual run, as check does.
func compareRun(want, got runOutput, code int) []string {
	var problems []string
	if want.err != "" {
		if code == 0 {
			problems = append(problems, "expected an error, but the command exited with status 0")
		}
		if got.err == "" {
			problems = append(problems, "expected an 'error ...' line, none printed")
		}
		return problems
	}
	if got.err != "" {
		problems = append(problems, "unexpected "+got.err)
	}
	if code != want.exit {
		problems = append(problems, fmt.Sprintf("exit status %d, expected %d", code, want.exit))
	}
	if !slices.Equal(want.ticks, got.ticks) {
		problems = append(problems, fmt.Sprintf("tick lines %q, expected %q", got.ticks, want.ticks))
	}
	switch {
	case len(got.blackboard) == 0:
		return append(problems, "no 'blackboard' line")
	case len(got.blackboard) > 1:
		problems = append(problems, fmt.Sprintf("%d 'blackboard' lines, expected 1", len(got.blackboard)))
	}
	var wantBB, gotBB map[string]any
	if err := json.Unmarshal([]byte(want.blackboard[0]), &wantBB); err != nil {
		return append(problems, "bad expected blackboard JSON: "+err.Error())
	}
	if err := json.Unmarshal([]byte(got.blackboard[0]), &gotBB); err != nil {
		return append(problems, "the blackboard is not a JSON object: "+err.Error())
	}
	return append(problems, compareObjects(wantBB, gotBB, "blackboard ")...)
}

// compareObjects compares two JSON objects key by key, ignoring keys that start with "_".
func compareObjects(want, got map[string]any, path string) []string {
	keys := map[string]bool{}
	for k := range want {
		keys[k] = true
	}
	for k := range got {
		keys[k] = true
	}
	var problems []string
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range keys {
			if !strings.HasPrefix(k, "_") && !yield(k) {
				return
			}
		}
	}) {
		w, inWant := want[k]
		g, inGot := got[k]
		switch {
		case !inGot && w != nil:
			problems = append(problems, fmt.Sprintf("%s%s: missing (expected %s)", path, k, jsonText(w)))
		case !inWant && g != nil:
			problems = append(problems, fmt.Sprintf("%s%s: unexpected key (value %s)", path, k, jsonText(g)))
		case inWant && inGot:
			problems = append(problems, compareValues(w, g, path+k)...)
		}
	}
	return problems
}

// compareValues compares two JSON values: booleans count as 1/0, numbers compare with a
// relative tolerance of 1e-9, strings exactly.
func compareValues(want, got any, path string) []string {
	want, got = boolAsNumber(want), boolAsNumber(got)
	differ := []string{fmt.Sprintf("%s: expected %s, got %s", path, jsonText(want), jsonText(got))}
	switch w := want.(type) {
	case nil:
		if got != nil {
			return differ
		}
	case float64:
		g, ok := got.(float64)
		if !ok || !(w == g || math.IsNaN(w) && math.IsNaN(g) ||
			math.Abs(w-g) <= max(1e-9*max(math.Abs(w), math.Abs(g)), 1e-12)) {
			return differ
		}
	case string:
		if g, ok := got.(string); !ok || g != w {
			return differ
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return differ
		}
		var problems []string
		for i := range w {
			problems = append(problems, compareValues(w[i], g[i], fmt.Sprintf("%s[%d]", path, i))...)
		}
		return problems
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return differ
		}
		return compareObjects(w, g, path+".")
	}
	return nil
}

func boolAsNumber(v any) any {
	if b, ok := v.(bool); ok {
		if b {
			return 1.0
		}
		return 0.0
	}
	return v
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

var (
	ansiEscape = regexp.MustCompile("\x1b\\[[0-9;]*m")
	changeLine = regexp.MustCompile(`^\[[^\]]*\]:?\s*(.+?)\s*:?\s+(IDLE|RUNNING|SUCCESS|FAILURE|SKIPPED)\s*->\s*(IDLE|RUNNING|SUCCESS|FAILURE|SKIPPED)\s*$`)
	uidSuffix  = regexp.MustCompile(`::\d+$`)
)

// normaliseStream turns the output of bt run --log into the streams' lines: "NAME PREV>NEW"
// per change (NAME without its path or ::UID) and the "tick N STATUS" lines.
func normaliseStream(out string) []string {
	var lines []string
	for _, raw := range strings.Split(out, "\n") {
		line := strings.TrimRight(ansiEscape.ReplaceAllString(raw, ""), " \t\r")
		if tickLine.MatchString(line) {
			lines = append(lines, line)
			continue
		}
		if m := changeLine.FindStringSubmatch(line); m != nil {
			name := strings.TrimRight(m[1], ":")
			name = name[strings.LastIndex(name, "/")+1:]
			lines = append(lines, uidSuffix.ReplaceAllString(name, "")+" "+m[2]+">"+m[3])
		}
	}
	return lines
}

func withoutRunningToIdle(lines []string) []string {
	return slices.DeleteFunc(slices.Clone(lines), func(l string) bool { return strings.HasSuffix(l, " RUNNING>IDLE") })
}

// lineDiff shows two streams side by side from their first difference, a few lines on.
func lineDiff(want, got []string) string {
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	var b strings.Builder
	fmt.Fprintf(&b, "from line %d (BehaviorTree.CPP | bt):\n", i+1)
	for j := max(0, i-2); j < i+8 && (j < len(want) || j < len(got)); j++ {
		w, g := "", ""
		if j < len(want) {
			w = want[j]
		}
		if j < len(got) {
			g = got[j]
		}
		mark := " "
		if w != g {
			mark = "!"
		}
		fmt.Fprintf(&b, "%s %-40s | %s\n", mark, w, g)
	}
	return b.String()
}
