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
	"unicode"
	"unicode/utf8"

	"github.com/agnivade/levenshtein"

	"github.com/ddbsql/ddbsql/parser/diag"
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
type durationFlag struct {
	p    *time.Duration
	name string // the flag's name, for its messages
}

func (f durationFlag) String() string {
	if f.p == nil {
		return "0s"
	}
	return f.p.String()
}

func (f durationFlag) Set(s string) error {
	v, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		// A bare number is the usual mistake: time.ParseDuration wants a
		// unit, and guessing seconds would make "5" mean 5s here and 5 ms
		// elsewhere.
		return f.invalid(s, "use a duration such as 5s, 500ms or 2m")
	}
	if v < 0 {
		return f.invalid(s, "must not be negative")
	}
	*f.p = v
	return nil
}

// invalid is the error for a bad value s: located at the flag and value
// ("--timeout 5x: why"), so that the settings file, which names the key
// its own way, can take the message alone.
func (f durationFlag) invalid(s, why string) error {
	return &diag.Error{Phase: diag.Config, Code: diag.CodeBadFlag, Pos: diag.Pos{Source: flagName(f.name) + " " + shownValue(s)}, Msg: why}
}

var (
	badValueRE   = regexp.MustCompile(`^invalid value "(.*)" for flag -(\S+): (.*)$`)
	undefinedRE  = regexp.MustCompile(`^flag provided but not defined: -(\S+)$`)
	noArgumentRE = regexp.MustCompile(`^flag needs an argument: -(\S+)$`)
)

// flagError rewords the flag package's errors the way the help spells the
// flags (--timeout, -e), keeping a flag's own message whole. An unknown
// flag is matched against the flags of fs to suggest the one meant.
func flagError(err error, fs *flag.FlagSet) string {
	msg := err.Error()
	if m := badValueRE.FindStringSubmatch(msg); m != nil {
		name, reason := flagName(m[2]), m[3]
		if strings.HasPrefix(reason, name+" ") {
			return reason // the value's own message names the flag already
		}
		return fmt.Sprintf("%s %s: %s", name, shownValue(m[1]), reason)
	}
	if m := undefinedRE.FindStringSubmatch(msg); m != nil {
		if near := closestFlag(m[1], fs); near != "" {
			return fmt.Sprintf("unknown flag %s; did you mean %s?", flagName(m[1]), flagName(near))
		}
		return fmt.Sprintf("unknown flag %s; ddbsql --help lists the flags", flagName(m[1]))
	}
	if m := noArgumentRE.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("%s needs a value", flagName(m[1]))
	}
	return msg
}

// closestFlag is the flag of fs that name most likely misspells: a unique
// flag it is a prefix of (--allow for --allow-scan), or the nearest by
// edit distance when that distance is small for the name's length (about
// one edit in three letters), "" when none is close.
func closestFlag(name string, fs *flag.FlagSet) string {
	name = strings.ToLower(strings.TrimLeft(name, "-"))
	if len(name) < 2 {
		return "" // one letter is as near to every short flag
	}
	var prefixed []string
	best, bestDist := "", len(name)/3+1
	fs.VisitAll(func(f *flag.Flag) {
		if len(f.Name) < 2 {
			return
		}
		if len(name) >= 3 && strings.HasPrefix(f.Name, name) {
			prefixed = append(prefixed, f.Name)
		}
		if d := levenshtein.ComputeDistance(name, f.Name); d < bestDist {
			best, bestDist = f.Name, d
		}
	})
	if best == "" && len(prefixed) == 1 {
		return prefixed[0]
	}
	return best
}

// shownValue is a flag value as the user would type it: bare, or quoted
// when it is empty or holds blanks, quotes or control characters.
func shownValue(v string) string {
	if v == "" || strings.ContainsFunc(v, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r) || r == '"' || r == '\'' || r == utf8.RuneError
	}) {
		return strconv.Quote(v)
	}
	return v
}

func flagName(n string) string {
	if len(n) == 1 {
		return "-" + n
	}
	return "--" + n
}

var _ = []flag.Value{amountFlag{}, countFlag{}, durationFlag{}}
