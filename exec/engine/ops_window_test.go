package engine

import (
	"context"
	"errors"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/exec/spill"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// The window operator's input is positional: columns id, p, o, x.
func otWinRef(i int) expr.Ref { return expr.Ref{Index: i, Name: []string{"id", "p", "o", "x"}[i]} }

// otWinInput makes n rows in batches of at most 5: p and o are small
// numbers or NULL (many ties), x a number or NULL; the first batch stores p
// as strings, so batches differ in layout.
func otWinInput(r *rand.Rand, n int) []otBatch {
	small := func(k int, asString bool) value.Value {
		if r.IntN(6) == 0 {
			return value.MissingValue()
		}
		v := r.IntN(k)
		if asString {
			return otS("s" + strconv.Itoa(v))
		}
		return otN(strconv.Itoa(v))
	}
	var out []otBatch
	for id := 0; id < n; {
		b := otBatch{names: []string{"id", "p", "o", "x"}}
		for k := 0; k < 1+r.IntN(5) && id < n; k++ {
			b.rows = append(b.rows, []value.Value{otN(strconv.Itoa(id)), small(3, len(out) == 0), otWinKey(r, small(4, false)), small(50, false)})
			id++
		}
		out = append(out, b)
	}
	return out
}

// otWinKey makes some ORDER BY keys decimal (o + 0.5) and a few a string,
// which a RANGE frame with an offset treats as having peers only.
func otWinKey(r *rand.Rand, o value.Value) value.Value {
	switch {
	case o.IsNull():
		return o
	case r.IntN(10) == 0:
		return otS("k" + o.Text())
	case r.IntN(4) == 0:
		return otN(o.Text() + ".5")
	}
	return o
}

// otWinInRange reports whether key o of a partition's row is within the
// RANGE offset bound b of the current row's key cur (a start bound when
// !end), by rational arithmetic; NULL and non-numeric keys have already
// been set apart.
func otWinInRange(o, cur value.Value, b expr.FrameBound, desc, end bool) bool {
	rat := func(text string) *big.Rat {
		q, ok := new(big.Rat).SetString(text)
		if !ok {
			panic("not a number: " + text)
		}
		return q
	}
	d := new(big.Rat).Sub(rat(o.Text()), rat(cur.Text()))
	if desc {
		d.Neg(d)
	}
	bound := rat(b.Offset)
	if b.Kind == expr.Preceding {
		bound.Neg(bound)
	}
	if end {
		return d.Cmp(bound) <= 0
	}
	return d.Cmp(bound) >= 0
}

// otWinRow is one input row as the reference sees it.
type otWinRow struct {
	id      int
	p, o, x value.Value
}

// otWinReference computes fn for every row by the definitions: the rows
// of the row's partition ordered by o (NULLs as the key says) then by
// arrival, the row's peers and frame found by scanning.
func otWinReference(rows []otWinRow, fn expr.Window) map[int]value.Value {
	key := fn.Order
	cmp := func(a, b otWinRow) int {
		if len(key) > 0 {
			an, bn := a.o.IsNull(), b.o.IsNull()
			switch {
			case an && bn:
			case an || bn:
				if an == key[0].NullsFirst {
					return -1
				}
				return 1
			default:
				c := value.Order(a.o, b.o)
				if key[0].Desc {
					c = -c
				}
				if c != 0 {
					return c
				}
			}
		}
		return a.id - b.id
	}
	peer := func(a, b otWinRow) bool {
		if len(key) == 0 {
			return true
		}
		if a.o.IsNull() || b.o.IsNull() {
			return a.o.IsNull() && b.o.IsNull()
		}
		return value.Order(a.o, b.o) == 0
	}
	samePart := func(a, b otWinRow) bool {
		if len(fn.Partition) == 0 || a.p.IsNull() && b.p.IsNull() {
			return true
		}
		return !a.p.IsNull() && !b.p.IsNull() && value.Order(a.p, b.p) == 0
	}
	out := map[int]value.Value{}
	for _, r := range rows {
		var part []otWinRow
		for _, s := range rows {
			if samePart(r, s) {
				part = append(part, s)
			}
		}
		slices.SortFunc(part, cmp)
		i := slices.IndexFunc(part, func(s otWinRow) bool { return s.id == r.id })
		firstPeer, lastPeer := i, i
		for firstPeer > 0 && peer(part[firstPeer-1], r) {
			firstPeer--
		}
		for lastPeer+1 < len(part) && peer(part[lastPeer+1], r) {
			lastPeer++
		}
		inFrame := func(j int) bool {
			at := func(b expr.FrameBound, end bool) bool {
				switch b.Kind {
				case expr.UnboundedPreceding:
					return true
				case expr.UnboundedFollowing:
					return true
				case expr.CurrentRow:
					if !fn.Frame.Rows {
						if end {
							return j <= lastPeer
						}
						return j >= firstPeer
					}
					if end {
						return j <= i
					}
					return j >= i
				case expr.Preceding, expr.Following:
					if !fn.Frame.Rows {
						if r.o.Kind() != value.Number {
							// NULL or not a number: the peers only.
							if end {
								return j <= lastPeer
							}
							return j >= firstPeer
						}
						if part[j].o.Kind() != value.Number {
							// Sorted before or after all the numbers.
							if end {
								return j < i
							}
							return j > i
						}
						return otWinInRange(part[j].o, r.o, b, key[0].Desc, end)
					}
				}
				switch b.Kind {
				case expr.Preceding:
					if end {
						return j <= i-int(b.N)
					}
					return j >= i-int(b.N)
				}
				if end {
					return j <= i+int(b.N)
				}
				return j >= i+int(b.N)
			}
			return at(fn.Frame.Start, false) && at(fn.Frame.End, true)
		}
		var frame []value.Value
		for j := range part {
			if inFrame(j) {
				frame = append(frame, part[j].x)
			}
		}
		num := func(n int) value.Value { return otN(strconv.Itoa(n)) }
		var v value.Value
		switch fn.Func {
		case "row_number":
			v = num(i + 1)
		case "rank":
			v = num(firstPeer + 1)
		case "dense_rank":
			d := 1
			for j := 1; j <= i; j++ {
				if !peer(part[j-1], part[j]) {
					d++
				}
			}
			v = num(d)
		case "ntile":
			// Deal the rows out: bucket b gets n/N rows, the first n%N one more.
			n, buckets := len(part), int(fn.N)
			b, left := 1, 0
			for j := 0; j <= i; j++ {
				if left == 0 {
					if j > 0 {
						b++
					}
					left = n / buckets
					if b <= n%buckets {
						left++
					}
				}
				left--
			}
			v = num(b)
		case "lag", "lead":
			j := i - int(fn.N)
			if fn.Func == "lead" {
				j = i + int(fn.N)
			}
			switch {
			case j >= 0 && j < len(part):
				v = part[j].x
			case len(fn.Args) > 1:
				v = fn.Args[1].(expr.Literal).Value
			default:
				v = value.MissingValue()
			}
		case "first_value", "last_value":
			v = value.MissingValue()
			if len(frame) > 0 {
				v = frame[0]
				if fn.Func == "last_value" {
					v = frame[len(frame)-1]
				}
			}
		case "count":
			n := 0
			for _, x := range frame {
				if len(fn.Args) == 0 || !x.IsNull() {
					n++
				}
			}
			v = num(n)
		case "sum", "min", "max":
			v = value.MissingValue()
			total, have := 0, false
			for _, x := range frame {
				if x.IsNull() {
					continue
				}
				n, _ := strconv.Atoi(x.Text())
				switch {
				case !have:
					total = n
				case fn.Func == "sum":
					total += n
				case fn.Func == "min":
					total = min(total, n)
				default:
					total = max(total, n)
				}
				have = true
			}
			if have {
				v = num(total)
			}
		}
		out[r.id] = v
	}
	return out
}

func otWinFrame(r *rand.Rand, ordered bool) expr.Frame {
	if r.IntN(4) == 0 {
		return expr.DefaultFrame(r.IntN(2) == 0)
	}
	bound := func() expr.FrameBound {
		return expr.FrameBound{Kind: expr.BoundKind(r.IntN(5)), N: int64(r.IntN(3))}
	}
	if ordered && r.IntN(3) == 0 {
		// RANGE with offsets (needing the one ORDER BY key), decimal ones too.
		offsets := []string{"0", "1", "0.5", "1.5", "2"}
		for {
			s, e := bound(), bound()
			if s.Kind != expr.UnboundedFollowing && e.Kind != expr.UnboundedPreceding && s.Kind <= e.Kind {
				s.N, e.N = 0, 0
				if s.Kind == expr.Preceding || s.Kind == expr.Following {
					s.Offset = offsets[r.IntN(len(offsets))]
				}
				if e.Kind == expr.Preceding || e.Kind == expr.Following {
					e.Offset = offsets[r.IntN(len(offsets))]
				}
				return expr.Frame{Start: s, End: e}
			}
		}
	}
	if r.IntN(3) == 0 {
		// RANGE: UNBOUNDED or CURRENT ROW only.
		kinds := []expr.BoundKind{expr.UnboundedPreceding, expr.CurrentRow, expr.UnboundedFollowing}
		s, e := r.IntN(2), 1+r.IntN(2)
		return expr.Frame{Start: expr.FrameBound{Kind: kinds[s]}, End: expr.FrameBound{Kind: kinds[e]}}
	}
	for {
		s, e := bound(), bound()
		if s.Kind != expr.UnboundedFollowing && e.Kind != expr.UnboundedPreceding && s.Kind <= e.Kind {
			return expr.Frame{Rows: true, Start: s, End: e}
		}
	}
}

// Random inputs, specifications and frames: every function matches the
// reference, row by row, and the rows come out grouped by partition, in
// memory and through the external sort.
func TestWindowMatchesReference(t *testing.T) {
	r := otRand(t)
	funcs := []string{"row_number", "rank", "dense_rank", "ntile", "lag", "lead", "first_value", "last_value", "count", "sum", "min", "max"}
	external, spilled, tooBig := 0, 0, 0
	for round := 0; round < 80; round++ {
		input := otWinInput(r, 1+r.IntN(60))
		var rows []otWinRow
		for _, b := range input {
			for _, row := range b.rows {
				id, _ := strconv.Atoi(row[0].Text())
				rows = append(rows, otWinRow{id: id, p: row[1], o: row[2], x: row[3]})
			}
		}
		node := &planner.Window{}
		if r.IntN(3) > 0 {
			node.Partition = []expr.Expr{otWinRef(1)}
		}
		if r.IntN(4) > 0 {
			desc := r.IntN(2) == 0
			node.Order = []expr.WindowKey{{Expr: otWinRef(2), Desc: desc, NullsFirst: r.IntN(2) == 0}}
		}
		for k := 0; k < 3; k++ {
			fn := expr.Window{Func: funcs[r.IntN(len(funcs))], Partition: node.Partition, Order: node.Order, Frame: otWinFrame(r, len(node.Order) > 0)}
			switch fn.Func {
			case "ntile":
				fn.N = int64(1 + r.IntN(5))
			case "lag", "lead":
				fn.N = int64(r.IntN(3))
				fn.Args = []expr.Expr{otWinRef(3)}
				if r.IntN(2) == 0 {
					fn.Args = append(fn.Args, otLit(otN("-1")))
				}
			case "row_number", "rank", "dense_rank":
			case "count":
				if r.IntN(2) == 0 {
					fn.Args = []expr.Expr{otWinRef(3)}
				}
			default:
				fn.Args = []expr.Expr{otWinRef(3)}
			}
			node.Funcs = append(node.Funcs, fn)
		}
		// In memory, then within a budget that sends the input through
		// the external sort (spilling runs when it is small enough).
		for _, budget := range []int64{0, int64(2000 + r.IntN(20000))} {
			env := otEnv(t)
			env.BatchRows = 1 + r.IntN(7)
			if budget > 0 {
				env.BatchRows = 16 + r.IntN(64)
				env.Memory, env.Spill = spill.NewBudget(budget), spill.NewDir(t.TempDir())
			}
			src := otSrc(env, input...)
			node.Input = &otLeaf{op: src}
			op := otMustBuild(t, env, node)
			got, _, err := otDrain(op)
			op.Close()
			src.check(t)
			if budget > 0 {
				if used := env.Memory.Used(); used != 0 {
					t.Fatalf("round %d: %d bytes still reserved", round, used)
				}
				if otCode(err) == diag.CodeMemoryLimit {
					tooBig++ // one partition did not fit
					continue
				}
				external++
				if env.Spill.Files() > 0 {
					spilled++
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			checkWindowRows(t, round, node, rows, got)
		}
	}
	if external == 0 {
		t.Errorf("within a budget: no round compared (%d spilled, %d had a partition too large)", spilled, tooBig)
	}
}

// checkWindowRows compares the operator's rows with the reference.
func checkWindowRows(t *testing.T, round int, node *planner.Window, rows []otWinRow, got []otRow) {
	t.Helper()
	if len(got) != len(rows) {
		t.Fatalf("round %d: %d rows, want %d", round, len(got), len(rows))
	}
	for f, fn := range node.Funcs {
		want := otWinReference(rows, fn)
		for _, g := range got {
			id, _ := strconv.Atoi(g.vals[0].Text())
			if v := g.vals[4+f]; !otSame(v, want[id]) && !(v.IsNull() && want[id].IsNull()) {
				t.Fatalf("round %d: %s %s for id %d = %s, want %s", round, fn.Call(), fn.Frame, id, otShow(v), otShow(want[id]))
			}
		}
	}
	{
		// Partitions come out contiguous.
		seen := map[string]bool{}
		last := "\x00"
		for _, g := range got {
			p := otShow(g.vals[1])
			if len(node.Partition) == 0 {
				p = ""
			}
			if p != last && seen[p] {
				t.Fatalf("round %d: partition %s is split", round, p)
			}
			seen[p], last = true, p
		}
	}
}

// otWinMany makes n rows in 50 partitions (p = id mod 50), o and x numbers
// with ties and NULLs, in batches of 100.
func otWinMany(n int) []otBatch {
	var out []otBatch
	for id := 0; id < n; id += 100 {
		b := otBatch{names: []string{"id", "p", "o", "x"}}
		for k := id; k < min(n, id+100); k++ {
			o, x := otN(strconv.Itoa(k%7)), otN(strconv.Itoa((k*37)%101))
			if k%11 == 0 {
				o = value.MissingValue()
			}
			if k%13 == 0 {
				x = value.NullValue()
			}
			b.rows = append(b.rows, []value.Value{otN(strconv.Itoa(k)), otN(strconv.Itoa(k % 50)), o, x})
		}
		out = append(out, b)
	}
	return out
}

// Past the budget, the input goes through the full sort, which spills
// sorted runs, and is read one partition at a time: the rows and values
// are the same as in memory, and nothing stays reserved. One partition
// larger than the budget fails with memory_limit.
func TestWindowSpills(t *testing.T) {
	input := otWinMany(5000)
	order := []expr.WindowKey{{Expr: otWinRef(2), Desc: true, NullsFirst: true}, {Expr: otWinRef(0)}}
	part := []expr.Expr{otWinRef(1)}
	frame := expr.Frame{Rows: true, Start: expr.FrameBound{Kind: expr.Preceding, N: 2}, End: expr.FrameBound{Kind: expr.Following, N: 1}}
	funcs := []expr.Window{
		{Func: "row_number"}, {Func: "rank"}, {Func: "lag", N: 1, Args: []expr.Expr{otWinRef(3)}},
		{Func: "sum", Args: []expr.Expr{otWinRef(3)}, Frame: frame}, {Func: "max", Args: []expr.Expr{otWinRef(3)}, Frame: expr.DefaultFrame(true)},
	}
	for i := range funcs {
		funcs[i].Partition, funcs[i].Order = part, order
	}
	run := func(t *testing.T, env *Env, partition []expr.Expr) (map[string]string, error) {
		src := otSrc(env, input...)
		node := &planner.Window{Input: &otLeaf{op: src}, Partition: partition, Order: order, Funcs: funcs}
		op := otMustBuild(t, env, node)
		rows, _, err := otDrain(op)
		op.Close()
		src.check(t)
		out := map[string]string{}
		for _, r := range rows {
			var vals []string
			for _, v := range r.vals[4:] {
				vals = append(vals, otShow(v))
			}
			out[r.vals[0].Text()] = strings.Join(vals, " ")
		}
		return out, err
	}
	want, err := run(t, otEnv(t), part)
	if err != nil || len(want) != 5000 {
		t.Fatalf("in memory: %d rows, %v", len(want), err)
	}
	env := otEnv(t)
	env.Memory, env.Spill = spill.NewBudget(256<<10), spill.NewDir(t.TempDir())
	got, err := run(t, env, part)
	if err != nil {
		t.Fatalf("within the budget: %v", err)
	}
	if env.Spill.Files() == 0 {
		t.Errorf("the sort did not spill (peak %d bytes)", env.Memory.Peak())
	}
	if used := env.Memory.Used(); used != 0 {
		t.Errorf("%d bytes still reserved", used)
	}
	for id, w := range want {
		if got[id] != w {
			t.Fatalf("id %s: %s, want %s", id, got[id], w)
		}
	}
	// Without PARTITION BY the one partition is all 5000 rows.
	env = otEnv(t)
	env.Memory, env.Spill = spill.NewBudget(256<<10), spill.NewDir(t.TempDir())
	if _, err := run(t, env, nil); otCode(err) != diag.CodeMemoryLimit {
		t.Errorf("one partition past the budget: %v, want memory_limit", err)
	}
	if used := env.Memory.Used(); used != 0 {
		t.Errorf("%d bytes still reserved after the failure", used)
	}
}

// AVG is exact, like GROUP BY's; SUM fails on a string as GROUP BY does.
func TestWindowAvgExactAndErrors(t *testing.T) {
	env := otEnv(t)
	in := otBatch{names: []string{"id", "p", "o", "x"}, rows: [][]value.Value{
		{otN("1"), otN("1"), otN("1"), otN("1")},
		{otN("2"), otN("1"), otN("2"), otN("0.1")},
		{otN("3"), otN("1"), otN("3"), otN("2")},
	}}
	avg := expr.Window{Func: "avg", Args: []expr.Expr{otWinRef(3)}, Frame: expr.DefaultFrame(false)}
	src := otSrc(env, in)
	op := otMustBuild(t, env, &planner.Window{Input: &otLeaf{op: src}, Funcs: []expr.Window{avg}})
	got, _, err := otDrain(op)
	if err != nil {
		t.Fatal(err)
	}
	op.Close()
	for _, g := range got {
		if g.vals[4].Text() != "1.0333333333333333333333333333333333333" && g.vals[4].Text() != "1.033333333333333333333333333333333333" {
			t.Errorf("AVG = %s", g.vals[4].Text())
		}
	}
	env2 := otEnv(t)
	bad := otBatch{names: []string{"id", "p", "o", "x"}, rows: [][]value.Value{{otN("1"), otN("1"), otN("1"), otS("one")}}}
	src2 := otSrc(env2, bad)
	sum := expr.Window{Func: "sum", Args: []expr.Expr{otWinRef(3)}, Frame: expr.DefaultFrame(false)}
	op2 := otMustBuild(t, env2, &planner.Window{Input: &otLeaf{op: src2}, Funcs: []expr.Window{sum}})
	if _, _, err := otDrain(op2); otCode(err) != diag.CodeEval {
		t.Errorf("SUM of a string: %v, want an eval error", err)
	}
	op2.Close()
	src2.check(t)
}

func TestWindowEarlyCloseErrorsAndMemoryLimit(t *testing.T) {
	r := otRand(t)
	input := otWinInput(r, 40)
	fn := expr.Window{Func: "row_number", Order: []expr.WindowKey{{Expr: otWinRef(2)}}}
	node := func(src *otSource) *planner.Window {
		return &planner.Window{Input: &otLeaf{op: src}, Order: fn.Order, Funcs: []expr.Window{fn}}
	}
	t.Run("close_before_next", func(t *testing.T) {
		env := otEnv(t)
		src := otSrc(env, input...)
		op := otMustBuild(t, env, node(src))
		op.Close()
		op.Close()
		src.check(t)
	})
	t.Run("close_after_first_batch", func(t *testing.T) {
		env := otEnv(t)
		env.BatchRows = 3
		src := otSrc(env, input...)
		op := otMustBuild(t, env, node(src))
		b, err := op.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		// At most BatchRows rows, fewer where the input's layout changes.
		if b.NumRows() < 1 || b.NumRows() > 3 {
			t.Errorf("first batch has %d rows, want 1 to 3", b.NumRows())
		}
		b.Release()
		op.Close()
		src.check(t)
	})
	t.Run("input_error", func(t *testing.T) {
		env := otEnv(t)
		src := otSrc(env, input...)
		src.failAt = 3
		op := otMustBuild(t, env, node(src))
		if _, _, err := otDrain(op); !errors.Is(err, otErrInput) {
			t.Fatalf("error %v, want the input's", err)
		}
		op.Close()
		src.check(t)
	})
	t.Run("memory_limit", func(t *testing.T) {
		env := otEnv(t)
		env.Memory = spill.NewBudget(2000)
		src := otSrc(env, input...)
		op := otMustBuild(t, env, node(src))
		_, _, err := otDrain(op)
		var de *diag.Error
		if !errors.As(err, &de) || de.Code != diag.CodeMemoryLimit {
			t.Fatalf("error %v, want memory_limit", err)
		}
		if !strings.Contains(de.Msg, "window operator") {
			t.Errorf("error %q: it must name the window operator", de.Msg)
		}
		op.Close()
		src.check(t)
		if used := env.Memory.Used(); used != 0 {
			t.Errorf("%d bytes still reserved after Close", used)
		}
	})
	t.Run("within_limit_releases", func(t *testing.T) {
		env := otEnv(t)
		env.Memory = spill.NewBudget(1 << 30)
		src := otSrc(env, input...)
		op := otMustBuild(t, env, node(src))
		rows, _, err := otDrain(op)
		if err != nil || len(rows) != 40 {
			t.Fatalf("%d rows, %v", len(rows), err)
		}
		op.Close()
		if used := env.Memory.Used(); used != 0 {
			t.Errorf("%d bytes still reserved after the end", used)
		}
	})
}
