package difftest

import (
	"strconv"
	"strings"
)

// expr is a generated expression that renders in two dialects: ddbsql's
// (MySQL-flavoured, DynamoDB document paths) and SQLite's (flattened map
// columns, decimals as integer cents, mapped function names).
type expr struct {
	t      typ
	small  bool // tInt: magnitude stays small enough to multiply in int64
	ascii  bool // tStr: ASCII only
	agg    bool // is or contains an aggregate
	approx bool // SQLite computes it in floating point (AVG, /)
	label  string
	// name is a column reference's output name (its plain path); "" for
	// any other expression.
	name string
	kids []*expr
	ddb  func(k []string) string
	lite func(k []string) string
}

func (e *expr) render(lite bool) string {
	ks := make([]string, len(e.kids))
	for i, k := range e.kids {
		ks[i] = k.render(lite)
	}
	if lite {
		return e.lite(ks)
	}
	return e.ddb(ks)
}

// walk visits e and its descendants, parents first.
func (e *expr) walk(f func(*expr)) {
	if e == nil {
		return
	}
	f(e)
	for _, k := range e.kids {
		k.walk(f)
	}
}

// outKind is how a result column of this expression is compared.
func (e *expr) outKind() outKind {
	switch {
	case e.label == "integer as predicate": // renders as the bare integer
		return kExact
	case e.t == tBool:
		return kBool
	case e.t == tStr:
		return kStr
	case e.t == tDec && e.approx:
		return kApproxCents
	case e.t == tDec:
		return kCents
	case e.approx:
		return kApprox
	}
	return kExact
}

// same renders identically in both dialects.
func same(f func(k []string) string) (func([]string) string, func([]string) string) {
	return f, f
}

// mk builds a node whose flags derive from its kids: agg and approx are
// inherited; small and ascii must be set by the caller.
func mk(t typ, label string, kids []*expr, ddb, lite func([]string) string) *expr {
	e := &expr{t: t, label: label, kids: kids, ddb: ddb, lite: lite}
	for _, k := range kids {
		e.agg = e.agg || k.agg
		e.approx = e.approx || k.approx
	}
	return e
}

func mkSame(t typ, label string, kids []*expr, f func([]string) string) *expr {
	d, l := same(f)
	return mk(t, label, kids, d, l)
}

func leaf(t typ, label, ddb, lite string) *expr {
	return &expr{t: t, label: label, ddb: func([]string) string { return ddb }, lite: func([]string) string { return lite }}
}

func intLit(n int64) *expr {
	s := strconv.FormatInt(n, 10)
	e := leaf(tInt, "literal", s, s)
	e.small = n >= -1000 && n <= 1000
	return e
}

func decLit(cents int64) *expr {
	return leaf(tDec, "literal", centsText(cents), strconv.FormatInt(cents, 10))
}

func boolLit(b bool) *expr {
	if b {
		return leaf(tBool, "literal", "TRUE", "TRUE")
	}
	return leaf(tBool, "literal", "FALSE", "FALSE")
}

func nullLit(t typ) *expr {
	return leaf(t, "NULL literal", "NULL", "NULL")
}

// strLit quotes a string: ddbsql's parser reads MySQL literals, where a
// backslash escapes the next character, so it is doubled; SQLite's
// literals have no backslash escapes.
func strLit(s string) *expr {
	ddb := "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", "''") + "'"
	lite := "'" + strings.ReplaceAll(s, "'", "''") + "'"
	e := leaf(tStr, "literal", ddb, lite)
	e.ascii = isASCII(s)
	return e
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// asDec promotes an integer expression to a decimal: unchanged in ddbsql,
// scaled to cents in SQLite.
func asDec(e *expr) *expr {
	return mk(tDec, "", []*expr{e},
		func(k []string) string { return k[0] },
		func(k []string) string { return "(" + k[0] + " * 100)" })
}

func binop(t typ, op string, a, b *expr) *expr {
	return mkSame(t, op, []*expr{a, b}, func(k []string) string { return "(" + k[0] + " " + op + " " + k[1] + ")" })
}

func fn(t typ, name string, args ...*expr) *expr {
	return mkSame(t, name, args, func(k []string) string { return name + "(" + strings.Join(k, ", ") + ")" })
}

// fn2 is a function whose name differs between the dialects.
func fn2(t typ, label, ddbName, liteName string, args ...*expr) *expr {
	return mk(t, label, args,
		func(k []string) string { return ddbName + "(" + strings.Join(k, ", ") + ")" },
		func(k []string) string { return liteName + "(" + strings.Join(k, ", ") + ")" })
}

// clone copies e's node (not its kids).
func (e *expr) clone() *expr {
	c := *e
	c.kids = append([]*expr(nil), e.kids...)
	return &c
}

// replaceNode returns a copy of root with target replaced by with.
func replaceNode(root, target, with *expr) *expr {
	if root == target {
		return with
	}
	for i, k := range root.kids {
		if n := replaceNode(k, target, with); n != k {
			c := root.clone()
			c.kids[i] = n
			return c
		}
	}
	return root
}

// simplifications lists copies of root in which one node is replaced by a
// strictly smaller descendant that can stand in for it (same type, flags
// no weaker), smallest trees first is not guaranteed; shallow nodes first.
func simplifications(root *expr) []*expr {
	var out []*expr
	root.walk(func(n *expr) {
		for _, k := range n.kids {
			k.walk(func(d *expr) {
				if canReplace(n, d) {
					out = append(out, replaceNode(root, n, d))
				}
			})
		}
	})
	return out
}

func canReplace(orig, with *expr) bool {
	return orig.t == with.t && orig.agg == with.agg && orig.approx == with.approx &&
		(!orig.small || with.small) && (!orig.ascii || with.ascii)
}

// isConst reports whether e reads no column and no aggregate. ORDER BY and
// GROUP BY read an integer constant as an ordinal (SQLite even -(3)), so
// constants are referred to by ordinal or left out.
func (e *expr) isConst() bool {
	c := !e.agg
	e.walk(func(n *expr) { c = c && !isColumn(n) })
	return c
}
