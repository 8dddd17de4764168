package eval

import (
	"regexp"
	"sync"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// regexCache keeps compiled patterns, since a pattern is almost always a
// literal evaluated once per row. A compiled *regexp.Regexp is safe for
// concurrent use; the cache is dropped whole when it grows past
// maxCachedRegexps (patterns computed per row).
var regexCache struct {
	sync.Mutex
	m map[string]*regexp.Regexp
}

const maxCachedRegexps = 256

// compileRegex compiles a Go RE2 pattern, cached.
func compileRegex(pattern string) (*regexp.Regexp, error) {
	regexCache.Lock()
	re, ok := regexCache.m[pattern]
	regexCache.Unlock()
	if ok {
		return re, nil
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, err
	}
	regexCache.Lock()
	if regexCache.m == nil || len(regexCache.m) >= maxCachedRegexps {
		regexCache.m = make(map[string]*regexp.Regexp)
	}
	regexCache.m[pattern] = re
	regexCache.Unlock()
	return re, nil
}

// regexArgs evaluates the subject and the pattern; null when either is NULL.
func regexArgs(f expr.Func, row Row) (s string, re *regexp.Regexp, null bool, err error) {
	v, p, err := args2(f, row)
	if err != nil || anyNull(v, p) {
		return "", nil, true, err
	}
	if s, err = textArg(f, v); err != nil {
		return "", nil, false, err
	}
	if p.Kind() != value.String {
		return "", nil, false, argTypeError(f, "a regular expression as a string", p)
	}
	if re, err = compileRegex(p.Text()); err != nil {
		return "", nil, false, errorf(diag.CodeArgument, "%s: %v", f.String(), err).
			Hintf("patterns are Go regular expressions (RE2 syntax)")
	}
	return s, re, false, nil
}

// fnRegexpLike is regexp_like(s, re): whether re matches anywhere in s.
func fnRegexpLike(f expr.Func, row Row) (value.Value, error) {
	s, re, null, err := regexArgs(f, row)
	if err != nil || null {
		return value.MissingValue(), err
	}
	return value.BoolOf(re.MatchString(s)), nil
}

// fnRegexpExtract is regexp_extract(s, re[, group]): the first match of re
// in s, or its capture group (0 is the whole match); NULL when nothing
// matches, the group did not take part, or re has no such group.
func fnRegexpExtract(f expr.Func, row Row) (value.Value, error) {
	s, re, null, err := regexArgs(f, row)
	if err != nil || null {
		return value.MissingValue(), err
	}
	group := int64(0)
	if len(f.Args) == 3 {
		gv, err := arg(f, row, 2)
		if err != nil || gv.IsNull() {
			return value.MissingValue(), err
		}
		if gv.Kind() != value.Number {
			return value.Value{}, argTypeError(f, "a group number", gv)
		}
		if group, err = intArg(gv); err != nil {
			return value.Value{}, err
		}
	}
	if group < 0 || group > int64(re.NumSubexp()) {
		return value.MissingValue(), nil
	}
	m := re.FindStringSubmatchIndex(s)
	if m == nil || m[2*group] < 0 {
		return value.MissingValue(), nil
	}
	return value.Str(s[m[2*group]:m[2*group+1]]), nil
}
