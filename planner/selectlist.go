package planner

import (
	"strings"

	"github.com/xwb1989/sqlparser"

	"github.com/ddbsql/ddbsql/parser"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/plural"
	"github.com/ddbsql/ddbsql/planner/value"
)

// selectItem is one bound select-list expression and its output name.
type selectItem struct {
	expr  expr.Expr
	name  string
	alias string
}

func (sp *selectPlanner) bindSelectList() error {
	b := sp.b
	b.clause, b.allowAggregates = "the select list", true
	defer func() { b.allowAggregates = false }()
	for k, se := range sp.ast.SelectExprs {
		switch n := se.(type) {
		case *sqlparser.StarExpr:
			if sp.expandStar(n) {
				continue
			}
			sp.star = true
			q := n.TableName.Name.String()
			if q == "" {
				sp.bareStar = true
				continue
			}
			src := b.sourceByAlias(q)
			if src < 0 {
				return errorf(diag.CodeUnknownColumn, "unknown table or alias %s in %s.*", q, q)
			}
			if !containsInt(sp.starSources, src) {
				sp.starSources = append(sp.starSources, src)
			}
		case *sqlparser.AliasedExpr:
			e, err := b.bind(n.Expr)
			if err != nil {
				return err
			}
			it := selectItem{expr: e, alias: n.As.String()}
			it.name = it.alias
			if it.name == "" {
				it.name = sp.columnName(n.Expr, e, k)
			}
			sp.items = append(sp.items, it)
		default:
			return errorf(diag.CodeUnsupported, "%s is not supported in the select list", sqlparser.String(se))
		}
	}
	if sp.star && len(sp.items) > 0 {
		return errorf(diag.CodeUnsupported, "SELECT * cannot be combined with other select expressions; list the attributes you want")
	}
	return nil
}

// columnName names unaliased output column k the way SQL engines do
// (SQLite, MySQL): a column reference, even in parentheses, by its name (a
// document path in full, however quoted or qualified), anything else by
// its text as written, tidied (parser.Select.ItemTexts).
func (sp *selectPlanner) columnName(raw sqlparser.Expr, bound expr.Expr, k int) string {
	if c, ok := bound.(expr.Column); ok {
		inner := raw
		for p, ok := inner.(*sqlparser.ParenExpr); ok; p, ok = inner.(*sqlparser.ParenExpr) {
			inner = p.Expr
		}
		if _, isCol := inner.(*sqlparser.ColName); isCol {
			return c.Path.Plain()
		}
	}
	if k < len(sp.texts) {
		return sp.texts[k]
	}
	text := strings.ReplaceAll(sqlparser.String(raw), parser.SubstringFunc+"(", "substring(")
	for synthetic, p := range sp.b.paths {
		text = strings.ReplaceAll(text, "`"+synthetic+"`", p.Plain())
		text = strings.ReplaceAll(text, synthetic, p.Plain())
	}
	return text
}

// resolveOrdinalOrAlias handles GROUP BY/ORDER BY items that are a select
// ordinal (ORDER BY 2) before normal binding (aliases are handled by the binder).
func (sp *selectPlanner) resolveOrdinal(e sqlparser.Expr, clause string) (expr.Expr, bool, error) {
	lit, ok := e.(*sqlparser.SQLVal)
	if !ok || lit.Type != sqlparser.IntVal {
		return nil, false, nil
	}
	n, err := value.Num(string(lit.Val))
	if err != nil {
		return nil, false, err
	}
	i, _ := n.Int64()
	if sp.star {
		return nil, true, errorf(diag.CodeInvalid, "%s %s: ordinals need an explicit select list, not SELECT *", clause, lit.Val)
	}
	if i < 1 || i > int64(len(sp.items)) {
		return nil, true, errorf(diag.CodeInvalid, "%s %s is out of range: the select list has %s", clause, lit.Val, plural.Of(len(sp.items), "column"))
	}
	return sp.items[i-1].expr, true, nil
}

func (sp *selectPlanner) bindGroupBy() error {
	b := sp.b
	b.clause, b.allowAggregates = "GROUP BY", false
	for _, g := range sp.ast.GroupBy {
		e, isOrdinal, err := sp.resolveOrdinal(g, "GROUP BY")
		if err != nil {
			return err
		}
		if !isOrdinal {
			if e, err = b.bind(g); err != nil {
				return err
			}
		}
		if expr.HasAggregate(e) {
			return errorf(diag.CodeAggregate, "GROUP BY %s: cannot group by an aggregate", sqlparser.String(g))
		}
		sp.groups = append(sp.groups, e)
	}
	return nil
}

func (sp *selectPlanner) bindOrderBy() error {
	b := sp.b
	b.clause, b.allowAggregates = "ORDER BY", true
	defer func() { b.allowAggregates = false }()
	for _, o := range sp.ast.OrderBy {
		e, isOrdinal, err := sp.resolveOrdinal(o.Expr, "ORDER BY")
		if err != nil {
			return err
		}
		if !isOrdinal {
			if e, err = b.bind(o.Expr); err != nil {
				return err
			}
		}
		sp.order = append(sp.order, SortKey{Expr: e, Desc: o.Direction == sqlparser.DescScr})
	}
	return nil
}

func (sp *selectPlanner) bindLimit() error {
	l := sp.ast.Limit
	if l == nil {
		return nil
	}
	count, err := limitNumber(l.Rowcount, "LIMIT")
	if err != nil {
		return err
	}
	sp.count = count
	if l.Offset != nil {
		if sp.offset, err = limitNumber(l.Offset, "OFFSET"); err != nil {
			return err
		}
	}
	return nil
}

func limitNumber(e sqlparser.Expr, what string) (int64, error) {
	lit, ok := e.(*sqlparser.SQLVal)
	if !ok || lit.Type != sqlparser.IntVal {
		return 0, errorf(diag.CodeLimit, "%s must be a non-negative integer, got %s", what, sqlparser.String(e))
	}
	n, err := value.Num(string(lit.Val))
	if err != nil {
		return 0, errorf(diag.CodeLimit, "%s %s is not a number", what, lit.Val)
	}
	i, ok := n.Int64()
	if !ok || i < 0 {
		return 0, errorf(diag.CodeLimit, "%s must be a non-negative integer that fits 64 bits, got %s", what, lit.Val)
	}
	return i, nil
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
