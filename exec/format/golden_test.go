package format

import (
	"testing"

	"github.com/ddbsql/ddbsql/planner/value"
)

// typesFixture covers every DynamoDB type, awkward strings and exact
// numbers, in two batches whose columns are encoded differently (n is
// decimal text, then int64; flag is bool, then mixed).
func typesFixture(t *testing.T) (Header, []batch) {
	names := []string{"PK", "n", "s", "b", "flag", "doc"}
	b1 := batch{names: names, rows: [][]value.Value{
		{str("user#1"), num(t, "12345678901234567890123456789012345678"), str(`say "hi", bye`), bin("\x00\x01\x02\xff"), value.BoolOf(true),
			value.MapOf(map[string]value.Value{"tags": value.SetOf(value.StringSet, []value.Value{str("x"), str("y")}), "a": num(t, "1"), "z": null, "b": bin("hi")})},
		{str("user#2"), num(t, "-0.000001"), str("line1\nline2\ttab|pipe\\back"), missing, value.BoolOf(false),
			value.ListOf([]value.Value{str("日本語"), num(t, "1.5"), value.BoolOf(true), null, value.ListOf(nil), value.MapOf(nil)})},
		{str("ユーザー😀"), num(t, "0"), str(""), bin(""), missing, null},
		{str("user#4"), missing, str("a\r\nb\x1b[31mred"), bin("DDB"), missing, value.SetOf(value.NumberSet, []value.Value{num(t, "1"), num(t, "2.5")})},
	}}
	b2 := batch{names: names, rows: [][]value.Value{
		{str("user#5"), num(t, "-42"), str("comma,only"), missing, null, value.SetOf(value.BinarySet, []value.Value{bin("\x01"), bin("\x02")})},
		{str("user#6"), num(t, "9007199254740993"), str(" lead space"), missing, value.BoolOf(true), str("plain <&> text")},
	}}
	empty := batch{names: names}
	return Header{Columns: names}, []batch{b1, empty, b2}
}

func TestGoldenTypes(t *testing.T) {
	h, batches := typesFixture(t)
	golden(t, "types", h, batches...)
}

// dynamicFixture is SELECT * over items with different attributes per batch.
func dynamicFixture(t *testing.T) (Header, []batch) {
	b1 := batch{names: []string{"SK", "PK", "zeta", "alpha"}, rows: [][]value.Value{
		{str("1"), str("a"), num(t, "1"), missing},
		{str("2"), str("a"), missing, str("x")},
	}}
	b2 := batch{names: []string{"PK", "SK", "Ω", "beta", "Zed"}, rows: [][]value.Value{
		{str("b"), str("1"), str("omega"), value.MapOf(map[string]value.Value{"k": value.ListOf([]value.Value{num(t, "-1E-5")})}), value.BoolOf(true)},
		{str("b"), str("2"), missing, null, missing},
	}}
	return Header{Dynamic: true, KeyColumns: []string{"PK", "SK"}}, []batch{b1, b2}
}

func TestGoldenDynamic(t *testing.T) {
	h, batches := dynamicFixture(t)
	golden(t, "dynamic", h, batches...)
}

func TestGoldenEmpty(t *testing.T) {
	golden(t, "empty", Header{Columns: []string{"PK", "count"}})
}

func TestGoldenEmptyZeroRowBatch(t *testing.T) {
	golden(t, "empty_batch", Header{Columns: []string{"PK", "count"}}, batch{names: []string{"PK", "count"}})
}

func TestGoldenEmptyDynamic(t *testing.T) {
	golden(t, "empty_dynamic", Header{Dynamic: true, KeyColumns: []string{"PK", "SK"}})
}

// setsFixture puts each kind of set beside a list of the same members, and
// repeats a column name: sets must not read as lists in the text formats,
// and duplicate names get the same suffix everywhere.
func setsFixture(t *testing.T) (Header, []batch) {
	names := []string{"SK", "tags", "tagList", "nums", "bins", "SK"}
	b := batch{names: names, rows: [][]value.Value{
		{str("a"), value.SetOf(value.StringSet, []value.Value{str("x"), str("it's")}),
			value.ListOf([]value.Value{str("x"), str("it's")}),
			value.SetOf(value.NumberSet, []value.Value{num(t, "1"), num(t, "-2.5")}),
			value.SetOf(value.BinarySet, []value.Value{bin("\x01\x02"), bin("hi")}), str("b")},
		{str("c"), value.SetOf(value.StringSet, []value.Value{str("a|b")}), value.ListOf(nil),
			value.ListOf([]value.Value{value.SetOf(value.NumberSet, []value.Value{num(t, "3")})}), missing, null},
	}}
	return Header{Columns: names}, []batch{b}
}

func TestGoldenSets(t *testing.T) {
	h, batches := setsFixture(t)
	golden(t, "sets", h, batches...)
}
