package planner_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/ddbsql/ddbsql/parser"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
)

// planJSON plans sql and renders EXPLAIN's JSON document (the golden
// command "json"); errors render as in planText. The document must be
// valid JSON, and its compact form the same document.
func planJSON(t *testing.T, cat planner.Catalog, sql string, opts planner.Options) string {
	t.Helper()
	p, errText := planFor(cat, sql, opts)
	if errText != "" {
		return errText
	}
	doc, err := planner.ExplainJSON(p, planner.JSONOptions{})
	if err != nil {
		t.Fatalf("%s: ExplainJSON: %v", sql, err)
	}
	compact, err := planner.ExplainJSON(p, planner.JSONOptions{Compact: true})
	if err != nil {
		t.Fatalf("%s: ExplainJSON compact: %v", sql, err)
	}
	var a, b any
	if err := json.Unmarshal(doc, &a); err != nil {
		t.Fatalf("%s: EXPLAIN JSON is not valid JSON: %v\n%s", sql, err, doc)
	}
	if err := json.Unmarshal(compact, &b); err != nil {
		t.Fatalf("%s: compact EXPLAIN JSON is not valid JSON: %v\n%s", sql, err, compact)
	}
	if bytes, _ := json.Marshal(a); string(bytes) != mustMarshal(t, b) {
		t.Errorf("%s: the compact document differs from the indented one", sql)
	}
	for i, c := range compact[:len(compact)-1] {
		if c == '\n' {
			t.Fatalf("%s: compact document has a newline at byte %d", sql, i)
		}
	}
	return string(doc)
}

func mustMarshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// planFor plans one SELECT or EXPLAIN; a failure comes back as the golden
// error text.
func planFor(cat planner.Catalog, sql string, opts planner.Options) (*planner.Plan, string) {
	st, err := parser.ParseOne(sql)
	if err != nil {
		return nil, "error parse: " + err.Error() + "\n"
	}
	var sel *parser.Select
	switch s := st.(type) {
	case *parser.Select:
		sel = s
	case *parser.Explain:
		sel = s.Stmt
	default:
		return nil, "error: not a SELECT\n"
	}
	p, err := planner.PlanStatement(context.Background(), cat, sel, opts)
	if err != nil {
		var pe *diag.Error
		if errors.As(err, &pe) && pe.Phase == diag.Plan {
			return nil, "error " + string(pe.Code) + ": " + pe.Error() + "\n"
		}
		return nil, "error: " + err.Error() + "\n"
	}
	return p, ""
}
