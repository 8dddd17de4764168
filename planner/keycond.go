package planner

import (
	"fmt"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/ddbexpr"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// keyOp is the shape of a condition DynamoDB can evaluate on a key.
type keyOp uint8

const (
	keyEq keyOp = iota
	keyIn
	keyLt
	keyLe
	keyGt
	keyGe
	keyBetween
	keyBeginsWith
)

// keyCond is a WHERE conjunct that constrains one top-level attribute in a
// way a KeyConditionExpression (or a GetItem key) can express.
type keyCond struct {
	conjunct int // index into the WHERE conjuncts
	attr     string
	op       keyOp
	values   []value.Value // eq: 1; in: n; between: 2; range ops: 1; beginsWith: 1 (S)
}

// asKeyCond recognises key-condition shapes on a bare top-level attribute of
// FROM item src: attr = v, v = attr, attr IN (…), attr < v (and friends),
// attr BETWEEN a AND b, begins_with(attr, 'p'), attr LIKE 'p%'.
func asKeyCond(e expr.Expr, src int) (keyCond, bool) {
	switch n := e.(type) {
	case expr.Binary:
		if !n.Op.IsComparison() || n.Op == expr.OpNe {
			return keyCond{}, false
		}
		attr, lit, op := topAttr(n.L, src), literalOf(n.R), n.Op
		if attr == "" {
			attr, lit, op = topAttr(n.R, src), literalOf(n.L), n.Op.Flip()
		}
		if attr == "" || lit == nil {
			return keyCond{}, false
		}
		ops := map[expr.Op]keyOp{expr.OpEq: keyEq, expr.OpLt: keyLt, expr.OpLe: keyLe, expr.OpGt: keyGt, expr.OpGe: keyGe}
		return keyCond{attr: attr, op: ops[op], values: []value.Value{*lit}}, true
	case expr.In:
		attr := topAttr(n.X, src)
		if attr == "" || n.Not || len(n.List) == 0 {
			return keyCond{}, false
		}
		vals := make([]value.Value, 0, len(n.List))
		for _, item := range n.List {
			lit := literalOf(item)
			if lit == nil {
				return keyCond{}, false
			}
			vals = append(vals, *lit)
		}
		return keyCond{attr: attr, op: keyIn, values: vals}, true
	case expr.Between:
		attr, lo, hi := topAttr(n.X, src), literalOf(n.Lo), literalOf(n.Hi)
		if attr == "" || n.Not || lo == nil || hi == nil {
			return keyCond{}, false
		}
		return keyCond{attr: attr, op: keyBetween, values: []value.Value{*lo, *hi}}, true
	case expr.Func:
		if n.Name != "begins_with" || len(n.Args) != 2 {
			return keyCond{}, false
		}
		attr, prefix := topAttr(n.Args[0], src), literalOf(n.Args[1])
		if attr == "" || prefix == nil {
			return keyCond{}, false
		}
		return keyCond{attr: attr, op: keyBeginsWith, values: []value.Value{*prefix}}, true
	case expr.Like:
		attr, pat := topAttr(n.X, src), literalOf(n.Pattern)
		if attr == "" || n.Not || pat == nil || pat.Kind() != value.String {
			return keyCond{}, false
		}
		prefix, kind := ddbexpr.AnalyzeLike(pat.Text())
		switch kind {
		case ddbexpr.LikeExact:
			return keyCond{attr: attr, op: keyEq, values: []value.Value{value.Str(prefix)}}, true
		case ddbexpr.LikePrefix:
			if prefix == "" {
				return keyCond{}, false
			}
			return keyCond{attr: attr, op: keyBeginsWith, values: []value.Value{value.Str(prefix)}}, true
		}
	}
	return keyCond{}, false
}

// topAttr returns the attribute name when e is a bare top-level column of src.
func topAttr(e expr.Expr, src int) string {
	c, ok := e.(expr.Column)
	if !ok || c.Source != src || len(c.Path) != 1 {
		return ""
	}
	return c.Path[0].Name
}

func literalOf(e expr.Expr) *value.Value {
	l, ok := e.(expr.Literal)
	if !ok || l.Value.IsNull() {
		return nil
	}
	return &l.Value
}

// checkKeyTypes rejects a key attribute compared with a value of another
// type: DynamoDB enforces key types on every item, so such a condition can
// never match and is certainly a mistake.
func checkKeyTypes(t *TableDef, conds []keyCond) error {
	keyTypes := map[string]value.Kind{t.PK.Name: t.PK.Type}
	if t.SK != nil {
		keyTypes[t.SK.Name] = t.SK.Type
	}
	for _, ix := range t.Indexes {
		keyTypes[ix.PK.Name] = ix.PK.Type
		if ix.SK != nil {
			keyTypes[ix.SK.Name] = ix.SK.Type
		}
	}
	for _, kc := range conds {
		want, isKey := keyTypes[kc.attr]
		if !isKey {
			continue
		}
		if kc.op == keyBeginsWith && want == value.Number {
			return errorf(diag.CodeKeyType, "%s is a number (N) key attribute of %s: begins_with and LIKE need a string or binary key", kc.attr, t.Name)
		}
		for _, v := range kc.values {
			if kc.op == keyBeginsWith && want == value.Binary && v.Kind() == value.String {
				return errorf(diag.CodeKeyType, "%s is a binary (B) key attribute of %s: begins_with needs a binary prefix such as X'0102'", kc.attr, t.Name)
			}
			if v.Kind() != want {
				return errorf(diag.CodeKeyType, "%s is a key attribute of %s with type %s (%s), but it is compared with %s, a %s",
					kc.attr, t.Name, want, typeWord(want), expr.LiteralSQL(v), typeWord(v.Kind())).
					Hintf("%s", keyTypeHint(kc.attr, kc.op, want, v))
			}
		}
	}
	return nil
}

func typeWord(k value.Kind) string {
	switch k {
	case value.String:
		return "string"
	case value.Number:
		return "number"
	case value.Binary:
		return "binary"
	case value.Bool:
		return "boolean"
	}
	return k.String()
}

func keyTypeHint(attr string, op keyOp, want value.Kind, got value.Value) string {
	name := value.QuoteName(attr)
	switch {
	case want == value.String && got.Kind() == value.Number:
		if sym, ok := comparisonText[op]; ok {
			return fmt.Sprintf("quote the value: %s %s '%s'", name, sym, got.Text())
		}
		if op == keyIn {
			return fmt.Sprintf("quote the values: %s IN ('%s', …)", name, got.Text())
		}
		return fmt.Sprintf("quote the values: %s holds strings (S)", name)
	case want == value.Number && got.Kind() == value.String:
		if _, err := value.CanonicalNumber(got.Text()); err != nil {
			return fmt.Sprintf("%s holds numbers (N): compare it with a number, written without quotes", name)
		}
		if sym, ok := comparisonText[op]; ok {
			return fmt.Sprintf("write the number without quotes: %s %s %s", name, sym, got.Text())
		}
		return fmt.Sprintf("write the numbers without quotes: %s holds numbers (N)", name)
	case want == value.Binary:
		return fmt.Sprintf("write binary values as X'hex', e.g. %s = X'0102'", name)
	}
	return fmt.Sprintf("compare %s with a %s value", name, typeWord(want))
}

// comparisonText spells the key conditions that compare with one value,
// for hints that rewrite the condition as it was written.
var comparisonText = map[keyOp]string{keyEq: "=", keyLt: "<", keyLe: "<=", keyGt: ">", keyGe: ">="}
