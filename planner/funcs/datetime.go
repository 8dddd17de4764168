package funcs

import (
	"fmt"
	"strings"
	"time"
)

// Unit is a unit of time for date_trunc, date_part, date_add and date_diff.
type Unit uint8

// The units, smallest first, so a unit of a day or more is >= Day.
const (
	Second Unit = iota + 1
	Minute
	Hour
	Day
	Week // ISO 8601: weeks start on Monday
	Month
	Quarter
	Year
)

var unitNames = [...]string{Second: "second", Minute: "minute", Hour: "hour", Day: "day",
	Week: "week", Month: "month", Quarter: "quarter", Year: "year"}

func (u Unit) String() string {
	if u > 0 && int(u) < len(unitNames) {
		return unitNames[u]
	}
	return "Unit(" + itoa(int(u)) + ")"
}

// ParseTimeUnit reads a unit's name in any case, singular or plural
// ('day', 'DAYS', 'Month').
func ParseTimeUnit(s string) (Unit, bool) {
	if n := len(s); n > 1 && (s[n-1] == 's' || s[n-1] == 'S') {
		s = s[:n-1] // plural; "second" has no s to lose
	}
	for u := Second; u <= Year; u++ {
		if strings.EqualFold(s, unitNames[u]) {
			return u, true
		}
	}
	return 0, false
}

// TimeUnitNames lists the units for error hints.
func TimeUnitNames() string { return strings.Join(unitNames[Second:], ", ") }

// DateFormatLetters are the letters date_format accepts after %, MySQL's
// DATE_FORMAT specifiers (exec/eval's doc says what each prints).
const DateFormatLetters = "abcDdefHhIijklMmprSsTUuVvWwXxYy%"

// CheckDateFormat reports the first malformed specifier of a date_format
// format: a % followed by a letter MySQL does not define, or a lone % at the
// end. The error says which and where (a byte offset into format).
func CheckDateFormat(format string) error {
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		if i+1 == len(format) {
			return fmt.Errorf("the format %q ends in a lone %%; write %%%% for a percent sign", format)
		}
		if c := format[i+1]; !strings.ContainsRune(DateFormatLetters, rune(c)) {
			return fmt.Errorf("the format %q has an unknown specifier %%%s at byte %d; specifiers: %%%s",
				format, string(format[i+1:i+2]), i, strings.Join(strings.Split(DateFormatLetters, ""), " %"))
		}
		i++
	}
	return nil
}

// NowText is now()'s value at t: the UTC datetime in whole seconds
// ("2026-04-26T20:16:00Z"). The planner fixes it once per statement.
func NowText(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }

// CurrentDateText is current_date's value at t: the UTC date ("2026-04-26").
func CurrentDateText(t time.Time) string { return t.UTC().Format("2006-01-02") }
