package planner

import (
	"strings"

	"github.com/xwb1989/sqlparser"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// JoinKind is INNER or LEFT (RIGHT joins are rewritten as LEFT).
type JoinKind uint8

// Join kinds.
const (
	JoinInner JoinKind = iota
	JoinLeft
)

func (k JoinKind) String() string {
	if k == JoinLeft {
		return "LEFT"
	}
	return "INNER"
}

// joinStep is one JOIN of a left-deep FROM: item joins everything before it.
type joinStep struct {
	kind  JoinKind
	item  int // index into the FROM items
	on    sqlparser.Expr
	using []string
}

// flattenFrom turns the FROM clause into FROM items in written order and
// the join steps between them. Only left-deep INNER/LEFT/RIGHT joins with ON
// or USING are accepted; RIGHT JOIN is rewritten as LEFT with its two sides
// swapped, which is only possible while the left side is a single table.
func flattenFrom(from sqlparser.TableExprs) ([]*sqlparser.AliasedTableExpr, []joinStep, error) {
	if len(from) != 1 {
		return nil, nil, errorf(diag.CodeUnsupported, "comma joins (FROM a, b) are CROSS joins, which are not supported: write a JOIN … ON with an equality on a key")
	}
	var items []*sqlparser.AliasedTableExpr
	var steps []joinStep
	var walk func(te sqlparser.TableExpr) error
	walk = func(te sqlparser.TableExpr) error {
		switch t := te.(type) {
		case *sqlparser.AliasedTableExpr:
			items = append(items, t)
			return nil
		case *sqlparser.ParenTableExpr:
			if len(t.Exprs) == 1 {
				return walk(t.Exprs[0])
			}
			return errorf(diag.CodeUnsupported, "parenthesised comma joins are not supported")
		case *sqlparser.JoinTableExpr:
			if err := walk(t.LeftExpr); err != nil {
				return err
			}
			right, ok := t.RightExpr.(*sqlparser.AliasedTableExpr)
			if !ok {
				return errorf(diag.CodeUnsupported, "nested joins on the right of JOIN are not supported; write the joins one after another")
			}
			step := joinStep{item: len(items), on: t.Condition.On}
			for _, c := range t.Condition.Using {
				step.using = append(step.using, c.String())
			}
			items = append(items, right)
			switch t.Join {
			case sqlparser.JoinStr, sqlparser.StraightJoinStr:
				step.kind = JoinInner
			case sqlparser.LeftJoinStr:
				step.kind = JoinLeft
			case sqlparser.RightJoinStr:
				if len(items) != 2 {
					return errorf(diag.CodeUnsupported, "RIGHT JOIN after another join is not supported; reorder the tables and use LEFT JOIN")
				}
				items[0], items[1] = items[1], items[0]
				step.kind = JoinLeft
			default:
				return errorf(diag.CodeUnsupported, "%s is not supported; use JOIN or LEFT JOIN … ON", strings.ToUpper(t.Join))
			}
			if step.on == nil && len(step.using) == 0 {
				return errorf(diag.CodeUnsupported, "CROSS joins (JOIN without ON or USING) are not supported: join on an equality with a partition key")
			}
			steps = append(steps, step)
			return nil
		}
		return errorf(diag.CodeUnsupported, "unsupported FROM clause %s", sqlparser.String(te))
	}
	if err := walk(from[0]); err != nil {
		return nil, nil, err
	}
	return items, steps, nil
}
