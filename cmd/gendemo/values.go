package main

import (
	"strconv"
	"time"

	"github.com/ddbsql/ddbsql/planner/value"
)

// Small constructors that keep the item code readable.

type attrs = map[string]value.Value

func item(a attrs) value.Value { return value.MapOf(a) }

func str(s string) value.Value { return value.Str(s) }

// num parses exact decimal text; demo numbers are generated, so a bad one
// is a programming error.
func num(text string) value.Value {
	v, err := value.Num(text)
	if err != nil {
		panic("gendemo: " + err.Error())
	}
	return v
}

func intv(i int) value.Value { return num(strconv.Itoa(i)) }

// money renders an amount in cents as a decimal N (12.50 is stored as 12.5,
// as DynamoDB stores it).
func money(cents int) value.Value { return num(centsText(cents)) }

func centsText(c int) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	frac := strconv.Itoa(c % 100)
	if len(frac) == 1 {
		frac = "0" + frac
	}
	return sign + strconv.Itoa(c/100) + "." + frac
}

func boolv(b bool) value.Value { return value.BoolOf(b) }

func null() value.Value { return value.NullValue() }

func bin(b []byte) value.Value { return value.Bin(b) }

func list(elems ...value.Value) value.Value { return value.ListOf(elems) }

func strList(ss ...string) value.Value {
	vs := make([]value.Value, len(ss))
	for i, s := range ss {
		vs[i] = str(s)
	}
	return value.ListOf(vs)
}

func mapv(a attrs) value.Value { return value.MapOf(a) }

// strSet is an SS value (members sorted and unique, as DynamoDB returns
// them in no order and rejects duplicates).
func strSet(members ...string) value.Value {
	seen := map[string]bool{}
	var vs []value.Value
	for _, m := range members {
		if !seen[m] {
			seen[m] = true
			vs = append(vs, value.Str(m))
		}
	}
	sortValues(vs)
	return value.SetOf(value.StringSet, vs)
}

func numSet(members ...int) value.Value {
	seen := map[int]bool{}
	var vs []value.Value
	for _, m := range members {
		if !seen[m] {
			seen[m] = true
			vs = append(vs, intv(m))
		}
	}
	sortValues(vs)
	return value.SetOf(value.NumberSet, vs)
}

func sortValues(vs []value.Value) {
	for i := 1; i < len(vs); i++ {
		for j := i; j > 0 && value.Order(vs[j-1], vs[j]) > 0; j-- {
			vs[j-1], vs[j] = vs[j], vs[j-1]
		}
	}
}

// isoTime is the timestamp form of every demo time: UTC, seconds, "Z", so
// string order is time order (the seeds' advice for sort keys).
const isoTime = "2006-01-02T15:04:05Z"

func iso(t time.Time) string { return t.UTC().Format(isoTime) }

func isoDate(t time.Time) string { return t.UTC().Format("2006-01-02") }

func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
