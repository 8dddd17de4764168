package eval

import (
	"testing"

	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// orderRow is a typical order item from a single-table design.
func orderRow() testRow {
	return testRow{items: []value.Value{mapv(
		"PK", str("USER#u_001"),
		"SK", str("ORDER#2024-05-01#o_123"),
		"status", str("REVIEW"),
		"total", num("150"),
		"amount", num("149.99"),
		"tags", set(value.StringSet, str("gift"), str("rush")),
		"note", str("leave at the door"),
	)}}
}

var (
	statusAndTotal = bop(expr.OpAnd,
		bop(expr.OpEq, col("status"), litS("REVIEW")),
		bop(expr.OpGt, col("total"), litN("100")))
	beginsWithSK = fn("begins_with", col("SK"), litS("ORDER#2024"))
	likeNote     = expr.Like{X: col("note"), Pattern: litS("%the%door")}
	inStatus     = expr.In{X: col("status"), List: []expr.Expr{litS("NEW"), litS("PAID"), litS("REVIEW")}}
	decimalCmp   = bop(expr.OpGe, col("amount"), litN("99.5"))
	orMissing    = bop(expr.OpOr, fn("attribute_not_exists", col("deleted")), bop(expr.OpNe, col("status"), litS("DONE")))
	containsTag  = fn("contains", col("tags"), litS("rush"))
)

// TestCommonPredicatesDoNotAllocate guards the hot path's allocation
// budget (counts, not timings). The row is passed by pointer, as operators
// do: converting a struct to the Row interface would itself allocate.
func TestCommonPredicatesDoNotAllocate(t *testing.T) {
	row := orderRow()
	for _, e := range []expr.Expr{statusAndTotal, beginsWithSK, likeNote, inStatus, decimalCmp, orMissing, containsTag} {
		allocs := testing.AllocsPerRun(100, func() {
			if tr, err := Test(e, &row); err != nil || tr != True {
				t.Fatalf("Test(%s) = %s, %v", e, tr, err)
			}
		})
		if allocs != 0 {
			t.Errorf("Test(%s) allocates %.0f times per row", e, allocs)
		}
	}
}

func benchTest(b *testing.B, e expr.Expr) {
	row := orderRow()
	b.ReportAllocs()
	for b.Loop() {
		if tr, err := Test(e, &row); err != nil || tr != True {
			b.Fatalf("Test(%s) = %s, %v", e, tr, err)
		}
	}
}

// BenchmarkTestStatusAndTotal: status = 'REVIEW' AND total > 100.
func BenchmarkTestStatusAndTotal(b *testing.B) { benchTest(b, statusAndTotal) }
func BenchmarkTestBeginsWith(b *testing.B)     { benchTest(b, beginsWithSK) }
func BenchmarkTestLike(b *testing.B)           { benchTest(b, likeNote) }
func BenchmarkTestIn(b *testing.B)             { benchTest(b, inStatus) }
func BenchmarkTestDecimalCompare(b *testing.B) { benchTest(b, decimalCmp) }

func benchEval(b *testing.B, e expr.Expr) {
	row := orderRow()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Eval(e, &row); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEvalIntAdd(b *testing.B) { benchEval(b, bop(expr.OpAdd, col("total"), litN("25"))) }
func BenchmarkEvalDecimalMul(b *testing.B) {
	benchEval(b, bop(expr.OpMul, col("amount"), litN("1.08")))
}
func BenchmarkEvalDecimalDiv(b *testing.B) { benchEval(b, bop(expr.OpDiv, col("amount"), litN("3"))) }

func BenchmarkItemSize(b *testing.B) {
	item := orderRow().items[0]
	b.ReportAllocs()
	for b.Loop() {
		ItemSize(item)
	}
}
