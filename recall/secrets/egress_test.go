package secrets

import (
	"bufio"
	"encoding/json"
	"errors"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// textReads are the *store.Store methods that return stored text.
var textReads = []string{"Session", "SessionByTitle", "SessionsByPrefix", "Messages", "MessagesAround", "Bookends",
	"RecentSessions", "SearchMessages", "MessagesByID", "FirstPrompts", "SessionOf"}

// egressBuilders take the raw store and are the egress layer themselves:
// what they return redacts (recall's engine, the session_search tool) or
// says by its name that it does not (secrets.AsStored, for a person).
var egressBuilders = []string{
	"github.com/recall-dev/recall/recall/secrets.Redacted",
	"github.com/recall-dev/recall/recall/secrets.AsStored",
	"github.com/recall-dev/recall/recall/secrets.ReaderFor",
	"github.com/recall-dev/recall/recall.New",
	"github.com/recall-dev/recall/recall/sessionsearch.New",
}

// rawAllowed are the calls in ui/ that read the store's text directly
// because nothing of it is shown, each with why.
var rawAllowed = map[string]string{
	"ui/cli/cmd_forget.go SearchMessages": "only the hits' ids and sessions are used",
	"ui/cli/cmd_bench.go SearchMessages":  "only the timings are printed",
}

// TestTextLeavesThroughSecrets type-checks the packages that print, draw
// and answer (main and ui/...) and fails when one reads text from the
// store other than through the egress layer: a call of a text-returning
// *store.Store method, or a *store.Store handed to anything that could
// read text with it except the egress builders. A new output path cannot
// forget redaction: it has no raw text to forget it on.
func TestTextLeavesThroughSecrets(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the ui packages")
	}
	root := moduleRoot(t)
	cmd := exec.Command("go", "list", "-export", "-deps", "-json=ImportPath,Dir,GoFiles,Export", ".", "./ui/...")
	cmd.Dir = root
	out, err := cmd.Output()
	if errors.Is(err, exec.ErrNotFound) {
		t.Skip("no go command beside the test binary")
	}
	if err != nil {
		t.Fatalf("go list -export: %v", err)
	}
	type pkg struct {
		ImportPath, Dir, Export string
		GoFiles                 []string
	}
	var pkgs []pkg
	dec := json.NewDecoder(strings.NewReader(string(out)))
	exports := map[string]string{}
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		exports[p.ImportPath] = p.Export
		if p.ImportPath == "github.com/recall-dev/recall" || strings.HasPrefix(p.ImportPath, "github.com/recall-dev/recall/ui") {
			pkgs = append(pkgs, p)
		}
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		f, err := os.Open(exports[path])
		if err != nil {
			return nil, err
		}
		return struct {
			io.Reader
			io.Closer
		}{bufio.NewReader(f), f}, nil
	})
	checked := 0
	for _, p := range pkgs {
		var files []*ast.File
		for _, name := range p.GoFiles {
			f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
		info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Selections: map[*ast.SelectorExpr]*types.Selection{}, Uses: map[*ast.Ident]types.Object{}}
		if _, err := (&types.Config{Importer: imp}).Check(p.ImportPath, fset, files, info); err != nil {
			t.Fatalf("type-check %s: %v", p.ImportPath, err)
		}
		for _, f := range files {
			checked += checkEgress(t, fset, root, info, f)
		}
	}
	if checked == 0 {
		t.Fatal("no store use found: the check is not looking at the code")
	}
}

// checkEgress reports raw text reads in f; it returns how many uses of the
// store it looked at.
func checkEgress(t *testing.T, fset *token.FileSet, root string, info *types.Info, f *ast.File) int {
	t.Helper()
	seen := 0
	where := func(n ast.Node) string {
		p := fset.Position(n.Pos())
		rel, _ := filepath.Rel(root, p.Filename)
		return rel
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
				if s := info.Selections[sel]; s != nil && isRawStore(s.Recv()) {
					seen++
					name := sel.Sel.Name
					if slices.Contains(textReads, name) {
						if _, ok := rawAllowed[where(n)+" "+name]; !ok {
							t.Errorf("%s: %s reads stored text from *store.Store directly: read it through a secrets.Reader (or recall's engine)", fset.Position(n.Pos()), name)
						}
					}
				}
			}
			builder := calleeName(info, n.Fun)
			sig, _ := info.Types[n.Fun].Type.(*types.Signature)
			for i, arg := range n.Args {
				if !isRawStore(info.Types[arg].Type) || sig == nil {
					continue
				}
				seen++
				if slices.Contains(egressBuilders, builder) {
					continue
				}
				if param := paramType(sig, i); param != nil && readsText(param) {
					t.Errorf("%s: a *store.Store is handed to %s as %s, which can read its text: hand it a secrets.Reader", fset.Position(arg.Pos()), builder, param)
				}
			}
		case *ast.KeyValueExpr:
			if isRawStore(info.Types[n.Value].Type) {
				seen++
				if key, ok := n.Key.(*ast.Ident); ok {
					if v, ok := info.Uses[key].(*types.Var); ok && readsText(v.Type()) {
						t.Errorf("%s: a *store.Store is stored in field %s, which can read its text: store a secrets.Reader", fset.Position(n.Pos()), key.Name)
					}
				}
			}
		case *ast.AssignStmt:
			for i, rhs := range n.Rhs {
				if i < len(n.Lhs) && isRawStore(info.Types[rhs].Type) && readsText(info.Types[n.Lhs[i]].Type) {
					seen++
					t.Errorf("%s: a *store.Store is assigned to an interface that can read its text", fset.Position(rhs.Pos()))
				}
			}
		}
		return true
	})
	return seen
}

// isRawStore reports whether t is *store.Store.
func isRawStore(t types.Type) bool {
	return t != nil && types.TypeString(t, nil) == "*github.com/recall-dev/recall/store.Store"
}

// readsText reports whether t is an interface with a text-returning read.
func readsText(t types.Type) bool {
	iface, ok := t.Underlying().(*types.Interface)
	if !ok {
		return false
	}
	for i := 0; i < iface.NumMethods(); i++ {
		if slices.Contains(textReads, iface.Method(i).Name()) {
			return true
		}
	}
	return false
}

func paramType(sig *types.Signature, i int) types.Type {
	ps := sig.Params()
	switch {
	case i < ps.Len()-1 || i < ps.Len() && !sig.Variadic():
		return ps.At(i).Type()
	case sig.Variadic() && ps.Len() > 0:
		return ps.At(ps.Len() - 1).Type().(*types.Slice).Elem()
	}
	return nil
}

// calleeName is the called function's full name (pkg.Func), "" for others.
func calleeName(info *types.Info, fun ast.Expr) string {
	var id *ast.Ident
	switch f := fun.(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	}
	if id == nil {
		return ""
	}
	if fn, ok := info.Uses[id].(*types.Func); ok && fn.Pkg() != nil {
		return fn.Pkg().Path() + "." + fn.Name()
	}
	return ""
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test")
		}
		dir = parent
	}
}
