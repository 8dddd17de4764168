package planner

import (
	"context"
	"strings"

	"github.com/xwb1989/sqlparser"

	"github.com/ddbsql/ddbsql/parser"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
)

// SelectInput is the parsed SELECT: its AST, the document paths the parser
// rewrote into synthetic column names (as written; the planner turns them
// into value paths when it binds names), and the double-quoted names written
// where a value usually goes (parser.Select.QuotedValues), for hints.
type SelectInput struct {
	AST          *sqlparser.Select
	Paths        map[string]parser.Path
	QuotedValues []string
	// ItemTexts are the select items as written (parser.Select.ItemTexts),
	// which name unaliased expression columns; nil to name them by the
	// AST's rendering.
	ItemTexts []string
	// Windows are the OVER clauses of the window calls in AST
	// (parser.Select.Windows).
	Windows map[string]*parser.Window
}

// selectPlanner carries one SELECT through planning.
type selectPlanner struct {
	ctx   context.Context
	cat   Catalog
	opts  Options
	ast   *sqlparser.Select
	texts []string // select items as written (may be nil)
	b     *binder
	from  fromItem      // the first FROM item
	froms []fromItem    // every FROM item, in written order (RIGHT JOIN swapped)
	steps []joinStep    // the joins between them
	ons   [][]expr.Expr // bound ON conditions per step (USING expanded)
	// noTable is SELECT without FROM: expressions over one empty row.
	noTable bool

	conjuncts []expr.Expr  // WHERE, split on AND
	items     []selectItem // select list (empty with star)
	star      bool
	// starSources are the FROM items of alias.* stars (with no bare *),
	// in select-list order: a join's alias.* selects that table's
	// attributes only.
	starSources []int
	bareStar    bool
	groups      []expr.Expr
	having      expr.Expr
	order       []SortKey
	distinct    bool
	offset      int64
	count       int64 // -1: no LIMIT
	// unnests are the FROM clause's UNNESTs (unnest.go), FROM items after
	// the tables.
	unnests []unnestPlan
	// unnestNeeds are the expressions above the flatten that read the
	// tables: the expanded attributes and the conditions over elements.
	unnestNeeds []expr.Expr
}

// PlanSelect compiles a SELECT into a plan.
func PlanSelect(ctx context.Context, cat Catalog, in SelectInput, opts Options) (*Plan, error) {
	return planSelectWith(ctx, cat, in, opts, nil)
}

// planSelectWith plans a SELECT whose subqueries subq plans (nil: a
// statement of its own, not nested in another).
func planSelectWith(ctx context.Context, cat Catalog, in SelectInput, opts Options, subq *subqueries) (*Plan, error) {
	sp := &selectPlanner{ctx: ctx, cat: cat, opts: opts, ast: in.AST, texts: in.ItemTexts, count: -1}
	if err := sp.resolveFrom(in.Paths); err != nil {
		return nil, err
	}
	sp.b.now = opts.Now
	sp.b.windows = in.Windows
	if subq == nil {
		subq = &subqueries{ctx: ctx, cat: cat, opts: opts, paths: in.Paths, windows: in.Windows}
	}
	sp.b.subq = subq
	suspects := sp.suspectQuoted(in.QuotedValues)
	if err := sp.bindClauses(); err != nil {
		return nil, withQuotedHint(err, suspects)
	}
	p, err := sp.build()
	if err != nil {
		return nil, withQuotedHint(err, suspects)
	}
	markReadAhead(p.Root, sp.count < 0)
	subq.wrap(p)
	if len(suspects) > 0 {
		p.Notes = append(p.Notes, quotedNote(suspects))
	}
	return p, nil
}

// markReadAhead allows read-ahead on reads that will run to their end: all
// of them without LIMIT, and a hash join's build side in any case.
func markReadAhead(n Node, complete bool) {
	// runsToEnd[n]: every row n can produce will be read.
	runsToEnd := map[Node]bool{n: complete}
	Walk(n, func(m Node, _ int) bool {
		end := runsToEnd[m]
		if a, ok := m.(*Access); ok {
			a.ReadAhead = end
		}
		for _, in := range m.Inputs() {
			runsToEnd[in] = end
		}
		if hj, ok := m.(*HashJoin); ok {
			runsToEnd[hj.Build] = true
		}
		return true
	})
}

func (sp *selectPlanner) resolveFrom(written map[string]parser.Path) error {
	ast := sp.ast
	paths := documentPaths(written)
	if ast.Lock != "" {
		return errorf(diag.CodeUnsupported, "locking reads (%s) are not supported: DynamoDB has no row locks", strings.TrimSpace(ast.Lock))
	}
	if isDual(ast.From) {
		// SELECT without FROM (MySQL reads it as FROM dual): one empty row.
		sp.b = &binder{paths: paths, columns: &columnIDs{}}
		sp.noTable = true
		return nil
	}
	tables, unnests, err := splitUnnests(ast.From)
	if err != nil {
		return err
	}
	items, steps, err := flattenFrom(tables)
	if err != nil {
		return err
	}
	sp.steps = steps
	sp.b = &binder{paths: paths, columns: &columnIDs{}}
	for _, ate := range items {
		from, err := sp.fromItemFor(ate)
		if err != nil {
			return err
		}
		for _, prev := range sp.froms {
			if prev.alias == from.alias {
				return errorf(diag.CodeInvalid, "the alias %s is used twice in FROM; give each table its own alias", from.alias)
			}
		}
		sp.froms = append(sp.froms, from)
		sp.b.sources = append(sp.b.sources, sourceOf(from))
	}
	sp.from = sp.froms[0]
	if err := checkSelfJoin(sp.froms); err != nil {
		return err
	}
	return sp.bindUnnests(unnests)
}

func (sp *selectPlanner) bindClauses() error {
	ast, b := sp.ast, sp.b
	if err := sp.bindJoinConditions(); err != nil {
		return err
	}
	if ast.Where != nil {
		b.clause = "WHERE"
		where, err := b.bind(ast.Where.Expr)
		if err != nil {
			return err
		}
		sp.conjuncts = expr.Conjuncts(where)
	}
	if err := sp.bindSelectList(); err != nil {
		return err
	}
	sp.distinct = ast.Distinct != ""
	b.selectAliases = map[string]expr.Expr{}
	for _, it := range sp.items {
		if it.alias != "" {
			b.selectAliases[it.alias] = it.expr
		}
	}
	if err := sp.bindGroupBy(); err != nil {
		return err
	}
	if ast.Having != nil {
		b.clause, b.allowAggregates = "HAVING", true
		h, err := b.bind(ast.Having.Expr)
		if err != nil {
			return err
		}
		sp.having = h
	}
	if err := sp.bindOrderBy(); err != nil {
		return err
	}
	return sp.bindLimit()
}

// aggregated reports whether the statement groups rows.
func (sp *selectPlanner) aggregated() bool {
	if len(sp.groups) > 0 || sp.having != nil {
		return true
	}
	for _, it := range sp.items {
		if expr.HasAggregate(it.expr) {
			return true
		}
	}
	for _, k := range sp.order {
		if expr.HasAggregate(k.Expr) {
			return true
		}
	}
	return false
}

func isDual(from sqlparser.TableExprs) bool {
	if len(from) != 1 {
		return false
	}
	ate, ok := from[0].(*sqlparser.AliasedTableExpr)
	if !ok {
		return false
	}
	tn, ok := ate.Expr.(sqlparser.TableName)
	return ok && tn.Qualifier.IsEmpty() && strings.EqualFold(tn.Name.String(), "dual")
}
