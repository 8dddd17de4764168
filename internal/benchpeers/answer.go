package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// answer is a GROUP BY status result: per status, COUNT(*) and SUM(total)
// in canonical decimal form (no trailing zeros: 12.5, not 12.50).
type answer map[string]group

type group struct {
	count int64
	sum   string
}

// compare says how got differs from the expected answer a, naming who
// answered got.
func (a answer) compare(who string, got answer) error {
	var diffs []string
	for s, w := range a {
		g, ok := got[s]
		switch {
		case !ok:
			diffs = append(diffs, fmt.Sprintf("no group %q (want %d, %s)", s, w.count, w.sum))
		case g != w:
			diffs = append(diffs, fmt.Sprintf("%q: %d, %s; want %d, %s", s, g.count, g.sum, w.count, w.sum))
		}
	}
	for s, g := range got {
		if _, ok := a[s]; !ok {
			diffs = append(diffs, fmt.Sprintf("unexpected group %q (%d, %s)", s, g.count, g.sum))
		}
	}
	if len(diffs) == 0 {
		return nil
	}
	sort.Strings(diffs)
	return fmt.Errorf("%s answered differently: %s", who, strings.Join(diffs, "; "))
}

// parseCSV reads ddbsql's --format csv output: a header, then status,
// count, sum.
func parseCSV(out []byte) (answer, error) {
	recs, err := csv.NewReader(bytes.NewReader(out)).ReadAll()
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("no CSV header in %q", out)
	}
	a := answer{}
	for _, r := range recs[1:] {
		if len(r) != 3 {
			return nil, fmt.Errorf("CSV row %q: want status, count, sum", r)
		}
		if err := a.add(r[0], r[1], r[2]); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// parseJSONLines reads testdata/peers/query.mjs output: one JSON object
// per row, {"status": …, "n": …, "total": …}, every value a string.
func parseJSONLines(out []byte) (answer, error) {
	a := answer{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var r struct{ Status, N, Total string }
		if err := dec.Decode(&r); err != nil {
			return nil, err
		}
		if err := a.add(r.Status, r.N, r.Total); err != nil {
			return nil, err
		}
	}
	return a, nil
}

func (a answer) add(status, count, sum string) error {
	n, err := strconv.ParseInt(count, 10, 64)
	if err != nil {
		return fmt.Errorf("count of %q: %w", status, err)
	}
	if _, dup := a[status]; dup {
		return fmt.Errorf("group %q twice", status)
	}
	a[status] = group{count: n, sum: canonical(sum)}
	return nil
}

// canonical drops a decimal's trailing fractional zeros: "12.50" is
// "12.5", "12.00" is "12".
func canonical(d string) string {
	if !strings.Contains(d, ".") || strings.ContainsAny(d, "eE") {
		return d
	}
	d = strings.TrimRight(d, "0")
	return strings.TrimSuffix(d, ".")
}
