package eval

import (
	"testing"
	"time"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
)

func TestTimeInputs(t *testing.T) {
	runEval(t, []evalTest{
		// ISO-8601 strings, normalised to UTC, fraction kept only when present.
		{e: fn("to_unixtime", litS("1970-01-01T00:00:00Z")), want: num("0")},
		{e: fn("to_unixtime", litS("2026-04-26T20:16:00Z")), want: num("1777234560")},
		{e: fn("to_unixtime", litS("2026-04-26T20:16Z")), want: num("1777234560")},
		{e: fn("to_unixtime", litS("2026-04-26 20:16:00")), want: num("1777234560")},
		{e: fn("to_unixtime", litS("2026-04-26t20:16:00z")), want: num("1777234560")},
		{e: fn("to_unixtime", litS("2026-04-26T22:16:00+02:00")), want: num("1777234560")},
		{e: fn("to_unixtime", litS("2026-04-26T15:46:00-0430")), want: num("1777234560")},
		{e: fn("to_unixtime", litS("2026-04-27T05:16:00+09")), want: num("1777234560")},
		{e: fn("to_unixtime", litS("2026-04-26T20:16:00.250Z")), want: num("1777234560.25")},
		{e: fn("to_unixtime", litS("2026-04-26T20:16:00,5Z")), want: num("1777234560.5")},
		{e: fn("to_unixtime", litS("2026-04-26T20:16:00.123456789123Z")), want: num("1777234560.123456789")},
		{e: fn("to_unixtime", litS("2026-04-26")), want: num("1777161600")},
		{e: fn("to_unixtime", litS("1969-12-31T23:59:59.5Z")), want: num("-0.5")},
		{e: fn("to_unixtime", litS("1900-01-01")), want: num("-2208988800")},
		{e: fn("date_trunc", litS("second"), litS("2026-01-01T00:30:00+01:00")), want: str("2025-12-31T23:30:00Z")},
		// Epoch numbers are seconds (negative before 1970, fractions kept).
		{e: fn("from_unixtime", litN("0")), want: str("1970-01-01T00:00:00Z")},
		{e: fn("from_unixtime", litN("1777234560")), want: str("2026-04-26T20:16:00Z")},
		{e: fn("from_unixtime", litN("-1")), want: str("1969-12-31T23:59:59Z")},
		{e: fn("from_unixtime", litN("-1.25")), want: str("1969-12-31T23:59:58.75Z")},
		{e: fn("from_unixtime", litN("1.000000001")), want: str("1970-01-01T00:00:01.000000001Z")},
		{e: fn("from_unixtime", litN("1.0000000019")), want: str("1970-01-01T00:00:01.000000001Z")},
		{name: "milliseconds divided first", e: fn("from_unixtime", bop(expr.OpDiv, litN("1777234560123"), litN("1000"))), want: str("2026-04-26T20:16:00.123Z")},
		{e: fn("from_unixtime", litN("253402300799")), want: str("9999-12-31T23:59:59Z")},
		{e: fn("from_unixtime", litN("253402300800")), want: missing()},
		{e: fn("from_unixtime", litN("-62167219201")), want: missing()},
		{e: fn("from_unixtime", col("big")), want: missing()},
		{e: fn("from_unixtime", litS("2026-04-26")), want: missing()},
		{e: fn("to_unixtime", litN("12.5")), want: num("12.5")},
		{e: fn("date_part", litS("year"), litN("-86400")), want: num("1969")},
		// Not a time: NULL, never an error.
		{e: fn("to_unixtime", litS("yesterday")), want: missing()},
		{e: fn("to_unixtime", litS("2026-02-30")), want: missing()},
		{e: fn("to_unixtime", litS("2025-02-29")), want: missing()},
		{e: fn("to_unixtime", litS("2026-13-01")), want: missing()},
		{e: fn("to_unixtime", litS("2026-04-26T24:00:00Z")), want: missing()},
		{e: fn("to_unixtime", litS("2026-04-26T20:60Z")), want: missing()},
		{e: fn("to_unixtime", litS("2026-04-26T20:16:61Z")), want: missing()},
		{e: fn("to_unixtime", litS("2026-04-26T20:16:00.Z")), want: missing()},
		{e: fn("to_unixtime", litS("2026-04-26T20:16:00+25:00")), want: missing()},
		{e: fn("to_unixtime", litS("2026-04-26T20:16:00Zjunk")), want: missing()},
		{e: fn("to_unixtime", litS(" 2026-04-26")), want: missing()},
		{e: fn("to_unixtime", litS("26-04-2026")), want: missing()},
		{e: fn("to_unixtime", litS("")), want: missing()},
		{e: fn("to_unixtime", litS("0000-01-01T00:30:00+01:00")), want: missing()},
		{e: fn("to_unixtime", col("flag")), want: missing()},
		{e: fn("to_unixtime", col("tags")), want: missing()},
		{e: fn("to_unixtime", col("bin")), want: missing()},
		{e: fn("to_unixtime", col("nul")), want: missing()},
		{e: fn("to_unixtime", col("nope")), want: missing()},
	})
}

func TestDateTrunc(t *testing.T) {
	x := litS("2026-04-26T20:16:42.5+00:00") // a Sunday
	runEval(t, []evalTest{
		{e: fn("date_trunc", litS("second"), x), want: str("2026-04-26T20:16:42Z")},
		{e: fn("date_trunc", litS("minute"), x), want: str("2026-04-26T20:16:00Z")},
		{e: fn("date_trunc", litS("HOURS"), x), want: str("2026-04-26T20:00:00Z")},
		{e: fn("date_trunc", litS("day"), x), want: str("2026-04-26T00:00:00Z")},
		{e: fn("date_trunc", litS("week"), x), want: str("2026-04-20T00:00:00Z")},
		{e: fn("date_trunc", litS("week"), litS("2026-04-20T00:00:00Z")), want: str("2026-04-20T00:00:00Z")},
		{e: fn("date_trunc", litS("week"), litS("2027-01-02T10:00:00Z")), want: str("2026-12-28T00:00:00Z")},
		{e: fn("date_trunc", litS("Month"), x), want: str("2026-04-01T00:00:00Z")},
		{e: fn("date_trunc", litS("quarter"), x), want: str("2026-04-01T00:00:00Z")},
		{e: fn("date_trunc", litS("quarter"), litS("2026-12-31T23:59:59Z")), want: str("2026-10-01T00:00:00Z")},
		{e: fn("date_trunc", litS("years"), x), want: str("2026-01-01T00:00:00Z")},
		// A bare date stays a bare date for units of a day or more.
		{e: fn("date_trunc", litS("month"), litS("2026-04-26")), want: str("2026-04-01")},
		{e: fn("date_trunc", litS("week"), litS("2026-04-26")), want: str("2026-04-20")},
		{e: fn("date_trunc", litS("hour"), litS("2026-04-26")), want: str("2026-04-26T00:00:00Z")},
		{e: fn("date_trunc", litS("day"), litN("1777234560.5")), want: str("2026-04-26T00:00:00Z")},
		{e: fn("date_trunc", litS("month"), litS("not a date")), want: missing()},
		{e: fn("date_trunc", litNull(), x), want: missing()},
		{e: fn("date_trunc", litS("fortnight"), x), code: diag.CodeArgument},
		{e: fn("date_trunc", litN("1"), x), code: diag.CodeType},
	})
}

func TestDatePart(t *testing.T) {
	x := litS("2026-04-26T20:16:42.9Z")
	runEval(t, []evalTest{
		{e: fn("date_part", litS("second"), x), want: num("42")},
		{e: fn("date_part", litS("minute"), x), want: num("16")},
		{e: fn("date_part", litS("hour"), x), want: num("20")},
		{e: fn("date_part", litS("day"), x), want: num("26")},
		{e: fn("date_part", litS("week"), x), want: num("17")},
		{e: fn("date_part", litS("month"), x), want: num("4")},
		{e: fn("date_part", litS("quarter"), x), want: num("2")},
		{e: fn("date_part", litS("year"), x), want: num("2026")},
		// ISO weeks: week 53, and days that belong to the neighbouring year's week.
		{e: fn("date_part", litS("week"), litS("2020-12-31")), want: num("53")},
		{e: fn("date_part", litS("week"), litS("2021-01-03")), want: num("53")},
		{e: fn("date_part", litS("week"), litS("2021-01-04")), want: num("1")},
		{e: fn("date_part", litS("week"), litS("2024-12-30")), want: num("1")},
		{e: fn("date_part", litS("day"), litS("2024-02-29")), want: num("29")},
		{e: fn("date_part", litS("hour"), litS("2026-04-26T23:30:00-02:00")), want: num("1")},
		{e: fn("date_part", litS("day"), litS("2026-04-26T23:30:00-02:00")), want: num("27")},
		{e: fn("date_part", litS("day"), col("flag")), want: missing()},
	})
}

func TestDateAdd(t *testing.T) {
	runEval(t, []evalTest{
		{e: fn("date_add", litS("second"), litN("90"), litS("2026-04-26T20:16:00Z")), want: str("2026-04-26T20:17:30Z")},
		{e: fn("date_add", litS("minutes"), litN("-30"), litS("2026-04-26T00:10:00Z")), want: str("2026-04-25T23:40:00Z")},
		{e: fn("date_add", litS("hour"), litN("5"), litS("2026-04-26T20:16:00.5Z")), want: str("2026-04-27T01:16:00.5Z")},
		{e: fn("date_add", litS("day"), litN("1"), litS("2024-02-28")), want: str("2024-02-29")},
		{e: fn("date_add", litS("day"), litN("1"), litS("2023-02-28")), want: str("2023-03-01")},
		{e: fn("date_add", litS("week"), litN("2"), litS("2026-12-25T08:00:00Z")), want: str("2027-01-08T08:00:00Z")},
		// Month ends clamp (Jan 31 + 1 month is the last day of February).
		{e: fn("date_add", litS("month"), litN("1"), litS("2026-01-31")), want: str("2026-02-28")},
		{e: fn("date_add", litS("month"), litN("1"), litS("2024-01-31T12:00:00Z")), want: str("2024-02-29T12:00:00Z")},
		{e: fn("date_add", litS("month"), litN("-1"), litS("2026-03-31")), want: str("2026-02-28")},
		{e: fn("date_add", litS("months"), litN("13"), litS("2026-05-31")), want: str("2027-06-30")},
		{e: fn("date_add", litS("month"), litN("-12"), litS("2026-01-15")), want: str("2025-01-15")},
		{e: fn("date_add", litS("quarter"), litN("1"), litS("2026-11-30")), want: str("2027-02-28")},
		{e: fn("date_add", litS("year"), litN("1"), litS("2024-02-29")), want: str("2025-02-28")},
		{e: fn("date_add", litS("year"), litN("4"), litS("2024-02-29")), want: str("2028-02-29")},
		{e: fn("date_add", litS("day"), litN("1.5"), litS("2026-04-26")), want: str("2026-04-28")},
		{e: fn("date_add", litS("hour"), litN("1"), litS("2026-04-26")), want: str("2026-04-26T01:00:00Z")},
		{e: fn("date_add", litS("day"), litN("1"), litN("0")), want: str("1970-01-02T00:00:00Z")},
		// Out of the years 0000–9999, or not a time: NULL.
		{e: fn("date_add", litS("year"), litN("8000"), litS("2026-04-26")), want: missing()},
		{e: fn("date_add", litS("second"), col("big"), litS("2026-04-26")), want: missing()},
		{e: fn("date_add", litS("month"), col("big"), litS("2026-04-26")), want: missing()},
		{e: fn("date_add", litS("day"), litN("1"), litS("tomorrow")), want: missing()},
		{e: fn("date_add", litS("day"), litNull(), litS("2026-04-26")), want: missing()},
		{e: fn("date_add", litS("day"), litS("1"), litS("2026-04-26")), code: diag.CodeType},
	})
}

func TestDateDiff(t *testing.T) {
	runEval(t, []evalTest{
		{e: fn("date_diff", litS("second"), litS("2026-04-26T20:16:00Z"), litS("2026-04-26T20:17:30Z")), want: num("90")},
		{e: fn("date_diff", litS("second"), litS("2026-04-26T20:16:00.9Z"), litS("2026-04-26T20:16:02.1Z")), want: num("1")},
		{e: fn("date_diff", litS("second"), litS("2026-04-26T20:16:02.1Z"), litS("2026-04-26T20:16:00.9Z")), want: num("-1")},
		{e: fn("date_diff", litS("minute"), litS("2026-04-26T20:16:00Z"), litS("2026-04-26T20:15:01Z")), want: num("0")},
		{e: fn("date_diff", litS("hour"), litS("2026-04-26T20:00:00+02:00"), litS("2026-04-26T20:00:00Z")), want: num("2")},
		{e: fn("date_diff", litS("day"), litS("2024-02-28"), litS("2024-03-01")), want: num("2")},
		{e: fn("date_diff", litS("day"), litS("2024-03-01"), litS("2024-02-28T12:00:00Z")), want: num("-1")},
		{e: fn("date_diff", litS("week"), litS("2026-04-01"), litS("2026-04-26")), want: num("3")},
		{e: fn("date_diff", litS("month"), litS("2026-01-31"), litS("2026-02-28")), want: num("1")},
		{e: fn("date_diff", litS("month"), litS("2026-01-15"), litS("2026-02-14")), want: num("0")},
		{e: fn("date_diff", litS("month"), litS("2026-03-15"), litS("2026-01-16")), want: num("-1")},
		{e: fn("date_diff", litS("month"), litS("2026-03-15"), litS("2026-01-15")), want: num("-2")},
		{e: fn("date_diff", litS("quarter"), litS("2026-01-01"), litS("2026-12-31")), want: num("3")},
		{e: fn("date_diff", litS("year"), litS("2024-02-29"), litS("2025-02-28")), want: num("1")},
		{e: fn("date_diff", litS("year"), litS("2000-06-01"), litS("2026-05-31")), want: num("25")},
		{e: fn("date_diff", litS("day"), litN("0"), litS("1970-01-11")), want: num("10")},
		{e: fn("date_diff", litS("day"), litS("bad"), litS("2026-01-01")), want: missing()},
		{e: fn("date_diff", litS("day"), litS("2026-01-01"), col("nope")), want: missing()},
	})
}

func TestDateFormat(t *testing.T) {
	x := litS("2026-04-06T09:05:07.123456Z") // a Monday
	f := func(format string, want string) evalTest {
		return evalTest{name: format, e: fn("date_format", x, litS(format)), want: str(want)}
	}
	runEval(t, []evalTest{
		f("%Y-%m-%d %H:%i:%s", "2026-04-06 09:05:07"),
		f("%a %b %c %D %d %e", "Mon Apr 4 6th 06 6"),
		f("%f|%h|%I|%j|%k|%l", "123456|09|09|096|9|9"),
		f("%M %p %r %S %T", "April AM 09:05:07 AM 07 09:05:07"),
		f("%W %w %y %% 100%%", "Monday 1 26 % 100%"),
		f("%U %u %V %v %X %x", "14 15 14 15 2026 2026"),
		f("no specifiers", "no specifiers"),
		f("", ""),
		{e: fn("date_format", litS("2026-04-06T21:00:00Z"), litS("%h %l %p")), want: str("09 9 PM")},
		{e: fn("date_format", litS("2026-04-06T00:00:00Z"), litS("%h %p")), want: str("12 AM")},
		{e: fn("date_format", litS("2026-04-01"), litS("%D %D")), want: str("1st 1st")},
		{e: fn("date_format", litS("2026-04-22"), litS("%D")), want: str("22nd")},
		{e: fn("date_format", litS("2026-04-13"), litS("%D")), want: str("13th")},
		{e: fn("date_format", litN("0"), litS("%Y-%m-%dT%TZ")), want: str("1970-01-01T00:00:00Z")},
		{e: fn("date_format", litS("0012-01-01"), litS("%Y")), want: str("0012")},
		{e: fn("date_format", litS("bad"), litS("%Y")), want: missing()},
		{e: fn("date_format", x, litNull()), want: missing()},
		{e: fn("date_format", x, litS("%Q")), code: diag.CodeArgument},
		{e: fn("date_format", x, litS("100%")), code: diag.CodeArgument},
		{e: fn("date_format", litS("bad"), litS("%Q")), code: diag.CodeArgument},
		{e: fn("date_format", x, litN("1")), code: diag.CodeType},
	})
}

// TestMySQLWeeks checks the four week numberings on every day of years
// whose January 1st falls on each weekday, against their definitions:
// %v/%x against Go's ISOWeek, %U against counting Sundays, %u and %V
// against how they relate to the others.
func TestMySQLWeeks(t *testing.T) {
	for day := time.Date(2015, 12, 20, 0, 0, 0, 0, time.UTC); day.Year() < 2029; day = day.AddDate(0, 0, 1) {
		isoYear, isoWeek := day.ISOWeek()
		if w, y := mysqlWeek(day, true, true, false); w != isoWeek || y != isoYear {
			t.Errorf("%s: %%v %%x = %d %d, ISO %d %d", day.Format(dateLayout), w, y, isoWeek, isoYear)
		}
		// %U: Sundays so far this year (week 0 before the first one).
		sundays := (day.YearDay() + 6 - int(day.Weekday())) / 7
		if w, _ := mysqlWeek(day, false, false, true); w != sundays {
			t.Errorf("%s: %%U = %d, want %d", day.Format(dateLayout), w, sundays)
		}
		// %u is %v without rolling into the neighbouring years.
		u, _ := mysqlWeek(day, true, false, false)
		switch want := isoWeek; {
		case isoYear < day.Year() && u != 0:
			t.Errorf("%s: %%u = %d, want 0", day.Format(dateLayout), u)
		case isoYear > day.Year() && u < 52:
			t.Errorf("%s: %%u = %d, want 52 or 53", day.Format(dateLayout), u)
		case isoYear == day.Year() && u != want:
			t.Errorf("%s: %%u = %d, want %d", day.Format(dateLayout), u, want)
		}
		// %V is %U, with week 0 counted as the previous year's last week.
		v, y := mysqlWeek(day, false, true, true)
		if sundays > 0 && (v != sundays || y != day.Year()) {
			t.Errorf("%s: %%V %%X = %d %d, want %d %d", day.Format(dateLayout), v, y, sundays, day.Year())
		}
		if sundays == 0 {
			last := time.Date(day.Year()-1, 12, 31, 0, 0, 0, 0, time.UTC)
			want := (last.YearDay() + 6 - int(last.Weekday())) / 7
			if v != want || y != day.Year()-1 {
				t.Errorf("%s: %%V %%X = %d %d, want %d %d", day.Format(dateLayout), v, y, want, day.Year()-1)
			}
		}
	}
}

func TestNowIsCurrent(t *testing.T) {
	before := time.Now().UTC().Truncate(time.Second)
	got, err := Eval(fn("now"), fixture())
	after := time.Now().UTC()
	if err != nil {
		t.Fatal(err)
	}
	at, err := time.Parse(time.RFC3339, got.Text())
	if err != nil || at.Before(before) || at.After(after) {
		t.Errorf("now() = %s, want a time between %s and %s", got.Text(), before, after)
	}
	d, err := Eval(fn("current_date"), fixture())
	if err != nil || (d.Text() != before.Format(dateLayout) && d.Text() != after.Format(dateLayout)) {
		t.Errorf("current_date = %s, %v", d.Text(), err)
	}
}

// TestAppendISOIsTheLayout: the hand-written formatter prints what
// time.Format prints with the canonical layouts, fractions and years
// before 1000 included.
func TestAppendISOIsTheLayout(t *testing.T) {
	for _, at := range []time.Time{minTime, maxTime, time.Unix(0, 0).UTC(), time.Unix(-1, 5).UTC(),
		time.Date(999, 2, 3, 4, 5, 6, 120_000_000, time.UTC), time.Date(2026, 4, 26, 20, 16, 0, 1, time.UTC),
		time.Date(2026, 12, 31, 23, 59, 59, 999_999_999, time.UTC)} {
		for _, asDate := range []bool{false, true} {
			layout := datetimeLayout
			if asDate {
				layout = dateLayout
			}
			if got, want := string(appendISO(nil, at, asDate)), at.Format(layout); got != want {
				t.Errorf("appendISO(%v, %v) = %s, want %s", at, asDate, got, want)
			}
		}
	}
}
