package diag

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// declaredCode is a Code constant of codes.go.
type declaredCode struct {
	name, value string
	documented  bool
}

// declaredCodes reads the Code constants from codes.go, in order.
func declaredCodes(t *testing.T) []declaredCode {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "codes.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var out []declaredCode
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Code" {
				t.Errorf("%s: a constant of codes.go that is not a Code", fset.Position(vs.Pos()))
				continue
			}
			for i, name := range vs.Names {
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok {
					t.Fatalf("%s: the value is not a string literal", name.Name)
				}
				v, err := strconv.Unquote(lit.Value)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, declaredCode{name: name.Name, value: v, documented: vs.Doc != nil})
			}
		}
	}
	return out
}

// TestCodes: the codes are the ones listed in testdata/codes.txt, with
// the same spelling (a code is never renamed), unique, lower snake case
// and documented.
func TestCodes(t *testing.T) {
	codes := declaredCodes(t)
	var got []string
	seen := map[string]string{}
	spelling := regexp.MustCompile(`^[a-z][a-z_]*[a-z]$`)
	for _, c := range codes {
		got = append(got, c.name+" "+c.value)
		if prev, dup := seen[c.value]; dup {
			t.Errorf("%s and %s are both %q", prev, c.name, c.value)
		}
		seen[c.value] = c.name
		if !spelling.MatchString(c.value) {
			t.Errorf("%s = %q: codes are lower snake case", c.name, c.value)
		}
		if !strings.HasPrefix(c.name, "Code") {
			t.Errorf("%s: code constants are named Code…", c.name)
		}
		if !c.documented {
			t.Errorf("%s has no comment saying when it is used", c.name)
		}
	}
	data, err := os.ReadFile(filepath.Join("testdata", "codes.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split(strings.TrimSpace(string(data)), "\n")
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("codes.go declares:\n%s\n\ntestdata/codes.txt lists:\n%s\n\na code's spelling is stable: add new codes to both, never rename one", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestCodesAreUsed: every code is produced somewhere outside this
// package (a code nobody reports is a stale promise to callers). It reads
// the module's non-test Go files for diag.Code… selectors.
func TestCodesAreUsed(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the module root is not two folders up: %v", err)
	}
	here, _ := filepath.Abs(".")
	used := map[string]bool{}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".")) || path == here {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "diag" && strings.HasPrefix(sel.Sel.Name, "Code") {
					used[sel.Sel.Name] = true
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range declaredCodes(t) {
		if !used[c.name] {
			t.Errorf("%s (%q) is declared but no package reports it", c.name, c.value)
		}
	}
}
