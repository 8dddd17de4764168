package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/ddbsql/ddbsql/exec/dynamo/offline"
)

// asOfFlag is --as-of TIME: an ISO 8601 / RFC 3339 time (a time without
// a zone is UTC; a date alone is its midnight UTC) or a Unix epoch time
// (seconds, with or without a fraction; 13 digits are milliseconds, 16
// microseconds).
type asOfFlag struct{ p *time.Time }

func (f asOfFlag) String() string {
	if f.p == nil || f.p.IsZero() {
		return ""
	}
	return f.p.UTC().Format(time.RFC3339Nano)
}

func (f asOfFlag) Set(s string) error {
	t, err := parseAsOf(strings.TrimSpace(s))
	if err != nil {
		return err
	}
	*f.p = t
	return nil
}

// asOfLayouts are the ISO 8601 forms --as-of reads besides RFC 3339.
var asOfLayouts = []string{
	"2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04Z07:00", "2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02",
}

func parseAsOf(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, errors.New("give a time, e.g. 2026-03-01T12:00:00Z or 1772366400")
	}
	if isEpoch(s) {
		return parseEpoch(s)
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC(), nil
	}
	for _, layout := range asOfLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a time: write ISO 8601 (2026-03-01T12:00:00Z, 2026-03-01T21:00:00+09:00, 2026-03-01 12:00 in UTC, 2026-03-01) or Unix epoch seconds (1772366400)", s)
}

func isEpoch(s string) bool {
	dot := false
	for i, c := range s {
		switch {
		case c >= '0' && c <= '9':
		case c == '.' && !dot && i > 0:
			dot = true
		default:
			return false
		}
	}
	return true
}

// parseEpoch reads epoch seconds (a fraction allowed), or 13 digits as
// milliseconds and 16 as microseconds, as AWS writes them.
func parseEpoch(s string) (time.Time, error) {
	whole, frac, _ := strings.Cut(s, ".")
	n, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is out of range for an epoch time", s)
	}
	switch {
	case frac == "" && len(whole) == 13:
		return time.UnixMilli(n).UTC(), nil
	case frac == "" && len(whole) == 16:
		return time.UnixMicro(n).UTC(), nil
	case len(whole) > 11:
		return time.Time{}, fmt.Errorf("%q: give epoch seconds (10 digits), milliseconds (13) or microseconds (16)", s)
	}
	ns := int64(0)
	if frac != "" {
		f := (frac + "000000000")[:9]
		ns, _ = strconv.ParseInt(f, 10, 64)
	}
	return time.Unix(n, ns).UTC(), nil
}

// boundaryNotes are EXPLAIN's notes on the tables with incremental
// exports and their $changes tables.
func boundaryNotes(bs []offline.Boundary) map[string]string {
	if len(bs) == 0 {
		return nil
	}
	notes := map[string]string{}
	for _, b := range bs {
		what := "its full export"
		if b.Windows > 0 {
			what = "incremental export " + b.Export
		}
		asOf := "the last window"
		if !b.AsOf.IsZero() {
			asOf = "--as-of " + b.AsOf.Format(time.RFC3339Nano)
		}
		notes[b.Table] = fmt.Sprintf("%s is shown as of %s, after %s (%d of %d incremental exports applied: %s)", b.Table, b.At.Format(time.RFC3339Nano), what, b.Windows, b.Of, asOf)
		notes[b.Table+offline.ChangesSuffix] = fmt.Sprintf("%s%s holds the changes of %d of %d incremental exports, up to %s (%s)", b.Table, offline.ChangesSuffix, b.Windows, b.Of, b.At.Format(time.RFC3339Nano), asOf)
	}
	return notes
}

// printBoundaries says, one line per table with incremental exports,
// which window boundary --as-of selected.
func printBoundaries(w io.Writer, asOf time.Time, bs []offline.Boundary) {
	for _, b := range bs {
		what := "its full export"
		if b.Windows > 0 {
			what = "incremental export " + b.Export
		}
		fmt.Fprintf(w, "as of %s (the latest window boundary at or before --as-of %s): %s after %s, %d of %d incremental exports applied\n",
			b.At.Format(time.RFC3339Nano), asOf.Format(time.RFC3339Nano), b.Table, what, b.Windows, b.Of)
	}
}
