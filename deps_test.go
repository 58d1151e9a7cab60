package bt

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/gobt/bt"

// allowed lists, for each package of the library, the packages of this module it may
// import (DESIGN.md §1): the phases that need no nodes are leaves, and the engine does
// not know its observers or tools. Everything else may import only the standard library.
var allowed = map[string][]string{
	"script":        {},
	"blackboard":    {},
	"btxml":         {},
	".":             {"script", "blackboard", "btxml", "internal/typo"},
	"btlog":         {".", "btxml"},
	"bttest":        {".", "blackboard"},
	"internal/typo": {},
}

// TestDependencies enforces the import rules, as Go's own go/build/deps_test.go does.
func TestDependencies(t *testing.T) {
	imports := map[string][]string{} // package dir → imports
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") && p != "." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(p))
		for _, imp := range f.Imports {
			ip, _ := strconv.Unquote(imp.Path.Value)
			imports[dir] = append(imports[dir], ip)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for dir, imps := range imports {
		library := !strings.HasPrefix(dir, "cmd") && !strings.HasPrefix(dir, "internal") &&
			!strings.HasPrefix(dir, "examples") && !strings.HasPrefix(dir, "bench")
		for _, ip := range imps {
			switch {
			case ip == module || strings.HasPrefix(ip, module+"/"):
				rel := strings.TrimPrefix(strings.TrimPrefix(ip, module), "/")
				if rel == "" {
					rel = "."
				}
				if ok, ruled := allowed[dir]; ruled && !slices.Contains(ok, rel) {
					t.Errorf("package %s imports %s, which DESIGN.md does not allow", dir, ip)
				}
			case library && strings.Contains(strings.SplitN(ip, "/", 2)[0], "."):
				t.Errorf("library package %s imports %s: the library depends on the standard library only", dir, ip)
			}
		}
	}
	if _, ok := imports["."]; !ok || len(imports) < 4 {
		t.Errorf("the walk found too little: %v", keys(imports))
	}
}

func keys(m map[string][]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
