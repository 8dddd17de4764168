package difftest

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/exec/memtest"
	"github.com/ddbsql/ddbsql/exec/session"
	"github.com/ddbsql/ddbsql/planner"
)

// ddbRunner runs statements in-process through a ddbsql session.
type ddbRunner struct {
	s        *session.Session
	out, err bytes.Buffer
	// keys are the last run's JSON keys, row by row.
	keys [][]string
}

func newDDB(t testing.TB) *ddbRunner {
	t.Helper()
	return newDDBOn(t, dynalitetest.Client(t))
}

// newDDBOn is newDDB on another backend.
func newDDBOn(t testing.TB, c dynamo.Client) *ddbRunner {
	t.Helper()
	r := &ddbRunner{}
	cfg := session.DefaultConfig()
	// Every statement's memory is checked and freed buffers are poisoned:
	// a value kept past its batch changes the result or fails the test.
	cfg.Mem = memtest.Allocator(t)
	cfg.Format = "ndjson"
	r.s = session.New(c, &r.out, &r.err, cfg)
	return r
}

// plan changes the planner options of the next statements.
func (r *ddbRunner) plan(change func(*planner.Options)) {
	opts := r.s.Settings().Plan
	change(&opts)
	r.s.SetPlanOptions(opts)
}

// run executes one SELECT and returns its rows as raw JSON values in column
// order (numbers as json.Number).
func (r *ddbRunner) run(ctx context.Context, sqlText string, allowScan bool) ([][]any, error) {
	r.out.Reset()
	r.err.Reset()
	r.plan(func(o *planner.Options) { o.AllowScan = allowScan })
	r.keys = nil
	if err := r.s.RunScript(ctx, sqlText); err != nil {
		return nil, fmt.Errorf("%w (stderr: %s)", err, strings.TrimSpace(r.err.String()))
	}
	rows, keys, err := decodeNDJSON(r.out.Bytes())
	r.keys = keys
	return rows, err
}

// explain returns ddbsql's EXPLAIN text for a statement ("" on error):
// the tree, which EXPLAIN prints in every format but json and ndjson.
func (r *ddbRunner) explain(ctx context.Context, sqlText string, allowScan bool) string {
	r.out.Reset()
	r.plan(func(o *planner.Options) { o.AllowScan = allowScan })
	format := r.s.Settings().Format
	if err := r.s.SetFormat("csv"); err != nil {
		return ""
	}
	defer func() { _ = r.s.SetFormat(format) }()
	if err := r.s.RunScript(ctx, "EXPLAIN "+sqlText); err != nil {
		return ""
	}
	return r.out.String()
}

// decodeNDJSON reads one JSON object per line keeping the key order; it
// returns each row's values and keys.
func decodeNDJSON(b []byte) ([][]any, [][]string, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var rows [][]any
	var keys [][]string
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return rows, keys, nil
		}
		if err != nil {
			return nil, nil, err
		}
		if d, ok := tok.(json.Delim); !ok || d != '{' {
			return nil, nil, fmt.Errorf("ndjson: want an object, got %v", tok)
		}
		vals, ks, err := decodeObject(dec)
		if err != nil {
			return nil, nil, err
		}
		rows, keys = append(rows, vals), append(keys, ks)
	}
}

// decodeObject reads the members of an object whose '{' has been read, and
// its '}'.
func decodeObject(dec *json.Decoder) ([]any, []string, error) {
	var vals []any
	var keys []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		keys, vals = append(keys, k.(string)), append(vals, v)
	}
	if _, err := dec.Token(); err != nil { // '}'
		return nil, nil, err
	}
	return vals, keys, nil
}

// runLite executes a statement on SQLite.
func runLite(ctx context.Context, db *sql.DB, sqlText string) ([][]any, error) {
	rs, err := db.QueryContext(ctx, sqlText)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	cols, err := rs.Columns()
	if err != nil {
		return nil, err
	}
	var rows [][]any
	for rs.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for k := range vals {
			ptrs[k] = &vals[k]
		}
		if err := rs.Scan(ptrs...); err != nil {
			return nil, err
		}
		rows = append(rows, vals)
	}
	return rows, rs.Err()
}

// outKind is how an output column is normalised for comparison.
type outKind uint8

const (
	kExact       outKind = iota // number compared exactly (ddbsql N, SQLite INTEGER)
	kCents                      // decimal: ddbsql N exact, SQLite INTEGER cents
	kStr                        // string
	kBool                       // ddbsql BOOL, SQLite 0/1
	kApprox                     // number compared with a relative tolerance (AVG, /)
	kApproxCents                // kApprox over cents (AVG of a decimal)
)

// norm is one normalised cell.
type norm struct {
	null   bool
	rat    *big.Rat // exact numbers and bools
	f      float64  // approximate numbers
	approx bool
	str    string
	isStr  bool
	bad    string // the value did not have the expected type
}

func (n norm) String() string {
	switch {
	case n.bad != "":
		return "!" + n.bad
	case n.null:
		return "NULL"
	case n.isStr:
		return strconv.Quote(n.str)
	case n.approx:
		return "~" + strconv.FormatFloat(n.f, 'g', 12, 64)
	}
	if n.rat.IsInt() {
		return n.rat.Num().String()
	}
	return strings.TrimRight(n.rat.FloatString(40), "0")
}

// key is the cell's identity for sorting unordered results; approximate
// numbers sort separately, by value (see sortedRows).
func (n norm) key() string {
	if n.approx && !n.null {
		return "~"
	}
	if n.rat != nil {
		return "N" + n.rat.RatString()
	}
	return n.String()
}

func (n norm) equal(o norm) bool {
	if n.bad != "" || o.bad != "" || n.null != o.null {
		return false
	}
	switch {
	case n.null:
		return true
	case n.isStr || o.isStr:
		return n.isStr && o.isStr && n.str == o.str
	case n.approx || o.approx:
		return n.approx && o.approx && approxEqual(n.f, o.f)
	}
	return n.rat.Cmp(o.rat) == 0
}

func approxEqual(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

var hundred = big.NewRat(100, 1)

// normDDB normalises a value decoded from ddbsql's ndjson.
func normDDB(v any, k outKind) norm {
	if v == nil {
		return norm{null: true}
	}
	switch k {
	case kStr:
		if s, ok := v.(string); ok {
			return norm{str: s, isStr: true}
		}
	case kBool:
		if b, ok := v.(bool); ok {
			if b {
				return norm{rat: big.NewRat(1, 1)}
			}
			return norm{rat: new(big.Rat)}
		}
	default:
		num, ok := v.(json.Number)
		if !ok {
			break
		}
		r, ok := new(big.Rat).SetString(num.String())
		if !ok {
			break
		}
		if k == kApprox || k == kApproxCents {
			f, _ := r.Float64()
			return norm{f: f, approx: true}
		}
		return norm{rat: r}
	}
	return norm{bad: fmt.Sprintf("%T %v", v, v)}
}

// normLite normalises a value scanned from SQLite.
func normLite(v any, k outKind) norm {
	if v == nil {
		return norm{null: true}
	}
	switch k {
	case kStr:
		switch s := v.(type) {
		case string:
			return norm{str: s, isStr: true}
		case []byte:
			return norm{str: string(s), isStr: true}
		}
	case kExact, kBool, kCents:
		if n, ok := v.(int64); ok {
			r := new(big.Rat).SetInt64(n)
			if k == kCents {
				r.Quo(r, hundred)
			}
			return norm{rat: r}
		}
	case kApprox, kApproxCents:
		var f float64
		switch n := v.(type) {
		case int64:
			f = float64(n)
		case float64:
			f = n
		default:
			return norm{bad: fmt.Sprintf("%T %v", v, v)}
		}
		if k == kApproxCents {
			f /= 100
		}
		return norm{f: f + 0, approx: true} // -0 → 0
	}
	return norm{bad: fmt.Sprintf("%T %v", v, v)}
}

func normRows(rows [][]any, kinds []outKind, f func(any, outKind) norm) ([][]norm, error) {
	out := make([][]norm, len(rows))
	for i, r := range rows {
		if len(r) != len(kinds) {
			return nil, fmt.Errorf("row %d has %d columns, want %d", i, len(r), len(kinds))
		}
		out[i] = make([]norm, len(r))
		for k, v := range r {
			out[i][k] = f(v, kinds[k])
		}
	}
	return out, nil
}

func rowKey(r []norm) string {
	parts := make([]string, len(r))
	for k, c := range r {
		parts[k] = c.key()
	}
	return strings.Join(parts, "\x00")
}

// compareRows reports the first difference between two results, or "".
// Unordered results are compared as multisets.
func compareRows(got, want [][]norm, ordered bool) string {
	if !ordered {
		return compareMultisets(got, want)
	}
	if len(got) != len(want) {
		return fmt.Sprintf("ddbsql returned %d rows, SQLite %d", len(got), len(want))
	}
	for i := range got {
		for k := range got[i] {
			if !got[i][k].equal(want[i][k]) {
				return fmt.Sprintf("row %d column %d: ddbsql %v, SQLite %v", i, k+1, got[i][k], want[i][k])
			}
		}
	}
	return ""
}

// compareMultisets compares unordered results: rows with the same exact
// cells form a bucket, and each of ddbsql's rows must pair with one of
// SQLite's in its bucket whose approximate numbers are all approximately
// equal. (Sorting cannot pair them: the float of the same exact average
// differs from group to group in its last bits, and close values of
// different groups fall within the tolerance of each other.)
func compareMultisets(got, want [][]norm) string {
	if len(got) != len(want) {
		return fmt.Sprintf("ddbsql returned %d rows, SQLite %d", len(got), len(want))
	}
	buckets := map[string][][]norm{}
	for _, r := range want {
		k := rowKey(r)
		buckets[k] = append(buckets[k], r)
	}
	for i, r := range sortedRows(got) {
		k := rowKey(r)
		cands := buckets[k]
		// The closest of the candidates that are equal within the tolerance.
		j, best := -1, math.Inf(1)
		for ci, c := range cands {
			d, ok := 0.0, true
			for x := range r {
				if ok = r[x].equal(c[x]); !ok {
					break
				}
				if r[x].approx && !r[x].null {
					d += math.Abs(r[x].f - c[x].f)
				}
			}
			if ok && d < best {
				j, best = ci, d
			}
		}
		if j < 0 {
			cells := make([]string, len(r))
			for x, c := range r {
				cells[x] = c.String()
			}
			return fmt.Sprintf("sorted ddbsql row %d (%s) has no match among SQLite's rows", i, strings.Join(cells, " | "))
		}
		buckets[k] = append(cands[:j], cands[j+1:]...)
	}
	return ""
}

// sortedRows orders rows by their exact cells, then by their approximate
// numbers' values (for reports and the pairing above).
func sortedRows(rows [][]norm) [][]norm {
	out := append([][]norm(nil), rows...)
	keys := make(map[*norm]string, len(out))
	for _, r := range out {
		if len(r) > 0 {
			keys[&r[0]] = rowKey(r)
		}
	}
	sort.SliceStable(out, func(a, b int) bool {
		ra, rb := out[a], out[b]
		if len(ra) == 0 || len(rb) == 0 {
			return len(ra) < len(rb)
		}
		if ka, kb := keys[&ra[0]], keys[&rb[0]]; ka != kb {
			return ka < kb
		}
		for k := range ra {
			if ra[k].approx && rb[k].approx && ra[k].f != rb[k].f {
				return ra[k].f < rb[k].f
			}
		}
		return false
	})
	return out
}

func formatRows(rows [][]norm, max int) string {
	var b strings.Builder
	for i, r := range rows {
		if i == max {
			fmt.Fprintf(&b, "  … %d more\n", len(rows)-max)
			break
		}
		cells := make([]string, len(r))
		for k, c := range r {
			cells[k] = c.String()
		}
		fmt.Fprintf(&b, "  %s\n", strings.Join(cells, " | "))
	}
	if len(rows) == 0 {
		b.WriteString("  (no rows)\n")
	}
	return b.String()
}

// compareSubset checks a LIMIT without a total order: got must hold
// min(limit, len(all)-offset) rows, all of them (as a multiset) among all.
func compareSubset(got, all [][]norm, limit, offset int) string {
	want := min(limit, max(0, len(all)-max(offset, 0)))
	if len(got) != want {
		return fmt.Sprintf("ddbsql returned %d rows; with %d rows in all, LIMIT %d OFFSET %d leaves %d", len(got), len(all), limit, max(offset, 0), want)
	}
	left := map[string]int{}
	for _, r := range all {
		left[rowKey(r)]++
	}
	for i, r := range got {
		k := rowKey(r)
		if left[k] == 0 {
			return fmt.Sprintf("ddbsql row %d is not among SQLite's rows (or appears too often)", i)
		}
		left[k]--
	}
	return ""
}
