package eval

import (
	"strconv"
	"strings"
	"time"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/funcs"
	"github.com/ddbsql/ddbsql/planner/value"
)

// fnDateFormat is date_format(x, format) with MySQL's DATE_FORMAT
// specifiers, in English. A malformed format is an "argument" error.
func fnDateFormat(f expr.Func, row Row) (value.Value, error) {
	in, ok, err := timeArg(f, row, 0)
	if err != nil {
		return value.Value{}, err
	}
	fv, err := arg(f, row, 1)
	if err != nil || fv.IsNull() {
		return value.MissingValue(), err
	}
	if fv.Kind() != value.String {
		return value.Value{}, argTypeError(f, "a format string", fv)
	}
	if err := funcs.CheckDateFormat(fv.Text()); err != nil {
		return value.Value{}, errorf(diag.CodeArgument, "%s: %v", f.String(), err)
	}
	if !ok {
		return value.MissingValue(), nil
	}
	return value.Str(dateFormat(in.t, fv.Text())), nil
}

// dateFormat renders t; format has been checked.
func dateFormat(t time.Time, format string) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 == len(format) {
			b.WriteByte(c)
			continue
		}
		i++
		formatSpecifier(&b, t, format[i])
	}
	return b.String()
}

func pad(b *strings.Builder, n, width int) {
	s := strconv.Itoa(n)
	for i := len(s); i < width; i++ {
		b.WriteByte('0')
	}
	b.WriteString(s)
}

func hour12(h int) int {
	if h%12 == 0 {
		return 12
	}
	return h % 12
}

func formatSpecifier(b *strings.Builder, t time.Time, c byte) {
	switch c {
	case 'a':
		b.WriteString(t.Weekday().String()[:3])
	case 'b':
		b.WriteString(t.Month().String()[:3])
	case 'c':
		pad(b, int(t.Month()), 0)
	case 'D':
		pad(b, t.Day(), 0)
		b.WriteString(ordinalSuffix(t.Day()))
	case 'd':
		pad(b, t.Day(), 2)
	case 'e':
		pad(b, t.Day(), 0)
	case 'f':
		pad(b, t.Nanosecond()/1000, 6)
	case 'H':
		pad(b, t.Hour(), 2)
	case 'h', 'I':
		pad(b, hour12(t.Hour()), 2)
	case 'i':
		pad(b, t.Minute(), 2)
	case 'j':
		pad(b, t.YearDay(), 3)
	case 'k':
		pad(b, t.Hour(), 0)
	case 'l':
		pad(b, hour12(t.Hour()), 0)
	case 'M':
		b.WriteString(t.Month().String())
	case 'm':
		pad(b, int(t.Month()), 2)
	case 'p':
		b.WriteString(ampm(t))
	case 'r':
		pad(b, hour12(t.Hour()), 2)
		b.WriteByte(':')
		pad(b, t.Minute(), 2)
		b.WriteByte(':')
		pad(b, t.Second(), 2)
		b.WriteByte(' ')
		b.WriteString(ampm(t))
	case 'S', 's':
		pad(b, t.Second(), 2)
	case 'T':
		pad(b, t.Hour(), 2)
		b.WriteByte(':')
		pad(b, t.Minute(), 2)
		b.WriteByte(':')
		pad(b, t.Second(), 2)
	case 'U':
		w, _ := mysqlWeek(t, false, false, true)
		pad(b, w, 2)
	case 'u':
		w, _ := mysqlWeek(t, true, false, false)
		pad(b, w, 2)
	case 'V':
		w, _ := mysqlWeek(t, false, true, true)
		pad(b, w, 2)
	case 'v':
		w, _ := mysqlWeek(t, true, true, false)
		pad(b, w, 2)
	case 'W':
		b.WriteString(t.Weekday().String())
	case 'w':
		pad(b, int(t.Weekday()), 0)
	case 'X':
		_, y := mysqlWeek(t, false, true, true)
		pad(b, y, 4)
	case 'x':
		_, y := mysqlWeek(t, true, true, false)
		pad(b, y, 4)
	case 'Y':
		pad(b, t.Year(), 4)
	case 'y':
		pad(b, t.Year()%100, 2)
	default: // '%'
		b.WriteByte(c)
	}
}

func ampm(t time.Time) string {
	if t.Hour() < 12 {
		return "AM"
	}
	return "PM"
}

func ordinalSuffix(d int) string {
	if d/10 == 1 {
		return "th"
	}
	switch d % 10 {
	case 1:
		return "st"
	case 2:
		return "nd"
	case 3:
		return "rd"
	}
	return "th"
}

// mysqlWeek is MySQL's week numbering (its WEEK() modes), returning the
// week and the year it belongs to:
//   - mondayFirst: weeks start on Monday, else on Sunday;
//   - weekYear: days before week 1 belong to the previous year's last week
//     and days after the last full week may belong to the next year's week
//     1 (range 1–53); otherwise they are week 0 (range 0–53);
//   - firstWeekday: week 1 is the week holding the year's first Monday
//     (or Sunday); otherwise the first week with 4 or more days in the year.
//
// %U is (Sunday, 0–53, first Sunday), %u (Monday, 0–53, 4 days), %V/%X
// (Sunday, 1–53, first Sunday), %v/%x (Monday, 1–53, 4 days: ISO 8601).
func mysqlWeek(t time.Time, mondayFirst, weekYear, firstWeekday bool) (week, year int) {
	year = t.Year()
	day := dayNumber(t.Year(), t.Month(), t.Day())
	first := dayNumber(year, time.January, 1)
	weekday := weekdayOf(first, mondayFirst) // of January 1st, 0 = first day of the week
	// startsLate: January 1st lies in the previous year's last week.
	startsLate := func(wd int) bool { return (firstWeekday && wd != 0) || (!firstWeekday && wd >= 4) }
	if t.Month() == time.January && t.Day() <= 7-weekday {
		if !weekYear && startsLate(weekday) {
			return 0, year
		}
		weekYear = true
		year--
		daysInYear := dayNumber(year+1, time.January, 1) - dayNumber(year, time.January, 1)
		first -= daysInYear
		weekday = (weekday + 53*7 - daysInYear) % 7
	}
	var days int
	if startsLate(weekday) {
		days = day - (first + 7 - weekday)
	} else {
		days = day - (first - weekday)
	}
	if weekYear && days >= 52*7 {
		daysInYear := dayNumber(year+1, time.January, 1) - dayNumber(year, time.January, 1)
		next := (weekday + daysInYear) % 7 // weekday of next January 1st
		if (!firstWeekday && next < 4) || (firstWeekday && next == 0) {
			return 1, year + 1
		}
	}
	return days/7 + 1, year
}

// dayNumber counts days since 1970-01-01 (negative before).
func dayNumber(y int, m time.Month, d int) int {
	return int(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

// weekdayOf is the weekday of a day number, 0 for the first day of the
// week (Monday when mondayFirst, else Sunday).
func weekdayOf(day int, mondayFirst bool) int {
	wd := floorMod(day+4, 7) // 1970-01-01 was a Thursday: 0 = Sunday
	if mondayFirst {
		wd = (wd + 6) % 7
	}
	return wd
}
