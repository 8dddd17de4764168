package expr

import (
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/ddbsql/ddbsql/planner/value"
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
	case value.Binary:
		return "X'" + strings.ToUpper(hex.EncodeToString(v.Bytes())) + "'"
	}
	return v.JSON()
}

func (r Ref) String() string {
	if r.Name != "" {
		return r.Name
	}
	return "$" + strconv.Itoa(r.Index)
}

func (b Binary) String() string    { return render(b) }
func (u Unary) String() string     { return render(u) }
func (i In) String() string        { return render(i) }
func (b Between) String() string   { return render(b) }
func (l Like) String() string      { return render(l) }
func (n IsNull) String() string    { return render(n) }
func (f Func) String() string      { return render(f) }
func (c Case) String() string      { return render(c) }
func (c Cast) String() string      { return render(c) }
func (a Aggregate) String() string { return render(a) }

// render prints an expression into one buffer: concatenating the strings of
// the sub-expressions at every level would copy a chain of n operators
// about n²/2 times.
func render(e Expr) string {
	var sb strings.Builder
	write(&sb, e)
	return sb.String()
}

func write(sb *strings.Builder, e Expr) {
	switch t := e.(type) {
	case Binary:
		writeOperand(sb, t.L, t.Op, false)
		sb.WriteString(" " + t.Op.String() + " ")
		writeOperand(sb, t.R, t.Op, true)
	case Unary:
		if t.Op == OpNot {
			sb.WriteString("NOT ")
		} else {
			sb.WriteString("-")
		}
		if _, ok := t.X.(Binary); ok {
			writeParenthesised(sb, t.X)
		} else {
			write(sb, t.X)
		}
	case In:
		write(sb, t.X)
		sb.WriteString(not(t.Not) + " IN (")
		writeList(sb, t.List)
		sb.WriteString(")")
	case Between:
		write(sb, t.X)
		sb.WriteString(not(t.Not) + " BETWEEN ")
		write(sb, t.Lo)
		sb.WriteString(" AND ")
		write(sb, t.Hi)
	case Like:
		write(sb, t.X)
		sb.WriteString(not(t.Not) + " LIKE ")
		write(sb, t.Pattern)
	case IsNull:
		write(sb, t.X)
		if t.Not {
			sb.WriteString(" IS NOT NULL")
		} else {
			sb.WriteString(" IS NULL")
		}
	case Func:
		sb.WriteString(t.Name + "(")
		writeList(sb, t.Args)
		sb.WriteString(")")
	case Case:
		sb.WriteString("CASE")
		if t.Operand != nil {
			sb.WriteString(" ")
			write(sb, t.Operand)
		}
		for _, w := range t.Whens {
			sb.WriteString(" WHEN ")
			write(sb, w.Cond)
			sb.WriteString(" THEN ")
			write(sb, w.Result)
		}
		if t.Else != nil {
			sb.WriteString(" ELSE ")
			write(sb, t.Else)
		}
		sb.WriteString(" END")
	case Cast:
		to := "CHAR"
		if t.To == value.Number {
			to = "DECIMAL"
		}
		sb.WriteString("CAST(")
		write(sb, t.X)
		sb.WriteString(" AS " + to + ")")
	case Aggregate:
		sb.WriteString(strings.ToUpper(t.Func) + "(")
		if t.Distinct {
			sb.WriteString("DISTINCT ")
		}
		if t.Arg != nil {
			write(sb, t.Arg)
		} else {
			sb.WriteString("*")
		}
		sb.WriteString(")")
	default: // leaves: Column, Literal, Ref
		sb.WriteString(e.String())
	}
}

func writeList(sb *strings.Builder, list []Expr) {
	for n, e := range list {
		if n > 0 {
			sb.WriteString(", ")
		}
		write(sb, e)
	}
}

func writeParenthesised(sb *strings.Builder, e Expr) {
	sb.WriteString("(")
	write(sb, e)
	sb.WriteString(")")
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

// writeOperand prints a child of a binary operator, parenthesised when it
// binds more loosely than its parent (or equally, on the right of a
// non-associative operator).
func writeOperand(sb *strings.Builder, e Expr, parent Op, right bool) {
	b, ok := e.(Binary)
	if !ok {
		if u, isUnary := e.(Unary); isUnary && u.Op == OpNot && precedence(parent) > 3 {
			writeParenthesised(sb, e)
			return
		}
		write(sb, e)
		return
	}
	pc, cc := precedence(parent), precedence(b.Op)
	if cc < pc || (cc == pc && right && parent != OpAnd && parent != OpOr && parent != OpAdd && parent != OpMul) {
		writeParenthesised(sb, b)
		return
	}
	write(sb, b)
}

func not(n bool) string {
	if n {
		return " NOT"
	}
	return ""
}
