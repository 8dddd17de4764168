package archtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// pkg is one package of the module, as go list describes it.
type pkg struct {
	ImportPath   string
	Imports      []string // of its non-test files
	TestImports  []string // of its in-package _test.go files
	XTestImports []string // of its external test package (package x_test)
}

// edgeKind says which files of a package make an import.
type edgeKind int

const (
	kindBuild edgeKind = iota // the package's own files
	kindTest                  // its in-package _test.go files
	kindXTest                 // its external test package
)

func (k edgeKind) String() string {
	return [...]string{"imports", "test imports", "external test imports"}[k]
}

// loadModule lists every package of the module holding this test, with
// their direct imports, and returns the module path too. Direct imports are
// enough: every rule is about one import, and a transitive dependency that
// breaks a rule breaks it at some direct import of the graph.
func loadModule(t *testing.T) (module string, pkgs []pkg) {
	t.Helper()
	// go test puts its own toolchain's bin first on the PATH.
	const gobin = "go"
	root := run(t, gobin, ".", "env", "GOMOD")
	if root == "" || root == "/dev/null" {
		t.Fatalf("go env GOMOD is %q: run the test inside the module", root)
	}
	dir := filepath.Dir(root)
	module = run(t, gobin, dir, "list", "-m", "-f", "{{.Path}}")
	out := run(t, gobin, dir, "list", "-e", "-json=ImportPath,Imports,TestImports,XTestImports,Error", "./...")
	dec := json.NewDecoder(strings.NewReader(out))
	for {
		var p struct {
			pkg
			Error *struct{ Err string }
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list -json: %v", err)
		}
		if p.Error != nil {
			t.Fatalf("go list: %s: %s", p.ImportPath, p.Error.Err)
		}
		pkgs = append(pkgs, p.pkg)
	}
	if len(pkgs) < 2 {
		t.Fatalf("go list found %d packages in %s; expected the whole module", len(pkgs), dir)
	}
	return module, pkgs
}

func run(t *testing.T, gobin, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(gobin, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(append([]string{"go"}, args...), " "), err, stderr.String())
	}
	return strings.TrimSpace(string(out))
}

// String names a package's import for failure messages.
func (v violation) String() string {
	return fmt.Sprintf("%s %s %s: %s", v.From, v.Kind, v.To, v.Rule)
}
