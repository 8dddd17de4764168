package eval

import (
	"strings"

	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

func comparison(b expr.Binary, row Row) (Truth, error) {
	l, err := operand(b.L, row)
	if err != nil {
		return Unknown, err
	}
	r, err := operand(b.R, row)
	if err != nil {
		return Unknown, err
	}
	return compare(b.Op, l, r), nil
}

// operand short-cuts the two leaves that dominate predicates (a top-level
// attribute and a literal) before the general Eval.
func operand(e expr.Expr, row Row) (value.Value, error) {
	switch t := e.(type) {
	case expr.Column:
		if len(t.Path) == 1 {
			return row.Attr(t.ID), nil
		}
	case expr.Literal:
		return t.Value, nil
	}
	return Eval(e, row)
}

// compare applies a comparison operator with DynamoDB's typing: NULL
// operands give Unknown; values of different types are unequal and
// unordered; S and B order byte-wise, N numerically; BOOL, sets, lists and
// maps only support = and <>.
func compare(op expr.Op, l, r value.Value) Truth {
	if l.IsNull() || r.IsNull() {
		return Unknown
	}
	if l.Kind() != r.Kind() {
		return truthOf(op == expr.OpNe)
	}
	var c int
	switch l.Kind() {
	case value.String, value.Binary:
		if op == expr.OpEq || op == expr.OpNe {
			return truthOf((l.Text() == r.Text()) == (op == expr.OpEq))
		}
		c = strings.Compare(l.Text(), r.Text())
	case value.Number:
		c = compareNumbers(l, r)
	default:
		switch op {
		case expr.OpEq:
			return truthOf(value.Equal(l, r))
		case expr.OpNe:
			return truthOf(!value.Equal(l, r))
		}
		return False
	}
	switch op {
	case expr.OpEq:
		return truthOf(c == 0)
	case expr.OpNe:
		return truthOf(c != 0)
	case expr.OpLt:
		return truthOf(c < 0)
	case expr.OpLe:
		return truthOf(c <= 0)
	case expr.OpGt:
		return truthOf(c > 0)
	case expr.OpGe:
		return truthOf(c >= 0)
	}
	return False
}

// equal is DynamoDB equality under SQL's NULL rule.
func equal(l, r value.Value) Truth { return compare(expr.OpEq, l, r) }

// in is SQL IN with DynamoDB equality: True on a match; otherwise Unknown if
// X or any list member is NULL; otherwise False.
func in(n expr.In, row Row) (Truth, error) {
	x, err := operand(n.X, row)
	if err != nil {
		return Unknown, err
	}
	res := False
	if x.IsNull() && len(n.List) > 0 {
		res = Unknown
	} else {
		for _, e := range n.List {
			v, err := operand(e, row)
			if err != nil {
				return Unknown, err
			}
			t := equal(x, v)
			if t == True {
				res = True
				break
			}
			if t == Unknown {
				res = Unknown
			}
		}
	}
	if n.Not {
		return not(res), nil
	}
	return res, nil
}

// between is X >= Lo AND X <= Hi under three-valued logic.
func between(b expr.Between, row Row) (Truth, error) {
	x, err := operand(b.X, row)
	if err != nil {
		return Unknown, err
	}
	lo, err := operand(b.Lo, row)
	if err != nil {
		return Unknown, err
	}
	hi, err := operand(b.Hi, row)
	if err != nil {
		return Unknown, err
	}
	res := and3(compare(expr.OpGe, x, lo), compare(expr.OpLe, x, hi))
	if b.Not {
		return not(res), nil
	}
	return res, nil
}

// compareNumbers orders two N values exactly, without allocating when both
// are in DynamoDB's canonical text form.
func compareNumbers(a, b value.Value) int {
	if c, ok := compareCanonical(a.Text(), b.Text()); ok {
		return c
	}
	return value.CompareNumbers(a, b)
}

// compareCanonical compares canonical decimal texts ("-12.5", "0", "100",
// "0.003"); ok is false when either text is not canonical.
func compareCanonical(a, b string) (int, bool) {
	an, ai, af, ok := splitCanonical(a)
	if !ok {
		return 0, false
	}
	bn, bi, bf, ok := splitCanonical(b)
	if !ok {
		return 0, false
	}
	if an != bn {
		if an {
			return -1, true
		}
		return 1, true
	}
	c := compareMagnitude(ai, af, bi, bf)
	if an {
		c = -c
	}
	return c, true
}

func compareMagnitude(ai, af, bi, bf string) int {
	switch {
	case len(ai) < len(bi):
		return -1
	case len(ai) > len(bi):
		return 1
	}
	if c := strings.Compare(ai, bi); c != 0 {
		return c
	}
	// No trailing zeros: the fractions order as strings.
	return strings.Compare(af, bf)
}

// splitCanonical splits canonical number text into sign, integer digits and
// fraction digits: integer part "0" or without leading zeros, fraction
// without trailing zeros, no exponent, and no "-0".
func splitCanonical(s string) (neg bool, ip, fp string, ok bool) {
	if s != "" && s[0] == '-' {
		neg, s = true, s[1:]
	}
	dot := len(s)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '.' {
			if dot != len(s) {
				return false, "", "", false
			}
			dot = i
			continue
		}
		if c < '0' || c > '9' {
			return false, "", "", false
		}
	}
	ip = s[:dot]
	if dot < len(s) {
		fp = s[dot+1:]
		if fp == "" || fp[len(fp)-1] == '0' {
			return false, "", "", false
		}
	}
	if ip == "" || (len(ip) > 1 && ip[0] == '0') {
		return false, "", "", false
	}
	if neg && ip == "0" && fp == "" {
		return false, "", "", false
	}
	return neg, ip, fp, true
}
