package archtest

import (
	"slices"
	"sort"
	"strings"
)

// layers says, per top-level directory of the module, which top-level
// directories its packages may import (always their own too: a parent
// assembling its sub-packages, or siblings; importing an ancestor is the
// other rule's business). cmd may import anything below it.
var layers = map[string][]string{
	"parser":   {},
	"planner":  {"parser"},
	"exec":     {"planner", "parser"},
	"repl":     {"exec", "planner", "parser"},
	"cmd":      {"repl", "exec", "planner", "parser", "internal"},
	"internal": {},
}

// testOnly are the packages that exist for tests and benchmarks: only
// _test.go files (and other test-only packages) may import them.
var testOnly = []string{
	"exec/dynamo/dynalitetest", // connects tests to the dynalite server the test command starts
	"exec/dynamo/fixtures",     // the test tables
	"exec/dynamo/faultproxy",   // the fault-injecting proxy in front of dynalite
	"exec/replay",              // the in-process endpoint benchmarks read from
	"exec/memtest",             // the poisoning allocator
	"exec/difftest",            // the differential tests (no non-test code)
	"internal/archtest",        // this check (no non-test code)
}

// Rule names, as failures and the allowlist spell them.
const (
	ruleLayer    = "layer"    // imports a layer above its own
	ruleAncestor = "ancestor" // imports one of its ancestors
	ruleTestOnly = "test-only"
)

// violation is one import that breaks a rule; From and To are relative to
// the module ("" for the module root).
type violation struct {
	Rule     string
	From, To string
	Kind     edgeKind
}

// check returns every import of pkgs that breaks a rule, sorted. Paths
// outside module are ignored.
func check(module string, pkgs []pkg, testOnly []string) []violation {
	var out []violation
	for _, p := range pkgs {
		from, ok := relative(module, p.ImportPath)
		if !ok {
			continue
		}
		for kind, imports := range [][]string{p.Imports, p.TestImports, p.XTestImports} {
			for _, imp := range imports {
				to, ok := relative(module, imp)
				if !ok || to == from {
					continue
				}
				out = append(out, checkImport(from, to, edgeKind(kind), testOnly)...)
			}
		}
	}
	sortViolations(out)
	return out
}

func sortViolations(vs []violation) {
	sort.Slice(vs, func(i, j int) bool { return vs[i].String() < vs[j].String() })
}

// checkImport applies the rules to one import.
func checkImport(from, to string, kind edgeKind, testOnly []string) []violation {
	var out []violation
	add := func(rule string) { out = append(out, violation{Rule: rule, From: from, To: to, Kind: kind}) }
	if kind == kindBuild && slices.Contains(testOnly, to) && !slices.Contains(testOnly, from) {
		add(ruleTestOnly)
	}
	if kind == kindXTest {
		return out
	}
	if !layerAllows(from, to) {
		add(ruleLayer)
	}
	if isAncestor(to, from) {
		add(ruleAncestor)
	}
	return out
}

// layerAllows says whether a package under from's top-level directory may
// import to. The module root is in no layer: nothing may import it (the
// ancestor rule says so too), and it imports nothing.
func layerAllows(from, to string) bool {
	fl, tl := topLevel(from), topLevel(to)
	if fl == "" || tl == "" {
		return false
	}
	if fl == tl {
		return true
	}
	allowed, known := layers[fl]
	return known && slices.Contains(allowed, tl)
}

// isAncestor says whether a is a proper ancestor of b; the module root ("")
// is everyone's.
func isAncestor(a, b string) bool {
	if a == b {
		return false
	}
	return a == "" || strings.HasPrefix(b, a+"/")
}

// topLevel is the first element of a module-relative path ("" for the root).
func topLevel(rel string) string {
	first, _, _ := strings.Cut(rel, "/")
	return first
}

// relative makes path relative to module; ok is false for other modules.
func relative(module, path string) (string, bool) {
	if path == module {
		return "", true
	}
	rest, ok := strings.CutPrefix(path, module+"/")
	return rest, ok
}
