package planner_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/parser"
	"github.com/ddbsql/ddbsql/planner"
)

// TestFilterExpressionLimits checks that no FilterExpression the planner
// builds exceeds DynamoDB's limits on an expression (4 KB of text, 300
// operators and functions), which DynamoDB rejects with a
// ValidationException: the conjuncts that do not fit are filtered on the
// client instead, and small filters are still pushed down.
func TestFilterExpressionLimits(t *testing.T) {
	cat := newFakeCatalog(t)
	or := func(attr string, n int) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = fmt.Sprintf("%s = %d", attr, i)
		}
		return "(" + strings.Join(parts, " OR ") + ")"
	}
	and := func(n int) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = fmt.Sprintf("score <> %d", i)
		}
		return strings.Join(parts, " AND ")
	}
	ins := func(n int) string {
		lists := make([]string, n)
		for i := range lists {
			vals := make([]string, 100)
			for v := range vals {
				vals[v] = fmt.Sprint(i*1000 + v)
			}
			lists[i] = "score NOT IN (" + strings.Join(vals, ", ") + ")"
		}
		return strings.Join(lists, " AND ")
	}
	cases := []struct {
		name          string
		where         string
		pushed, local bool // a FilterExpression; a client-side filter
	}{
		{"a small OR is pushed", or("score", 10), true, false},
		{"an OR of 150 fits", or("score", 150), true, false},
		{"an OR of 400 is too many operators", or("score", 400), false, true},
		{"an OR of 19000 runs on the client", or("score", 19000), false, true},
		{"IN lists exceed 4 KB before 300 operators", ins(12), true, true},
		{"conjuncts fill the filter, the rest run on the client", and(250), true, true},
		{"a small conjunct after a huge one", or("score", 1000) + " AND score > 3", false, true},
	}
	for _, tc := range cases {
		for _, from := range []string{"FROM app WHERE PK = 'WS#acme' AND ", "FROM app WHERE "} {
			t.Run(tc.name, func(t *testing.T) {
				p := plan(t, cat, "SELECT * "+from+tc.where)
				filters, local := requests(p.Root)
				if got := len(filters) > 0; got != tc.pushed {
					t.Errorf("FilterExpression sent: %v, want %v", got, tc.pushed)
				}
				if local != tc.local {
					t.Errorf("client-side filter: %v, want %v", local, tc.local)
				}
				for _, f := range filters {
					if len(f) > 4096 || countOperators(f) > 300 {
						t.Errorf("FilterExpression of %d bytes, %d operators: over DynamoDB's limits", len(f), countOperators(f))
					}
				}
			})
		}
	}
}

func plan(t *testing.T, cat planner.Catalog, sql string) *planner.Plan {
	t.Helper()
	st, err := parser.ParseOne(sql)
	if err != nil {
		t.Fatal(err)
	}
	sel := st.(*parser.Select)
	p, err := planner.PlanSelect(context.Background(), cat, planner.SelectInput{AST: sel.AST, Paths: sel.Paths}, planner.Options{AllowScan: true})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// requests lists the FilterExpressions of the plan's reads and says
// whether a Filter runs on the client.
func requests(n planner.Node) (filters []string, local bool) {
	planner.Walk(n, func(n planner.Node, _ int) bool {
		switch a := n.(type) {
		case *planner.Access:
			for _, q := range a.Queries {
				if q.FilterExpression != nil {
					filters = append(filters, *q.FilterExpression)
				}
			}
			for _, s := range a.Scans {
				if s.FilterExpression != nil {
					filters = append(filters, *s.FilterExpression)
				}
			}
		case *planner.Filter:
			local = true
		}
		return true
	})
	return filters, local
}

// countOperators counts comparisons, logical operators and functions the
// way DynamoDB does, on an expression of placeholders.
func countOperators(f string) int {
	n := 0
	for _, w := range strings.Fields(strings.NewReplacer("(", " ", ")", " ", ",", " ").Replace(f)) {
		switch w {
		case "=", "<>", "<", "<=", ">", ">=", "AND", "OR", "NOT", "BETWEEN", "IN",
			"attribute_exists", "attribute_not_exists", "attribute_type", "begins_with", "contains", "size":
			n++
		}
	}
	return n
}
