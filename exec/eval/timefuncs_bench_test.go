package eval

import (
	"testing"

	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// dateRow is an order item whose time is stored the two usual ways.
func dateRow() testRow {
	return testRow{items: []value.Value{mapv(
		"placedAt", str("2026-04-26T20:16:42.123Z"),
		"epoch", num("1777234602"),
		"status", str("REVIEW"),
		"sku", str("AB-12345"),
	)}}
}

func benchDateRow(b *testing.B, e expr.Expr) {
	row := dateRow()
	b.ReportAllocs()
	for b.Loop() {
		if v, err := Eval(e, &row); err != nil || v.IsNull() {
			b.Fatalf("%s = %v, %v", e, v.JSON(), err)
		}
	}
}

// BenchmarkDateLowerBaseline is a one-argument string function, for ratios.
func BenchmarkDateLowerBaseline(b *testing.B) { benchDateRow(b, fn("lower", col("status"))) }
func BenchmarkDateTruncMonth(b *testing.B) {
	benchDateRow(b, fn("date_trunc", litS("month"), col("placedAt")))
}
func BenchmarkDatePartWeek(b *testing.B) {
	benchDateRow(b, fn("date_part", litS("week"), col("placedAt")))
}
func BenchmarkDatePartEpoch(b *testing.B) {
	benchDateRow(b, fn("date_part", litS("hour"), col("epoch")))
}
func BenchmarkDateAddMonth(b *testing.B) {
	benchDateRow(b, fn("date_add", litS("month"), litN("1"), col("placedAt")))
}
func BenchmarkDateFormat(b *testing.B) {
	benchDateRow(b, fn("date_format", col("placedAt"), litS("%Y-%m-%d %H:%i")))
}
func BenchmarkToUnixtime(b *testing.B) { benchDateRow(b, fn("to_unixtime", col("placedAt"))) }
func BenchmarkRegexpLike(b *testing.B) {
	benchDateRow(b, fn("regexp_like", col("sku"), litS(`^[A-Z]+-\d+$`)))
}
func BenchmarkReplace(b *testing.B) { benchDateRow(b, fn("replace", col("sku"), litS("-"), litS(""))) }
