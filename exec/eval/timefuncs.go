package eval

import (
	"time"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/funcs"
	"github.com/ddbsql/ddbsql/planner/value"
)

// unitArg evaluates argument i as a unit of time. NULL gives ok false (the
// function returns NULL); an S that names no unit is an "argument" error
// (the planner reports a literal one before anything runs).
func unitArg(f expr.Func, row Row, i int) (u funcs.Unit, ok bool, err error) {
	v, err := arg(f, row, i)
	if err != nil || v.IsNull() {
		return 0, false, err
	}
	if v.Kind() != value.String {
		return 0, false, argTypeError(f, "a unit of time as a string ('day')", v)
	}
	if u, ok = funcs.ParseTimeUnit(v.Text()); !ok {
		return 0, false, errorf(diag.CodeArgument, "%s: unknown unit of time '%s'", f.String(), v.Text()).
			Hintf("units: %s (singular or plural, any case)", funcs.TimeUnitNames())
	}
	return u, true, nil
}

// timeArg evaluates argument i as a time; ok is false when it is not one.
func timeArg(f expr.Func, row Row, i int) (instant, bool, error) {
	v, err := arg(f, row, i)
	if err != nil {
		return instant{}, false, err
	}
	in, ok := timeOf(v)
	return in, ok, nil
}

// fnDateTrunc is date_trunc(unit, x): x rounded down to the start of its
// unit (weeks start on Monday). A bare date stays a bare date for units of
// a day or more.
func fnDateTrunc(f expr.Func, row Row) (value.Value, error) {
	u, ok, err := unitArg(f, row, 0)
	if err != nil || !ok {
		return value.MissingValue(), err
	}
	in, ok, err := timeArg(f, row, 1)
	if err != nil || !ok {
		return value.MissingValue(), err
	}
	return timeValue(truncTime(in.t, u), in.dateOnly && u >= funcs.Day), nil
}

func truncTime(t time.Time, u funcs.Unit) time.Time {
	y, m, d := t.Date()
	switch u {
	case funcs.Second:
		return t.Truncate(time.Second)
	case funcs.Minute:
		return time.Date(y, m, d, t.Hour(), t.Minute(), 0, 0, time.UTC)
	case funcs.Hour:
		return time.Date(y, m, d, t.Hour(), 0, 0, 0, time.UTC)
	case funcs.Day:
		return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	case funcs.Week:
		back := (int(t.Weekday()) + 6) % 7 // days since Monday
		return time.Date(y, m, d-back, 0, 0, 0, 0, time.UTC)
	case funcs.Month:
		return time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
	case funcs.Quarter:
		return time.Date(y, (m-1)/3*3+1, 1, 0, 0, 0, 0, time.UTC)
	}
	return time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC)
}

// fnDatePart is date_part(unit, x): the field as an N — second 0–59
// (whole seconds), minute, hour, day of the month, ISO week 1–53, month,
// quarter 1–4, year.
func fnDatePart(f expr.Func, row Row) (value.Value, error) {
	u, ok, err := unitArg(f, row, 0)
	if err != nil || !ok {
		return value.MissingValue(), err
	}
	in, ok, err := timeArg(f, row, 1)
	if err != nil || !ok {
		return value.MissingValue(), err
	}
	return intValue(int64(datePart(in.t, u))), nil
}

func datePart(t time.Time, u funcs.Unit) int {
	switch u {
	case funcs.Second:
		return t.Second()
	case funcs.Minute:
		return t.Minute()
	case funcs.Hour:
		return t.Hour()
	case funcs.Day:
		return t.Day()
	case funcs.Week:
		_, w := t.ISOWeek()
		return w
	case funcs.Month:
		return int(t.Month())
	case funcs.Quarter:
		return (int(t.Month())-1)/3 + 1
	}
	return t.Year()
}

// unitSeconds is the length of the fixed-length units.
var unitSeconds = map[funcs.Unit]int64{funcs.Second: 1, funcs.Minute: 60, funcs.Hour: 3600,
	funcs.Day: 86400, funcs.Week: 7 * 86400}

// unitMonths is the length of the calendar units.
var unitMonths = map[funcs.Unit]int64{funcs.Month: 1, funcs.Quarter: 3, funcs.Year: 12}

// fnDateAdd is date_add(unit, n, x): x plus n units (n may be negative; a
// fraction rounds half away from zero). Months, quarters and years keep
// the day of the month, clamped to the month's last day (Jan 31 + 1 month
// = Feb 28 or 29). A bare date stays a bare date for units of a day or more.
func fnDateAdd(f expr.Func, row Row) (value.Value, error) {
	u, ok, err := unitArg(f, row, 0)
	if err != nil || !ok {
		return value.MissingValue(), err
	}
	nv, err := arg(f, row, 1)
	if err != nil || nv.IsNull() {
		return value.MissingValue(), err
	}
	if nv.Kind() != value.Number {
		return value.Value{}, argTypeError(f, "a number of units", nv)
	}
	n, err := intArg(nv)
	if err != nil {
		return value.Value{}, err
	}
	in, ok, err := timeArg(f, row, 2)
	if err != nil || !ok {
		return value.MissingValue(), err
	}
	t, ok := addUnits(in.t, u, n)
	if !ok {
		return value.MissingValue(), nil
	}
	return timeValue(t, in.dateOnly && u >= funcs.Day), nil
}

// addUnits adds n units to t; ok is false when the result leaves the years
// 0000–9999.
func addUnits(t time.Time, u funcs.Unit, n int64) (time.Time, bool) {
	const maxSpan = 400_000_000_000 // seconds: more than 10,000 years
	if s, fixed := unitSeconds[u]; fixed {
		if n > maxSpan/s || n < -maxSpan/s {
			return time.Time{}, false
		}
		r := time.Unix(t.Unix()+n*s, int64(t.Nanosecond())).UTC()
		return r, inRange(r)
	}
	months := n * unitMonths[u]
	if months > 200_000 || months < -200_000 {
		return time.Time{}, false
	}
	r := addMonths(t, int(months))
	return r, inRange(r)
}

// addMonths adds months, clamping the day to the target month's length.
func addMonths(t time.Time, months int) time.Time {
	y, m, d := t.Date()
	total := y*12 + int(m) - 1 + months
	ty, tm := floorDiv(total, 12), time.Month(floorMod(total, 12)+1)
	d = min(d, daysIn(ty, tm))
	return time.Date(ty, tm, d, t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
}

func floorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func floorMod(a, b int) int { return a - floorDiv(a, b)*b }

// fnDateDiff is date_diff(unit, a, b): how many whole units lie from a to
// b, negative when b is before a, truncated toward zero. For months,
// quarters and years it is the largest n with date_add(unit, n, a) <= b
// (>= for negative n), so month ends clamp as in date_add.
func fnDateDiff(f expr.Func, row Row) (value.Value, error) {
	u, ok, err := unitArg(f, row, 0)
	if err != nil || !ok {
		return value.MissingValue(), err
	}
	a, okA, err := timeArg(f, row, 1)
	if err != nil {
		return value.Value{}, err
	}
	b, okB, err := timeArg(f, row, 2)
	if err != nil || !okA || !okB {
		return value.MissingValue(), err
	}
	return intValue(dateDiff(u, a.t, b.t)), nil
}

func dateDiff(u funcs.Unit, a, b time.Time) int64 {
	if s, fixed := unitSeconds[u]; fixed {
		secs := b.Unix() - a.Unix()
		ns := b.Nanosecond() - a.Nanosecond()
		switch {
		case secs > 0 && ns < 0:
			secs--
		case secs < 0 && ns > 0:
			secs++
		}
		return secs / s
	}
	ay, am, _ := a.Date()
	by, bm, _ := b.Date()
	months := (by*12 + int(bm)) - (ay*12 + int(am))
	switch {
	case months > 0 && addMonths(a, months).After(b):
		months--
	case months < 0 && addMonths(a, months).Before(b):
		months++
	}
	return int64(months) / unitMonths[u]
}

// fnFromUnixtime is from_unixtime(seconds): the datetime of an epoch N.
func fnFromUnixtime(f expr.Func, row Row) (value.Value, error) {
	v, err := arg(f, row, 0)
	if err != nil || v.Kind() != value.Number {
		return value.MissingValue(), err
	}
	t, ok := epochTime(v)
	if !ok {
		return value.MissingValue(), nil
	}
	return timeValue(t, false), nil
}

// fnToUnixtime is to_unixtime(x): seconds since the epoch as an exact N,
// with a fraction when x has one.
func fnToUnixtime(f expr.Func, row Row) (value.Value, error) {
	in, ok, err := timeArg(f, row, 0)
	if err != nil || !ok {
		return value.MissingValue(), err
	}
	return epochValue(in.t), nil
}

// fnNow is now() and current_timestamp: the current UTC datetime in whole
// seconds. The planner replaces every call by the time it planned the
// statement, so all rows see one instant; this is what an unplanned
// expression gets.
func fnNow(f expr.Func, row Row) (value.Value, error) {
	return value.Str(funcs.NowText(time.Now())), nil
}

// fnCurrentDate is current_date: today's UTC date (the planner fixes it
// per statement, as for now()).
func fnCurrentDate(f expr.Func, row Row) (value.Value, error) {
	return value.Str(funcs.CurrentDateText(time.Now())), nil
}
