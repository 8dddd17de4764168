package planner

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/parser"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/value"
)

// starCatalog holds tables t00…t(n-1), each keyed by id (S).
type starCatalog struct{ n int }

func (c starCatalog) Table(_ context.Context, name string) (*TableDef, error) {
	var i int
	if _, err := fmt.Sscanf(name, "t%02d", &i); err != nil || i >= c.n {
		return nil, fmt.Errorf("%s: %w", name, ErrNotFound)
	}
	return &TableDef{Name: name, PK: KeyAttr{Name: "id", Type: value.String}, ItemCount: 10, SizeBytes: 1000}, nil
}

func (c starCatalog) Tables(context.Context) ([]string, error) { return nil, nil }

// TestJoinOrderSearchIsBounded plans a star of many tables whose last one
// no key reaches: every other order is tried (each set of joined tables at
// most once, and within a bound), then the statement fails with the reason
// met first, naming that table.
func TestJoinOrderSearchIsBounded(t *testing.T) {
	const n = 20
	var from strings.Builder
	from.WriteString("SELECT a00.id FROM t00 a00")
	for i := 1; i < n; i++ {
		on := fmt.Sprintf("a%02d.id = a00.r%d", i, i)
		if i == n-1 {
			on = fmt.Sprintf("a%02d.x = a00.r%d", i, i) // not a key: no lookup
		}
		fmt.Fprintf(&from, " JOIN t%02d a%02d ON %s", i, i, on)
	}
	from.WriteString(" WHERE a00.id = 'k'")
	st, err := parser.ParseOne(from.String())
	if err != nil {
		t.Fatal(err)
	}
	sel := st.(*parser.Select)
	_, err = PlanSelect(context.Background(), starCatalog{n: n}, SelectInput{AST: sel.AST, Paths: sel.Paths}, Options{})
	pe, ok := err.(*diag.Error)
	if !ok || pe.Code != diag.CodeJoin || !strings.Contains(pe.Msg, fmt.Sprintf("cannot join a%02d (table t%02d)", n-1, n-1)) {
		t.Fatalf("got %v, want a join error naming a%02d", err, n-1)
	}

	// The same star with every table reachable plans, in FROM order.
	ok19 := strings.Replace(from.String(), fmt.Sprintf("a%02d.x =", n-1), fmt.Sprintf("a%02d.id =", n-1), 1)
	st, err = parser.ParseOne(ok19)
	if err != nil {
		t.Fatal(err)
	}
	sel = st.(*parser.Select)
	p, err := PlanSelect(context.Background(), starCatalog{n: n}, SelectInput{AST: sel.AST, Paths: sel.Paths}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for node := p.Root; node != nil; {
		if lj, ok := node.(*LookupJoin); ok {
			order = append([]string{lj.Alias}, order...)
		}
		in := node.Inputs()
		if len(in) == 0 {
			break
		}
		node = in[0]
	}
	if len(order) != n-1 || order[0] != "a01" || order[n-2] != fmt.Sprintf("a%02d", n-1) {
		t.Errorf("lookup order %v, want a01 … a%02d", order, n-1)
	}
}
