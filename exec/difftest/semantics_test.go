package difftest

import (
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/value"
)

// Direct tests of ddbsql's semantics where they differ from SQLite's, so
// the differential generator excludes or maps them (doc.go, "Documented
// differences"). Expected values follow exec/eval/doc.go.

// one evaluates scalar expressions once (GetItem of id 1).
func (s *small) one(exprs string, want ...string) {
	s.t.Helper()
	q := "SELECT " + exprs + " FROM {t} WHERE pk = 'P' AND id = 1"
	rows := s.rows(q)
	if len(rows) != 1 || strings.Join(rows[0], " | ") != strings.Join(want, " | ") {
		s.t.Errorf("%s\n got  %v\n want %v", exprs, rows, want)
	}
}

func TestSemanticsArithmetic(t *testing.T) {
	s := newSmall(t, attrs{"n": num("7"), "z": num("0"), "big": num("99999999999999999999999999999999999999")})
	// / is exact decimal division (SQLite: integer division 7/2 = 3), rounded
	// to 38 significant digits; DIV truncates; % takes the dividend's sign.
	s.one("n / 2, 1 / 3, 2 / 3, -7 / 2", "3.5", "0.33333333333333333333333333333333333333", "0.66666666666666666666666666666666666667", "-3.5")
	s.one("n DIV 2, -7 DIV 2, n % 3, -7 % 3, 7 % -3", "3", "-3", "1", "-1", "1")
	// Division by zero is NULL (MySQL), for / DIV and %.
	s.one("n / z, n DIV 0, n % z, n / 0.0", "NULL", "NULL", "NULL", "NULL")
	// Decimals are exact (SQLite REAL: 0.1 + 0.2 <> 0.3).
	s.one("0.1 + 0.2 = 0.3, 0.1 + 0.2, 1.10 * 3", "true", "0.3", "3.3")
	// 38 digits stay exact (SQLite int64 would overflow, REAL would round).
	s.one("big, big - 1, -big", "99999999999999999999999999999999999999", "99999999999999999999999999999999999998", "-99999999999999999999999999999999999999")
	s.one("big + 1", "100000000000000000000000000000000000000") // 1E+38: one significant digit
	_, err := s.try("SELECT big + 0.5 FROM {t} WHERE pk = 'P' AND id = 1")
	if ee, ok := diag.Find(err, diag.CodeOverflow); !ok || ee.Phase != diag.Evaluate || !strings.Contains(err.Error(), "exceeds DynamoDB's 38 significant digits") {
		t.Errorf("big + 0.5 (39 digits): want an overflow error, got %v", err)
	}
}

func TestSemanticsAggregatesExact(t *testing.T) {
	s := newSmall(t,
		attrs{"n": num("99999999999999999999999999999999999999"), "d": num("0.1")},
		attrs{"n": num("-99999999999999999999999999999999999998"), "d": num("0.2")},
		attrs{"n": num("1"), "d": num("0.000001")},
	)
	// SUM of 38-digit values is exact; AVG is exact to 38 digits (SQLite: float).
	s.want("SELECT SUM(n) FROM {t} WHERE pk = 'P'", "2")
	s.want("SELECT SUM(d) FROM {t} WHERE pk = 'P'", "0.300001")
	s.want("SELECT AVG(d) FROM {t} WHERE pk = 'P'", "0.10000033333333333333333333333333333333")
	s.want("SELECT AVG(n) FROM {t} WHERE pk = 'P'", "0.66666666666666666666666666666666666667")
	s.want("SELECT AVG(n) FROM {t} WHERE pk = 'P' AND id <> 2", "50000000000000000000000000000000000000")
}

func TestSemanticsStrings(t *testing.T) {
	s := newSmall(t, attrs{"s": str("日本語"), "e": str("é"), "up": str("ÄÖÜ"), "w": str("ωmega")})
	// LENGTH and size() count bytes (MySQL, DynamoDB); CHAR_LENGTH counts
	// characters (SQLite's length). The generator maps both.
	s.one("LENGTH(s), CHAR_LENGTH(s), size(s), LENGTH(e), CHAR_LENGTH(e), LENGTH('🎉')", "9", "3", "9", "2", "1", "4")
	// LOWER/UPPER map Unicode (SQLite's built-ins only ASCII): the
	// generator applies them to ASCII data only.
	s.one("LOWER(up), UPPER(w)", `"äöü"`, `"ΩMEGA"`)
	// SUBSTRING counts characters, 1-based. MySQL and SQLite agree for
	// p >= 1, n >= 1 only: p = 0, n < 1 and -p beyond the start give ''
	// here (SQLite: substr('abc', 0, 2) = 'a', substr('abc', -5, 3) = 'a').
	s.one("SUBSTRING(s, 2, 1), SUBSTRING(s, -2), SUBSTRING(s, 0, 2), SUBSTRING(s, 2, 0), SUBSTRING(s, -5, 3)",
		`"本"`, `"本語"`, `""`, `""`, `""`)
	// CONCAT is NULL when any argument is (SQLite's concat() skips NULLs;
	// the generator maps CONCAT to ||).
	s.one("CONCAT(e, missing), CONCAT(e, 1)", "NULL", `"é1"`)
}

func TestSemanticsLike(t *testing.T) {
	s := newSmall(t,
		attrs{"s": str("ABC")}, attrs{"s": str("abc")}, attrs{"s": str("a%c")}, attrs{"s": str("日")},
		attrs{"s": str("é")}, attrs{"s": str(`a\c`)},
	)
	// Case-sensitive (SQLite's default LIKE is not: the generator sets
	// PRAGMA case_sensitive_like = ON).
	s.want("SELECT id FROM {t} WHERE pk = 'P' AND (s LIKE 'abc' OR id < 0)", "2")
	s.want("SELECT id FROM {t} WHERE pk = 'P' AND s LIKE 'abc'", "2")
	// _ is one character (code point), not one byte.
	s.want("SELECT id FROM {t} WHERE pk = 'P' AND (s LIKE '_' OR id < 0)", "4", "5")
	// \ escapes by default (SQLite needs ESCAPE '\'): the SQL literal
	// 'a\\%c' is the pattern a\%c.
	s.want(`SELECT id FROM {t} WHERE pk = 'P' AND (s LIKE 'a\\%c' OR id < 0)`, "3")
	s.want(`SELECT id FROM {t} WHERE pk = 'P' AND (s LIKE 'a\\\\c' OR id < 0)`, "6")
	// NOT LIKE of a non-string is TRUE (LIKE is FALSE, never coerced).
	s.want("SELECT id FROM {t} WHERE pk = 'P' AND (id NOT LIKE '1%')", "1", "2", "3", "4", "5", "6")
}

// A column whose type differs between items: DynamoDB's rules, not
// SQLite's (which orders NULL < numbers < text < blob and, through column
// affinity, may convert '5' to 5).
func TestSemanticsMixedTypes(t *testing.T) {
	s := newSmall(t,
		attrs{"x": num("5")},                              // 1
		attrs{"x": str("5")},                              // 2
		attrs{"x": value.BoolOf(true)},                    // 3
		attrs{"x": value.NullValue()},                     // 4
		attrs{},                                           // 5: missing
		attrs{"x": num("10")},                             // 6
		attrs{"x": str("abc")},                            // 7
		attrs{"x": value.ListOf([]value.Value{num("1")})}, // 8
		attrs{"x": value.BoolOf(false)},                   // 9
	)
	where := func(pred string, want ...string) {
		t.Helper()
		// Pushed down where ddbsql can, and on the client (OR id < 0).
		s.want("SELECT id FROM {t} WHERE pk = 'P' AND "+pred, want...)
		s.want("SELECT id FROM {t} WHERE pk = 'P' AND ("+pred+" OR id < 0)", want...)
	}
	where("x = 5", "1")
	where("x = '5'", "2")
	where("x <> 5", "2", "3", "6", "7", "8", "9") // other types are not equal; NULLs are UNKNOWN
	where("x < 100", "1", "6")                    // only numbers order against a number
	where("x > '4'", "2", "7")                    // only strings against a string
	where("x IN (5, 'abc')", "1", "7")
	where("x = TRUE", "3")
	where("x = 1") // BOOL true is not 1
	where("x IS NULL", "4", "5")
	where("NOT (x < 100)", "2", "3", "7", "8", "9") // FALSE for other types, so NOT is TRUE
	// ORDER BY across types: NULLs first (missing and NULL are peers), then
	// BOOL, N, S, …, L (value.Order); deterministic, documented.
	s.want("SELECT id FROM {t} WHERE pk = 'P' ORDER BY x, id", "4", "5", "9", "3", "1", "6", "2", "7", "8")
	s.want("SELECT id FROM {t} WHERE pk = 'P' ORDER BY x DESC, id", "8", "7", "2", "6", "1", "3", "9", "4", "5")
	// GROUP BY and DISTINCT keep 5 and '5' apart and put both NULLs together.
	s.want("SELECT COUNT(*) FROM {t} WHERE pk = 'P' GROUP BY x ORDER BY 1 DESC, MIN(id)", "2", "1", "1", "1", "1", "1", "1", "1")
	s.want("SELECT COUNT(DISTINCT x) FROM {t} WHERE pk = 'P'", "7")
	// A string or BOOL is never a number: arithmetic on it is an error…
	if _, err := s.try("SELECT x + 1 FROM {t} WHERE pk = 'P' AND id = 2"); err == nil {
		t.Error("'5' + 1: want a type error")
	}
	// …and as a predicate a string is FALSE (SQLite converts '5' to 5: TRUE).
	where("x", "1", "3", "6")
}

// SQL NULL is a missing attribute or a DynamoDB NULL; only the DynamoDB
// functions tell them apart. SQLite has one NULL, so the differential test
// cannot see the difference.
func TestSemanticsMissingAndNull(t *testing.T) {
	s := newSmall(t, attrs{"x": value.NullValue()}, attrs{}, attrs{"x": num("1")})
	s.want("SELECT id FROM {t} WHERE pk = 'P' AND x IS NULL", "1", "2")
	s.want("SELECT id FROM {t} WHERE pk = 'P' AND attribute_exists(x)", "1", "3")
	s.want("SELECT id FROM {t} WHERE pk = 'P' AND attribute_not_exists(x)", "2")
	s.want("SELECT COUNT(x), COUNT(*) FROM {t} WHERE pk = 'P'", "1")
	s.want("SELECT COUNT(*) FROM {t} WHERE pk = 'P' GROUP BY x ORDER BY 1", "1", "2")
	s.want("SELECT DISTINCT x FROM {t} WHERE pk = 'P' AND x IS NULL", "NULL")
	// Output: both are JSON null.
	s.want("SELECT x FROM {t} WHERE pk = 'P' AND id < 3", "NULL", "NULL")
}

// BOOL is DynamoDB's own type: SQLite stores 0/1, so the generator maps
// ddbsql's true/false to 1/0 in results and never compares a BOOL with a
// number (FALSE in ddbsql, TRUE in SQLite for b = 1).
func TestSemanticsBool(t *testing.T) {
	s := newSmall(t, attrs{"b": value.BoolOf(true)}, attrs{"b": value.BoolOf(false)}, attrs{"b": num("1")})
	s.want("SELECT id FROM {t} WHERE pk = 'P' AND b = 1", "3")
	s.want("SELECT id FROM {t} WHERE pk = 'P' AND b = TRUE", "1")
	s.want("SELECT id FROM {t} WHERE pk = 'P' AND b", "1", "3") // N 1 is TRUE as a predicate (MySQL)
	s.want("SELECT b FROM {t} WHERE pk = 'P' ORDER BY b", "false", "true", "1")
}
