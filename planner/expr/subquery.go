package expr

import (
	"strconv"
	"strings"
	"sync/atomic"
)

// SubqueryKind says how an expression uses a subquery's rows.
type SubqueryKind uint8

// Subquery kinds.
const (
	// SubqueryScalar is (SELECT x …): the value of its one row, NULL when
	// it has none; more than one row is an error.
	SubqueryScalar SubqueryKind = iota
	// SubqueryExists is [NOT] EXISTS (SELECT …).
	SubqueryExists
	// SubqueryIn is X [NOT] IN (SELECT c …), with SQL's three-valued logic.
	SubqueryIn
)

// Subquery is a nested SELECT used as a value or a predicate. Its rows are
// read once, before any row of the statement is evaluated, into Result (the
// planner's Subqueries node runs them). A correlated subquery has been
// decorrelated: each of its rows starts with the values of its correlation
// columns, and Outer are the outer expressions they must equal (SQL =, so a
// NULL never matches), in the same order; the value the subquery yields
// (scalar, or IN's member) follows them.
type Subquery struct {
	Kind  SubqueryKind
	X     Expr // IN's left operand
	Not   bool // NOT IN, NOT EXISTS
	Outer []Expr
	// Number is the subquery's place in the statement (1, 2, …), which
	// EXPLAIN shows above its plan.
	Number int
	Result *SubqueryResult
}

// SubqueryResult holds what exec read from a subquery. The planner makes
// one per subquery; exec stores the rows before the statement's first row
// is evaluated and never changes them while it runs, so evaluation may read
// it from any goroutine.
type SubqueryResult struct{ rows atomic.Value }

// Store sets the rows (exec's own representation).
func (r *SubqueryResult) Store(rows any) { r.rows.Store(rows) }

// Load returns the rows Store set, or nil before.
func (r *SubqueryResult) Load() any { return r.rows.Load() }

func (Subquery) expr() {}

func (s Subquery) String() string {
	var sb strings.Builder
	ref := "subquery " + strconv.Itoa(s.Number)
	if len(s.Outer) > 0 {
		outs := make([]string, len(s.Outer))
		for i, o := range s.Outer {
			outs[i] = o.String()
		}
		ref += " correlated by " + strings.Join(outs, ", ")
	}
	switch s.Kind {
	case SubqueryScalar:
		sb.WriteString("(" + ref + ")")
	case SubqueryExists:
		if s.Not {
			sb.WriteString("NOT ")
		}
		sb.WriteString("EXISTS (" + ref + ")")
	case SubqueryIn:
		write(&sb, s.X)
		if s.Not {
			sb.WriteString(" NOT")
		}
		sb.WriteString(" IN (" + ref + ")")
	}
	return sb.String()
}

// HasSubquery reports whether e contains a subquery.
func HasSubquery(e Expr) bool {
	found := false
	Walk(e, func(x Expr) bool {
		if _, ok := x.(Subquery); ok {
			found = true
		}
		return !found
	})
	return found
}
