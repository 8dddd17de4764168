package ddbexpr_test

import (
	"context"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/ddbsql/ddbsql/planner/ddbexpr"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

func TestAnalyzeLike(t *testing.T) {
	tests := []struct {
		pattern, prefix string
		kind            ddbexpr.LikeKind
	}{
		{"", "", ddbexpr.LikeExact},
		{"abc", "abc", ddbexpr.LikeExact},
		{"abc%", "abc", ddbexpr.LikePrefix},
		{"abc%%%", "abc", ddbexpr.LikePrefix},
		{"%", "", ddbexpr.LikePrefix},
		{"%%", "", ddbexpr.LikePrefix},
		{"%abc", "", ddbexpr.LikeOther},
		{"a%c", "a", ddbexpr.LikeOther},
		{"a%c%", "a", ddbexpr.LikeOther},
		{"a_c", "a", ddbexpr.LikeOther},
		{"_", "", ddbexpr.LikeOther},
		{"abc_%", "abc", ddbexpr.LikeOther},
		{`a\%b`, "a%b", ddbexpr.LikeExact}, // escaped wildcards are literal
		{`a\_b`, "a_b", ddbexpr.LikeExact},
		{`a\%b%`, "a%b", ddbexpr.LikePrefix},
		{`a\\%`, `a\`, ddbexpr.LikePrefix}, // an escaped backslash, then %
		{`a\\`, `a\`, ddbexpr.LikeExact},
		{`a\`, `a\`, ddbexpr.LikeExact}, // a trailing backslash is literal
		{`\a`, "a", ddbexpr.LikeExact},  // escaping a plain character
		{`ab%\%`, "ab", ddbexpr.LikeOther},
		{`ab%\`, "ab", ddbexpr.LikeOther},
		{"GSI1#PK%", "GSI1#PK", ddbexpr.LikePrefix},
		{"日本%", "日本", ddbexpr.LikePrefix},
		{"é_", "é", ddbexpr.LikeOther},
	}
	for _, tc := range tests {
		prefix, kind := ddbexpr.AnalyzeLike(tc.pattern)
		if prefix != tc.prefix || kind != tc.kind {
			t.Errorf("AnalyzeLike(%q) = %q, %d; want %q, %d", tc.pattern, prefix, kind, tc.prefix, tc.kind)
		}
	}
}

// built renders a name as the SDK sends it: the expression text and the
// placeholder map.
func built(t *testing.T, nb expression.NameBuilder) (string, map[string]string) {
	t.Helper()
	e, err := expression.NewBuilder().WithProjection(expression.NamesList(nb)).Build()
	if err != nil {
		t.Fatalf("building %v: %v", nb, err)
	}
	return aws.ToString(e.Projection()), e.Names()
}

func path(elems ...any) value.Path { return col(elems...).Path }

func TestName(t *testing.T) {
	tests := []struct {
		path  value.Path
		text  string
		names map[string]string
	}{
		{path("a"), "#0", map[string]string{"#0": "a"}},
		{path("info", "rating"), "#0.#1", map[string]string{"#0": "info", "#1": "rating"}},
		{path("a.b"), "#0", map[string]string{"#0": "a.b"}}, // a dot inside a name is not a path
		{path("a.b", "c.d"), "#0.#1", map[string]string{"#0": "a.b", "#1": "c.d"}},
		{path("my-attr"), "#0", map[string]string{"#0": "my-attr"}},
		{path("GSI1#PK"), "#0", map[string]string{"#0": "GSI1#PK"}},
		{path("#0"), "#0", map[string]string{"#0": "#0"}},
		{path(":v"), "#0", map[string]string{"#0": ":v"}},
		{path("status"), "#0", map[string]string{"#0": "status"}}, // a reserved word
		{path("tags", 0), "#0[0]", map[string]string{"#0": "tags"}},
		{path("m", 10, 2, "x"), "#0[10][2].#1", map[string]string{"#0": "m", "#1": "x"}},
		{path("a", "b", 3, "c-d", "e.f"), "#0.#1[3].#2.#3", map[string]string{"#0": "a", "#1": "b", "#2": "c-d", "#3": "e.f"}},
		{path("x", "x"), "#0.#0", map[string]string{"#0": "x"}},
		{path("日本", "é"), "#0.#1", map[string]string{"#0": "日本", "#1": "é"}},
		{path("sp ace"), "#0", map[string]string{"#0": "sp ace"}},
	}
	for _, tc := range tests {
		nb, ok := ddbexpr.Name(tc.path)
		if !ok {
			t.Errorf("Name(%s) refused", tc.path)
			continue
		}
		text, names := built(t, nb)
		if text != tc.text || !reflect.DeepEqual(names, tc.names) {
			t.Errorf("Name(%s) = %s %v; want %s %v", tc.path, text, names, tc.text, tc.names)
		}
	}
	for _, p := range []value.Path{path("a[0]"), path("a", "b]"), path("["), path(""), path("a", ""), nil, path(0)} {
		if _, ok := ddbexpr.Name(p); ok {
			t.Errorf("Name(%q) accepted a name the SDK cannot express", p.Plain())
		}
	}
}

func TestReducePaths(t *testing.T) {
	a, ab, abc, a0, a0b, b := path("a"), path("a", "b"), path("a", "b", "c"), path("a", 0), path("a", 0, "b"), path("b")
	dotted := path("a.b")
	tests := []struct {
		in, want []value.Path
	}{
		{nil, nil},
		{[]value.Path{a}, []value.Path{a}},
		{[]value.Path{a, a}, []value.Path{a}},
		{[]value.Path{ab, a}, []value.Path{a}},
		{[]value.Path{a, ab, abc}, []value.Path{a}},
		{[]value.Path{abc, ab, b}, []value.Path{ab, b}},
		{[]value.Path{ab, ab, abc, b, b}, []value.Path{ab, b}},
		{[]value.Path{a0b, a0, b}, []value.Path{a0, b}},
		{[]value.Path{a0, ab}, []value.Path{a0, ab}},
		{[]value.Path{dotted, ab}, []value.Path{dotted, ab}}, // `a.b` is another attribute
		{[]value.Path{b, abc, a0}, []value.Path{b, abc, a0}},
	}
	for _, tc := range tests {
		got := ddbexpr.ReducePaths(tc.in)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ReducePaths(%v) = %v, want %v", tc.in, got, tc.want)
		}
		// No path of the result covers another, and every input is covered.
		for i, p := range got {
			for j, q := range got {
				if i != j && p.Covers(q) {
					t.Errorf("ReducePaths(%v): %s covers %s", tc.in, p, q)
				}
			}
		}
		for _, p := range tc.in {
			covered := false
			for _, q := range got {
				covered = covered || q.Covers(p)
			}
			if !covered {
				t.Errorf("ReducePaths(%v) lost %s", tc.in, p)
			}
		}
	}
}

func TestProjection(t *testing.T) {
	pb, ok := ddbexpr.Projection([]value.Path{path("a.b"), path("tags", 1), path("m", "x")})
	if !ok {
		t.Fatal("Projection refused")
	}
	e, err := expression.NewBuilder().WithProjection(pb).Build()
	if err != nil {
		t.Fatal(err)
	}
	if got := aws.ToString(e.Projection()); got != "#0, #1[1], #2.#3" {
		t.Errorf("projection %s", got)
	}
	if want := map[string]string{"#0": "a.b", "#1": "tags", "#2": "m", "#3": "x"}; !reflect.DeepEqual(e.Names(), want) {
		t.Errorf("names %v", e.Names())
	}
	if _, ok := ddbexpr.Projection(nil); ok {
		t.Error("an empty projection must be refused")
	}
	if _, ok := ddbexpr.Projection([]value.Path{path("a"), path("b[")}); ok {
		t.Error("a projection with an inexpressible name must be refused")
	}
}

func s(v string) expr.Literal { return lit(value.Str(v)) }
func n(v string) expr.Literal { return lit(num(v)) }
func fn(name string, args ...expr.Expr) expr.Func {
	return expr.Func{Name: name, Args: args}
}
func cmp(op expr.Op, l, r expr.Expr) expr.Binary { return expr.Binary{Op: op, L: l, R: r} }
func not(x expr.Expr) expr.Unary                 { return expr.Unary{Op: expr.OpNot, X: x} }

// Predicates Condition must leave to the client.
func TestConditionRefuses(t *testing.T) {
	other := expr.Column{Source: 1, Path: path("a")}
	many := make([]expr.Expr, 101)
	for i := range many {
		many[i] = n("1")
	}
	tests := []expr.Expr{
		col("a"),                       // a bare column
		lit(value.BoolOf(true)),        // a constant
		cmp(expr.OpEq, n("1"), n("1")), // constant comparison
		cmp(expr.OpEq, col("a"), lit(value.NullValue())),
		cmp(expr.OpEq, col("a"), other),          // another FROM item
		cmp(expr.OpEq, col("a"), col("a")),       // DynamoDB: operands must be distinct
		cmp(expr.OpLt, col("a", 0), col("a", 0)), // … also for nested paths
		// A list index stays on the client: on a set DynamoDB finds no
		// element and drops the item, ddbsql reports an error.
		cmp(expr.OpLt, col("a"), col("b", 0)),
		cmp(expr.OpEq, col("tags", 0), s("x")),
		expr.IsNull{X: col("l", 1)},
		fn("attribute_exists", col("l", 0)),
		cmp(expr.OpLt, col("a"), lit(value.BoolOf(true))),
		cmp(expr.OpGe, col("a"), lit(value.SetOf(value.StringSet, []value.Value{value.Str("x")}))),
		cmp(expr.OpLt, col("a"), lit(value.ListOf(nil))),
		cmp(expr.OpEq, col("a"), s("\xff")), // not valid UTF-8
		cmp(expr.OpAdd, col("a"), n("1")),
		cmp(expr.OpEq, cmp(expr.OpAdd, col("a"), n("1")), n("2")),
		cmp(expr.OpEq, fn("lower", col("a")), s("x")),
		cmp(expr.OpEq, fn("size", n("1")), n("1")),
		cmp(expr.OpAnd, col("a"), cmp(expr.OpEq, col("b"), n("1"))),
		cmp(expr.OpOr, cmp(expr.OpEq, col("b"), n("1")), cmp(expr.OpEq, col("a"), other)),
		not(cmp(expr.OpEq, fn("size", col("a")), n("1"))), // size() is NULL where DynamoDB says false
		not(cmp(expr.OpAnd, cmp(expr.OpGt, fn("size", col("a")), n("1")), cmp(expr.OpEq, col("b"), n("1")))),
		not(lit(value.BoolOf(true))),
		expr.Unary{Op: expr.OpNeg, X: col("a")},
		not(expr.Unary{Op: expr.OpNeg, X: col("a")}),
		expr.In{X: col("a"), List: nil},
		expr.In{X: col("a"), List: many},
		expr.In{X: col("a"), List: []expr.Expr{n("1"), lit(value.NullValue())}},
		expr.In{X: col("a"), List: []expr.Expr{n("1"), col("b")}},
		expr.In{X: fn("size", col("a")), List: []expr.Expr{n("1")}},
		expr.Between{X: col("a"), Lo: n("2"), Hi: n("1")}, // bounds out of order
		expr.Between{X: col("a"), Lo: n("1"), Hi: s("2")}, // mixed types
		expr.Between{X: col("a"), Lo: lit(value.BoolOf(false)), Hi: lit(value.BoolOf(true))},
		expr.Between{X: col("a"), Lo: col("b"), Hi: n("3")},
		expr.Between{X: col("a"), Lo: lit(value.NullValue()), Hi: n("3")},
		expr.Like{X: col("a"), Pattern: s("a_c")},
		expr.Like{X: col("a"), Pattern: s("%c")},
		expr.Like{X: col("a"), Pattern: n("1")},
		expr.Like{X: col("a"), Pattern: col("b")},
		expr.Like{X: s("abc"), Pattern: s("a%")},
		expr.IsNull{X: s("x")},
		expr.IsNull{X: fn("size", col("a"))},
		fn("begins_with", col("a"), s("")),
		fn("begins_with", col("a"), n("1")),
		fn("begins_with", col("a"), col("b")),
		fn("begins_with", col("a")),
		fn("contains", col("a"), lit(value.ListOf(nil))),
		fn("contains", col("a"), lit(value.BoolOf(true))),
		fn("contains", col("a"), col("b")),
		fn("attribute_exists", s("a")),
		fn("attribute_exists", col("a"), col("b")),
		fn("attribute_type", col("a"), s("X")),
		fn("attribute_type", col("a"), col("b")),
		fn("attribute_type", col("a")),
		fn("item_size"),
		fn("size", col("a")),
		expr.Case{Whens: []expr.When{{Cond: cmp(expr.OpEq, col("a"), n("1")), Result: lit(value.BoolOf(true))}}},
		expr.Cast{X: col("a"), To: value.Number},
	}
	for _, pred := range tests {
		if _, ok := ddbexpr.Condition(pred, 0); ok {
			t.Errorf("Condition(%s) translated a predicate it must leave to the client", pred)
		}
	}
	if _, ok := ddbexpr.Condition(cmp(expr.OpEq, other, n("1")), 0); ok {
		t.Error("a column of FROM item 1 translated for source 0")
	}
	if _, ok := ddbexpr.Condition(cmp(expr.OpEq, other, n("1")), 1); !ok {
		t.Error("a column of FROM item 1 refused for source 1")
	}
}

// The exact shape of a few translations: guards go where SQL and DynamoDB
// differ, and nowhere else.
func TestConditionShapes(t *testing.T) {
	tests := []struct {
		pred expr.Expr
		want string // filter text with placeholders replaced by names and values
	}{
		{cmp(expr.OpEq, col("a"), n("1")), "a = 1"},
		{cmp(expr.OpLt, n("1"), col("a")), "1 < a"},
		{cmp(expr.OpNe, col("a"), n("1")), "(attribute_exists (a)) AND (NOT (attribute_type (a, NULL))) AND (a <> 1)"},
		{cmp(expr.OpEq, col("a"), col("b")), "(attribute_exists (a)) AND (NOT (attribute_type (a, NULL))) AND (attribute_exists (b)) AND (NOT (attribute_type (b, NULL))) AND (a = b)"},
		{cmp(expr.OpGt, fn("size", col("a")), n("2")), "size (a) > 2"},
		{cmp(expr.OpNe, fn("size", col("a")), n("2")), "((attribute_type (a, S)) OR (attribute_type (a, B)) OR (attribute_type (a, SS)) OR (attribute_type (a, NS)) OR (attribute_type (a, BS)) OR (attribute_type (a, L)) OR (attribute_type (a, M))) AND (size (a) <> 2)"},
		{expr.IsNull{X: col("a")}, "(attribute_not_exists (a)) OR (attribute_type (a, NULL))"},
		{expr.IsNull{X: col("a"), Not: true}, "(attribute_exists (a)) AND (NOT (attribute_type (a, NULL)))"},
		{expr.Like{X: col("a"), Pattern: s("ab%")}, "begins_with (a, ab)"},
		{expr.Like{X: col("a"), Pattern: s(`a\%`)}, "a = a%"},
		{expr.Like{X: col("a"), Pattern: s("%")}, "attribute_type (a, S)"},
		{expr.Like{X: col("a"), Pattern: s("ab%"), Not: true}, "(attribute_exists (a)) AND (NOT (attribute_type (a, NULL))) AND (NOT (begins_with (a, ab)))"},
		{expr.In{X: col("a"), List: []expr.Expr{n("1"), s("x")}}, "a IN (1, x)"},
		{expr.In{X: col("a"), List: []expr.Expr{n("1")}, Not: true}, "(attribute_exists (a)) AND (NOT (attribute_type (a, NULL))) AND (NOT (a IN (1)))"},
		{expr.Between{X: col("a"), Lo: n("1"), Hi: n("1")}, "a BETWEEN 1 AND 1"},
		{not(fn("attribute_exists", col("a"))), "NOT (attribute_exists (a))"},
		{not(fn("contains", col("a"), s("x"))), "NOT (contains (a, x))"},
		{not(not(cmp(expr.OpEq, col("a"), n("1")))), "a = 1"},
		{not(cmp(expr.OpOr, expr.IsNull{X: col("a")}, fn("begins_with", col("b"), s("p")))),
			"((attribute_exists (a)) AND (NOT (attribute_type (a, NULL)))) AND (NOT (begins_with (b, p)))"},
		{fn("attribute_type", col("m", "k"), s("NS")), "attribute_type (m.k, NS)"},
	}
	for _, tc := range tests {
		cond, ok := ddbexpr.Condition(tc.pred, 0)
		if !ok {
			t.Errorf("Condition(%s) refused", tc.pred)
			continue
		}
		e, err := expression.NewBuilder().WithFilter(cond).Build()
		if err != nil {
			t.Errorf("Condition(%s): %v", tc.pred, err)
			continue
		}
		if got := readable(e); got != tc.want {
			t.Errorf("Condition(%s)\n got %s\nwant %s", tc.pred, got, tc.want)
		}
	}
}

// readable substitutes placeholders, longest first, so #10 is not read as #1.
func readable(e expression.Expression) string {
	text := aws.ToString(e.Filter())
	type sub struct{ from, to string }
	var subs []sub
	for k, v := range e.Names() {
		subs = append(subs, sub{k, v})
	}
	for k, av := range e.Values() {
		v, _ := value.FromAttributeValue(av)
		subs = append(subs, sub{k, value.Display(v)})
	}
	sort.Slice(subs, func(i, j int) bool { return len(subs[i].from) > len(subs[j].from) })
	for _, s := range subs {
		text = strings.ReplaceAll(text, s.from, s.to)
	}
	return text
}

// The cases the generated test found, pinned against dynalite: each was
// translated into a filter that kept the wrong items or that DynamoDB
// rejected.
func TestConditionRegressionsAgainstDynalite(t *testing.T) {
	items := []value.Value{
		value.MapOf(map[string]value.Value{"pk": value.Str("P"), "sk": num("0"),
			"a": value.NullValue(), "b": value.NullValue(), "n": num("5"), "f": value.BoolOf(false), "g": value.BoolOf(true),
			"ns": value.SetOf(value.NumberSet, []value.Value{num("1")}), "ms": value.SetOf(value.NumberSet, []value.Value{num("2")})}),
		value.MapOf(map[string]value.Value{"pk": value.Str("P"), "sk": num("1"),
			"a": num("1"), "b": num("1"), "n": value.Str("abc"), "f": num("1"), "g": num("2")}),
		value.MapOf(map[string]value.Value{"pk": value.Str("P"), "sk": num("2"),
			"n": value.ListOf([]value.Value{value.Str("x"), value.Str("y")}), "f": value.Str("a"), "g": value.Str("b")}),
		value.MapOf(map[string]value.Value{"pk": value.Str("P"), "sk": num("3")}),
	}
	client, table := loadTable(t, items)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	preds := []expr.Expr{
		cmp(expr.OpEq, col("a"), col("b")),                         // NULL = NULL is not TRUE; nor missing = missing
		cmp(expr.OpLe, col("f"), col("g")),                         // BOOLs are not ordered
		cmp(expr.OpGt, col("ms"), col("ns")),                       // nor are sets
		cmp(expr.OpGe, col("x"), col("y")),                         // nor missing attributes
		cmp(expr.OpNe, fn("size", col("n")), n("3")),               // size(N) is NULL
		cmp(expr.OpEq, fn("size", col("a")), fn("size", col("b"))), // NULL sizes are not equal
		cmp(expr.OpEq, fn("size", col("x")), col("y")),             // missing vs missing
		cmp(expr.OpNe, col("a"), col("b")),
		cmp(expr.OpEq, col("f"), col("g")),
		not(cmp(expr.OpLt, col("f"), col("g"))),
		cmp(expr.OpLt, col("f"), col("g")),
	}
	for _, pred := range preds {
		cond, ok := ddbexpr.Condition(pred, 0)
		if !ok {
			t.Errorf("Condition(%s) refused", pred)
			continue
		}
		want, err := expected(pred, items)
		if err != nil {
			t.Fatal(err)
		}
		got, e, err := scanFilter(ctx, client, table, cond)
		if err != nil {
			t.Errorf("%s: %s: %v", pred, describeExpression(e), err)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s\n  filter %s\n  DynamoDB kept %v, the evaluator %v", pred, describeExpression(e), got, want)
		}
	}
}
