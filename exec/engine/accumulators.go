package engine

import (
	"strconv"

	"github.com/cockroachdb/apd/v3"

	"github.com/ddbsql/ddbsql/exec/spill"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/ddblimits"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// accumulator folds one aggregate over the rows of a group. The value given
// to add may be read in place from the batch being folded: an accumulator
// that keeps it must own it before that batch is released (see lentValues).
type accumulator interface {
	add(v value.Value) error
	result() (value.Value, error)
}

// newAccumulator starts an aggregate; name is its SQL text, for errors.
// MIN and MAX list themselves in lent when they keep a value read in place.
func newAccumulator(a expr.Aggregate, name string, lent *lentValues) accumulator {
	acc := accumulators[a.Func](a, name, lent)
	if a.Distinct {
		acc = &distinctAcc{inner: acc, seen: map[string]struct{}{}}
	}
	return acc
}

// accumulators starts each aggregate of the function catalogue
// (planner/funcs), keyed by its name there; a test proves that every
// catalogued aggregate is here and nothing else is.
var accumulators = map[string]func(a expr.Aggregate, name string, lent *lentValues) accumulator{
	"count": func(a expr.Aggregate, _ string, _ *lentValues) accumulator {
		return &countAcc{star: a.Arg == nil}
	},
	"sum": func(_ expr.Aggregate, name string, _ *lentValues) accumulator {
		return &sumAcc{name: name}
	},
	"avg": func(_ expr.Aggregate, name string, _ *lentValues) accumulator {
		return &sumAcc{name: name, avg: true}
	},
	"min": func(_ expr.Aggregate, _ string, lent *lentValues) accumulator {
		return &extremeAcc{lent: lent}
	},
	"max": func(_ expr.Aggregate, _ string, lent *lentValues) accumulator {
		return &extremeAcc{max: true, lent: lent}
	},
}

type countAcc struct {
	star bool
	n    int64
}

func (c *countAcc) add(v value.Value) error {
	if c.star || !v.IsNull() {
		c.n++
	}
	return nil
}

func (c *countAcc) result() (value.Value, error) {
	return value.NumTrusted(itoa64(c.n)), nil
}

// sumAcc adds numbers exactly; AVG divides at the end, rounding to 38
// significant digits only when the quotient does not terminate. The results
// are output, not numbers DynamoDB stores: SUM keeps every digit of the
// exact sum (more than 38 when many large numbers add up), and neither is
// held to DynamoDB's magnitude range.
type sumAcc struct {
	name  string
	avg   bool
	n     int64
	isInt bool
	i     int64
	dec   *apd.Decimal
}

// wideSum adds exactly. DynamoDB numbers have digits from 10^125 down to
// 10^-167 (38 digits below 1E-130), so a sum of them needs at most 293
// digits plus one per tenfold of the row count; 400 never rounds, and
// Inexact is trapped so that a rounded sum could never pass for an exact
// one (it would then fit in 38 digits and be returned silently wrong).
var wideSum = apd.Context{Precision: 400, MaxExponent: apd.MaxExponent, MinExponent: apd.MinExponent,
	Rounding: apd.RoundHalfEven, Traps: apd.InvalidOperation | apd.Inexact}

func (s *sumAcc) add(v value.Value) error {
	if v.IsNull() {
		return nil
	}
	if v.Kind() != value.Number {
		return execErrorf(diag.CodeEval, "%s: %s is a %s value, not a number; filter such items out, e.g. WHERE attribute_type(x, 'N')",
			s.name, value.Display(v), v.Kind())
	}
	if s.n == 0 {
		s.isInt = true
	}
	s.n++
	if s.isInt {
		if x, ok := v.Int64(); ok {
			if sum, ok := addInt64(s.i, x); ok {
				s.i = sum
				return nil
			}
		}
		s.isInt = false
		s.dec = apd.New(s.i, 0)
	}
	d, err := v.Decimal()
	if err != nil {
		return execErrorf(diag.CodeEval, "%s: %v", s.name, err)
	}
	if _, err := wideSum.Add(s.dec, s.dec, d); err != nil {
		return execErrorf(diag.CodeEval, "%s: %v", s.name, err)
	}
	return nil
}

// addInt adds an integer without building a value (the fast path).
func (s *sumAcc) addInt(x int64) error {
	if s.n == 0 {
		s.isInt = true
	}
	if s.isInt {
		if sum, ok := addInt64(s.i, x); ok {
			s.n++
			s.i = sum
			return nil
		}
	}
	return s.add(value.NumTrusted(strconv.FormatInt(x, 10)))
}

func addInt64(a, b int64) (int64, bool) {
	c := a + b
	if (c > a) == (b > 0) {
		return c, true
	}
	return 0, false
}

func (s *sumAcc) result() (value.Value, error) {
	if s.n == 0 {
		return value.MissingValue(), nil
	}
	if s.isInt && !s.avg {
		return value.NumTrusted(strconv.FormatInt(s.i, 10)), nil
	}
	total := s.dec
	if s.isInt {
		total = apd.New(s.i, 0)
	}
	if s.avg {
		q := new(apd.Decimal)
		if _, err := avgContext.Quo(q, total, apd.New(s.n, 0)); err != nil {
			return value.Value{}, execErrorf(diag.CodeEval, "%s: %v", s.name, err)
		}
		total = q
	}
	v, err := value.NumFromExact(total)
	if err != nil {
		return value.Value{}, execErrorf(diag.CodeEval, "%s: %v", s.name, err)
	}
	return v, nil
}

// avgContext divides a sum by its count to 38 significant digits, rounding
// half away from zero like the / operator (exec/eval), so that AVG(x) =
// SUM(x) / COUNT(x) also when the 39th digit is a 5. Its exponent range is
// apd's, not DynamoDB's: the average of 1E-130 and 0 is 5E-131.
var avgContext = apd.Context{Precision: ddblimits.NumberDigits, MaxExponent: apd.MaxExponent, MinExponent: apd.MinExponent,
	Rounding: apd.RoundHalfUp, Traps: apd.InvalidOperation | apd.DivisionByZero}

// extremeAcc keeps the MIN or MAX by ddbsql's total order (numbers
// numerically, strings and binaries byte-wise; different types by type).
// A new best is kept as given (perhaps read in place) and listed in lent;
// the aggregation copies it when the batch is done (lentValues.own).
type extremeAcc struct {
	max      bool
	have     bool
	borrowed bool  // best is still read in place
	owned    int32 // the bytes of the copy of best the budget holds (a value is at most 400KB); packed beside the flags
	best     value.Value
	lent     *lentValues
}

func (e *extremeAcc) add(v value.Value) error {
	if v.IsNull() {
		return nil
	}
	if e.have {
		c := value.Order(v, e.best)
		if (e.max && c <= 0) || (!e.max && c >= 0) {
			return nil
		}
	}
	e.best, e.have = v, true
	if !e.borrowed {
		e.borrowed = true
		e.lent.accs = append(e.lent.accs, e)
	}
	return nil
}

// lentValues lists the MIN/MAX accumulators whose best value may point
// into the batch being folded. own copies those values before the batch is
// released: a best replaced again within the batch is never copied, so a
// MAX over ascending input copies once per group and batch, not per row.
//
// The copies count against the memory budget (mem, when set): the group
// exists already, so they are reserved whether or not they fit, and a
// budget they push past its limit takes no new group (aggregate_spill.go).
type lentValues struct {
	accs     []*extremeAcc
	mem      *spill.Budget
	reserved int64
}

func (l *lentValues) own() {
	var delta int64
	for _, e := range l.accs {
		e.best, e.borrowed = e.best.Clone(), false
		if l.mem != nil {
			size := valueFootprint(e.best)
			delta += size - int64(e.owned)
			e.owned = int32(size)
		}
	}
	clear(l.accs)
	l.accs = l.accs[:0]
	if delta > 0 {
		l.mem.Reserve(delta)
	} else {
		l.mem.Release(-delta)
	}
	l.reserved += delta
}

// release gives back what the copies held, when the groups go.
func (l *lentValues) release() {
	l.mem.Release(l.reserved)
	l.reserved = 0
}

// valueFootprint estimates the bytes a copied value holds beyond the
// accumulator: its text, or its encoding for a document or set.
func valueFootprint(v value.Value) int64 {
	switch v.Kind() {
	case value.String, value.Number, value.Binary:
		return roundUp8(len(v.Text()))
	case value.Missing, value.Null, value.Bool:
		return 0
	}
	return roundUp8(len(value.AppendBinary(nil, v)))
}

func (e *extremeAcc) result() (value.Value, error) {
	if !e.have {
		return value.MissingValue(), nil
	}
	return e.best, nil
}

// distinctAcc feeds each distinct non-NULL value to the inner accumulator
// once. Within --memory-limit its set of values seen is reserved from the
// budget; once the budget refuses, the set stops growing (frozen) and a
// value not in it goes to the aggregation's distinctSpill, which feeds
// each such value to inner once after the input ends.
type distinctAcc struct {
	inner accumulator
	seen  map[string]struct{}
	// spill is the aggregation's overflow; nil outside an aggregation.
	spill  *distinctSpill
	group  int // the group's number in its level, and this aggregate's
	agg    int
	name   string
	frozen bool
}

func (d *distinctAcc) add(v value.Value) error {
	if v.IsNull() {
		return nil
	}
	k := valueKey(v)
	if _, ok := d.seen[k]; ok {
		return nil
	}
	if d.spill != nil {
		if !d.frozen {
			frozen, err := d.spill.reserve(d, len(k))
			if err != nil {
				return err
			}
			d.frozen = frozen
		}
		if d.frozen {
			return d.spill.put(d.group, d.agg, k)
		}
	}
	d.seen[k] = struct{}{}
	return d.inner.add(v)
}

func (d *distinctAcc) result() (value.Value, error) { return d.inner.result() }

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }
