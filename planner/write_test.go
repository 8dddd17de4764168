package planner

import (
	"context"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/parser"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/value"
)

type writeCatalog struct{ def *TableDef }

func (c writeCatalog) Table(_ context.Context, name string) (*TableDef, error) {
	if name != c.def.Name {
		return nil, errorf(diag.CodeUnknownTable, "unknown table %s", name)
	}
	return c.def, nil
}

func (c writeCatalog) Tables(context.Context) ([]string, error) { return []string{c.def.Name}, nil }

func planWriteText(t *testing.T, sql string) (*WritePlan, error) {
	t.Helper()
	def := &TableDef{Name: "app", PK: KeyAttr{Name: "PK", Type: value.String}, SK: &KeyAttr{Name: "SK", Type: value.String},
		Indexes:   []IndexDef{{Name: "GSI1", Global: true, PK: KeyAttr{Name: "GSI1PK", Type: value.String}, Projection: Projection{Type: "ALL"}}},
		ItemCount: 10, SizeBytes: 20480}
	st, err := parser.ParseOne(sql)
	if err != nil {
		t.Fatal(err)
	}
	return PlanWrite(context.Background(), writeCatalog{def}, st, Options{Parallelism: 1})
}

func TestPlanWriteKeyChange(t *testing.T) {
	_, err := planWriteText(t, "UPDATE app SET SK = 'x' WHERE PK = 'a'")
	de, ok := diag.As(err)
	if !ok || de.Code != diag.CodeKeyChange || !strings.Contains(de.Msg, "primary key") || !strings.Contains(de.Hint, "DELETE") {
		t.Fatalf("got %v", err)
	}
	wp, err := planWriteText(t, "UPDATE app SET GSI1PK = 'x', n = NULL, m = m + 1 WHERE PK = 'a' AND q > 1")
	if err != nil {
		t.Fatal(err)
	}
	if len(wp.Notes) != 1 || !strings.Contains(wp.Notes[0], "GSI1") || wp.Sets[1].Expr != nil || wp.Where == nil {
		t.Errorf("plan: %+v", wp)
	}
	for _, want := range []string{"PK", "q", "GSI1PK", "n", "m"} {
		if !strings.Contains(strings.Join(wp.Refs, ","), want) {
			t.Errorf("refs %v lack %s", wp.Refs, want)
		}
	}
	text := ExplainWrite(wp)
	for _, want := range []string{"UPDATE app", "UpdateItem app per item", "SET GSI1PK, m REMOVE n", "└─ read:", "Query app"} {
		if !strings.Contains(text, want) {
			t.Errorf("EXPLAIN lacks %q:\n%s", want, text)
		}
	}
}

func TestPlanWriteScanRule(t *testing.T) {
	_, err := planWriteText(t, "DELETE FROM app WHERE q = 1")
	if de, ok := diag.As(err); !ok || de.Code != diag.CodeScanNotAllowed {
		t.Fatalf("got %v, want the Scan refusal a SELECT gets", err)
	}
	_, err = planWriteText(t, "INSERT INTO app (PK, x) VALUES ('a', 1)")
	if de, ok := diag.As(err); !ok || de.Code != diag.CodeInvalid || !strings.Contains(de.Msg, "key attribute SK") {
		t.Fatalf("got %v", err)
	}
}
