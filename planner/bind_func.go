package planner

import (
	"strings"

	"github.com/xwb1989/sqlparser"

	"github.com/ddbsql/ddbsql/parser"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/funcs"
	"github.com/ddbsql/ddbsql/planner/value"
)

func (b *binder) function(n *sqlparser.FuncExpr) (expr.Expr, error) {
	if w, ok := b.windows[n.Name.String()]; ok && n.Qualifier.IsEmpty() {
		return b.window(n, w)
	}
	name := strings.ToLower(n.Name.String())
	if name == parser.SubstringFunc {
		name = "substring"
	}
	if !n.Qualifier.IsEmpty() {
		return nil, errorf(diag.CodeUnknownFunction, "unknown function %s.%s", n.Qualifier.String(), n.Name.String())
	}
	fn, known := funcs.Lookup(name)
	if known && fn.Aggregate {
		return b.aggregate(name, n)
	}
	if n.Distinct {
		return nil, errorf(diag.CodeInvalid, "DISTINCT is only allowed inside COUNT, SUM, AVG, MIN and MAX, not in %s()", name)
	}
	if !known {
		return nil, errorf(diag.CodeUnknownFunction, "unknown function %s()", n.Name.String()).
			Hintf("functions: %s", strings.Join(funcs.ScalarNames(), ", "))
	}
	if len(n.Exprs) == 0 {
		if t, ok := b.statementTime(name); ok {
			return t, nil
		}
	}
	args := make([]expr.Expr, 0, len(n.Exprs))
	for i, se := range n.Exprs {
		ae, ok := se.(*sqlparser.AliasedExpr)
		if !ok {
			return nil, errorf(diag.CodeArguments, "%s() does not take *", name)
		}
		if unit, ok, err := unitWord(fn, i, ae.Expr); err != nil {
			return nil, err
		} else if ok {
			args = append(args, unit)
			continue
		}
		arg, err := b.bind(ae.Expr)
		if err != nil {
			return nil, err
		}
		args = append(args, arg)
	}
	if len(args) < fn.MinArgs || len(args) > fn.MaxArgs {
		return nil, errorf(diag.CodeArguments, "%s() takes %s, got %d", name, fn.ArityText(), len(args))
	}
	if err := checkLiteralArgs(fn, args); err != nil {
		return nil, err
	}
	return expr.Func{Name: name, Args: args}, nil
}

func (b *binder) aggregate(name string, n *sqlparser.FuncExpr) (expr.Expr, error) {
	if !b.allowAggregates {
		err := errorf(diag.CodeAggregate, "aggregate %s() is not allowed in %s", strings.ToUpper(name), b.clauseName())
		switch b.clause {
		case "WHERE", "ON":
			// WHERE and ON filter rows; a condition on an aggregate
			// filters groups.
			err = err.Hintf("filter groups with HAVING instead")
		case "GROUP BY":
			err = err.Hintf("group by columns or expressions of them; aggregates are computed per group")
		}
		return nil, err
	}
	if len(n.Exprs) != 1 {
		return nil, errorf(diag.CodeArguments, "%s() takes 1 argument, got %d", strings.ToUpper(name), len(n.Exprs))
	}
	if _, star := n.Exprs[0].(*sqlparser.StarExpr); star {
		if name == "count" && n.Distinct {
			return nil, errorf(diag.CodeArguments, "COUNT(DISTINCT *) is not valid; write COUNT(*) for rows or COUNT(DISTINCT column) for distinct values")
		}
		if name != "count" {
			return nil, errorf(diag.CodeArguments, "%s(*) is not valid; only COUNT(*) takes *", strings.ToUpper(name))
		}
		return expr.Aggregate{Func: name}, nil
	}
	ae, ok := n.Exprs[0].(*sqlparser.AliasedExpr)
	if !ok {
		return nil, errorf(diag.CodeArguments, "invalid argument to %s()", strings.ToUpper(name))
	}
	// Aggregates cannot nest.
	inner := *b
	inner.allowAggregates = false
	inner.clause = "an aggregate's argument"
	arg, err := inner.bind(ae.Expr)
	if err != nil {
		return nil, err
	}
	return expr.Aggregate{Func: name, Arg: arg, Distinct: n.Distinct}, nil
}

func (b *binder) substr(n *sqlparser.SubstrExpr) (expr.Expr, error) {
	col, err := b.column(n.Name)
	if err != nil {
		return nil, err
	}
	args := []expr.Expr{col}
	for _, e := range []sqlparser.Expr{n.From, n.To} {
		if e == nil {
			continue
		}
		a, err := b.bind(e)
		if err != nil {
			return nil, err
		}
		args = append(args, a)
	}
	return expr.Func{Name: "substring", Args: args}, nil
}

func (b *binder) caseExpr(n *sqlparser.CaseExpr) (expr.Expr, error) {
	var out expr.Case
	var err error
	if n.Expr != nil {
		if out.Operand, err = b.bind(n.Expr); err != nil {
			return nil, err
		}
	}
	for _, w := range n.Whens {
		cond, err := b.bind(w.Cond)
		if err != nil {
			return nil, err
		}
		res, err := b.bind(w.Val)
		if err != nil {
			return nil, err
		}
		out.Whens = append(out.Whens, expr.When{Cond: cond, Result: res})
	}
	if n.Else != nil {
		if out.Else, err = b.bind(n.Else); err != nil {
			return nil, err
		}
	}
	return out, nil
}

var castTypes = map[string]value.Kind{
	"decimal": value.Number, "signed": value.Number, "unsigned": value.Number,
	"integer": value.Number, "int": value.Number, "number": value.Number,
	"numeric": value.Number, "double": value.Number, "float": value.Number, "real": value.Number,
	"char": value.String, "varchar": value.String, "string": value.String,
	"text": value.String, "nchar": value.String,
}

func (b *binder) cast(n *sqlparser.ConvertExpr) (expr.Expr, error) {
	x, err := b.bind(n.Expr)
	if err != nil {
		return nil, err
	}
	typ := strings.ToLower(strings.Fields(n.Type.Type + " x")[0])
	to, ok := castTypes[typ]
	if !ok {
		return nil, errorf(diag.CodeUnsupported, "CAST to %s is not supported; cast to DECIMAL (a DynamoDB number) or CHAR (a string)", strings.ToUpper(n.Type.Type))
	}
	return expr.Cast{X: x, To: to}, nil
}
