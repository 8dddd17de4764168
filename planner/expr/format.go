package expr

import (
	"strconv"
	"strings"

	"github.com/ddbsql/ddbsql/exec/value"
)

func (c Column) String() string {
	if c.Qualifier != "" {
		return value.QuoteName(c.Qualifier) + "." + c.Path.String()
	}
	return c.Path.String()
}

func (l Literal) String() string { return LiteralSQL(l.Value) }

// LiteralSQL renders a value as a SQL literal.
func LiteralSQL(v value.Value) string {
	switch v.Kind() {
	case value.Missing, value.Null:
		return "NULL"
	case value.String:
		return "'" + strings.ReplaceAll(v.Text(), "'", "''") + "'"
	case value.Number:
		return v.Text()
	case value.Bool:
		if v.Bool() {
			return "TRUE"
		}
		return "FALSE"
	}
	return v.JSON()
}

func (r Ref) String() string {
	if r.Name != "" {
		return r.Name
	}
	return "$" + strconv.Itoa(r.Index)
}

func (b Binary) String() string {
	return operand(b.L, b.Op, false) + " " + b.Op.String() + " " + operand(b.R, b.Op, true)
}

// precedence orders operators for printing with the fewest parentheses.
func precedence(op Op) int {
	switch op {
	case OpOr:
		return 1
	case OpAnd:
		return 2
	case OpEq, OpNe, OpLt, OpLe, OpGt, OpGe:
		return 4
	case OpAdd, OpSub:
		return 5
	}
	return 6 // * / % DIV
}

// operand prints a child of a binary operator, parenthesised when it binds
// more loosely than its parent (or equally, on the right of a
// non-associative operator).
func operand(e Expr, parent Op, right bool) string {
	b, ok := e.(Binary)
	if !ok {
		if u, isUnary := e.(Unary); isUnary && u.Op == OpNot && precedence(parent) > 3 {
			return "(" + e.String() + ")"
		}
		return e.String()
	}
	pc, cc := precedence(parent), precedence(b.Op)
	if cc < pc || (cc == pc && right && parent != OpAnd && parent != OpOr && parent != OpAdd && parent != OpMul) {
		return "(" + b.String() + ")"
	}
	return b.String()
}

func (u Unary) String() string {
	inner := u.X.String()
	if _, ok := u.X.(Binary); ok {
		inner = "(" + inner + ")"
	}
	if u.Op == OpNot {
		return "NOT " + inner
	}
	return "-" + inner
}

func (i In) String() string {
	parts := make([]string, len(i.List))
	for n, e := range i.List {
		parts[n] = e.String()
	}
	return i.X.String() + not(i.Not) + " IN (" + strings.Join(parts, ", ") + ")"
}

func (b Between) String() string {
	return b.X.String() + not(b.Not) + " BETWEEN " + b.Lo.String() + " AND " + b.Hi.String()
}

func (l Like) String() string {
	return l.X.String() + not(l.Not) + " LIKE " + l.Pattern.String()
}

func (n IsNull) String() string {
	if n.Not {
		return n.X.String() + " IS NOT NULL"
	}
	return n.X.String() + " IS NULL"
}

func (f Func) String() string {
	parts := make([]string, len(f.Args))
	for n, e := range f.Args {
		parts[n] = e.String()
	}
	return f.Name + "(" + strings.Join(parts, ", ") + ")"
}

func (c Case) String() string {
	var sb strings.Builder
	sb.WriteString("CASE")
	if c.Operand != nil {
		sb.WriteString(" " + c.Operand.String())
	}
	for _, w := range c.Whens {
		sb.WriteString(" WHEN " + w.Cond.String() + " THEN " + w.Result.String())
	}
	if c.Else != nil {
		sb.WriteString(" ELSE " + c.Else.String())
	}
	sb.WriteString(" END")
	return sb.String()
}

func (c Cast) String() string {
	to := "CHAR"
	if c.To == value.Number {
		to = "DECIMAL"
	}
	return "CAST(" + c.X.String() + " AS " + to + ")"
}

func (a Aggregate) String() string {
	arg := "*"
	if a.Arg != nil {
		arg = a.Arg.String()
	}
	if a.Distinct {
		arg = "DISTINCT " + arg
	}
	return strings.ToUpper(a.Func) + "(" + arg + ")"
}

func not(n bool) string {
	if n {
		return " NOT"
	}
	return ""
}
