package main

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The numeric flags parse with messages that say what a good value looks
// like: the standard flag types only say "parse error" and accept NaN.

// amountFlag is a finite, non-negative number (--max-rcu, --rate-limit,
// --read-price).
type amountFlag struct {
	p       *float64
	example string // e.g. "100"
}

func (f amountFlag) String() string {
	if f.p == nil {
		return "0"
	}
	return strconv.FormatFloat(*f.p, 'g', -1, 64)
}

func (f amountFlag) Set(s string) error {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("want a number, e.g. %s", f.example)
	}
	if v < 0 {
		return errors.New("must not be negative")
	}
	*f.p = v
	return nil
}

// countFlag is a whole number in [lo, hi] (--segments, --concurrency).
type countFlag struct {
	p      *int
	lo, hi int
	why    string // why there is an upper bound
}

func (f countFlag) String() string {
	if f.p == nil {
		return "0"
	}
	return strconv.Itoa(*f.p)
}

func (f countFlag) Set(s string) error {
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	switch {
	case err != nil && errors.Is(err, strconv.ErrRange), err == nil && v > int64(f.hi):
		return fmt.Errorf("at most %d%s", f.hi, f.why)
	case err != nil:
		return fmt.Errorf("want a whole number from %d to %d", f.lo, f.hi)
	case v < int64(f.lo):
		return fmt.Errorf("at least %d", f.lo)
	}
	*f.p = int(v)
	return nil
}

// durationFlag is a non-negative duration with a unit (--timeout).
type durationFlag struct{ p *time.Duration }

func (f durationFlag) String() string {
	if f.p == nil {
		return "0s"
	}
	return f.p.String()
}

func (f durationFlag) Set(s string) error {
	v, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return errors.New("want a duration with a unit, such as 30s, 2m or 1h30m")
	}
	if v < 0 {
		return errors.New("must not be negative")
	}
	*f.p = v
	return nil
}

var (
	badValueRE   = regexp.MustCompile(`^invalid value "(.*)" for flag -(\S+): (.*)$`)
	undefinedRE  = regexp.MustCompile(`^flag provided but not defined: -(\S+)$`)
	noArgumentRE = regexp.MustCompile(`^flag needs an argument: -(\S+)$`)
)

// flagError rewords the flag package's errors the way the help spells the
// flags (--timeout, -e), keeping a flag's own message whole.
func flagError(err error) string {
	msg := err.Error()
	if m := badValueRE.FindStringSubmatch(msg); m != nil {
		name, reason := flagName(m[2]), m[3]
		if strings.Contains(reason, name) {
			return reason // the value's own message names the flag already
		}
		return fmt.Sprintf("%s %q: %s", name, m[1], reason)
	}
	if m := undefinedRE.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("unknown flag %s", flagName(m[1]))
	}
	if m := noArgumentRE.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("%s needs a value", flagName(m[1]))
	}
	return msg
}

func flagName(n string) string {
	if len(n) == 1 {
		return "-" + n
	}
	return "--" + n
}

var _ = []flag.Value{amountFlag{}, countFlag{}, durationFlag{}}
