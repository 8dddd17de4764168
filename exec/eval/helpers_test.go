package eval

import (
	"errors"
	"testing"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// testRow is a Row over whole items (one per FROM item) and input columns.
type testRow struct {
	items  []value.Value
	refs   []value.Value
	noItem bool // Item reports false, as for a projected row
}

func (r testRow) Attr(id expr.ColumnID) value.Value {
	c, ok := testColumnOf[id]
	if !ok || c.source >= len(r.items) {
		return value.MissingValue()
	}
	return r.items[c.source].Attr(c.attr)
}

// testColumn is what a test's column ID stands for, as the planner's
// numbering would give it.
type testColumn struct {
	source int
	attr   string
}

var (
	testColumnID = map[testColumn]expr.ColumnID{}
	testColumnOf = map[expr.ColumnID]testColumn{}
)

// columnID numbers attribute attr of FROM item source, one ID per pair.
func columnID(source int, attr string) expr.ColumnID {
	k := testColumn{source: source, attr: attr}
	if id, ok := testColumnID[k]; ok {
		return id
	}
	id := expr.ColumnID(len(testColumnID) + 1)
	testColumnID[k], testColumnOf[id] = id, k
	return id
}

func (r testRow) Item(source int) (value.Value, bool) {
	if r.noItem || source >= len(r.items) {
		return value.Value{}, false
	}
	return r.items[source], true
}

func (r testRow) Ref(i int) value.Value {
	if i >= len(r.refs) {
		return value.MissingValue()
	}
	return r.refs[i]
}

// Value constructors.

func num(s string) value.Value {
	v, err := value.Num(s)
	if err != nil {
		panic(err)
	}
	return v
}

func str(s string) value.Value           { return value.Str(s) }
func boolv(b bool) value.Value           { return value.BoolOf(b) }
func bin(b ...byte) value.Value          { return value.Bin(b) }
func null() value.Value                  { return value.NullValue() }
func missing() value.Value               { return value.MissingValue() }
func list(vs ...value.Value) value.Value { return value.ListOf(vs) }

func set(kind value.Kind, vs ...value.Value) value.Value { return value.SetOf(kind, vs) }

func mapv(kv ...any) value.Value {
	m := map[string]value.Value{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1].(value.Value)
	}
	return value.MapOf(m)
}

// Expression constructors.

func col(path ...any) expr.Column { return colOf(0, path...) }

// colOf reads a path of FROM item source.
func colOf(source int, path ...any) expr.Column {
	var p value.Path
	for _, e := range path {
		switch t := e.(type) {
		case string:
			p = append(p, value.PathElem{Name: t})
		case int:
			p = append(p, value.PathElem{Index: t, IsIndex: true})
		}
	}
	return expr.Column{Source: source, Path: p, ID: columnID(source, p[0].Name)}
}

func lit(v value.Value) expr.Literal { return expr.Literal{Value: v} }
func litS(s string) expr.Literal     { return lit(str(s)) }
func litN(s string) expr.Literal     { return lit(num(s)) }
func litNull() expr.Literal          { return lit(null()) }

func bop(op expr.Op, l, r expr.Expr) expr.Binary  { return expr.Binary{Op: op, L: l, R: r} }
func fn(name string, args ...expr.Expr) expr.Func { return expr.Func{Name: name, Args: args} }

// fixture is the item most tests evaluate against.
func fixture() testRow {
	return testRow{items: []value.Value{mapv(
		"status", str("REVIEW"),
		"total", num("150"),
		"price", num("12.50"),
		"big", num("99999999999999999999999999999999999999"),
		"tiny", num("-0.000001"),
		"flag", boolv(true),
		"off", boolv(false),
		"nul", null(),
		"name", str("Zoë"),
		"bin", bin(1, 2, 3),
		"tags", set(value.StringSet, str("a"), str("b")),
		"nums", set(value.NumberSet, num("1"), num("2.5")),
		"bins", set(value.BinarySet, bin(1), bin(2)),
		"list", list(str("x"), num("1"), null()),
		"info", mapv("rating", num("5"), "city", str("Kyoto")),
		"zero", num("0"),
		"empty", str(""),
	)}, refs: []value.Value{num("7"), str("r1")}}
}

// evalCase is one table-driven evaluation.
type evalTest struct {
	name string
	e    expr.Expr
	want value.Value
	code diag.Code // expected error code; empty for success
}

func runEval(t *testing.T, tests []evalTest) {
	t.Helper()
	row := fixture()
	for _, tc := range tests {
		name := tc.name
		if name == "" {
			name = tc.e.String()
		}
		t.Run(name, func(t *testing.T) {
			got, err := Eval(tc.e, row)
			if tc.code != "" {
				var ee *diag.Error
				if !errors.As(err, &ee) || ee.Phase != diag.Evaluate || ee.Code != tc.code {
					t.Fatalf("Eval(%s) = %v, %v; want error code %q", tc.e, got.JSON(), err, tc.code)
				}
				return
			}
			if err != nil {
				t.Fatalf("Eval(%s): unexpected error %v", tc.e, err)
			}
			if !same(got, tc.want) {
				t.Fatalf("Eval(%s) = %s %s; want %s %s", tc.e, got.Kind(), got.JSON(), tc.want.Kind(), tc.want.JSON())
			}
		})
	}
}

// same is exact identity for test purposes: same kind, and for scalars the
// same text (numbers must be canonical).
func same(a, b value.Value) bool {
	if a.Kind() != b.Kind() {
		return false
	}
	switch a.Kind() {
	case value.Missing, value.Null:
		return true
	case value.String, value.Number, value.Binary:
		return a.Text() == b.Text()
	}
	return value.Equal(a, b)
}

func errCode(err error) diag.Code {
	var ee *diag.Error
	if errors.As(err, &ee) && ee.Phase == diag.Evaluate {
		return ee.Code
	}
	if err != nil {
		return diag.Code("?" + err.Error())
	}
	return ""
}
