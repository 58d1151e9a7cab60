package bt

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"
	"testing"
)

// statusWriters are the functions that may write a status byte: the methods of
// statusByte, resetStatuses and observation.tryRecord (see store in node.go), each
// named after the rule it keeps. byteMakers are the functions whose result may be assigned to a status byte
// anywhere.
var (
	statusWriters = map[string]bool{"resetStatuses": true, "tryRecord": true}
	byteMakers    = map[string]bool{"observedByte": true}
)

// TestStatusBytesWrittenByHelpers fails when a status byte is written anywhere but in
// statusWriters or a method of statusByte: an assignment (=, op=, ++) to an expression
// of type statusByte, unless it assigns what one of byteMakers returns, or clear or
// copy into a []statusByte. It type-checks the package's
// own files; what they import is left untyped, which no status byte depends on.
func TestStatusBytesWrittenByHelpers(t *testing.T) {
	fset := token.NewFileSet()
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: noImports{}, Error: func(error) {}} // imports stay unknown
	pkg, _ := conf.Check("github.com/gobt/bt", fset, files, info)
	sb := pkg.Scope().Lookup("statusByte")
	if sb == nil {
		t.Fatal("no type statusByte")
	}
	isByte := func(e ast.Expr) bool {
		tv, ok := info.Types[e]
		return ok && types.Identical(tv.Type, sb.Type())
	}
	isSlice := func(e ast.Expr) bool {
		tv, ok := info.Types[e]
		if !ok {
			return false
		}
		s, ok := tv.Type.Underlying().(*types.Slice)
		return ok && types.Identical(s.Elem(), sb.Type())
	}
	helperWrites := 0 // the writes of the helpers: the test sees writes at all
	for _, f := range files {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			helper := statusWriters[fn.Name.Name] || isStatusByteMethod(fn)
			report := func(at ast.Node, what string) {
				if helper {
					helperWrites++
					return
				}
				t.Errorf("%s: %s writes a status byte (%s): use a method of statusByte, which says the rule it keeps", fset.Position(at.Pos()), fn.Name.Name, what)
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.AssignStmt:
					if n.Tok == token.DEFINE {
						return true
					}
					for k, l := range n.Lhs {
						if isByte(l) && !(n.Tok == token.ASSIGN && len(n.Rhs) == len(n.Lhs) && isMakerCall(n.Rhs[k])) {
							report(n, n.Tok.String())
						}
					}
				case *ast.IncDecStmt:
					if isByte(n.X) {
						report(n, n.Tok.String())
					}
				case *ast.CallExpr:
					if id, ok := n.Fun.(*ast.Ident); ok && (id.Name == "clear" || id.Name == "copy") && len(n.Args) > 0 && isSlice(n.Args[0]) {
						report(n, id.Name)
					}
				}
				return true
			})
		}
	}
	if helperWrites < 8 {
		t.Errorf("found %d writes in the helpers: the test no longer sees status bytes", helperWrites)
	}
}

// isMakerCall reports whether e is a call of one of byteMakers.
func isMakerCall(e ast.Expr) bool {
	c, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	id, ok := c.Fun.(*ast.Ident)
	return ok && byteMakers[id.Name]
}

// isStatusByteMethod reports whether fn is a method of statusByte.
func isStatusByteMethod(fn *ast.FuncDecl) bool {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return false
	}
	r := fn.Recv.List[0].Type
	if s, ok := r.(*ast.StarExpr); ok {
		r = s.X
	}
	id, ok := r.(*ast.Ident)
	return ok && id.Name == "statusByte"
}

// noImports fails every import: the check needs only the package's own types.
type noImports struct{}

func (noImports) Import(path string) (*types.Package, error) {
	return nil, &types.Error{Msg: "not imported: " + path}
}
