package engine

import (
	"testing"

	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// A batchRow reads each column ID from the batch column it is bound to,
// rebinding when the layout changes: by name in a single table's batch, by
// FROM item and name in a joined one.
func TestBatchRowBindsIDsPerLayout(t *testing.T) {
	env := otEnv(t)
	a0, a1, b0 := otQCol(0, "a"), otQCol(1, "a"), otQCol(0, "b")
	row := newBatchRow(expr.Binary{Op: expr.OpAdd, L: a0, R: a1}, b0)
	batches := []otBatch{
		{names: []string{"b", "a"}, rows: [][]value.Value{{otS("b"), otS("a")}}},
		{names: []string{"a", "b", "a"}, from: []int{1, 0, 0}, rows: [][]value.Value{{otS("1a"), otS("0b"), otS("0a")}}},
		{names: []string{"x"}, rows: [][]value.Value{{otS("x")}}},
	}
	want := [][3]string{{"a", "a", "b"}, {"0a", "1a", "0b"}, {"", "", ""}}
	src := otSrc(env, batches...)
	for i := range batches {
		rec, err := src.Next(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		row.reset(rec)
		for j, c := range []expr.Column{a0, a1, b0} {
			v := row.Attr(c.ID)
			if got := v.Text(); got != want[i][j] || (want[i][j] == "" && v.Kind() != value.Missing) {
				t.Errorf("batch %d: %s = %v, want %q", i, c, v.JSON(), want[i][j])
			}
		}
		rec.Release()
	}
	if v := row.Attr(expr.NoColumn); v.Kind() != value.Missing {
		t.Errorf("an unnumbered column reads %v, want missing", v.JSON())
	}
}
