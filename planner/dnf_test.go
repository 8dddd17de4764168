package planner

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// truth3 is SQL's three-valued truth, evaluated here independently of the
// planner's rewrites (and of exec, a higher layer).
type truth3 uint8

const (
	f3 truth3 = iota
	t3
	u3
)

func and3(a, b truth3) truth3 {
	switch {
	case a == f3 || b == f3:
		return f3
	case a == u3 || b == u3:
		return u3
	}
	return t3
}

func or3(a, b truth3) truth3 {
	switch {
	case a == t3 || b == t3:
		return t3
	case a == u3 || b == u3:
		return u3
	}
	return f3
}

func not3(a truth3) truth3 {
	switch a {
	case t3:
		return f3
	case f3:
		return t3
	}
	return u3
}

// eval3 evaluates the shapes the generator draws; row maps a column to an
// integer, or to nothing (NULL).
func eval3(t *testing.T, e expr.Expr, row map[string]int) truth3 {
	eq := func(c expr.Expr, lit expr.Expr) truth3 {
		v, ok := row[c.String()]
		if !ok {
			return u3
		}
		if fmt.Sprint(v) == lit.String() {
			return t3
		}
		return f3
	}
	switch n := e.(type) {
	case expr.Binary:
		switch n.Op {
		case expr.OpAnd:
			return and3(eval3(t, n.L, row), eval3(t, n.R, row))
		case expr.OpOr:
			return or3(eval3(t, n.L, row), eval3(t, n.R, row))
		case expr.OpEq:
			if _, ok := n.L.(expr.Column); ok {
				return eq(n.L, n.R)
			}
			return eq(n.R, n.L)
		}
	case expr.Unary:
		return not3(eval3(t, n.X, row))
	case expr.In:
		out := f3
		for _, l := range n.List {
			out = or3(out, eq(n.X, l))
		}
		if n.Not {
			return not3(out)
		}
		return out
	}
	t.Fatalf("eval3: unexpected %T %s", e, e)
	return u3
}

var dnfColumns = []string{"x", "y", "z"}

// anyColumn merges equalities on every column, to test merging widely.
var anyColumn = normalizer{max: maxOrBranches, mergeable: func(expr.Column) bool { return true }}

func genPred(r *rand.Rand, depth int) expr.Expr {
	col := expr.Column{Path: value.Path{{Name: dnfColumns[r.IntN(len(dnfColumns))]}}}
	lit := func() expr.Expr { return expr.Literal{Value: value.NumTrusted(fmt.Sprint(1 + r.IntN(3)))} }
	if depth > 0 {
		switch r.IntN(6) {
		case 0, 1:
			return expr.Binary{Op: expr.OpAnd, L: genPred(r, depth-1), R: genPred(r, depth-1)}
		case 2, 3:
			return expr.Binary{Op: expr.OpOr, L: genPred(r, depth-1), R: genPred(r, depth-1)}
		case 4:
			return expr.Unary{Op: expr.OpNot, X: genPred(r, depth-1)}
		}
	}
	switch r.IntN(4) {
	case 0:
		in := expr.In{X: col, Not: r.IntN(4) == 0}
		for range 1 + r.IntN(3) {
			in.List = append(in.List, lit())
		}
		return in
	case 1:
		return expr.Binary{Op: expr.OpEq, L: lit(), R: col}
	}
	return expr.Binary{Op: expr.OpEq, L: col, R: lit()}
}

// TestDisjunctiveFormIsExact checks, on every assignment of NULL, 1, 2 or 3
// to the columns, that a row passes the WHERE (is TRUE) exactly when it
// passes some branch, for random predicates with AND, OR, NOT and IN.
func TestDisjunctiveFormIsExact(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	rows := allRows()
	capped := 0
	for n := 0; n < 3000; n++ {
		conjuncts := expr.Conjuncts(genPred(r, 1+r.IntN(4)))
		branches, ok := anyColumn.form(conjuncts)
		if !ok {
			capped++
			continue
		}
		for _, row := range rows {
			want := eval3(t, expr.And(conjuncts), row) == t3
			got := false
			for _, b := range branches {
				got = got || eval3(t, expr.And(b), row) == t3
			}
			if got != want {
				t.Fatalf("WHERE %s on %v: TRUE=%v, but the branches %v say %v", expr.And(conjuncts), row, want, branches, got)
			}
		}
		if f := factor(branches); len(branches) > 1 && len(f) > 0 {
			for _, row := range rows {
				if want, got := eval3(t, expr.And(conjuncts), row) == t3, eval3(t, expr.And(f), row) == t3; got != want {
					t.Fatalf("factored %s differs from %s on %v", expr.And(f), expr.And(conjuncts), row)
				}
			}
		}
	}
	if capped > 300 {
		t.Errorf("%d of 3000 predicates exceeded the branch cap: the generator no longer tests the form", capped)
	}
}

// TestDisjunctiveFormWideOrs checks the same on wide ORs of small ANDs of
// equalities and IN lists over three columns, where branches can merge
// along several columns and merges compete.
func TestDisjunctiveFormWideOrs(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	rows := allRows()
	merged := 0
	for n := 0; n < 600; n++ {
		var where expr.Expr
		width := 2 + r.IntN(60)
		for range width {
			var b expr.Expr
			for range 1 + r.IntN(3) {
				atom := genPred(r, 0)
				if b == nil {
					b = atom
				} else {
					b = expr.Binary{Op: expr.OpAnd, L: b, R: atom}
				}
			}
			if where == nil {
				where = b
			} else {
				where = expr.Binary{Op: expr.OpOr, L: where, R: b}
			}
		}
		branches, ok := anyColumn.form([]expr.Expr{where})
		if !ok {
			t.Fatalf("%d disjuncts exceeded the cap", width)
		}
		if len(branches) < width {
			merged++
		}
		for _, row := range rows {
			want := eval3(t, where, row) == t3
			got := false
			for _, b := range branches {
				got = got || eval3(t, expr.And(b), row) == t3
			}
			if got != want {
				t.Fatalf("WHERE %s on %v: TRUE=%v, but the branches %v say %v", where, row, want, branches, got)
			}
		}
	}
	if merged < 400 {
		t.Errorf("only %d of 600 ORs simplified at all: the test no longer exercises merging", merged)
	}
}

// allRows assigns NULL, 1, 2 or 3 to each column, in every combination.
func allRows() []map[string]int {
	var rows []map[string]int
	for a := 0; a < 64; a++ {
		row := map[string]int{}
		for i, c := range dnfColumns {
			if v := a >> (2 * i) & 3; v > 0 {
				row[c] = v
			}
		}
		rows = append(rows, row)
	}
	return rows
}

func TestDisjunctiveFormShapes(t *testing.T) {
	col := func(n string) expr.Column { return expr.Column{Path: value.Path{{Name: n}}} }
	eq := func(c, v string) expr.Expr {
		return expr.Binary{Op: expr.OpEq, L: col(c), R: expr.Literal{Value: value.Str(v)}}
	}
	or := func(a, b expr.Expr) expr.Expr { return expr.Binary{Op: expr.OpOr, L: a, R: b} }
	and := func(a, b expr.Expr) expr.Expr { return expr.Binary{Op: expr.OpAnd, L: a, R: b} }
	not := func(a expr.Expr) expr.Expr { return expr.Unary{Op: expr.OpNot, X: a} }
	cases := []struct {
		where expr.Expr
		want  string
	}{
		{or(eq("PK", "a"), eq("PK", "b")), "[[PK IN ('a', 'b')]]"},
		{and(eq("S", "x"), or(eq("PK", "a"), eq("PK", "b"))), "[[S = 'x' PK IN ('a', 'b')]]"},
		{or(and(eq("PK", "a"), eq("SK", "1")), and(eq("PK", "b"), eq("SK", "2"))), "[[PK = 'a' SK = '1'] [PK = 'b' SK = '2']]"},
		{or(eq("PK", "a"), and(eq("PK", "a"), eq("SK", "1"))), "[[PK = 'a']]"},
		{or(and(eq("PK", "a"), eq("SK", "1")), eq("PK", "a")), "[[PK = 'a']]"},
		{and(or(eq("A", "1"), eq("B", "1")), or(eq("C", "1"), eq("D", "1"))),
			"[[A = '1' C = '1'] [A = '1' D = '1'] [B = '1' C = '1'] [B = '1' D = '1']]"},
		{not(or(eq("PK", "a"), eq("PK", "b"))), "[[NOT (PK = 'a' OR PK = 'b')]]"},
		{or(eq("PK", "a"), not(eq("PK", "b"))), "[[PK = 'a'] [NOT (PK = 'b')]]"},
		{or(eq("PK", "a"), eq("PK", "a")), "[[PK = 'a']]"},
	}
	for _, c := range cases {
		bs, ok := anyColumn.form(expr.Conjuncts(c.where))
		if !ok {
			t.Errorf("%s: over the cap", c.where)
			continue
		}
		if got := fmt.Sprint(bs); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.where, got, c.want)
		}
	}

	// Only mergeable columns merge.
	pkOnly := normalizer{max: maxOrBranches, mergeable: func(c expr.Column) bool { return c.Path.String() == "PK" }}
	bs, _ := pkOnly.form([]expr.Expr{or(or(eq("S", "x"), eq("S", "y")), or(eq("PK", "a"), eq("PK", "b")))})
	if got, want := fmt.Sprint(bs), "[[S = 'x'] [S = 'y'] [PK IN ('a', 'b')]]"; got != want {
		t.Errorf("merging on PK only:\n got %s\nwant %s", got, want)
	}

	// Seven ORs of two unrelated conditions are 2^7 = 128 branches.
	var conj []expr.Expr
	for i := 0; i < 7; i++ {
		conj = append(conj, or(eq("PK", fmt.Sprint(i)), eq("S", fmt.Sprint(i))))
	}
	if _, ok := anyColumn.form(conj[:6]); !ok {
		t.Error("64 branches should be within the cap")
	}
	if _, ok := anyColumn.form(conj); ok {
		t.Error("128 branches should exceed the cap")
	}
	// An OR of many equalities stays one IN list at every step.
	var many expr.Expr = eq("PK", "0")
	for i := 1; i < 500; i++ {
		many = or(many, eq("PK", fmt.Sprint(i)))
	}
	if bs, ok := anyColumn.form([]expr.Expr{many}); !ok || len(bs) != 1 {
		t.Errorf("an OR of 500 equalities: %d branches, ok=%v; want one IN list", len(bs), ok)
	}
}

// BenchmarkDisjunctiveFormLongOr measures an OR of 5,000 equalities, as
// machine-written SQL has: it must stay close to linear (one IN list).
func BenchmarkDisjunctiveFormLongOr(b *testing.B) {
	col := expr.Column{Path: value.Path{{Name: "PK"}}}
	var e expr.Expr = expr.Binary{Op: expr.OpEq, L: col, R: expr.Literal{Value: value.Str("v0")}}
	for i := 1; i < 5000; i++ {
		e = expr.Binary{Op: expr.OpOr, L: e, R: expr.Binary{Op: expr.OpEq, L: col, R: expr.Literal{Value: value.Str(fmt.Sprint("v", i))}}}
	}
	for b.Loop() {
		if bs, ok := anyColumn.form([]expr.Expr{e}); !ok || len(bs) != 1 {
			b.Fatalf("%d branches, ok=%v", len(bs), ok)
		}
	}
}
