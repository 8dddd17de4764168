package planner_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"strings"
	"testing"
)

// minGoldenCases is how many statement cases the golden files hold at
// least: every access path, pushdown decision and rejection has one.
const minGoldenCases = 150

// goldenCase is one directive of a golden file as written.
type goldenCase struct {
	line    int    // 1-based line of the directive
	command string // plan, error, same, json or create-table
	above   string // the line directly above the directive
}

// readGoldenCases lists the directives of a golden file: in the datadriven
// format a directive starts a block of input, "----" ends it, and the
// expected output runs to the next blank line.
func readGoldenCases(t *testing.T, file string) []goldenCase {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var cases []goldenCase
	lines := strings.Split(string(data), "\n")
	state := "between"
	for i, line := range lines {
		switch state {
		case "between":
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			c := goldenCase{line: i + 1, command: strings.Fields(line)[0]}
			if i > 0 {
				c.above = lines[i-1]
			}
			cases = append(cases, c)
			state = "input"
		case "input":
			if line == "----" {
				state = "output"
			}
		case "output":
			if line == "" {
				state = "between"
			}
		}
	}
	return cases
}

// TestGoldenCasesExplained fails when a case of a golden file has no
// comment of its own: the line directly above each directive must be a
// "# " comment saying what the case proves.
func TestGoldenCasesExplained(t *testing.T) {
	for _, file := range goldenFiles(t) {
		for _, c := range readGoldenCases(t, file) {
			if !strings.HasPrefix(c.above, "# ") {
				t.Errorf("%s:%d: %s has no comment directly above it saying what it proves", file, c.line, c.command)
			}
		}
	}
}

// TestGoldenCaseCount keeps the golden files at least minGoldenCases
// statement cases strong, and every directive one TestPlans knows.
func TestGoldenCaseCount(t *testing.T) {
	n := 0
	for _, file := range goldenFiles(t) {
		for _, c := range readGoldenCases(t, file) {
			switch c.command {
			case "plan", "error", "same", "json":
				n++
			case "create-table":
			default:
				t.Errorf("%s:%d: unknown directive %q", file, c.line, c.command)
			}
		}
	}
	if n < minGoldenCases {
		t.Errorf("the golden files hold %d cases, fewer than %d", n, minGoldenCases)
	}
	t.Logf("%d golden cases", n)
}

// notPlannerErrors are the plan-phase codes the planner never returns
// while planning a SELECT (the caller's --max-rcu check reports budget,
// the session's --read-only check read_only; key_change comes from
// PlanWrite, pinned by write_test.go).
var notPlannerErrors = map[string]bool{"budget": true, "read_only": true, "key_change": true}

// TestGoldenErrorCodes fails when a code of the plan phase (parser/diag's
// codes.go) is the outcome of no golden case: every kind of rejection is
// pinned by at least one.
func TestGoldenErrorCodes(t *testing.T) {
	var all strings.Builder
	for _, file := range goldenFiles(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(data)
	}
	text := all.String()
	codes := declaredErrorCodes(t)
	if len(codes) < 10 {
		t.Fatalf("found only %d plan-phase error codes in %s: %v", len(codes), codesFile, codes)
	}
	for _, code := range codes {
		if notPlannerErrors[code] {
			continue
		}
		if !strings.Contains(text, "\nerror "+code+": ") {
			t.Errorf("no golden case ends in the error code %s: add one to testdata/plans/rejections.txt", code)
		}
	}
}

// codesFile declares every error code, grouped by phase.
const codesFile = "../parser/diag/codes.go"

// declaredErrorCodes lists the values of the Code constants declared in
// codesFile's block "Codes of the plan phase".
func declaredErrorCodes(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), codesFile, nil, parser.SkipObjectResolution|parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST || gd.Doc == nil || !strings.HasPrefix(gd.Doc.Text(), "Codes of the plan phase") {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, name := range vs.Names {
				if !strings.HasPrefix(name.Name, "Code") || i >= len(vs.Values) {
					continue
				}
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					continue
				}
				code, err := strconv.Unquote(lit.Value)
				if err != nil {
					t.Fatal(err)
				}
				codes = append(codes, code)
			}
		}
	}
	return codes
}
