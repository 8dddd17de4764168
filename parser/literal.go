package parser

import "github.com/xwb1989/sqlparser"

// NumberText returns the exact text of a numeric literal, with its sign.
// sqlparser folds a minus into integer literals (IntVal "-5") but leaves
// decimals as UnaryExpr{"-", FloatVal "0.5"}; this folds both the same way so
// the planner never needs float64 to read a number. It reports false for
// anything that is not a (signed) decimal literal.
func NumberText(e sqlparser.Expr) (string, bool) {
	switch e := e.(type) {
	case *sqlparser.SQLVal:
		if e.Type == sqlparser.IntVal || e.Type == sqlparser.FloatVal {
			return string(e.Val), true
		}
	case *sqlparser.UnaryExpr:
		inner, ok := NumberText(e.Expr)
		if !ok {
			return "", false
		}
		switch e.Operator {
		case sqlparser.UPlusStr:
			return inner, true
		case sqlparser.UMinusStr:
			if len(inner) > 0 && inner[0] == '-' {
				return inner[1:], true
			}
			return "-" + inner, true
		}
	}
	return "", false
}
