package planner

import (
	"strings"
	"time"

	"github.com/xwb1989/sqlparser"

	"github.com/ddbsql/ddbsql/parser"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// source is one FROM item as the binder sees it.
type source struct {
	alias string // alias, or the table name when there is none
	table *TableDef
	// unnest names an UNNEST's columns (its element, and its position
	// WITH ORDINALITY); nil for a table.
	unnest []string
	// derived is a named query (derived.go); columns are its columns,
	// nil when it is a SELECT * (its items' attributes, unknown here).
	derived bool
	columns []string
}

// binder resolves sqlparser expressions into expr trees.
type binder struct {
	sources []source
	paths   map[string]value.Path // synthetic names the parser used for document paths
	// selectAliases maps select-list aliases to their bound expressions, for
	// ORDER BY, GROUP BY and HAVING (nil while binding WHERE: SQL does not
	// allow aliases there).
	selectAliases map[string]expr.Expr
	// using maps a USING column to the FROM item whose value it stands for
	// when written unqualified (the left side: SQL's coalesced column).
	using map[string]int
	// columns numbers the statement's columns (columns.go); shared by the
	// copies the binder makes of itself for nested clauses.
	columns *columnIDs
	// subq plans the subqueries of the statement (subquery_bind.go).
	subq *subqueries
	// allowAggregates is true where aggregates may appear.
	allowAggregates bool
	clause          string // for error messages: "WHERE", "GROUP BY", …
	// now is the statement's time, for now() and current_date.
	now time.Time
	// windows are the OVER clauses of the statement's window calls, by
	// the synthetic name the parser gave each call (window_bind.go);
	// inWindow is set while binding one's arguments.
	windows  map[string]*parser.Window
	inWindow bool
}

func (b *binder) bind(e sqlparser.Expr) (expr.Expr, error) {
	switch n := e.(type) {
	case *sqlparser.ParenExpr:
		return b.bind(n.Expr)
	case *sqlparser.AndExpr:
		return b.binary(expr.OpAnd, n.Left, n.Right)
	case *sqlparser.OrExpr:
		return b.binary(expr.OpOr, n.Left, n.Right)
	case *sqlparser.NotExpr:
		x, err := b.bind(n.Expr)
		if err != nil {
			return nil, err
		}
		return expr.Unary{Op: expr.OpNot, X: x}, nil
	case *sqlparser.ComparisonExpr:
		return b.comparison(n)
	case *sqlparser.RangeCond:
		return b.between(n)
	case *sqlparser.IsExpr:
		return b.is(n)
	case *sqlparser.ColName:
		return b.column(n)
	case *sqlparser.SQLVal:
		return b.literal(n)
	case *sqlparser.NullVal:
		return expr.Literal{Value: value.NullValue()}, nil
	case sqlparser.BoolVal:
		return expr.Literal{Value: value.BoolOf(bool(n))}, nil
	case *sqlparser.BinaryExpr:
		return b.arithmetic(n)
	case *sqlparser.UnaryExpr:
		return b.unary(n)
	case *sqlparser.FuncExpr:
		return b.function(n)
	case *sqlparser.SubstrExpr:
		return b.substr(n)
	case *sqlparser.CaseExpr:
		return b.caseExpr(n)
	case *sqlparser.ConvertExpr:
		return b.cast(n)
	case *sqlparser.Subquery:
		return b.subquery(n, expr.SubqueryScalar, nil, false)
	case *sqlparser.ExistsExpr:
		return b.subquery(n.Subquery, expr.SubqueryExists, nil, false)
	case *sqlparser.GroupConcatExpr:
		return nil, errorf(diag.CodeUnsupported, "GROUP_CONCAT is not supported")
	case sqlparser.ValTuple:
		return nil, errorf(diag.CodeUnsupported, "a row value %s is only allowed after IN", sqlparser.String(n))
	}
	return nil, errorf(diag.CodeUnsupported, "%s is not supported in %s", sqlparser.String(e), b.clauseName())
}

func (b *binder) clauseName() string {
	if b.clause == "" {
		return "this position"
	}
	return b.clause
}

func (b *binder) binary(op expr.Op, l, r sqlparser.Expr) (expr.Expr, error) {
	left, err := b.bind(l)
	if err != nil {
		return nil, err
	}
	right, err := b.bind(r)
	if err != nil {
		return nil, err
	}
	return expr.Binary{Op: op, L: left, R: right}, nil
}

var comparisonOps = map[string]expr.Op{
	sqlparser.EqualStr:        expr.OpEq,
	sqlparser.NotEqualStr:     expr.OpNe,
	"<>":                      expr.OpNe,
	sqlparser.LessThanStr:     expr.OpLt,
	sqlparser.LessEqualStr:    expr.OpLe,
	sqlparser.GreaterThanStr:  expr.OpGt,
	sqlparser.GreaterEqualStr: expr.OpGe,
}

func (b *binder) comparison(n *sqlparser.ComparisonExpr) (expr.Expr, error) {
	if op, ok := comparisonOps[n.Operator]; ok {
		return b.binary(op, n.Left, n.Right)
	}
	switch n.Operator {
	case sqlparser.InStr, sqlparser.NotInStr:
		if sq, ok := n.Right.(*sqlparser.Subquery); ok {
			return b.inSubquery(n, sq)
		}
		x, err := b.bind(n.Left)
		if err != nil {
			return nil, err
		}
		tuple, ok := n.Right.(sqlparser.ValTuple)
		if !ok {
			return nil, errorf(diag.CodeUnsupported, "IN needs a list of values, e.g. x IN ('a', 'b'); subqueries are not supported")
		}
		list := make([]expr.Expr, len(tuple))
		for i, item := range tuple {
			if list[i], err = b.bind(item); err != nil {
				return nil, err
			}
		}
		return expr.In{X: x, List: list, Not: n.Operator == sqlparser.NotInStr}, nil
	case sqlparser.LikeStr, sqlparser.NotLikeStr:
		if n.Escape != nil {
			return nil, errorf(diag.CodeUnsupported, "LIKE … ESCAPE is not supported; escape %% and _ with a backslash")
		}
		x, err := b.bind(n.Left)
		if err != nil {
			return nil, err
		}
		pattern, err := b.bind(n.Right)
		if err != nil {
			return nil, err
		}
		return expr.Like{X: x, Pattern: pattern, Not: n.Operator == sqlparser.NotLikeStr}, nil
	case sqlparser.NullSafeEqualStr:
		return nil, errorf(diag.CodeUnsupported, "the <=> operator is not supported; use IS NULL or =")
	}
	return nil, errorf(diag.CodeUnsupported, "the %s operator is not supported", strings.ToUpper(n.Operator))
}

func (b *binder) between(n *sqlparser.RangeCond) (expr.Expr, error) {
	x, err := b.bind(n.Left)
	if err != nil {
		return nil, err
	}
	lo, err := b.bind(n.From)
	if err != nil {
		return nil, err
	}
	hi, err := b.bind(n.To)
	if err != nil {
		return nil, err
	}
	return expr.Between{X: x, Lo: lo, Hi: hi, Not: n.Operator == sqlparser.NotBetweenStr}, nil
}

func (b *binder) is(n *sqlparser.IsExpr) (expr.Expr, error) {
	x, err := b.bind(n.Expr)
	if err != nil {
		return nil, err
	}
	switch n.Operator {
	case sqlparser.IsNullStr:
		return expr.IsNull{X: x}, nil
	case sqlparser.IsNotNullStr:
		return expr.IsNull{X: x, Not: true}, nil
	case sqlparser.IsTrueStr:
		return expr.Binary{Op: expr.OpEq, L: x, R: expr.Literal{Value: value.BoolOf(true)}}, nil
	case sqlparser.IsFalseStr:
		return expr.Binary{Op: expr.OpEq, L: x, R: expr.Literal{Value: value.BoolOf(false)}}, nil
	}
	return nil, errorf(diag.CodeUnsupported, "%s is not supported", strings.ToUpper(n.Operator))
}

var arithmeticOps = map[string]expr.Op{
	sqlparser.PlusStr:   expr.OpAdd,
	sqlparser.MinusStr:  expr.OpSub,
	sqlparser.MultStr:   expr.OpMul,
	sqlparser.DivStr:    expr.OpDiv,
	sqlparser.ModStr:    expr.OpMod,
	sqlparser.IntDivStr: expr.OpIntDiv,
}

func (b *binder) arithmetic(n *sqlparser.BinaryExpr) (expr.Expr, error) {
	if n.Operator == sqlparser.BitOrStr {
		// a || b (the parser hands || over as |; a | written alone is
		// rejected there): string concatenation, CONCAT(a, b).
		l, err := b.bind(n.Left)
		if err != nil {
			return nil, err
		}
		r, err := b.bind(n.Right)
		if err != nil {
			return nil, err
		}
		return expr.Func{Name: "concat", Args: []expr.Expr{l, r}}, nil
	}
	op, ok := arithmeticOps[n.Operator]
	if !ok {
		return nil, errorf(diag.CodeUnsupported, "the %s operator is not supported", n.Operator)
	}
	return b.binary(op, n.Left, n.Right)
}

func (b *binder) unary(n *sqlparser.UnaryExpr) (expr.Expr, error) {
	x, err := b.bind(n.Expr)
	if err != nil {
		return nil, err
	}
	switch n.Operator {
	case sqlparser.UPlusStr:
		return x, nil
	case sqlparser.UMinusStr:
		// Fold negative number literals so key conditions see a constant.
		if lit, ok := x.(expr.Literal); ok && lit.Value.Kind() == value.Number {
			neg, err := value.Num("-" + lit.Value.Text())
			if err == nil {
				return expr.Literal{Value: neg}, nil
			}
		}
		return expr.Unary{Op: expr.OpNeg, X: x}, nil
	case sqlparser.BangStr:
		return expr.Unary{Op: expr.OpNot, X: x}, nil
	}
	return nil, errorf(diag.CodeUnsupported, "the unary %s operator is not supported", strings.TrimSpace(n.Operator))
}

func (b *binder) literal(n *sqlparser.SQLVal) (expr.Expr, error) {
	switch n.Type {
	case sqlparser.StrVal:
		return expr.Literal{Value: value.Str(string(n.Val))}, nil
	case sqlparser.IntVal, sqlparser.FloatVal:
		v, err := value.Num(string(n.Val))
		if err != nil {
			return nil, errorf(diag.CodeInvalid, "number literal %s: %v", n.Val, err)
		}
		return expr.Literal{Value: v}, nil
	case sqlparser.HexVal:
		raw, err := n.HexDecode()
		if err != nil {
			return nil, errorf(diag.CodeInvalid, "binary literal X'%s': %v", n.Val, err)
		}
		return expr.Literal{Value: value.Bin(raw)}, nil
	case sqlparser.ValArg:
		return nil, errorf(diag.CodeUnsupported, "query parameters (%s) are not supported; write the value", n.Val)
	}
	return nil, errorf(diag.CodeUnsupported, "literal %s is not supported", sqlparser.String(n))
}

// column resolves a column reference: a select alias (where allowed), a
// document path the parser rewrote, alias.attribute, or map.member.
func (b *binder) column(n *sqlparser.ColName) (expr.Expr, error) {
	name := n.Name.String()
	qualifier := n.Qualifier.Name.String()
	if path, ok := b.paths[name]; ok && qualifier == "" {
		return b.resolvePath(path)
	}
	if qualifier == "" {
		if b.selectAliases != nil {
			if e, ok := b.selectAliases[name]; ok {
				return e, nil
			}
		}
		return b.resolvePath(value.Path{{Name: name}})
	}
	if n.Qualifier.Qualifier.String() != "" {
		return b.resolvePath(value.Path{{Name: n.Qualifier.Qualifier.String()}, {Name: qualifier}, {Name: name}})
	}
	return b.resolvePath(value.Path{{Name: qualifier}, {Name: name}})
}

// resolvePath decides which FROM item a path belongs to. A first element
// that names a FROM alias is a qualifier; otherwise the path is a document
// path of the only table (with several tables, a bare name must be resolved
// by the join planner's rules).
func (b *binder) resolvePath(p value.Path) (expr.Expr, error) {
	if len(b.sources) == 0 {
		return nil, errorf(diag.CodeUnknownColumn, "unknown column %s: this SELECT has no FROM, so there are no attributes to read", p)
	}
	if len(p) > 1 && !p[1].IsIndex {
		if i := b.sourceByAlias(p[0].Name); i >= 0 {
			if b.sources[i].unnest != nil {
				return b.unnestColumn(i, p[1:])
			}
			return b.derivedCol(i, p[1:])
		}
	}
	if len(b.sources) == 1 {
		return b.derivedCol(0, p)
	}
	if src, ok := b.resolveUnnest(p); ok {
		return b.derivedCol(src, p)
	}
	return b.resolveAmbiguous(p)
}

// col builds a column reference, qualified when several tables are in scope.
func (b *binder) col(src int, p value.Path) expr.Column {
	c := expr.Column{Source: src, Path: p, ID: b.columnID(src, p[0].Name)}
	if len(b.sources) > 1 {
		c.Qualifier = b.sources[src].alias
	}
	return c
}

func (b *binder) sourceByAlias(name string) int {
	for i, s := range b.sources {
		if s.alias == name {
			return i
		}
	}
	for i, s := range b.sources {
		if strings.EqualFold(s.alias, name) {
			return i
		}
	}
	return -1
}

// resolveAmbiguous handles an unqualified name with several FROM items: it
// belongs to the one table that has it as a key attribute; otherwise the user
// must qualify it, since items are schemaless.
func (b *binder) resolveAmbiguous(p value.Path) (expr.Expr, error) {
	if src, ok := b.using[p[0].Name]; ok {
		return b.col(src, p), nil
	}
	if len(p) > 1 && !p[1].IsIndex {
		return nil, errorf(diag.CodeUnknownColumn, "%s is not a table or alias in FROM (%s)", value.QuoteName(p[0].Name), b.describeSources()).
			Hintf("if %s is a map attribute, qualify it with its table: %s.%s", p[0].Name, b.sources[0].alias, p)
	}
	var owners []int
	for i, s := range b.sources {
		if s.table.IsKeyAttr(p[0].Name) || s.hasColumn(p[0].Name) {
			owners = append(owners, i)
		}
	}
	if len(owners) == 1 {
		return b.derivedCol(owners[0], p)
	}
	if len(owners) == 0 {
		// A named query or UNNEST knows its columns: one that lacks the
		// name cannot hold it, so a single schemaless table left is the
		// only place it can come from.
		if only, ok := b.onlySchemaless(); ok {
			return b.col(only, p), nil
		}
	}
	aliases := make([]string, len(b.sources))
	for i, s := range b.sources {
		aliases[i] = s.alias
	}
	if len(owners) > 1 {
		names := make([]string, len(owners))
		for i, o := range owners {
			names[i] = b.sourceName(o)
		}
		return nil, errorf(diag.CodeAmbiguous, "column %s is ambiguous: it is a key of %s", p, strings.Join(names, " and ")).
			Hintf("qualify it, e.g. %s.%s", b.sources[owners[0]].alias, p)
	}
	return nil, errorf(diag.CodeAmbiguous, "column %s is ambiguous: items are schemaless, so ddbsql cannot tell which of %s has it", p, b.describeSources()).
		Hintf("qualify it, e.g. %s.%s", aliases[0], p)
}

// onlySchemaless is the one FROM item whose columns are not known (a
// table, or a named query that is a SELECT *), if there is exactly one.
func (b *binder) onlySchemaless() (int, bool) {
	only := -1
	for i, s := range b.sources {
		if (s.derived && s.columns != nil) || s.unnest != nil {
			continue
		}
		if only >= 0 {
			return 0, false
		}
		only = i
	}
	return only, only >= 0
}

// sourceName is "alias (table)", or the table name when it has no alias.
func (b *binder) sourceName(i int) string {
	s := b.sources[i]
	if s.alias == s.table.Name {
		return s.table.Name
	}
	return s.alias + " (" + s.table.Name + ")"
}

func (b *binder) describeSources() string {
	names := make([]string, len(b.sources))
	for i := range b.sources {
		names[i] = b.sourceName(i)
	}
	return strings.Join(names, ", ")
}
