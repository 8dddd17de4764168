package archtest

import (
	"reflect"
	"testing"
)

// fake is a small module with one import breaking each rule and others
// that break none.
const fake = "example.com/m"

func fakeGraph() []pkg {
	m := func(rel string) string {
		if rel == "" {
			return fake
		}
		return fake + "/" + rel
	}
	return []pkg{
		{ImportPath: m(""), Imports: []string{"embed"}},
		{ImportPath: m("parser"), Imports: []string{"fmt", m("planner")}},
		{ImportPath: m("planner"), Imports: []string{m("parser"), m("planner/expr")},
			XTestImports: []string{m("exec"), m("exec/memtest")}},
		{ImportPath: m("planner/expr"), Imports: []string{m("planner")}},
		{ImportPath: m("exec"), Imports: []string{m(""), m("planner/expr"), m("exec/dynamo/wire"), "example.com/mother/x"},
			TestImports: []string{m("cmd/tool"), m("exec/memtest")}},
		{ImportPath: m("exec/dynamo/wire"), Imports: []string{m("exec"), m("exec/value")}},
		{ImportPath: m("exec/value")},
		{ImportPath: m("exec/memtest")},
		{ImportPath: m("exec/dynamo/fixtures"), Imports: []string{m("exec/memtest"), m("exec/value")}},
		{ImportPath: m("repl"), Imports: []string{m("exec"), m("parser"), m("exec/memtest")}},
		{ImportPath: m("cmd/tool"), Imports: []string{m("repl"), m("exec"), m("exec/dynamo/wire")}},
	}
}

// TestCheckCatchesSyntheticViolations: each rule fires on the import that
// breaks it, and only there.
func TestCheckCatchesSyntheticViolations(t *testing.T) {
	got := check(fake, fakeGraph(), []string{"exec/memtest", "exec/dynamo/fixtures"})
	want := []violation{
		{Rule: ruleLayer, From: "exec", To: "", Kind: kindBuild},        // the root is in no layer
		{Rule: ruleAncestor, From: "exec", To: "", Kind: kindBuild},     // and everyone's parent
		{Rule: ruleLayer, From: "exec", To: "cmd/tool", Kind: kindTest}, // tests of a package count as the package
		{Rule: ruleAncestor, From: "exec/dynamo/wire", To: "exec", Kind: kindBuild},
		{Rule: ruleLayer, From: "parser", To: "planner", Kind: kindBuild}, // parser imports nothing of the module
		{Rule: ruleAncestor, From: "planner/expr", To: "planner", Kind: kindBuild},
		{Rule: ruleTestOnly, From: "repl", To: "exec/memtest", Kind: kindBuild},
	}
	sortViolations(want)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("violations:\n%v\nwant:\n%v", got, want)
	}
}

// TestAllowlistOnlyShrinks: an allowance hides exactly its violation, and
// one whose violation is gone is reported.
func TestAllowlistOnlyShrinks(t *testing.T) {
	vs := check(fake, fakeGraph(), []string{"exec/memtest"})
	unexpected, stale := against(vs, []allowance{
		{Rule: ruleAncestor, From: "exec/dynamo/wire", To: "exec", Todo: "fix"},
		{Rule: ruleLayer, From: "planner", To: "exec/eval", Todo: "fixed already"},
	})
	for _, v := range unexpected {
		if v.From == "exec/dynamo/wire" && v.To == "exec" {
			t.Errorf("the allowed violation is still reported: %v", v)
		}
	}
	if len(unexpected) != len(vs)-1 {
		t.Errorf("%d unexpected of %d violations, want all but the allowed one", len(unexpected), len(vs))
	}
	if len(stale) != 1 || stale[0].To != "exec/eval" {
		t.Errorf("stale allowances %v, want the planner -> exec/eval one", stale)
	}
}

// TestAncestor: the root is everyone's ancestor, a path prefix that is not
// a folder is not.
func TestAncestor(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"", "exec", true},
		{"exec", "exec/dynamo/wire", true},
		{"exec/dynamo", "exec/dynamo/wire", true},
		{"exec/dyn", "exec/dynamo", false},
		{"exec", "exec", false},
		{"exec/dynamo/wire", "exec", false},
	} {
		if got := isAncestor(c.a, c.b); got != c.want {
			t.Errorf("isAncestor(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
