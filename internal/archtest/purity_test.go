package archtest

import (
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// hostPackages are the standard and SDK packages through which code learns
// about the machine it runs on (CPU count, environment, files, network,
// credentials) or draws randomness: the planner imports none of them, so
// that the same statement, catalog and options plan the same anywhere.
var hostPackages = []string{
	"os", "os/exec", "os/signal", "os/user", "runtime", "runtime/debug", "syscall",
	"net", "net/http", "math/rand", "math/rand/v2", "crypto/rand",
	"github.com/aws/aws-sdk-go-v2/config",
}

// clockFuncs are the functions of package time that read or wait on the
// clock; the planner may use time's types (a Duration in EXPLAIN ANALYZE's
// figures) but never these.
var clockFuncs = []string{"Now", "Since", "Until", "After", "AfterFunc", "Tick", "NewTicker", "NewTimer", "Sleep"}

// TestPlannerIsPure checks that no non-test file of planner/... imports a
// host package or reads the clock.
func TestPlannerIsPure(t *testing.T) {
	module, pkgs := loadModule(t)
	for _, p := range pkgs {
		if !inPlanner(module, p.ImportPath) {
			continue
		}
		for _, imp := range p.Imports {
			for _, host := range hostPackages {
				if imp == host {
					t.Errorf("%s imports %s: the planner must not depend on the host; take what it needs as an input (planner.Options)", p.ImportPath, imp)
				}
			}
		}
	}
	files := plannerFiles(t)
	if len(files) == 0 {
		t.Fatal("no planner files found")
	}
	for _, f := range files {
		for _, call := range clockCalls(t, f) {
			t.Errorf("%s: the planner reads the clock; a plan must not depend on when it is made", call)
		}
	}
}

func inPlanner(module, importPath string) bool {
	rel, ok := relative(module, importPath)
	return ok && (rel == "planner" || strings.HasPrefix(rel, "planner/"))
}

// plannerFiles lists the non-test Go files of planner/....
func plannerFiles(t *testing.T) []string {
	t.Helper()
	root := filepath.Dir(run(t, "go", ".", "env", "GOMOD"))
	out := run(t, "go", root, "list", "-json=Dir,GoFiles", "./planner/...")
	dec := json.NewDecoder(strings.NewReader(out))
	var files []string
	for {
		var p struct {
			Dir     string
			GoFiles []string
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list -json: %v", err)
		}
		for _, f := range p.GoFiles {
			files = append(files, filepath.Join(p.Dir, f))
		}
	}
	return files
}

// clockCalls returns the positions where a file uses one of clockFuncs of
// package time, under whatever name the file imports it.
func clockCalls(t *testing.T, path string) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("parse %s: %v", path, err)
	}
	name := ""
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == "time" {
			name = "time"
			if imp.Name != nil {
				name = imp.Name.Name
			}
		}
	}
	if name == "" {
		return nil
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if id, ok := sel.X.(*ast.Ident); ok && id.Name == name {
			for _, fn := range clockFuncs {
				if sel.Sel.Name == fn {
					out = append(out, fset.Position(sel.Pos()).String()+" time."+fn)
				}
			}
		}
		return true
	})
	return out
}
