package bt_test

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

// TestCatalogueTree runs testdata/catalogue.xml, a tree that uses every builtin node,
// and checks the trace each node leaves in the blackboard.
func TestCatalogueTree(t *testing.T) {
	f := NewFactory()
	if err := f.LoadFile("testdata/catalogue.xml"); err != nil {
		t.Fatal(err)
	}
	clock := bttest.NewClock(epoch)
	tree, err := f.NewTree("", WithClock(clock), WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	if err != nil {
		t.Fatal(err)
	}

	used := map[string]bool{}
	for n := range tree.Nodes() {
		used[n.ID()] = true
	}
	for _, m := range f.Models() {
		if !used[m.ID] {
			t.Errorf("testdata/catalogue.xml does not use %s", m.ID)
		}
	}

	var s Status
	ticks := 0
	for ticks < 100 {
		ticks++
		if s, err = tree.TickOnce(); err != nil || s != Running {
			break
		}
		clock.Advance(50 * time.Millisecond)
	}
	if err != nil || s != Success {
		t.Fatalf("tick %d: %v, %v", ticks, s, err)
	}
	bb := tree.Blackboard()
	for key, want := range map[string]string{
		"trace": "async;then;else;delay;", "n": "7", "isum": "3", "dsum": "0.5", "cat": "xy",
		"once": "1", "pre": "1", "skip_ran": "1", "wait_ran": "1", "loops": "4", "timed": "1",
		"par": "1", "mocked": "1",
	} {
		bttest.EntryIs(key, want)(t, tree)
	}
	keys := bb.Keys()
	if !slices.Contains(keys, "i") || !slices.Contains(keys, "b") {
		t.Errorf("the Loop nodes' values are missing: %v", keys)
	}
}

// TestCatalogueNamesItsFiles checks that the catalogue names the file of each builtin
// node, the one-file answer to where a node is: the file holds the node's ID (or, for
// Switch2 … Switch6, the function Switch), and every node of a new factory is there
// once.
func TestCatalogueNamesItsFiles(t *testing.T) {
	seen := map[string]string{}
	for file, ids := range Catalogue() {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Error(err)
			continue
		}
		for _, id := range ids {
			if prev, dup := seen[id]; dup {
				t.Errorf("%s is in %s and %s", id, prev, file)
			}
			seen[id] = file
			fn := "func " + strings.TrimRight(id, "0123456789") + "("
			if !strings.Contains(string(data), strconv.Quote(id)) && !strings.Contains(string(data), fn) {
				t.Errorf("the catalogue puts %s in %s, which does not name it", id, file)
			}
		}
	}
	for _, m := range NewFactory().Models() {
		if _, ok := seen[m.ID]; !ok {
			t.Errorf("%s is not in the catalogue", m.ID)
		}
	}
}

// crossFileTests are the test files of package bt named after what they check rather
// than after one file: README.md's "Working on bt" states the rule, which
// TestTestFilesNameTheirFiles keeps true.
var crossFileTests = map[string]string{
	"bench_test.go":              "the tick benchmarks (bench/README.md)",
	"decorators_example_test.go": "examples of several decorators",
	"deps_test.go":               "the import rules of every package",
	"example_go_test.go":         "the examples of node types and trees written in Go",
	"example_test.go":            "the package example and the Factory's",
	"export_test.go":             "the internals that the external tests reach",
	"fuzz_test.go":               "the loader's fuzz target",
	"helpers_test.go":            "what the external tests share",
	"nil_test.go":                "nil and zero arguments across the API",
	"notes_test.go":              "the notes a document leaves (loading, tinyxml2's leniency)",
	"status_writes_test.go":      "that status bytes are written only by their helpers, in every file",
	"transitions_test.go":        "the status changes of golden trees",
}

// TestTestFilesNameTheirFiles checks the rule for test files: a test file is named
// after the file it tests (sequence_test.go), with _bench, _fuzz or _example before
// _test for that file's benchmarks, fuzz targets or examples (snapshot_bench_test.go),
// or is one of the few files named after what they check across files.
func TestTestFilesNameTheirFiles(t *testing.T) {
	tests, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range tests {
		if _, ok := crossFileTests[file]; ok {
			continue
		}
		stem := strings.TrimSuffix(file, "_test.go")
		for _, kind := range []string{"_bench", "_fuzz", "_example"} {
			stem = strings.TrimSuffix(stem, kind)
		}
		if _, err := os.Stat(stem + ".go"); err != nil {
			t.Errorf("%s tests no file %s.go: rename it, or add it to crossFileTests if it checks across files", file, stem)
		}
	}
	for file := range crossFileTests {
		if _, err := os.Stat(file); err != nil {
			t.Errorf("crossFileTests names %s, which is gone", file)
		}
	}
}
