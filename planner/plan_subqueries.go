package planner

import (
	"fmt"

	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// Subqueries reads the subqueries of a statement (Reads, in their order in
// the statement) to their end before the first row of Input is asked for,
// and hands each one's rows to the expressions that use it
// (expr.Subquery.Result). Input's rows pass through unchanged.
type Subqueries struct {
	Input Node
	Reads []Node
	// Subs describe Reads, one for one.
	Subs []*SubqueryRead
}

// SubqueryRead is one subquery of a statement: its plan and what its rows
// are for.
type SubqueryRead struct {
	Number int // 1, 2, … in the statement, as its expressions print it
	Kind   expr.SubqueryKind
	SQL    string // as written
	// Keys is the number of correlation columns that lead each row (0 for
	// an uncorrelated subquery); the subquery's value follows them.
	Keys int
	Root Node
	// Empty is the row a correlated aggregate yields for outer values no
	// row has (decorrelated.empty); nil otherwise.
	Empty  *value.Value
	Result *expr.SubqueryResult
}

// Inputs implements Node.
func (n *Subqueries) Inputs() []Node { return append([]Node{n.Input}, n.Reads...) }

// kindText says what the statement takes from the subquery's rows.
func (s *SubqueryRead) kindText() string {
	switch s.Kind {
	case expr.SubqueryScalar:
		return "scalar value (NULL without a row; more than one row is an error)"
	case expr.SubqueryExists:
		return "EXISTS: whether a row exists"
	}
	return "IN: a set of values, tested with SQL's three-valued logic"
}

// Use says how the statement uses the subquery's rows, for EXPLAIN.
func (s *SubqueryRead) Use() string {
	what := s.kindText()
	if s.Keys > 0 {
		how := "client semi-join: rows looked up by"
		if s.Empty != nil {
			how = "grouped join: one aggregate row per"
		}
		what += fmt.Sprintf("; decorrelated, %s the %d correlation value(s) that lead each row", how, s.Keys)
	}
	return what
}

func (n *Subqueries) describe() explainLine {
	d := make([]string, 0, len(n.Subs))
	for _, s := range n.Subs {
		d = append(d, fmt.Sprintf("subquery %d, read once before the first row (its plan follows the statement's below): %s — %s", s.Number, s.SQL, s.Use()))
	}
	return explainLine{kind: "Subqueries", title: fmt.Sprintf("Subqueries (client): %d read before the statement's rows", len(n.Subs)), client: true, details: d}
}

func (n *Subqueries) jsonFields(_ *jsonWriter, o *object) error {
	subs := make([]any, len(n.Subs))
	for i, s := range n.Subs {
		subs[i] = object{{"number", s.Number}, {"sql", s.SQL}, {"use", s.Use()}, {"correlation_columns", s.Keys}}
	}
	o.add("subqueries", subs)
	return nil
}
