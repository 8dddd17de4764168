package engine

import (
	"bytes"
	"strconv"

	"github.com/cockroachdb/apd/v3"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// windowPart is one partition of the sorted entries, [start, end), with
// each row's peer group [peerStart[i], peerEnd[i]) (indexes into entries).
type windowPart struct {
	start, end         int
	peerStart, peerEnd []int
	// For RANGE frames with an offset (window_range.go): each row's
	// ORDER BY key (nil: not a number), the numeric rows and the direction.
	keys             []*apd.Decimal
	dec              []apd.Decimal // what keys point into
	offsets          map[string]*apd.Decimal
	numStart, numEnd int
	desc             bool
}

// compute fills op.results: each function's value for each sorted entry.
func (op *windowOp) compute() error {
	op.results = make([][]value.Value, len(op.node.Funcs))
	for f := range op.results {
		op.results[f] = make([]value.Value, len(op.entries))
	}
	var part windowPart
	for start := 0; start < len(op.entries); {
		end := start + 1
		first := op.entries[start]
		for end < len(op.entries) && bytes.Equal(op.entries[end].key[:op.entries[end].partEnd], first.key[:first.partEnd]) {
			end++
		}
		op.peers(&part, start, end)
		op.rangeKeys(&part)
		for f := range op.node.Funcs {
			if err := op.computeFunc(f, &part); err != nil {
				return err
			}
		}
		start = end
	}
	return nil
}

// peers finds the peer groups of the partition [start, end).
func (op *windowOp) peers(p *windowPart, start, end int) {
	n := end - start
	p.start, p.end = start, end
	p.peerStart = append(p.peerStart[:0], make([]int, n)...)
	p.peerEnd = append(p.peerEnd[:0], make([]int, n)...)
	for i := start; i < end; {
		j := i + 1
		a := op.entries[i]
		for j < end {
			b := op.entries[j]
			if !bytes.Equal(a.key[a.partEnd:a.orderEnd], b.key[b.partEnd:b.orderEnd]) {
				break
			}
			j++
		}
		for k := i; k < j; k++ {
			p.peerStart[k-start], p.peerEnd[k-start] = i, j
		}
		i = j
	}
}

// arg is argument a of function f at sorted position k.
func (op *windowOp) arg(f, a, k int) value.Value {
	return op.args[f][a][op.entries[k].arrival]
}

func intValue(n int) value.Value { return value.NumTrusted(strconv.Itoa(n)) }

// computeFunc computes function f over partition p.
func (op *windowOp) computeFunc(f int, p *windowPart) error {
	fn := op.node.Funcs[f]
	out := op.results[f]
	switch fn.Func {
	case "row_number":
		for k := p.start; k < p.end; k++ {
			out[k] = intValue(k - p.start + 1)
		}
	case "rank":
		for k := p.start; k < p.end; k++ {
			out[k] = intValue(p.peerStart[k-p.start] - p.start + 1)
		}
	case "dense_rank":
		rank := 0
		for k := p.start; k < p.end; k++ {
			if p.peerStart[k-p.start] == k {
				rank++
			}
			out[k] = intValue(rank)
		}
	case "ntile":
		ntile(out[p.start:p.end], fn.N)
	case "lag", "lead":
		op.shift(f, fn, p)
	default:
		return op.framed(f, fn, p)
	}
	return nil
}

// ntile numbers rows into n buckets as standard SQL does: the buckets'
// sizes differ by at most one, the larger ones first.
func ntile(out []value.Value, n int64) {
	rows := int64(len(out))
	size, rem := rows/n, rows%n
	for k := range out {
		i := int64(k)
		var bucket int64
		if big := rem * (size + 1); i < big {
			bucket = i/(size+1) + 1
		} else {
			bucket = rem + (i-big)/size + 1
		}
		out[k] = value.NumTrusted(strconv.FormatInt(bucket, 10))
	}
}

// shift computes LAG (rows before) or LEAD (rows after): the argument N
// rows away within the partition, else the default (NULL without one).
func (op *windowOp) shift(f int, fn expr.Window, p *windowPart) {
	out := op.results[f]
	for k := p.start; k < p.end; k++ {
		j := int64(k) - fn.N
		if fn.Func == "lead" {
			j = int64(k) + fn.N
		}
		switch {
		case j >= int64(p.start) && j < int64(p.end):
			out[k] = op.arg(f, 0, int(j))
		case len(fn.Args) > 1:
			out[k] = op.arg(f, 1, k)
		default:
			out[k] = value.MissingValue()
		}
	}
}

// frameOf is the frame [s, e) of sorted position k in partition p.
func frameOf(fr expr.Frame, p *windowPart, k int) (int, int) {
	bound := func(b expr.FrameBound, end bool) int {
		var at int
		switch b.Kind {
		case expr.UnboundedPreceding:
			return p.start
		case expr.UnboundedFollowing:
			return p.end
		case expr.CurrentRow:
			if !fr.Rows {
				if end {
					return p.peerEnd[k-p.start]
				}
				return p.peerStart[k-p.start]
			}
			at = k
		case expr.Preceding, expr.Following:
			if !fr.Rows {
				return rangeBound(b, end, p, k)
			}
			if b.Kind == expr.Preceding {
				at = k - int(min(b.N, int64(p.end)))
			} else {
				at = k + int(min(b.N, int64(p.end)))
			}
		}
		if end {
			at++
		}
		return max(p.start, min(p.end, at))
	}
	s, e := bound(fr.Start, false), bound(fr.End, true)
	if e < s {
		e = s
	}
	return s, e
}

// framed computes FIRST_VALUE, LAST_VALUE or an aggregate over each row's
// frame. An aggregate whose frames all start at the partition's start is
// folded once forward, one whose frames all end at its end once backward;
// others are folded anew for each row whose frame differs from the
// previous row's.
func (op *windowOp) framed(f int, fn expr.Window, p *windowPart) error {
	out := op.results[f]
	switch fn.Func {
	case "first_value", "last_value":
		for k := p.start; k < p.end; k++ {
			s, e := frameOf(fn.Frame, p, k)
			switch {
			case s >= e:
				out[k] = value.MissingValue()
			case fn.Func == "first_value":
				out[k] = op.arg(f, 0, s)
			default:
				out[k] = op.arg(f, 0, e-1)
			}
		}
		return nil
	}
	if _, ok := accumulators[fn.Func]; !ok {
		return errWindowFunc(fn.Func)
	}
	agg := expr.Aggregate{Func: fn.Func}
	if len(fn.Args) > 0 {
		agg.Arg = fn.Args[0]
	}
	lent := &lentValues{}
	fresh := func() accumulator {
		lent.accs = lent.accs[:0]
		return newAccumulator(agg, fn.Call(), lent)
	}
	add := func(acc accumulator, k int) error {
		v := value.MissingValue()
		if agg.Arg != nil {
			v = op.arg(f, 0, k)
		}
		return acc.add(v)
	}
	result := func(acc accumulator, k int) error {
		v, err := acc.result()
		if err != nil {
			return err
		}
		out[k] = v
		lent.accs = lent.accs[:0]
		return nil
	}
	switch {
	case fn.Frame.Start.Kind == expr.UnboundedPreceding:
		acc, next := fresh(), p.start
		for k := p.start; k < p.end; k++ {
			_, e := frameOf(fn.Frame, p, k)
			for ; next < e; next++ {
				if err := add(acc, next); err != nil {
					return err
				}
			}
			if err := result(acc, k); err != nil {
				return err
			}
		}
	case fn.Frame.End.Kind == expr.UnboundedFollowing:
		acc, next := fresh(), p.end-1
		for k := p.end - 1; k >= p.start; k-- {
			s, _ := frameOf(fn.Frame, p, k)
			for ; next >= s; next-- {
				if err := add(acc, next); err != nil {
					return err
				}
			}
			if err := result(acc, k); err != nil {
				return err
			}
		}
	default:
		lastS, lastE := -1, -1
		for k := p.start; k < p.end; k++ {
			s, e := frameOf(fn.Frame, p, k)
			if s == lastS && e == lastE && k > p.start {
				out[k] = out[k-1]
				continue
			}
			acc := fresh()
			for j := s; j < e; j++ {
				if err := add(acc, j); err != nil {
					return err
				}
			}
			if err := result(acc, k); err != nil {
				return err
			}
			lastS, lastE = s, e
		}
	}
	return nil
}

// errWindowFunc is an internal error for a function the operator lacks.
func errWindowFunc(name string) error {
	return execErrorf(diag.CodeInternal, "no window function %s", name)
}
