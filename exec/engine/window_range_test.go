package engine

import (
	"strconv"
	"testing"

	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// RANGE BETWEEN 0.1 PRECEDING AND 1.1 FOLLOWING over decimal keys, two
// 38-digit keys one apart (equal as float64, so only exact arithmetic
// tells them apart), a NULL and a string key (each framing its peers
// only), ascending and descending: each row's SUM(x) over its frame, x being powers of two so a sum
// names the rows it added.
func TestWindowRangeOffsetExact(t *testing.T) {
	const big = "99999999999999999999999999999999999999"
	keys := []value.Value{otN("1.1"), otN("1.2"), otN("2.3"), value.NullValue(), otS("k"), otN(big), otN(big[:37] + "8")}
	b := otBatch{names: []string{"id", "p", "o", "x"}}
	for id, k := range keys {
		b.rows = append(b.rows, []value.Value{otN(strconv.Itoa(id)), value.MissingValue(), k, otN(strconv.Itoa(1 << id))})
	}
	frame := expr.Frame{Start: expr.FrameBound{Kind: expr.Preceding, Offset: "0.1"}, End: expr.FrameBound{Kind: expr.Following, Offset: "1.1"}}
	tests := []struct {
		desc bool
		want []string // SUM(x) by id
	}{
		// Ascending: [key - 0.1, key + 1.1].
		{false, []string{"3", "7", "4", "8", "16", "32", "96"}},
		// Descending, PRECEDING means larger keys: [key - 1.1, key + 0.1].
		{true, []string{"3", "3", "6", "8", "16", "96", "64"}},
	}
	for _, tt := range tests {
		order := []expr.WindowKey{{Expr: otWinRef(2), Desc: tt.desc, NullsFirst: !tt.desc}}
		fn := expr.Window{Func: "sum", Args: []expr.Expr{otWinRef(3)}, Order: order, Frame: frame}
		env := otEnv(t)
		src := otSrc(env, b)
		op := otMustBuild(t, env, &planner.Window{Input: &otLeaf{op: src}, Order: order, Funcs: []expr.Window{fn}})
		rows, _, err := otDrain(op)
		op.Close()
		src.check(t)
		if err != nil {
			t.Fatalf("desc %v: %v", tt.desc, err)
		}
		if len(rows) != len(keys) {
			t.Fatalf("desc %v: %d rows", tt.desc, len(rows))
		}
		for _, r := range rows {
			id, _ := r.vals[0].Int64()
			if got := otShow(r.vals[4]); got != "N:"+tt.want[id] {
				t.Errorf("desc %v: id %d (key %s) sum %s, want %s", tt.desc, id, otShow(keys[id]), got, tt.want[id])
			}
		}
	}
}
