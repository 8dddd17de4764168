package ddbexpr

import (
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/ddbsql/ddbsql/planner/ddblimits"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/funcs"
	"github.com/ddbsql/ddbsql/planner/value"
)

// maxInValues is DynamoDB's limit on IN operands.
const maxInValues = ddblimits.InOperands

// Condition translates pred into a DynamoDB condition that holds exactly when
// pred is TRUE, or reports false when that is not possible. source selects
// which FROM item's columns may appear (others make the predicate
// non-pushable).
func Condition(pred expr.Expr, source int) (expression.ConditionBuilder, bool) {
	t := translator{source: source}
	return t.whenTrue(pred)
}

type translator struct{ source int }

// whenTrue: a condition true exactly where e is TRUE.
func (t translator) whenTrue(e expr.Expr) (expression.ConditionBuilder, bool) {
	switch n := e.(type) {
	case expr.Binary:
		switch n.Op {
		case expr.OpAnd, expr.OpOr:
			conds, ok := t.each(chain(n, n.Op), t.whenTrue)
			if !ok {
				return expression.ConditionBuilder{}, false
			}
			if n.Op == expr.OpAnd {
				return expression.And(conds[0], conds[1], conds[2:]...), true
			}
			return expression.Or(conds[0], conds[1], conds[2:]...), true
		}
		return t.comparison(n)
	case expr.Unary:
		if n.Op == expr.OpNot {
			return t.whenFalse(n.X)
		}
	case expr.In:
		if n.Not {
			return t.whenFalse(expr.In{X: n.X, List: n.List})
		}
		return t.in(n)
	case expr.Between:
		if n.Not {
			return t.whenFalse(expr.Between{X: n.X, Lo: n.Lo, Hi: n.Hi})
		}
		return t.between(n)
	case expr.Like:
		if n.Not {
			return t.whenFalse(expr.Like{X: n.X, Pattern: n.Pattern})
		}
		return t.like(n)
	case expr.IsNull:
		nb, ok := t.name(n.X)
		if !ok {
			return expression.ConditionBuilder{}, false
		}
		if n.Not {
			return known(nb), true
		}
		return expression.Or(expression.AttributeNotExists(nb), isNullType(nb)), true
	case expr.Func:
		return t.function(n)
	}
	return expression.ConditionBuilder{}, false
}

// whenFalse: a condition true exactly where e is FALSE (not NULL).
func (t translator) whenFalse(e expr.Expr) (expression.ConditionBuilder, bool) {
	switch n := e.(type) {
	case expr.Binary:
		switch n.Op {
		case expr.OpAnd, expr.OpOr:
			conds, ok := t.each(chain(n, n.Op), t.whenFalse)
			if !ok {
				return expression.ConditionBuilder{}, false
			}
			if n.Op == expr.OpAnd {
				return expression.Or(conds[0], conds[1], conds[2:]...), true
			}
			return expression.And(conds[0], conds[1], conds[2:]...), true
		}
	case expr.Unary:
		if n.Op == expr.OpNot {
			return t.whenTrue(n.X)
		}
		return expression.ConditionBuilder{}, false
	case expr.IsNull:
		return t.whenTrue(expr.IsNull{X: n.X, Not: !n.Not})
	case expr.Func:
		// DynamoDB's functions are two-valued: FALSE is simply NOT.
		c, ok := t.function(n)
		if !ok {
			return c, false
		}
		return expression.Not(c), true
	}
	// A predicate over known (present, non-NULL) operands is two-valued, so
	// FALSE is "every operand known AND NOT predicate" — except size(), which
	// is NULL for types it does not measure while DynamoDB calls it false.
	if usesSize(e) {
		return expression.ConditionBuilder{}, false
	}
	c, ok := t.whenTrue(e)
	if !ok {
		return c, false
	}
	guards, ok := t.knownOperands(e)
	if !ok {
		return c, false
	}
	// One flat AND (see chain): exists and not NULL for each operand,
	// then NOT c.
	guards = append(guards, expression.Not(c))
	return expression.And(guards[0], guards[1], guards[2:]...), true
}

// chain lists the operands of a run of one associative operator (a OR b
// OR c, however the parser nested it), so that the condition is one flat
// (a) OR (b) OR (c): the SDK's builder nests each binary Or in another
// pair of parentheses, and dynalite's expression parser takes time
// exponential in the nesting (4 s at depth 10, half a minute at 12, and
// meanwhile it answers no one), while DynamoDB does not mind either form.
func chain(e expr.Expr, op expr.Op) []expr.Expr {
	if b, ok := e.(expr.Binary); ok && b.Op == op {
		return append(chain(b.L, op), chain(b.R, op)...)
	}
	return []expr.Expr{e}
}

// each translates every operand with f; all must translate.
func (t translator) each(es []expr.Expr, f func(expr.Expr) (expression.ConditionBuilder, bool)) ([]expression.ConditionBuilder, bool) {
	out := make([]expression.ConditionBuilder, len(es))
	for i, e := range es {
		c, ok := f(e)
		if !ok {
			return nil, false
		}
		out[i] = c
	}
	return out, true
}

// knownOperands lists, for every column in e, that it exists and is not
// DynamoDB NULL (known, as separate conditions); none is an error.
func (t translator) knownOperands(e expr.Expr) ([]expression.ConditionBuilder, bool) {
	var conds []expression.ConditionBuilder
	for _, c := range expr.Columns(e) {
		nb, ok := t.name(c)
		if !ok {
			return nil, false
		}
		conds = append(conds, expression.AttributeExists(nb), expression.Not(isNullType(nb)))
	}
	return conds, len(conds) > 0
}

// known: the attribute exists and is not DynamoDB NULL.
func known(nb expression.NameBuilder) expression.ConditionBuilder {
	return expression.And(expression.AttributeExists(nb), expression.Not(isNullType(nb)))
}

func isNullType(nb expression.NameBuilder) expression.ConditionBuilder {
	return expression.AttributeType(nb, expression.Null)
}

// name accepts a column of the source item. A path with a list index stays
// on the client: where the indexed attribute is a set, DynamoDB finds no
// element and the item silently fails the filter, while ddbsql reports the
// index into an unordered set as an error (exec/eval).
func (t translator) name(e expr.Expr) (expression.NameBuilder, bool) {
	c, ok := e.(expr.Column)
	if !ok || c.Source != t.source || hasIndex(c.Path) {
		return expression.NameBuilder{}, false
	}
	return Name(c.Path)
}

func hasIndex(p value.Path) bool {
	for _, e := range p {
		if e.IsIndex {
			return true
		}
	}
	return false
}

// literal accepts non-NULL constants DynamoDB can hold in an expression
// value. A string that is not valid UTF-8 cannot travel in a request (the
// JSON encoding would turn its bad bytes into U+FFFD, another string).
func literal(e expr.Expr) (value.Value, bool) {
	l, ok := e.(expr.Literal)
	if !ok || l.Value.IsNull() || (l.Value.Kind() == value.String && !utf8.ValidString(l.Value.Text())) {
		return value.Value{}, false
	}
	return l.Value, true
}

func scalar(v value.Value) bool {
	k := v.Kind()
	return k == value.String || k == value.Number || k == value.Binary
}

func (t translator) comparison(n expr.Binary) (expression.ConditionBuilder, bool) {
	if !n.Op.IsComparison() {
		return expression.ConditionBuilder{}, false
	}
	left, ok := t.operand(n.L)
	if !ok {
		return expression.ConditionBuilder{}, false
	}
	right, ok := t.operand(n.R)
	if !ok {
		return expression.ConditionBuilder{}, false
	}
	// At least one side must read the item; DynamoDB rejects constant
	// comparisons, and the client handles them trivially.
	if left.constant && right.constant {
		return expression.ConditionBuilder{}, false
	}
	// DynamoDB rejects a comparison of a document path with itself ("the
	// first operand must be distinct"); it is trivial on the client.
	if left.path != nil && right.path != nil && samePath(left.path, right.path) {
		return expression.ConditionBuilder{}, false
	}
	// DynamoDB rejects ordering comparisons on BOOL, NULL, documents and sets
	// given as values; for us they are simply FALSE, so leave them to the client.
	if n.Op != expr.OpEq && n.Op != expr.OpNe {
		if (left.constant && !scalar(left.value)) || (right.constant && !scalar(right.value)) {
			return expression.ConditionBuilder{}, false
		}
	}
	var c expression.ConditionBuilder
	switch n.Op {
	case expr.OpEq:
		c = expression.Equal(left.builder, right.builder)
	case expr.OpNe:
		c = expression.NotEqual(left.builder, right.builder)
	case expr.OpLt:
		c = expression.LessThan(left.builder, right.builder)
	case expr.OpLe:
		c = expression.LessThanEqual(left.builder, right.builder)
	case expr.OpGt:
		c = expression.GreaterThan(left.builder, right.builder)
	case expr.OpGe:
		c = expression.GreaterThanEqual(left.builder, right.builder)
	default:
		return expression.ConditionBuilder{}, false
	}
	guards := comparisonGuards(n.Op, left, right)
	switch len(guards) {
	case 0:
		return c, true
	case 1:
		return expression.And(guards[0], c), true
	}
	return expression.And(guards[0], guards[1], append(guards[2:], c)...), true
}

// comparisonGuards makes a comparison TRUE only where SQL's is. Against a
// literal, DynamoDB's comparisons already fail for a missing attribute, a
// NULL or another type — except <>, which is TRUE for all three, so it needs
// its operands known (and size()'s argument of a type size measures, as
// size() is NULL for the others). Between two item operands DynamoDB would
// also see two missing attributes or two NULLs as equal, and would order
// values SQL does not (BOOL, NULL, sets, documents), so each column must be
// known (=, <>) or of an orderable type (< <= > >=), and each size()
// argument measurable.
func comparisonGuards(op expr.Op, left, right operand) []expression.ConditionBuilder {
	var guards []expression.ConditionBuilder
	bothItem := !left.constant && !right.constant
	for _, o := range []operand{left, right} {
		switch {
		case o.constant:
		case o.sizeOf:
			if bothItem || op == expr.OpNe {
				guards = append(guards, sizeable(o.name))
			}
		case op == expr.OpNe || (bothItem && op == expr.OpEq):
			// known(x), as two conditions of the comparison's flat AND.
			guards = append(guards, expression.AttributeExists(o.name), expression.Not(isNullType(o.name)))
		case bothItem:
			guards = append(guards, orderable(o.name))
		}
	}
	return guards
}

// sizeable: the attribute has a type size() measures (S, B, sets, L, M).
// Listing those types is exact; NOT attribute_type(x, 'N'|'BOOL'|'NULL')
// would also hold for a missing attribute.
func sizeable(nb expression.NameBuilder) expression.ConditionBuilder {
	return anyType(nb, expression.String, expression.Binary, expression.StringSet, expression.NumberSet,
		expression.BinarySet, expression.List, expression.Map)
}

// orderable: the attribute is an S, N or B, the types < and > compare.
func orderable(nb expression.NameBuilder) expression.ConditionBuilder {
	return anyType(nb, expression.String, expression.Number, expression.Binary)
}

func anyType(nb expression.NameBuilder, kinds ...expression.DynamoDBAttributeType) expression.ConditionBuilder {
	conds := make([]expression.ConditionBuilder, len(kinds))
	for i, typ := range kinds {
		conds[i] = expression.AttributeType(nb, typ)
	}
	return expression.Or(conds[0], conds[1], conds[2:]...)
}

func samePath(a, b value.Path) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

type operand struct {
	builder  expression.OperandBuilder
	constant bool
	value    value.Value
	// For a column or size(column): the column's name and path.
	name   expression.NameBuilder
	path   value.Path // nil for size(column) and literals
	sizeOf bool
}

// operand accepts a column, size(column) or a non-NULL literal.
func (t translator) operand(e expr.Expr) (operand, bool) {
	switch n := e.(type) {
	case expr.Column:
		nb, ok := t.name(n)
		return operand{builder: nb, name: nb, path: n.Path}, ok
	case expr.Literal:
		v, ok := literal(n)
		if !ok {
			return operand{}, false
		}
		return operand{builder: expression.Value(v.AttributeValue()), constant: true, value: v}, true
	case expr.Func:
		// size() is DynamoDB's one operand function (Pushdown Operand).
		if spec, known := funcs.Lookup(n.Name); known && spec.Pushdown == funcs.Operand && n.Name == "size" && len(n.Args) == 1 {
			nb, ok := t.name(n.Args[0])
			return operand{builder: expression.Size(nb), name: nb, sizeOf: true}, ok
		}
	}
	return operand{}, false
}

func (t translator) in(n expr.In) (expression.ConditionBuilder, bool) {
	nb, ok := t.name(n.X)
	if !ok || len(n.List) == 0 || len(n.List) > maxInValues {
		return expression.ConditionBuilder{}, false
	}
	vals := make([]expression.OperandBuilder, len(n.List))
	for i, item := range n.List {
		v, ok := literal(item)
		if !ok {
			return expression.ConditionBuilder{}, false
		}
		vals[i] = expression.Value(v.AttributeValue())
	}
	return expression.In(nb, vals[0], vals[1:]...), true
}

func (t translator) between(n expr.Between) (expression.ConditionBuilder, bool) {
	nb, ok := t.name(n.X)
	if !ok {
		return expression.ConditionBuilder{}, false
	}
	lo, okLo := literal(n.Lo)
	hi, okHi := literal(n.Hi)
	// DynamoDB rejects bounds of different types or in the wrong order; SQL
	// just yields FALSE. Leave those to the client.
	if !okLo || !okHi || !value.Ordered(lo, hi) || value.CompareScalars(lo, hi) > 0 {
		return expression.ConditionBuilder{}, false
	}
	return expression.Between(nb, expression.Value(lo.AttributeValue()), expression.Value(hi.AttributeValue())), true
}

func (t translator) like(n expr.Like) (expression.ConditionBuilder, bool) {
	nb, ok := t.name(n.X)
	if !ok {
		return expression.ConditionBuilder{}, false
	}
	pat, ok := literal(n.Pattern)
	if !ok || pat.Kind() != value.String {
		return expression.ConditionBuilder{}, false
	}
	prefix, kind := AnalyzeLike(pat.Text())
	switch kind {
	case LikeExact:
		return expression.Equal(nb, expression.Value(value.Str(prefix).AttributeValue())), true
	case LikePrefix:
		if prefix == "" {
			return expression.AttributeType(nb, expression.String), true
		}
		return expression.BeginsWith(nb, prefix), true
	}
	return expression.ConditionBuilder{}, false
}

// LikeKind classifies a LIKE pattern.
type LikeKind uint8

// LIKE pattern shapes.
const (
	LikeOther  LikeKind = iota // needs the client
	LikeExact                  // no wildcards: equality
	LikePrefix                 // 'abc%': begins_with
)

// AnalyzeLike returns the unescaped literal prefix of a LIKE pattern and
// whether the pattern is exactly that prefix, the prefix followed by one
// trailing %, or something DynamoDB cannot express.
func AnalyzeLike(pattern string) (string, LikeKind) {
	var sb strings.Builder
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		switch c {
		case '\\':
			if i+1 < len(pattern) {
				i++
				sb.WriteByte(pattern[i])
			} else {
				sb.WriteByte(c)
			}
		case '%':
			if strings.Trim(pattern[i:], "%") == "" {
				return sb.String(), LikePrefix
			}
			return sb.String(), LikeOther
		case '_':
			return sb.String(), LikeOther
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String(), LikeExact
}

// function translates a call of a DynamoDB condition function (a
// catalogue entry with Pushdown Condition) whose arguments have the form
// DynamoDB accepts; any other call runs on the client.
func (t translator) function(n expr.Func) (expression.ConditionBuilder, bool) {
	spec, ok := funcs.Lookup(n.Name)
	translate := conditionFuncs[n.Name]
	if !ok || spec.Pushdown != funcs.Condition || translate == nil ||
		len(n.Args) < spec.MinArgs || len(n.Args) > spec.MaxArgs {
		return expression.ConditionBuilder{}, false
	}
	return translate(t, n)
}

// conditionFuncs translates each condition function of the catalogue;
// a test proves the two lists equal.
var conditionFuncs = map[string]func(translator, expr.Func) (expression.ConditionBuilder, bool){
	"attribute_exists":     translator.attributeExists,
	"attribute_not_exists": translator.attributeNotExists,
	"attribute_type":       translator.attributeType,
	"begins_with":          translator.beginsWith,
	"contains":             translator.contains,
}

func (t translator) attributeExists(n expr.Func) (expression.ConditionBuilder, bool) {
	nb, ok := t.name(n.Args[0])
	if !ok {
		return expression.ConditionBuilder{}, false
	}
	return expression.AttributeExists(nb), true
}

func (t translator) attributeNotExists(n expr.Func) (expression.ConditionBuilder, bool) {
	nb, ok := t.name(n.Args[0])
	if !ok {
		return expression.ConditionBuilder{}, false
	}
	return expression.AttributeNotExists(nb), true
}

func (t translator) attributeType(n expr.Func) (expression.ConditionBuilder, bool) {
	nb, ok := t.name(n.Args[0])
	typ, okT := literal(n.Args[1])
	if !ok || !okT || typ.Kind() != value.String || !validType(typ.Text()) {
		return expression.ConditionBuilder{}, false
	}
	return expression.AttributeType(nb, expression.DynamoDBAttributeType(typ.Text())), true
}

func (t translator) beginsWith(n expr.Func) (expression.ConditionBuilder, bool) {
	nb, ok := t.name(n.Args[0])
	prefix, okP := literal(n.Args[1])
	if !ok || !okP || prefix.Kind() != value.String || prefix.Text() == "" {
		return expression.ConditionBuilder{}, false
	}
	return expression.BeginsWith(nb, prefix.Text()), true
}

func (t translator) contains(n expr.Func) (expression.ConditionBuilder, bool) {
	nb, ok := t.name(n.Args[0])
	operand, okV := literal(n.Args[1])
	if !ok || !okV || !scalar(operand) {
		return expression.ConditionBuilder{}, false
	}
	return expression.Contains(nb, operand.AttributeValue()), true
}

func validType(t string) bool {
	switch t {
	case "S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS":
		return true
	}
	return false
}

func usesSize(e expr.Expr) bool {
	found := false
	expr.Walk(e, func(x expr.Expr) bool {
		if f, ok := x.(expr.Func); ok && f.Name == "size" {
			found = true
		}
		return !found
	})
	return found
}
