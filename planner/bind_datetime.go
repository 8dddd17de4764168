package planner

import (
	"regexp"
	"strings"

	"github.com/xwb1989/sqlparser"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/funcs"
	"github.com/ddbsql/ddbsql/planner/value"
)

// statementTime binds now(), current_timestamp and current_date (written
// with or without parentheses) to the statement's time (Options.Now) as a
// literal; without one they stay calls.
func (b *binder) statementTime(name string) (expr.Expr, bool) {
	if b.now.IsZero() {
		return nil, false
	}
	switch name {
	case "now", "current_timestamp":
		return expr.Literal{Value: value.Str(funcs.NowText(b.now))}, true
	case "current_date":
		return expr.Literal{Value: value.Str(funcs.CurrentDateText(b.now))}, true
	}
	return nil, false
}

// unitWord reads a bare word in a unit-of-time position (date_trunc(month,
// x)) as the unit it names, never as an attribute: a word that names no
// unit is an error. A qualified column (t.unit) is read as a column.
func unitWord(fn funcs.Func, i int, e sqlparser.Expr) (expr.Expr, bool, error) {
	c, ok := e.(*sqlparser.ColName)
	if !ok || fn.Param(i) != funcs.TimeUnit || !c.Qualifier.IsEmpty() {
		return nil, false, nil
	}
	name := c.Name.String()
	if _, ok := funcs.ParseTimeUnit(name); !ok {
		err := unknownUnit(fn, name)
		err.Hint += "\na column holding the unit must be qualified with its table (t." + name + ")"
		return nil, false, err
	}
	return expr.Literal{Value: value.Str(strings.ToLower(name))}, true, nil
}

func unknownUnit(fn funcs.Func, name string) *diag.Error {
	return errorf(diag.CodeArguments, "%s(): unknown unit of time '%s'", fn.Name, name).
		Hintf("units: %s (singular or plural, any case)", funcs.TimeUnitNames())
}

// checkLiteralArgs rejects, before anything is read, literal arguments
// that would fail on every row: an unknown unit of time, a malformed
// date_format format, an invalid regular expression or a capture group
// the pattern does not have.
func checkLiteralArgs(fn funcs.Func, args []expr.Expr) error {
	for i, a := range args {
		s, ok := stringLiteral(a)
		if !ok {
			continue
		}
		if fn.Param(i) == funcs.TimeUnit {
			if _, ok := funcs.ParseTimeUnit(s); !ok {
				return unknownUnit(fn, s)
			}
		}
	}
	switch fn.Name {
	case "date_format":
		if s, ok := stringLiteral(args[1]); ok {
			if err := funcs.CheckDateFormat(s); err != nil {
				return errorf(diag.CodeArguments, "date_format(): %v", err).
					Hintf("MySQL's DATE_FORMAT specifiers, e.g. '%%Y-%%m-%%d %%H:%%i:%%s'")
			}
		}
	case "regexp_like", "regexp_extract":
		s, ok := stringLiteral(args[1])
		if !ok {
			break
		}
		re, err := regexp.Compile(s)
		if err != nil {
			return errorf(diag.CodeArguments, "%s(): invalid regular expression: %v", fn.Name, err).
				Hintf("patterns are Go regular expressions (RE2 syntax: no backreferences or lookaround)")
		}
		if len(args) == 3 {
			if l, ok := args[2].(expr.Literal); ok && l.Value.Kind() == value.Number {
				if g, ok := l.Value.Int64(); ok && (g < 0 || g > int64(re.NumSubexp())) {
					return errorf(diag.CodeArguments, "regexp_extract(): the pattern '%s' has no group %d", s, g).
						Hintf("groups are numbered from 1 by their opening parenthesis; 0 is the whole match")
				}
			}
		}
	}
	return nil
}

func stringLiteral(e expr.Expr) (string, bool) {
	if l, ok := e.(expr.Literal); ok && l.Value.Kind() == value.String {
		return l.Value.Text(), true
	}
	return "", false
}
