package eval

import (
	"testing"
	"unicode/utf8"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
)

func TestMatch(t *testing.T) {
	tests := []struct {
		s, p string
		want bool
	}{
		{"", "", true},
		{"a", "", false},
		{"", "%", true},
		{"", "_", false},
		{"", "%%", true},
		{"abc", "abc", true},
		{"abc", "ab", false},
		{"ab", "abc", false},
		{"abc", "a%", true},
		{"abc", "%c", true},
		{"abc", "%b%", true},
		{"abc", "a_c", true},
		{"abc", "a__c", false},
		{"abc", "___", true},
		{"abc", "A%", false}, // case-sensitive
		{"ABC", "abc", false},
		{"abc", "%%%", true},
		{"aaa", "%a%a%a%", true},
		{"aa", "%a%a%a%", false},
		{"mississippi", "%iss%ppi", true},
		{"mississippi", "m%ss%ss%", true},
		{"mississippi", "%sip%", true},
		{"mississippi", "%pis%", false},
		{"abcabd", "%abd", true},
		{"abcabc", "%abd", false},
		{"ORDER#2024", "ORDER#%", true},
		{"order#2024", "ORDER#%", false},
		// Escapes.
		{"100%", `100\%`, true},
		{"1000", `100\%`, false},
		{"a_b", `a\_b`, true},
		{"axb", `a\_b`, false},
		{`a\b`, `a\\b`, true},
		{`a\`, `a\`, true}, // a trailing backslash is literal
		{`a`, `a\`, false},
		{"ab", `\a\b`, true}, // escaping an ordinary character
		{"%x", `\%%`, true},
		{"x%", `\%%`, false},
		// Unicode: _ is one character; everything else compares bytes.
		{"Zoë", "Zo_", true},
		{"Zoë", "Zo__", false},
		{"Zoë", "Zo%", true},
		{"€", "_", true},
		{"€", "%__", false},
		{"€€", "%__", true},
		{"日本語", "_本_", true},
		{"日本語", "%語", true},
		{"日本語", "日%", true},
		{"日本語", "__", false},
		{"e\u0301", "e_", true}, // decomposed é is two characters
		{"é", "e_", false},      // precomposed: no normalisation
		{"é", "e\u0301", false},
		{"😀x", "_x", true},
		// Invalid UTF-8: each stray byte is one character.
		{"\xff", "_", true},
		{"\xffa", "__", true},
		{"\xffa", "_", false},
		{"\xc3", "\xc3", true},
		{"\xc3\xa9", "\xc3%", false}, // é does not start with the byte \xc3 as a character
	}
	for _, tc := range tests {
		if got := Match(tc.s, tc.p); got != tc.want {
			t.Errorf("Match(%q, %q) = %v; want %v", tc.s, tc.p, got, tc.want)
		}
		if got := refMatch(tc.s, tc.p); got != tc.want {
			t.Errorf("refMatch(%q, %q) = %v; want %v (reference disagrees)", tc.s, tc.p, got, tc.want)
		}
	}
}

func TestLikeOperator(t *testing.T) {
	T, F, U := boolv(true), boolv(false), missing()
	lk := func(x, p expr.Expr, not bool) expr.Expr { return expr.Like{X: x, Pattern: p, Not: not} }
	runEval(t, []evalTest{
		{e: lk(col("status"), litS("REV%"), false), want: T},
		{e: lk(col("status"), litS("REV%"), true), want: F},
		{e: lk(col("status"), litS("rev%"), false), want: F},
		{e: lk(col("name"), litS("Zo_"), false), want: T},
		{name: "missing LIKE", e: lk(col("nope"), litS("%"), false), want: U},
		{name: "missing NOT LIKE", e: lk(col("nope"), litS("%"), true), want: U},
		{name: "NULL pattern", e: lk(col("status"), litNull(), false), want: U},
		{name: "DynamoDB NULL", e: lk(col("nul"), litS("%"), false), want: U},
		{name: "number is not coerced", e: lk(col("total"), litS("15%"), false), want: F},
		{name: "number NOT LIKE", e: lk(col("total"), litS("15%"), true), want: T},
		{name: "binary is not a string", e: lk(col("bin"), litS("%"), false), want: F},
		{name: "number pattern", e: lk(litS("15"), litN("15"), false), want: F},
		{name: "error in pattern", e: lk(col("status"), bop(expr.OpAdd, litS("a"), litN("1")), false), code: diag.CodeType},
	})
}

// refMatch is a straightforward reference for LIKE: split both sides into
// characters (a valid UTF-8 sequence or one stray byte), the pattern into
// tokens, and match by dynamic programming.
func refMatch(s, p string) bool {
	type token struct {
		kind byte // '%', '_' or 'c'
		lit  string
	}
	chars := func(x string) []string {
		var out []string
		for len(x) > 0 {
			_, n := utf8.DecodeRuneInString(x)
			out = append(out, x[:n])
			x = x[n:]
		}
		return out
	}
	var toks []token
	pc := chars(p)
	for i := 0; i < len(pc); i++ {
		switch {
		case pc[i] == "%" || pc[i] == "_":
			toks = append(toks, token{kind: pc[i][0]})
		case pc[i] == `\` && i+1 < len(pc):
			i++
			toks = append(toks, token{kind: 'c', lit: pc[i]})
		default:
			toks = append(toks, token{kind: 'c', lit: pc[i]})
		}
	}
	sc := chars(s)
	// m[i][j]: toks[i:] matches sc[j:].
	m := make([][]bool, len(toks)+1)
	for i := range m {
		m[i] = make([]bool, len(sc)+1)
	}
	m[len(toks)][len(sc)] = true
	for i := len(toks) - 1; i >= 0; i-- {
		for j := len(sc); j >= 0; j-- {
			switch tk := toks[i]; tk.kind {
			case '%':
				m[i][j] = m[i+1][j] || (j < len(sc) && m[i][j+1])
			case '_':
				m[i][j] = j < len(sc) && m[i+1][j+1]
			default:
				m[i][j] = j < len(sc) && sc[j] == tk.lit && m[i+1][j+1]
			}
		}
	}
	return m[0][0]
}

func FuzzLike(f *testing.F) {
	for _, seed := range [][2]string{
		{"abc", "a%c"}, {"mississippi", "%iss%ppi"}, {"Zoë", "Zo_"}, {"€€", "%__"},
		{`a\b`, `a\\b`}, {"100%", `100\%`}, {"\xffa", "__"}, {"aaa", "%a%a%a%"},
		{"", "%"}, {"é", "e\u0301"}, {"abcabd", "%ab_"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, s, p string) {
		if len(s) > 64 || len(p) > 32 {
			return // keep the quadratic reference cheap
		}
		if got, want := Match(s, p), refMatch(s, p); got != want {
			t.Fatalf("Match(%q, %q) = %v; reference says %v", s, p, got, want)
		}
	})
}
