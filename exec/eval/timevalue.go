package eval

import (
	"strconv"
	"strings"
	"time"

	"github.com/cockroachdb/apd/v3"
	"github.com/ddbsql/ddbsql/planner/value"
)

// The instants the date functions can represent: years 0000 to 9999, so
// that every result prints as a four-digit ISO-8601 year.
var (
	minTime = time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC)
	maxTime = time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC)
)

// instant is a time read from a value: the UTC time and whether the input
// was a date without a time of day ("2026-04-26"), whose results keep that
// shape where the unit allows.
type instant struct {
	t        time.Time
	dateOnly bool
}

// timeOf reads a value as a time: an S holding an ISO-8601 date or
// datetime, or an N of seconds since 1970-01-01T00:00:00Z (a fraction
// gives sub-second precision; milliseconds must be divided by 1000 first).
// Anything else, NULL included, is not a time: ok is false and the
// function returns NULL.
func timeOf(v value.Value) (instant, bool) {
	switch v.Kind() {
	case value.String:
		return parseISO(v.Text())
	case value.Number:
		t, ok := epochTime(v)
		return instant{t: t}, ok
	}
	return instant{}, false
}

// parseISO reads YYYY-MM-DD, optionally followed by T (or t, or a space)
// and HH:MM, HH:MM:SS or HH:MM:SS.fraction (up to nanoseconds; further
// digits are dropped), and then optionally Z, ±HH:MM, ±HHMM or ±HH. A time
// without an offset is UTC; one with an offset is converted to UTC.
func parseISO(s string) (instant, bool) {
	p := isoParser{s: s}
	year, ok1 := p.digits(4)
	ok2 := p.lit('-')
	month, ok3 := p.digits(2)
	ok4 := p.lit('-')
	day, ok5 := p.digits(2)
	if !(ok1 && ok2 && ok3 && ok4 && ok5) || month < 1 || month > 12 || day < 1 || day > daysIn(year, time.Month(month)) {
		return instant{}, false
	}
	if p.done() {
		return instant{t: time.Date(year, time.Month(month), day, 0, 0, 0, 0, time.UTC), dateOnly: true}, true
	}
	if c := p.s[p.i]; c != 'T' && c != 't' && c != ' ' {
		return instant{}, false
	}
	p.i++
	hour, ok1 := p.digits(2)
	ok2 = p.lit(':')
	minute, ok3 := p.digits(2)
	if !(ok1 && ok2 && ok3) || hour > 23 || minute > 59 {
		return instant{}, false
	}
	sec, nsec := 0, 0
	if p.peek(':') {
		p.i++
		var ok bool
		if sec, ok = p.digits(2); !ok || sec > 59 {
			return instant{}, false
		}
		if p.peek('.') || p.peek(',') {
			p.i++
			start := p.i
			for scale := 100000000; p.i < len(p.s) && isDigit(p.s[p.i]); p.i++ {
				nsec += int(p.s[p.i]-'0') * scale
				scale /= 10
			}
			if p.i == start {
				return instant{}, false
			}
		}
	}
	offset, ok := p.zone()
	if !ok || !p.done() {
		return instant{}, false
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, nsec, time.UTC).Add(-offset)
	return instant{t: t}, inRange(t)
}

type isoParser struct {
	s string
	i int
}

func (p *isoParser) done() bool       { return p.i == len(p.s) }
func (p *isoParser) peek(c byte) bool { return p.i < len(p.s) && p.s[p.i] == c }

func (p *isoParser) lit(c byte) bool {
	if p.peek(c) {
		p.i++
		return true
	}
	return false
}

// digits reads exactly n decimal digits.
func (p *isoParser) digits(n int) (int, bool) {
	if p.i+n > len(p.s) {
		return 0, false
	}
	v := 0
	for _, c := range []byte(p.s[p.i : p.i+n]) {
		if !isDigit(c) {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	p.i += n
	return v, true
}

// zone reads an optional Z, ±HH:MM, ±HHMM or ±HH (hours up to 23).
func (p *isoParser) zone() (time.Duration, bool) {
	switch {
	case p.done():
		return 0, true
	case p.lit('Z') || p.lit('z'):
		return 0, true
	case p.peek('+') || p.peek('-'):
	default:
		return 0, false
	}
	sign := time.Duration(1)
	if p.s[p.i] == '-' {
		sign = -1
	}
	p.i++
	h, ok := p.digits(2)
	if !ok || h > 23 {
		return 0, false
	}
	m := 0
	if !p.done() {
		p.lit(':')
		if m, ok = p.digits(2); !ok || m > 59 {
			return 0, false
		}
	}
	return sign * (time.Duration(h)*time.Hour + time.Duration(m)*time.Minute), true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func daysIn(year int, m time.Month) int {
	return time.Date(year, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

func inRange(t time.Time) bool { return !t.Before(minTime) && !t.After(maxTime) }

// epochTime reads an N as seconds since the Unix epoch, exactly: digits
// past nanoseconds round toward the past.
func epochTime(v value.Value) (time.Time, bool) {
	if i, ok := v.Int64(); ok {
		if i < minTime.Unix() || i > maxTime.Unix() {
			return time.Time{}, false
		}
		return time.Unix(i, 0).UTC(), true
	}
	var d, whole, frac apd.Decimal
	if err := decimalOf(v, &d); err != nil {
		return time.Time{}, false
	}
	if _, err := wideCtx.Floor(&whole, &d); err != nil {
		return time.Time{}, false
	}
	sec, err := whole.Int64()
	if err != nil || sec < minTime.Unix() || sec > maxTime.Unix() {
		return time.Time{}, false
	}
	if _, err := wideCtx.Sub(&frac, &d, &whole); err != nil {
		return time.Time{}, false
	}
	frac.Exponent += 9 // × 10^9: nanoseconds
	if _, err := wideCtx.Floor(&frac, &frac); err != nil {
		return time.Time{}, false
	}
	ns, err := frac.Int64()
	if err != nil {
		return time.Time{}, false
	}
	return time.Unix(sec, ns).UTC(), true
}

// epochValue is t as an N of seconds since the epoch, exact (a fraction
// only when t has one).
func epochValue(t time.Time) value.Value {
	sec, ns := t.Unix(), t.Nanosecond()
	if ns == 0 {
		return intValue(sec)
	}
	// t.Unix() floors, so a negative time with a fraction is sec + ns/1e9.
	neg := sec < 0
	if neg {
		sec, ns = -sec-1, 1_000_000_000-ns
	}
	text := strconv.FormatInt(sec, 10) + "." + strings.TrimRight(strconv.Itoa(1_000_000_000 + ns)[1:], "0")
	if neg {
		text = "-" + text
	}
	return value.NumTrusted(text)
}

// The canonical result formats: a datetime in UTC with a Z, its fraction
// only when it has one (so results of date_trunc and date_add compare as
// strings with inputs written the same way), and a bare date. appendISO
// writes them; TestAppendISOIsTheLayout holds it to these layouts.
const (
	datetimeLayout = "2006-01-02T15:04:05.999999999Z"
	dateLayout     = "2006-01-02"
)

// timeValue renders t as an ISO-8601 string: a bare date when asDate, else
// a datetime. An instant beyond year 9999 or before year 0 is NULL.
func timeValue(t time.Time, asDate bool) value.Value {
	if !inRange(t) {
		return value.MissingValue()
	}
	return value.Str(string(appendISO(make([]byte, 0, 32), t, asDate)))
}

// appendISO writes t as dateLayout or datetimeLayout would, without
// time.Format's layout interpretation (the hot path of date_trunc and
// date_add). t is in range, so the year has four digits.
func appendISO(b []byte, t time.Time, asDate bool) []byte {
	y, m, d := t.Date()
	b = append2(append2(b, y/100), y%100)
	b = append2(append(b, '-'), int(m))
	b = append2(append(b, '-'), d)
	if asDate {
		return b
	}
	h, mi, s := t.Clock()
	b = append2(append(b, 'T'), h)
	b = append2(append(b, ':'), mi)
	b = append2(append(b, ':'), s)
	if ns := t.Nanosecond(); ns != 0 {
		digits := strconv.AppendInt(nil, int64(1_000_000_000+ns), 10)[1:]
		for digits[len(digits)-1] == '0' {
			digits = digits[:len(digits)-1]
		}
		b = append(append(b, '.'), digits...)
	}
	return append(b, 'Z')
}

// append2 writes n (0–99) as two digits.
func append2(b []byte, n int) []byte { return append(b, byte('0'+n/10), byte('0'+n%10)) }
