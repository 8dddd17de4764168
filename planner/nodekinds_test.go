package planner_test

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	ddbparser "github.com/ddbsql/ddbsql/parser"
	"github.com/ddbsql/ddbsql/planner"
)

// TestNodeKinds walks the plan of every golden case and checks, for every
// node kind the package declares: some golden plan has it (so its EXPLAIN
// description is pinned by a golden file), its Inputs are exactly its
// fields of type Node and []Node in their order (no child is out of a
// walk's reach), and text and JSON EXPLAIN show it with the same
// description (a kind, a title, its inputs as children).
func TestNodeKinds(t *testing.T) {
	declared := declaredNodeKinds(t)
	if len(declared) < 10 {
		t.Fatalf("found only %d node kinds in the package: %v", len(declared), declared)
	}
	seen := map[string]bool{}
	plans := 0
	for _, p := range goldenPlans(t) {
		plans++
		planner.Walk(p.Root, func(n planner.Node, _ int) bool {
			seen[reflect.TypeOf(n).Elem().Name()] = true
			checkInputs(t, n)
			return true
		})
		checkDescriptions(t, p)
	}
	if plans < 100 {
		t.Fatalf("only %d golden plans walked", plans)
	}
	for _, kind := range declared {
		if !seen[kind] {
			t.Errorf("node kind %s is in no golden plan: add a case to planner/testdata/plans that shows its EXPLAIN", kind)
		}
	}
}

// declaredNodeKinds lists the types of the package with an Inputs method.
func declaredNodeKinds(t *testing.T) []string {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || fn.Name.Name != "Inputs" {
				continue
			}
			recv := fn.Recv.List[0].Type
			if star, ok := recv.(*ast.StarExpr); ok {
				recv = star.X
			}
			kinds = append(kinds, recv.(*ast.Ident).Name)
		}
	}
	sort.Strings(kinds)
	return kinds
}

// goldenPlans plans the statement of every golden case that has a plan
// (the first statement of a "same" case) with the case's options.
func goldenPlans(t *testing.T) []*planner.Plan {
	var plans []*planner.Plan
	for _, file := range goldenFiles(t) {
		cats := newGoldenCatalogs()
		golden, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		// From the file's text: this test reads the golden files and never
		// writes them, not even with -rewrite.
		datadriven.RunTestFromString(t, string(golden), func(t *testing.T, d *datadriven.TestData) string {
			sql := d.Input
			switch d.Cmd {
			case "create-table":
				if _, err := cats.declare(d); err != nil {
					t.Fatalf("%s: %v", d.Pos, err)
				}
				return d.Expected
			case "plan", "json":
			case "same":
				sql = ddbparser.Split(d.Input)[0].Text
			default:
				return d.Expected
			}
			opts := planner.Options{AllowScan: d.HasArg("allow-scan"), Consistent: d.HasArg("consistent")}
			if d.HasArg("segments") {
				d.ScanArgs(t, "segments", &opts.Segments)
			}
			if p, errText := planFor(cats.forCase(d), sql, opts); errText == "" {
				plans = append(plans, p)
			}
			return d.Expected // the golden test checks the output
		})
	}
	return plans
}

var (
	nodeType  = reflect.TypeOf((*planner.Node)(nil)).Elem()
	nodesType = reflect.SliceOf(nodeType)
)

// checkInputs fails unless n's Inputs are its Node and []Node fields, in
// the order they are declared. (A lookup's *Fetch is part of the join, no
// input of it.)
func checkInputs(t *testing.T, n planner.Node) {
	t.Helper()
	v := reflect.ValueOf(n).Elem()
	var want []planner.Node
	var from []string // the field each of want is in
	for i := 0; i < v.NumField(); i++ {
		f := v.Type().Field(i)
		if f.Type != nodeType && f.Type != nodesType {
			continue
		}
		if !f.IsExported() {
			t.Errorf("%T.%s: a child field must be exported", n, f.Name)
			continue
		}
		switch f.Type {
		case nodeType:
			child, _ := v.Field(i).Interface().(planner.Node)
			want, from = append(want, child), append(from, f.Name)
		case nodesType:
			for j, child := range v.Field(i).Interface().([]planner.Node) {
				want, from = append(want, child), append(from, fmt.Sprintf("%s[%d]", f.Name, j))
			}
		}
	}
	got := n.Inputs()
	if len(got) != len(want) {
		t.Errorf("%T: Inputs gives %d nodes, its fields %v hold %d", n, len(got), from, len(want))
		return
	}
	for i := range got {
		if got[i] != want[i] || got[i] == nil {
			t.Errorf("%T: input %d is not the node in %s, the field in its place", n, i, from[i])
		}
	}
}

// jsonNode is a node of EXPLAIN's JSON document.
type jsonNode struct {
	Kind     string     `json:"kind"`
	Title    string     `json:"title"`
	Children []jsonNode `json:"children"`
}

// checkDescriptions walks the plan and its JSON document together: every
// node has a kind and a title in the document, its inputs as children, and
// the same title on a line of the text EXPLAIN.
func checkDescriptions(t *testing.T, p *planner.Plan) {
	t.Helper()
	doc, err := planner.ExplainJSON(p, planner.JSONOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var root struct{ Plan jsonNode }
	if err := json.Unmarshal(doc, &root); err != nil {
		t.Fatal(err)
	}
	var docOrder []jsonNode
	var flatten func(jsonNode)
	flatten = func(j jsonNode) {
		docOrder = append(docOrder, j)
		for _, c := range j.Children {
			flatten(c)
		}
	}
	flatten(root.Plan)
	text := planner.Explain(p)
	i := 0
	planner.Walk(p.Root, func(n planner.Node, _ int) bool {
		if i >= len(docOrder) {
			t.Errorf("%T is not in the JSON document", n)
			return false
		}
		j := docOrder[i]
		i++
		if j.Kind == "" || j.Title == "" {
			t.Errorf("%T has kind %q, title %q in JSON", n, j.Kind, j.Title)
		}
		if len(j.Children) != len(n.Inputs()) {
			t.Errorf("%T has %d children in JSON, %d inputs", n, len(j.Children), len(n.Inputs()))
		}
		if !hasLineEnding(text, j.Title) {
			t.Errorf("%T: the text EXPLAIN has no line for the JSON title %q:\n%s", n, j.Title, text)
		}
		return true
	})
	if i != len(docOrder) {
		t.Errorf("the JSON document has %d nodes, the plan %d", len(docOrder), i)
	}
}

func hasLineEnding(text, suffix string) bool {
	for _, line := range strings.Split(text, "\n") {
		if strings.HasSuffix(line, suffix) {
			return true
		}
	}
	return false
}
