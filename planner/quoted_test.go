package planner

import (
	"errors"
	"fmt"
	"testing"

	"github.com/ddbsql/ddbsql/parser/diag"
)

func TestQuotedNote(t *testing.T) {
	tests := []struct {
		names []string
		want  string
	}{
		{[]string{"open"}, `"open" is a name here, not a string (double quotes quote names, as in PartiQL and standard SQL); for the string, write 'open'`},
		{[]string{`a"b`, "it's", `c\d`}, `"a""b", "it's", "c\d" are names here, not strings (double quotes quote names, as in PartiQL and standard SQL); for strings, write 'a"b', 'it''s', 'c\\d'`},
	}
	for _, tt := range tests {
		if got := quotedNote(tt.names); got != tt.want {
			t.Errorf("quotedNote(%q)\n got %s\nwant %s", tt.names, got, tt.want)
		}
	}
}

func TestWithQuotedHint(t *testing.T) {
	scan := &diag.Error{Phase: diag.Plan, Code: diag.CodeScanNotAllowed, Msg: "needs a Scan", Hint: "add = or IN", Cause: &ScanNeeded{Estimate: ScanEstimate{Table: "app"}}}
	got := withQuotedHint(fmt.Errorf("wrapped: %w", scan), []string{"x"})
	var pe *diag.Error
	var need *ScanNeeded
	if !asPlanError(got, &pe) || pe.Code != diag.CodeScanNotAllowed || !errors.As(pe, &need) || pe.Msg != "needs a Scan" {
		t.Fatalf("withQuotedHint lost the error: %#v", got)
	}
	if want := quotedNote([]string{"x"}) + "\nadd = or IN"; pe.Hint != want {
		t.Errorf("hint %q, want %q", pe.Hint, want)
	}
	if len(need.Notes) != 1 || need.Notes[0] != quotedNote([]string{"x"}) {
		t.Errorf("notes %q", need.Notes)
	}
	if scan.Hint != "add = or IN" {
		t.Errorf("the original error was changed: %q", scan.Hint)
	}
	// No names, or an error a string cannot have caused: unchanged.
	if got := withQuotedHint(scan, nil); got != scan {
		t.Errorf("no names: %v", got)
	}
	table := &diag.Error{Phase: diag.Plan, Code: diag.CodeUnknownTable, Msg: "no table"}
	if got := withQuotedHint(table, []string{"x"}); got != table {
		t.Errorf("unknown_table got a hint: %v", got)
	}
	plain := errors.New("catalog down")
	if got := withQuotedHint(plain, []string{"x"}); got != plain {
		t.Errorf("a non-planner error changed: %v", got)
	}
}
