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
//	abs(x), round(x[, d])     N only; exact; round half away from zero, d may be negative.
//	coalesce(…), ifnull(a,b)  first non-NULL argument, evaluated lazily; NULL if none.
//	nullif(a, b)              NULL when a = b (DynamoDB equality), else a.
//	if(c, a, b)               a when c is TRUE, else b (UNKNOWN picks b).
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
