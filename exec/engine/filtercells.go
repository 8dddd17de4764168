package engine

import (
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/exec/eval"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// A client filter decides its most common conjuncts, a top-level
// attribute compared with a string or integer literal, column by column
// on the Arrow array its column ID is bound to, whenever the batch stores
// that attribute as plain strings (or 64-bit integers) of the literal's
// type: there the comparison is byte-wise (or integer) order, exactly what
// eval's compare does for two S (or two N). Any other batch, encoding or
// conjunct is evaluated row by row. A row runs through its conjuncts in
// order and stops at the first FALSE, as eval's AND does, so an error in a
// later conjunct is raised for exactly the rows AND would raise it for.

// cellTest is a conjunct `attribute op literal`.
type cellTest struct {
	id    expr.ColumnID
	op    expr.Op
	isStr bool
	str   string
	num   int64 // when !isStr: the literal, an integer
}

// cellTestOf recognises a conjunct a filter can decide column-wise.
func cellTestOf(e expr.Expr) (*cellTest, bool) {
	b, ok := e.(expr.Binary)
	if !ok || !b.Op.IsComparison() {
		return nil, false
	}
	c, cok := b.L.(expr.Column)
	lit, lok := b.R.(expr.Literal)
	op := b.Op
	if !cok || !lok {
		c, cok = b.R.(expr.Column)
		lit, lok = b.L.(expr.Literal)
		op = op.Flip()
	}
	if !cok || !lok || len(c.Path) != 1 || c.Path[0].IsIndex || c.ID <= expr.NoColumn {
		return nil, false
	}
	t := &cellTest{id: c.ID, op: op}
	switch lit.Value.Kind() {
	case value.String:
		t.isStr, t.str = true, lit.Value.Text()
	case value.Number:
		n, err := strconv.ParseInt(lit.Value.Text(), 10, 64)
		if err != nil || strconv.FormatInt(n, 10) != lit.Value.Text() {
			return nil, false
		}
		t.num = n
	default:
		return nil, false
	}
	return t, true
}

// decide fills out with the conjunct's truth for each row of col; ok is
// false when col's encoding is not the literal's plain type.
func (t *cellTest) decide(col columnar.Column, present bool, out []eval.Truth) bool {
	if !present {
		// Every row lacks the attribute: NULL = anything is UNKNOWN.
		for i := range out {
			out[i] = eval.Unknown
		}
		return true
	}
	switch {
	case t.isStr && col.Encoding() == columnar.EncString:
		arr := col.Array().(*array.String)
		for i := range out {
			if arr.IsNull(i) {
				out[i] = eval.Unknown
				continue
			}
			out[i] = truthOfOrder(t.op, strings.Compare(arr.Value(i), t.str))
		}
		return true
	case !t.isStr && col.Encoding() == columnar.EncInt64:
		arr := col.Array().(*array.Int64)
		for i := range out {
			if arr.IsNull(i) {
				out[i] = eval.Unknown
				continue
			}
			v := arr.Value(i)
			c := 0
			if v < t.num {
				c = -1
			} else if v > t.num {
				c = 1
			}
			out[i] = truthOfOrder(t.op, c)
		}
		return true
	}
	return false
}

// truthOfOrder is comparison op's result for operands that order as c.
func truthOfOrder(op expr.Op, c int) eval.Truth {
	var ok bool
	switch op {
	case expr.OpEq:
		ok = c == 0
	case expr.OpNe:
		ok = c != 0
	case expr.OpLt:
		ok = c < 0
	case expr.OpLe:
		ok = c <= 0
	case expr.OpGt:
		ok = c > 0
	case expr.OpGe:
		ok = c >= 0
	}
	if ok {
		return eval.True
	}
	return eval.False
}
