package planner

import (
	"context"
	"testing"

	"github.com/ddbsql/ddbsql/parser"
	"github.com/ddbsql/ddbsql/planner/value"
)

// bigCatalog has one table of 100 GiB, so the Scan segments chosen for it
// are capped by the parallelism rather than by its size.
type bigCatalog struct{}

func (bigCatalog) Table(context.Context, string) (*TableDef, error) {
	return &TableDef{Name: "big", PK: KeyAttr{Name: "id", Type: value.String}, ItemCount: 100 << 20, SizeBytes: 100 << 30}, nil
}

func (bigCatalog) Tables(context.Context) ([]string, error) { return []string{"big"}, nil }

// TestScanSegmentsFollowParallelism plans the same Scan under several
// parallelisms: the segment count follows Options.Parallelism (8 per unit,
// at least one unit), never the machine the test runs on, and an explicit
// Segments wins.
func TestScanSegmentsFollowParallelism(t *testing.T) {
	st, err := parser.ParseOne("SELECT id FROM big")
	if err != nil {
		t.Fatal(err)
	}
	sel := st.(*parser.Select)
	for _, c := range []struct {
		opts Options
		want int
	}{
		{Options{AllowScan: true}, 8},
		{Options{AllowScan: true, Parallelism: -3}, 8},
		{Options{AllowScan: true, Parallelism: 1}, 8},
		{Options{AllowScan: true, Parallelism: 3}, 24},
		{Options{AllowScan: true, Parallelism: 64}, 100},
		{Options{AllowScan: true, Parallelism: 3, Segments: 5}, 5},
	} {
		p, err := PlanSelect(context.Background(), bigCatalog{}, SelectInput{AST: sel.AST, Paths: sel.Paths}, c.opts)
		if err != nil {
			t.Fatalf("%+v: %v", c.opts, err)
		}
		a, ok := p.Root.(*Access)
		for !ok && len(p.Root.Inputs()) > 0 {
			p.Root = p.Root.Inputs()[0]
			a, ok = p.Root.(*Access)
		}
		if !ok {
			t.Fatalf("%+v: no Access node in the plan", c.opts)
		}
		if got := len(a.Scans); got != c.want {
			t.Errorf("%+v: %d Scan segments, want %d", c.opts, got, c.want)
		}
	}
}
