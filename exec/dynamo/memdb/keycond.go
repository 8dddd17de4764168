package memdb

import (
	"strings"

	"github.com/ddbsql/ddbsql/planner/value"
)

// KeyConditionExpression: from the parsed condition to one condition per
// key attribute, with DynamoDB's rules and messages.

type keyCond struct {
	op   string // EQ LT LE GT GE BETWEEN BEGINS_WITH
	vals []value.Value
}

var flipped = map[string]string{"=": "=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
var keyOps = map[string]string{"=": "EQ", "<": "LT", "<=": "LE", ">": "GT", ">=": "GE", "BETWEEN": "BETWEEN", "begins_with": "BEGINS_WITH"}

// keyConditions converts a parsed KeyConditionExpression.
func keyConditions(c *cond) (map[string]*keyCond, error) {
	conds := map[string]*keyCond{}
	if msg := collectKeyConds(c, conds); msg != "" {
		return nil, validationError(msg)
	}
	if len(conds) != 1 && len(conds) != 2 {
		return nil, validationError("Conditions can be of length 1 or 2 only")
	}
	return conds, nil
}

func collectKeyConds(c *cond, conds map[string]*keyCond) string {
	switch {
	case c.kind == cOr || c.kind == cNot || c.kind == cIn:
		return "Invalid operator used in KeyConditionExpression: " + map[condKind]string{cOr: "OR", cNot: "NOT", cIn: "IN"}[c.kind]
	case c.kind == cCompare && c.op == "<>":
		return "Invalid operator used in KeyConditionExpression: <>"
	case c.kind == cFunc && c.op != "begins_with":
		return "Invalid operator used in KeyConditionExpression: " + c.op
	case c.kind == cBetween && c.args[0].kind != opPath:
		return "Invalid condition in KeyConditionExpression: BETWEEN operator must have the key attribute as its first operand"
	case c.kind == cFunc && c.args[0].kind != opPath:
		return "Invalid condition in KeyConditionExpression: begins_with operator must have the key attribute as its first operand"
	case c.kind == cAnd:
		for _, s := range c.sub {
			if msg := collectKeyConds(s, conds); msg != "" {
				return msg
			}
		}
		return ""
	}
	attr, attrAt := "", 0
	for i, a := range c.args {
		switch a.kind {
		case opPath:
			if attr != "" {
				return "Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition"
			}
			if len(a.path) > 1 {
				return "KeyConditionExpressions cannot have conditions on nested attributes"
			}
			attr, attrAt = a.path[0].Name, i
		case opFunc:
			return "KeyConditionExpressions cannot contain nested operations"
		}
	}
	if attr == "" {
		return "Invalid condition in KeyConditionExpression: No key attribute specified"
	}
	if conds[attr] != nil {
		return "KeyConditionExpressions must only contain one condition per key"
	}
	op := c.op
	if attrAt != 0 {
		op = flipped[op]
	}
	kc := &keyCond{op: keyOps[op]}
	for i, a := range c.args {
		if i != attrAt {
			kc.vals = append(kc.vals, a.val)
		}
	}
	conds[attr] = kc
	return ""
}

// keyRange is the sort-key interval a key condition selects, on encoded
// sort keys.
type keyRange struct {
	lo, hi         string
	hasLo, hasHi   bool
	loIncl, hiIncl bool
}

func rangeOf(kc *keyCond) keyRange {
	var r keyRange
	if kc == nil {
		return r
	}
	v := encodeKey(kc.vals[0])
	switch kc.op {
	case "EQ":
		r = keyRange{lo: v, hi: v, hasLo: true, hasHi: true, loIncl: true, hiIncl: true}
	case "LT", "LE":
		r = keyRange{hi: v, hasHi: true, hiIncl: kc.op == "LE"}
	case "GT", "GE":
		r = keyRange{lo: v, hasLo: true, loIncl: kc.op == "GE"}
	case "BETWEEN":
		r = keyRange{lo: v, hi: encodeKey(kc.vals[1]), hasLo: true, hasHi: true, loIncl: true, hiIncl: true}
	case "BEGINS_WITH":
		r = keyRange{lo: v, hasLo: true, loIncl: true}
		if end, ok := prefixEnd(v); ok {
			r.hi, r.hasHi = end, true
		}
	}
	return r
}

// prefixEnd is the smallest string greater than every string with the
// prefix (false when there is none).
func prefixEnd(p string) (string, bool) {
	b := []byte(p)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < 0xff {
			b[i]++
			return string(b[:i+1]), true
		}
	}
	return "", false
}

// contains reports whether an encoded sort key lies in the range.
func (r keyRange) contains(rk string) bool {
	if r.hasLo {
		if c := strings.Compare(rk, r.lo); c < 0 || (c == 0 && !r.loIncl) {
			return false
		}
	}
	if r.hasHi {
		if c := strings.Compare(rk, r.hi); c > 0 || (c == 0 && !r.hiIncl) {
			return false
		}
	}
	return true
}

// matchesKeyCond evaluates a sort-key condition on a value (for
// ExclusiveStartKey checks).
func matchesKeyCond(kc *keyCond, v value.Value) bool {
	switch kc.op {
	case "EQ":
		return compare("=", v, kc.vals[0])
	case "LT":
		return compare("<", v, kc.vals[0])
	case "LE":
		return compare("<=", v, kc.vals[0])
	case "GT":
		return compare(">", v, kc.vals[0])
	case "GE":
		return compare(">=", v, kc.vals[0])
	case "BETWEEN":
		return between(v, kc.vals[0], kc.vals[1])
	case "BEGINS_WITH":
		return v.Kind() == kc.vals[0].Kind() && strings.HasPrefix(v.Text(), kc.vals[0].Text())
	}
	return false
}
