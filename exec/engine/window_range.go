package engine

import (
	"sort"

	"github.com/cockroachdb/apd/v3"

	"github.com/ddbsql/ddbsql/exec/eval"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// RANGE frames with an offset (RANGE BETWEEN n PRECEDING AND m FOLLOWING)
// frame the rows whose single ORDER BY key lies within [key - n, key + m]
// of the current row's, the direction flipped under DESC. The arithmetic
// is exact decimal. A row whose key is NULL or not a number frames its
// peers only, as SQLite does (it adds no offset to such a key, and no
// number compares equal to it); numeric rows never frame it.

// needsRangeKeys reports whether any of the functions has a RANGE frame
// with an offset, so the operator keeps each row's ORDER BY value.
func needsRangeKeys(funcs []expr.Window) bool {
	for _, fn := range funcs {
		if fn.UsesFrame() && fn.Frame.HasOffset() {
			return true
		}
	}
	return false
}

// addRangeKey keeps the current row's ORDER BY value when op.keys is on.
func (op *windowOp) addRangeKey() error {
	if op.keys == nil {
		return nil
	}
	v, err := eval.Eval(op.node.Order[0].Expr, &op.row)
	if err != nil {
		return evalError(err)
	}
	op.keys = append(op.keys, v)
	return nil
}

// rangeKeys fills p's decoded ORDER BY keys (nil where not a number) and
// the run [numStart, numEnd) of numeric keys, which sorting makes
// contiguous within a partition.
func (op *windowOp) rangeKeys(p *windowPart) {
	p.keys = p.keys[:0]
	p.numStart, p.numEnd = p.end, p.end
	if op.keys == nil {
		return
	}
	p.desc = op.node.Order[0].Desc
	n := p.end - p.start
	// The decoded keys reuse one slice from partition to partition.
	if cap(p.dec) < n {
		p.dec = make([]apd.Decimal, n)
	}
	p.dec = p.dec[:n]
	for k := p.start; k < p.end; k++ {
		v := op.keys[op.entries[k].arrival]
		var d *apd.Decimal
		if v.Kind() == value.Number {
			d = &p.dec[k-p.start]
			if _, _, err := d.SetString(v.Text()); err != nil {
				d = nil // framed as its peers; an N value's text is a number
			}
		}
		if d != nil {
			if p.numStart == p.end {
				p.numStart = k
			}
			p.numEnd = k + 1
		}
		p.keys = append(p.keys, d)
	}
}

// offset is a bound's offset as a decimal, parsed once per partition.
func (p *windowPart) offset(text string) (*apd.Decimal, bool) {
	if d, ok := p.offsets[text]; ok {
		return d, true
	}
	d, _, err := apd.NewFromString(text)
	if err != nil {
		return nil, false
	}
	if p.offsets == nil {
		p.offsets = map[string]*apd.Decimal{}
	}
	p.offsets[text] = d
	return d, true
}

// rangeBound is the frame bound b of sorted position k under RANGE: for a
// start bound the first row not before key ± offset, for an end bound the
// first row after it (exclusive).
func rangeBound(b expr.FrameBound, end bool, p *windowPart, k int) int {
	cur := p.keys[k-p.start]
	if cur == nil {
		if end {
			return p.peerEnd[k-p.start]
		}
		return p.peerStart[k-p.start]
	}
	offset, ok := p.offset(b.Offset)
	if !ok {
		return k // the planner canonicalized the offset; not reached
	}
	// Moving to later rows means larger keys ascending, smaller descending.
	// BaseContext does not round, so the result is exact.
	var target apd.Decimal
	var err error
	if later := b.Kind == expr.Following; later != p.desc {
		_, err = apd.BaseContext.Add(&target, cur, offset)
	} else {
		_, err = apd.BaseContext.Sub(&target, cur, offset)
	}
	if err != nil {
		return k
	}
	n := p.numEnd - p.numStart
	return p.numStart + sort.Search(n, func(i int) bool {
		c := p.keys[p.numStart+i-p.start].Cmp(&target)
		if p.desc {
			c = -c
		}
		if end {
			return c > 0
		}
		return c >= 0
	})
}
