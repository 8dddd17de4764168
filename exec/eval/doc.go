// Package eval evaluates resolved expressions (planner/expr) over one row
// at a time with DynamoDB's types kept exact. It is the engine behind
// client-side filters (WHERE conjuncts DynamoDB cannot run), projections,
// GROUP BY keys, HAVING and ORDER BY expressions.
//
// Phase: exec. Input: an expr.Expr the planner resolved and checked
// (function names and arities against the function catalogue,
// planner/funcs; aggregates only where allowed) and a Row, which serves a
// column by the ID the planner gave it (expr.Column.ID: the row binds IDs
// to its columns, so a read is by index) and positional inputs by Ref.
// Output: a value.Value, or a *diag.Error of phase evaluate with a stable
// Code.
//
// May import: planner/value, planner/expr and planner/funcs; nothing that
// reads DynamoDB or plans.
//
// # Invariants
//
//   - The catalogue (planner/funcs) says which functions exist and how many
//     arguments each takes; this package implements each scalar function of
//     it, keyed by its catalogue name (funcs.go), and nothing else. A test
//     proves both directions, and that arguments of the catalogue's types
//     give a result of its Result type or NULL.
//   - Evaluation is pure and row-local: no state survives a call, so one
//     expression can be evaluated concurrently over different rows. A
//     subquery's rows (SubqueryRows, subquery.go) are stored once before
//     the first row is evaluated and only read after.
//   - A result may share memory with the row's values: an argument passed
//     through (coalesce, if, a column), a substring of a string. Over a row
//     read in place from an Arrow batch it is valid only while the batch is
//     retained; a caller that keeps it clones it (value.Value.Clone).
//   - Numbers stay exact. + - * % DIV and unary minus never round; a result
//     that DynamoDB could not store (more than 38 significant digits, or a
//     magnitude outside 1E-130 … 9.99…E+125) is an "overflow" error naming
//     the expression. Division is the one operation that rounds: an inexact
//     quotient is rounded to 38 significant digits, half away from zero.
//     int64 operands take an allocation-free fast path.
//   - SQL NULL is Missing (absent attribute) or Null (DynamoDB NULL). A
//     predicate's UNKNOWN is returned by Eval as Missing.
//   - The common predicate shapes (column = literal of the same type,
//     AND/OR/NOT, numeric and string comparisons, begins_with, LIKE, IN)
//     do not allocate.
//   - Aggregate nodes never reach the evaluator (the aggregation operator
//     replaces them by Ref); evaluating one is an "internal" error.
//
// # Semantics
//
//	Construct                 Result
//	------------------------  -------------------------------------------------------------
//	AND / OR / NOT            SQL three-valued logic; FALSE AND x = FALSE and TRUE OR x =
//	                          TRUE without evaluating x.
//	Predicate operand         TruthOf: BOOL as is; NULL → UNKNOWN; N → TRUE unless 0 (MySQL);
//	                          any other type → FALSE (never coerced).
//	= <> < <= > >=            NULL operand → UNKNOWN. Different types (DynamoDB): = FALSE,
//	                          <> TRUE, < <= > >= FALSE. S and B byte-wise, N numerically.
//	                          BOOL, M, L and sets: = and <> by value (sets as sets),
//	                          ordering comparisons FALSE.
//	x IN (a, b, …)            TRUE on an equal member (DynamoDB equality); else UNKNOWN if x
//	                          or a member is NULL; else FALSE. NOT IN negates (UNKNOWN stays).
//	x BETWEEN a AND b         x >= a AND x <= b under three-valued logic; NOT negates.
//	x LIKE p                  NULL side → UNKNOWN; x or p not an S → FALSE (NOT LIKE → TRUE:
//	                          NOT LIKE is the negation of LIKE). % any run, _ one character
//	                          (one UTF-8 code point, or one invalid byte), \ escapes the next
//	                          character (a trailing \ is literal); case-sensitive, byte-wise.
//	x IS [NOT] NULL           TRUE for Missing and Null (never UNKNOWN).
//	+ - * / % DIV, unary -    N only. NULL operand → NULL (before any type check); another
//	                          type → "type" error. / and % and DIV by zero → NULL (MySQL).
//	                          % takes the dividend's sign; DIV truncates toward zero.
//	CASE                      Simple: operand = WHEN value with DynamoDB equality (NULL never
//	                          matches). Searched: first TRUE WHEN. No match → ELSE or NULL.
//	CAST(x AS number)         N as is; S parsed exactly (spaces trimmed), NULL unless it is a
//	                          number DynamoDB can store; BOOL 1/0; other types NULL.
//	CAST(x AS string)         S as is; N its digits; BOOL 'true'/'false'; B its bytes;
//	                          sets/lists/maps their JSON.
//	lower upper               S (or N's digits) → S; Unicode case mapping. Other types: "type".
//	length                    bytes; char_length, character_length: characters.
//	substring/substr(s,p[,n]) MySQL: 1-based, negative p counts from the end, p = 0 or n < 1
//	                          give ''; characters, not bytes; fractional p/n round half up.
//	concat(a, …)              NULL if any argument is NULL; N rendered as its digits; S or N
//	                          only ("type" error otherwise).
//	split_part(s, d, n)       PostgreSQL: field n of s split at d, 1-based, negative n from
//	                          the end; '' when there is no such field (n = 0 too); d = ''
//	                          makes s one field.
//	replace(s, from, to)      every occurrence, left to right; from = '' leaves s as it is.
//	trim/ltrim/rtrim(s[, cs]) removes the characters of cs (default one space ' '; tabs and
//	                          line breaks stay) from both ends, the left or the right.
//	lpad/rpad(s, n[, pad])    PostgreSQL: s padded on the left/right to n characters with pad
//	                          (default ' ') repeated, or cut to its first n characters; n < 1
//	                          → ''; pad = '' leaves a short s as it is; n beyond 409,600 (no
//	                          item could hold the result) → NULL.
//	regexp_like(s, re)        TRUE when re matches anywhere in s (anchor with ^ $). Patterns
//	                          are Go regular expressions (RE2: no backreferences or
//	                          lookaround; (?i) for case-insensitive); string literals are
//	                          MySQL's, where \\ stands for one \ ('\\d+'). A bad pattern
//	                          is an "argument" error (at plan time when it is a literal).
//	regexp_extract(s, re[,g]) the first match, or its group g (0 the whole match); NULL when
//	                          nothing matches, group g did not take part or does not exist.
//	                          The string helpers take S or N (its digits), else "type";
//	                          any NULL argument gives NULL.
//	greatest(…), least(…)     PostgreSQL: NULL arguments are ignored, NULL only if all are.
//	                          Compared by ORDER BY's total order (value.Order): N
//	                          numerically, S and B byte-wise, different types by type
//	                          (BOOL < N < S < B < NS < SS < BS < L < M), never an error.
//	abs(x), round(x[, d])     N only; exact; round half away from zero, d may be negative.
//	coalesce(…), ifnull(a,b)  first non-NULL argument, evaluated lazily; NULL if none.
//	nullif(a, b)              NULL when a = b (DynamoDB equality), else a.
//	if(c, a, b)               a when c is TRUE, else b (UNKNOWN picks b).
//	Times                     Date functions read a time from an S in ISO 8601 —
//	                          YYYY-MM-DD, optionally T (or a space) HH:MM[:SS[.fraction]]
//	                          and Z, ±HH:MM, ±HHMM or ±HH (no offset: UTC), converted to
//	                          UTC, nanoseconds kept — or from an N of seconds since
//	                          1970-01-01T00:00:00Z (negative before, fractions kept;
//	                          epoch milliseconds: divide by 1000, from_unixtime(ms / 1000)).
//	                          Any other value (another string, a BOOL, a year outside
//	                          0000–9999, Feb 30…) is not a time: the function gives NULL,
//	                          never an error. Results are UTC: datetimes as
//	                          2026-04-26T20:16:00Z (a fraction only when non-zero, so they
//	                          compare as strings with inputs written alike), and a bare
//	                          date input gives a bare date (2026-04-01) from date_trunc and
//	                          date_add with a unit of a day or more.
//	Units                     second, minute, hour, day, week (ISO: starts Monday), month,
//	                          quarter, year; singular or plural, any case, a string or a
//	                          bare word. Unknown: "argument" error (at plan time when
//	                          literal); NULL unit → NULL.
//	date_trunc(u, x)          x rounded down to the start of its unit.
//	date_part(u, x)           N: whole seconds 0–59, minute, hour, day of month, ISO week
//	                          1–53, month, quarter 1–4, year.
//	date_add(u, n, x)         x plus n units (n an N, rounded half away from zero; may be
//	                          negative). Month, quarter, year keep the day, clamped to the
//	                          month's end (Jan 31 + 1 month = Feb 28/29). Outside the years
//	                          0000–9999 → NULL.
//	date_diff(u, a, b)        N: whole units from a to b, truncated toward zero (negative if
//	                          b < a); months, quarters, years: the largest n with
//	                          date_add(u, n, a) <= b.
//	from_unixtime(n)          the datetime of epoch seconds n (NULL unless an N).
//	to_unixtime(x)            N: epoch seconds, exact, with x's fraction.
//	date_format(x, f)         MySQL DATE_FORMAT, English names: %a %b %c %D %d %e %f(µs) %H
//	                          %h %I %i %j %k %l %M %m %p %r %S %s %T %U %u %V %v %W %w %X %x
//	                          %Y %y %%; week modes as MySQL's WEEK(x, 0/1/2/3) for %U %u %V
//	                          %v (%v %x: ISO 8601). Another letter or a lone trailing % is
//	                          an "argument" error (plan time when literal).
//	now(), current_timestamp  the UTC datetime in whole seconds; current_date the UTC date.
//	current_date              The planner replaces them by its Clock's time, read once per
//	                          statement, so every row and clause agrees.
//	begins_with(x, p)         never NULL: TRUE iff x and p are both S or both B and p is a
//	                          prefix of x.
//	contains(x, o)            never NULL: substring of an S (byte run of a B), member of a
//	                          set of o's type, or element equal to o of an L.
//	size(x)                   S/B bytes, set/L/M element count; NULL for other types.
//	attribute_exists(x)       never NULL: TRUE unless Missing (a DynamoDB NULL exists).
//	attribute_not_exists(x)   never NULL: TRUE iff Missing.
//	attribute_type(x, t)      never NULL: x has type t ∈ {S N B BOOL NULL M L SS NS BS};
//	                          another t is an "argument" error.
//	item_size()               ItemSize of FROM item 0's whole item (Row.Item); a row without
//	                          the whole item is an "argument" error.
//	ddb_null()                DynamoDB's NULL type (stored by INSERT and UPDATE; SQL NULL
//	                          removes or omits the attribute instead).
//	Column path x[i]          element i of a list; NULL when out of range or x is not a
//	                          list, except on a set (SS/NS/BS): sets are unordered, so
//	                          that is a "set_index" error with a hint (contains(x, …)).
//	(SELECT x …)              The value of the subquery's one row (for a correlated one, the
//	                          row of the outer values); NULL without a row; more than one
//	                          row is a "subquery_rows" error.
//	EXISTS (SELECT …)         TRUE iff the subquery has a row (for the outer values).
//	x IN (SELECT c …)         No rows → FALSE (even for a NULL x); x NULL → UNKNOWN; x equal
//	                          to a value (DynamoDB equality) → TRUE; else UNKNOWN if a value
//	                          is NULL, else FALSE. NOT IN negates (UNKNOWN stays).
//	                          Correlation values that hold a NULL match no row.
//	Aggregate node            "internal" error.
//	unknown function          "unknown_function" error; wrong arity "argument".
//
// Error codes: overflow, type, argument, unknown_function, internal,
// set_index, subquery_rows (declared in parser/diag). An error may carry a Hint saying
// what to write instead.
package eval
