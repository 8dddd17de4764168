package duckdbtest

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestExactValues checks the JSON forms the package promises, in one batch
// that also shows statements sharing one database.
func TestExactValues(t *testing.T) {
	got := QueryAll(t, []string{
		"CREATE TABLE t AS SELECT 12345678901234567890123456789012345678::DECIMAL(38,0) AS big, 0.1::DECIMAL(38,20) AS small",
		"SELECT big, small, 7::BIGINT AS b, 4 AS i, 1.5::DOUBLE AS d, 'x' AS s, true AS bo, NULL AS n, [1, 2] AS l, {'a': 'z'} AS st FROM t",
		"SELECT 1 AS one WHERE false",
	})
	want := map[string]any{
		"big": "12345678901234567890123456789012345678", "small": "0.10000000000000000000",
		"b": "7", "i": json.Number("4"), "d": json.Number("1.5"), "s": "x", "bo": true, "n": nil,
		"l": []any{json.Number("1"), json.Number("2")}, "st": map[string]any{"a": "z"},
	}
	if len(got) != 3 || len(got[1]) != 1 || !reflect.DeepEqual(got[1][0], want) {
		t.Fatalf("got %#v\nwant %#v", got, want)
	}
	if len(got[2]) != 0 {
		t.Fatalf("empty result: got %v rows", got[2])
	}
}

// TestErrorsNameTheStatement checks that a rejected statement is reported
// with DuckDB's message while the rest of the batch still answers.
func TestErrorsNameTheStatement(t *testing.T) {
	results, err := run([]string{"SELECT nosuch FROM range(1)", "SELECT 2 AS two"})
	if err != nil {
		t.Fatal(err)
	}
	if results[0].Error == nil || !strings.Contains(*results[0].Error, "nosuch") {
		t.Fatalf("first statement: want an error naming nosuch, got %+v", results[0])
	}
	if results[1].Error != nil || len(results[1].Rows) != 1 || results[1].Rows[0]["two"] != json.Number("2") {
		t.Fatalf("second statement: got %+v", results[1])
	}
}
