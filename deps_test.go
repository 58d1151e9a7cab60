package bt

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/gobt/bt"

// rules lists every package of the repository, by directory, with the packages of the
// repository it may import: the phases that need no nodes are leaves, the
// engine does not know its observers or tools, and the tools sit on top. A package
// missing here fails TestDependencies, and so does a rule for a package that is gone:
// whoever adds a package adds its rule, placed in these layers. A key ending in "/..." rules
// every package below it. The packages of the root module (the library, its internal
// packages, the command's code and the examples) import nothing outside the repository
// but the standard library; the nested modules (groot2, btsqlite, cmd/bt, e2e, bench/peers) may use
// other modules, but the rules between the repository's packages hold there too.
var rules = map[string][]string{
	// the phases that need no nodes
	"script":     {},
	"blackboard": {},
	"btxml":      {},
	// the engine and its builtin catalogue
	".": {"script", "blackboard", "btxml", "internal/typo", "internal/snapcodec"},
	// on top of the engine: observers and helpers for tests; monitor and groot2 build on
	// btlog, never on each other
	"btlog":   {".", "btxml"},
	"bttest":  {".", "blackboard"},
	"monitor": {".", "blackboard", "btlog"},
	"groot2":  {".", "blackboard", "btlog"},
	// btsqlite, a module of its own, is a logger on btlog's stream
	"btsqlite": {".", "btlog"},
	// btotel, a module of its own, is an observer on the tree's batches
	"btotel": {"."},
	// helpers that are not API, and the tools
	"internal/typo":      {},
	"internal/snapcodec": {"blackboard"}, // a snapshot's encodings, on plain structs: below the engine
	"internal/proptest":  {".", "blackboard"},
	"internal/cli":       {".", "blackboard", "btlog", "btxml", "internal/typo", "monitor"},
	"cmd/bt":             {".", "btlog", "btsqlite", "internal/cli", "groot2"},
	"examples/...":       {".", "blackboard", "btlog", "btxml", "internal/cli"},
	"e2e":                {},
	"bench/...":          {".", "blackboard", "bench/peers"},
}

// TestDependencies enforces the import rules, as Go's own go/build/deps_test.go does.
func TestDependencies(t *testing.T) {
	imports, nested, err := moduleImports(".")
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	for _, dir := range slices.Sorted(maps.Keys(imports)) {
		rule, ok := ruleOf(dir)
		if !ok {
			t.Errorf("package %s has no import rule: add one to rules in deps_test.go", dir)
			continue
		}
		used[rule] = true
		// Every package of the root module — the engine's internal packages, the
		// command's code and the examples included — uses the standard library only.
		library := !slices.ContainsFunc(nested, func(m string) bool { return dir == m || strings.HasPrefix(dir, m+"/") })
		for _, ip := range imports[dir] {
			switch {
			case ip == module || strings.HasPrefix(ip, module+"/"):
				rel := strings.TrimPrefix(strings.TrimPrefix(ip, module), "/")
				if rel == "" {
					rel = "."
				}
				if !slices.Contains(rules[rule], rel) {
					t.Errorf("package %s imports %s, which its rule does not allow (rules in deps_test.go)", dir, ip)
				}
			case library && strings.Contains(strings.SplitN(ip, "/", 2)[0], "."):
				t.Errorf("library package %s imports %s: the library depends on the standard library only", dir, ip)
			}
		}
	}
	for rule := range rules {
		if !used[rule] {
			t.Errorf("deps_test.go has a rule for %s, which has no package: remove it", rule)
		}
	}
}

// ruleOf returns the key of rules that rules the package in dir.
func ruleOf(dir string) (string, bool) {
	if _, ok := rules[dir]; ok {
		return dir, true
	}
	for key := range rules {
		if base, ok := strings.CutSuffix(key, "/..."); ok && strings.HasPrefix(dir, base+"/") {
			return key, true
		}
	}
	return "", false
}

// moduleImports returns the imports of the non-test files of every package of the
// repository rooted at root, by directory ("." for the root package), and the
// directories of the modules nested in the root's. Testdata and hidden directories are
// not part of it.
func moduleImports(root string) (imports map[string][]string, nested []string, err error) {
	imports = map[string][]string{}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p == root {
				return nil
			}
			if strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				nested = append(nested, filepath.ToSlash(p)) // a module of its own
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		if ignored(f) {
			return nil // a generator (//go:build ignore), not part of its package
		}
		dir := filepath.ToSlash(filepath.Dir(p))
		if _, ok := imports[dir]; !ok {
			imports[dir] = nil
		}
		for _, imp := range f.Imports {
			ip, _ := strconv.Unquote(imp.Path.Value)
			imports[dir] = append(imports[dir], ip)
		}
		return nil
	})
	if err == nil && len(imports) < 4 {
		err = fs.ErrNotExist
	}
	return imports, nested, err
}

// ignored reports whether the file is built only on request (//go:build ignore), as
// the generators are.
func ignored(f *ast.File) bool {
	for _, g := range f.Comments {
		if g.Pos() > f.Package {
			break
		}
		for _, c := range g.List {
			if c.Text == "//go:build ignore" {
				return true
			}
		}
	}
	return false
}
