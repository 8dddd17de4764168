package planner

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/ddbsql/ddbsql/planner/ddblimits"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/funcs"
)

// DynamoDB's limits on one expression string (Expression parameters in its
// developer guide): a FilterExpression over them is a ValidationException.
const (
	maxExpressionBytes     = ddblimits.ExpressionBytes
	maxExpressionOperators = ddblimits.ExpressionOperators
	// placeholderSlack is how many more bytes each #name or :value
	// placeholder may take in the request than when the filter is built
	// alone: the request numbers them after the key condition's and the
	// projection's (three more digits: up to a thousand placeholders).
	placeholderSlack = 3
)

// filterBudget admits conjuncts into a FilterExpression while it stays
// within DynamoDB's limits; the conjuncts it refuses run on the client, so
// a WHERE of thousands of OR branches is still answered (and a huge one is
// never handed to the SDK's expression builder, whose cost grows with the
// square of an expression's size).
type filterBudget struct {
	conds     []expression.ConditionBuilder
	operators int  // SQL operators of the admitted conjuncts
	full      bool // a conjunct did not fit: the filter is complete
}

// admit adds dc, the DynamoDB condition of conjunct c, when the filter
// with it stays within the limits.
func (b *filterBudget) admit(c expr.Expr, dc expression.ConditionBuilder) bool {
	if b.full {
		return false
	}
	// A DynamoDB condition has at least as many operators as the SQL it
	// translates (guards only add to it), so this refuses before building.
	ops := sqlOperators(c)
	if b.operators+ops > maxExpressionOperators {
		b.full = true
		return false
	}
	conds := append(b.conds[:len(b.conds):len(b.conds)], dc)
	if !withinLimits(combine(conds)) {
		b.full = true
		return false
	}
	b.conds, b.operators = conds, b.operators+ops
	return true
}

// condition is the FilterExpression's condition, nil for none.
func (b *filterBudget) condition() *expression.ConditionBuilder {
	if len(b.conds) == 0 {
		return nil
	}
	c := combine(b.conds)
	return &c
}

func combine(conds []expression.ConditionBuilder) expression.ConditionBuilder {
	if len(conds) == 1 {
		return conds[0]
	}
	return expression.And(conds[0], conds[1], conds[2:]...)
}

// withinLimits builds cond alone and measures it as it will be sent.
func withinLimits(cond expression.ConditionBuilder) bool {
	built, err := expression.NewBuilder().WithFilter(cond).Build()
	if err != nil {
		return true // not a size problem: the request build reports it
	}
	text := *built.Filter()
	placeholders := strings.Count(text, "#") + strings.Count(text, ":")
	return len(text)+placeholders*placeholderSlack <= maxExpressionBytes &&
		expressionOperators(text) <= maxExpressionOperators
}

// sqlOperators counts the operators and functions of a SQL predicate.
func sqlOperators(e expr.Expr) int {
	n := 0
	expr.Walk(e, func(x expr.Expr) bool {
		switch x.(type) {
		case expr.Column, expr.Literal, expr.Ref:
		default:
			n++
		}
		return true
	})
	return n
}

// expressionOperators counts the operators and functions of a built
// condition expression. Its names and values are placeholders (#0, :1), so
// its words are operators, functions and punctuation (BETWEEN's AND counts
// too: an over-estimate is safe).
func expressionOperators(text string) int {
	n := 0
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == '(' || r == ')' || r == ',' }) {
		if conditionWords[w] {
			n++
		}
	}
	return n
}

// conditionWords are the words expressionOperators counts: the operators,
// and the functions DynamoDB evaluates (those the catalogue pushes down,
// whose names are DynamoDB's).
var conditionWords = func() map[string]bool {
	words := map[string]bool{"=": true, "<>": true, "<": true, "<=": true, ">": true, ">=": true,
		"AND": true, "OR": true, "NOT": true, "BETWEEN": true, "IN": true}
	for _, f := range funcs.All() {
		if f.Pushdown != funcs.ClientOnly {
			words[f.Name] = true
		}
	}
	return words
}()
