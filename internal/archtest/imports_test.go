package archtest

import (
	"slices"
	"strings"
	"testing"
)

// allowed are the violations known today and being fixed; each says what
// remains to do. An entry covers its import from any of the package's
// files. Remove an entry with the import it names: the test fails on an
// entry that no longer occurs.
var allowed = []allowance{}

// TestImportsFlowOneWay checks the module's real import graph.
func TestImportsFlowOneWay(t *testing.T) {
	module, pkgs := loadModule(t)
	for _, dir := range testOnly {
		if !slices.ContainsFunc(pkgs, func(p pkg) bool { return p.ImportPath == module+"/"+dir }) {
			t.Errorf("test-only package %s does not exist: update testOnly", dir)
		}
	}
	unexpected, stale := against(check(module, pkgs, testOnly), allowed)
	for _, v := range unexpected {
		t.Errorf("%s", explain(v))
	}
	for _, a := range stale {
		t.Errorf("allowlist entry %s -> %s (%s) no longer occurs: remove it", a.From, a.To, a.Rule)
	}
}

// allowance is an allowlist entry.
type allowance struct {
	Rule, From, To string
	Todo           string
}

// against splits violations into those no allowance covers and returns the
// allowances that cover none.
func against(violations []violation, allowed []allowance) (unexpected []violation, stale []allowance) {
	used := make([]bool, len(allowed))
	for _, v := range violations {
		i := slices.IndexFunc(allowed, func(a allowance) bool { return a.Rule == v.Rule && a.From == v.From && a.To == v.To })
		if i < 0 {
			unexpected = append(unexpected, v)
			continue
		}
		used[i] = true
	}
	for i, a := range allowed {
		if !used[i] {
			stale = append(stale, a)
		}
	}
	return unexpected, stale
}

// explain says what a violation breaks and what to do about it.
func explain(v violation) string {
	to := v.To
	if to == "" {
		to = "the module root"
	}
	switch v.Rule {
	case ruleAncestor:
		return v.From + " " + v.Kind.String() + " " + to + ", its ancestor: a package never imports its parent; " +
			"move what it needs into a package both can import (a leaf below them)"
	case ruleTestOnly:
		return v.From + " imports " + to + ", a test-only package: only _test.go files may"
	}
	allowedList := strings.Join(layers[topLevel(v.From)], ", ")
	if allowedList == "" {
		allowedList = "nothing of the module"
	}
	return v.From + " " + v.Kind.String() + " " + to + ": " + topLevel(v.From) + "/... may import only its own layer and " + allowedList
}
