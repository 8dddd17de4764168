// Package parser turns SQL text into ddbsql statements.
//
// Phase: parse. Input is the text a user typed or a script file; output is
// a list of Statement values (*Select, *Explain, *Describe, *ShowTables,
// *ShowIndexes, and the writes *Insert, *Update, *Delete) for the planner, or a *diag.Error of phase diag.Parse. The
// package knows nothing of catalogs or DynamoDB calls.
//
// May import: nothing of the module but its leaf parser/diag (the error
// model), the standard library and sqlparser; it is the lowest layer. What it hands on is syntax kept
// exact as text (names as written, numbers as their digits, document paths
// as Path); the planner, which owns typed values, turns them into the value
// model's numbers and paths where it binds them.
//
// SELECT statements are parsed by github.com/xwb1989/sqlparser (MySQL
// dialect) after a rewrite that works around its traps; the other statements
// are parsed here, because sqlparser loses their content.
//
// Invariants:
//   - Parse never panics; sqlparser runs under recover, and sees no comments
//     (they are blanked, so MySQL's executable /*! … */ are plain comments).
//   - A statement nests at most MaxNesting levels (a chain of n operators is
//     n levels): deeper ones are a syntax error found before sqlparser's
//     stack or any later recursion could grow with them (nesting.go).
//   - Every position (Span, diag.Error's Pos.Offset/Line/Column) is relative to the whole
//     input given to Parse, never to a statement or to rewritten text.
//     Line and Column are 1-based; Column counts characters, not bytes.
//   - Errors are *diag.Error (phase parse) with a stable Code: syntax,
//     unquoted_hash, unsupported, empty (declared in parser/diag).
//   - A '#' glued to a name or value (GSI1#PK, `GSI1`#PK, 'DOC'#1) is an
//     error, never a silent comment; so is "--" glued on both sides
//     (ORDER--2024), which sqlparser, unlike MySQL, also reads as a comment.
//   - Document paths with three or more components or a list index (a.b.c,
//     tags[0], a.b[2].c) become synthetic backticked names in the AST,
//     recorded in Select.Paths as a Path (names unquoted, case kept;
//     indexes as whole numbers); two-part a.b stays sqlparser's
//     qualifier.column for the planner to resolve (alias or map attribute).
//     Synthetic names cannot collide with names in the statement.
//   - Quoting follows PartiQL and standard SQL: '…' is a string, "…" and
//     `…` are names, in every position (select list, aliases, WHERE, FROM
//     t.index, USING, USE INDEX, DESCRIBE, document paths…). A doubled
//     delimiter stands for itself ("a""b" is a"b); a backslash is a plain
//     character in names. sqlparser reads "…" as a string, so every
//     double-quoted name reaches it backticked; lone ones written where a
//     value usually goes are listed in Select.QuotedValues for hints.
//   - x IN ['a', 'b'] (PartiQL's list literal) is x IN ('a', 'b'); a '['
//     anywhere else starts a list index.
//   - UNNEST(x) [WITH ORDINALITY] [AS] u(value[, n]) [WITH ORDINALITY] in
//     a table position (after JOIN or a FROM list's comma) reaches sqlparser
//     as the derived table (SELECT ddbsql_unnest(x) AS value[,
//     ddbsql_ordinality() AS n]) AS u, with x left in place, so positions
//     inside it stay exact (unnest.go); the alias without columns names
//     the one column too. A missing alias or a column list of the wrong
//     length is a syntax error at the alias.
//   - a || b joins strings (standard SQL, PartiQL, SQLite), not MySQL's
//     logical OR: it reaches sqlparser as the one-bar operator (which
//     parses just above the comparisons) and the planner binds that to
//     concat; a | written alone (bitwise OR) is an "unsupported" error.
//   - Names keep their case: keywords used as names (status, date, key,
//     values…) are backticked before sqlparser sees them, which would
//     otherwise reject or lowercase them. Table references and string
//     literals are never rewritten as paths.
//   - A '$' between name characters and before a letter or _ is part of
//     the name, as in MySQL (orders$changes, the change table of an
//     incremental export chain): sqlparser cannot lex it, so such a name
//     is backticked before it sees it. A name cannot start with '$', and
//     $1 stays a (refused) positional parameter.
//   - Numbers keep their exact text (IntVal/FloatVal); NumberText folds a
//     unary sign without going through float64.
//   - Select.ItemTexts holds each select item as written, alias and AS
//     removed, tidied (keywords and function names upper-cased, single
//     spaces, no comments, no quotes a name does not need): SQL engines
//     name an unaliased output column after that text, which sqlparser's
//     rendering does not reproduce (it lowercases keywords, shows our
//     backticks).
//   - A window function call f(args) OVER (PARTITION BY … ORDER BY …
//     [ROWS|RANGE …]) reaches sqlparser as a synthetic call
//     name(f(args), partition…, order…), whose name cannot collide with
//     one in the statement; Select.Windows records under that name how
//     many arguments partition, each ORDER BY key's direction and NULLS
//     placement, and the frame (windowrewrite.go). Only the OVER clause's
//     keywords are edited, so its expressions are rewritten (paths,
//     keyword names) and located like any others, and errors in the
//     specification or the frame point at the token at fault. A ROWS
//     offset is a whole number written as digits, a RANGE offset any
//     decimal number (kept as written; the planner reads it exactly); a
//     negative offset is a syntax error. Named windows (OVER w, WINDOW w
//     AS …), GROUPS and EXCLUDE are "unsupported" errors.
//   - Statements of several SELECTs are cut apart on the token stream
//     before sqlparser sees them: a WITH list (with.go), the set operators
//     UNION [ALL], INTERSECT [ALL] and EXCEPT [ALL] outside parentheses
//     (INTERSECT binds tighter; compound.go), the ORDER BY (output columns
//     by name or position) and LIMIT/OFFSET that end a compound, and derived
//     tables in FROM (derived.go). Each SELECT among them is parsed alone by
//     the one SELECT path, so every rule here holds in each, with positions
//     in the whole input. Such a statement is a *Select whose Query is set
//     (AST nil); a derived table is a CTE of its SELECT (Select.Derived),
//     named in the AST by a synthetic name that cannot be a table's. Its
//     column list, (SELECT …) AS d(a, b), is read into the CTE's Columns
//     (with Alias d) and blanked out of the text sqlparser reads, so
//     positions after it stay exact; the Select's span still covers it.
//     Queries nest at most MaxQueryNesting levels (derived tables, WITH
//     bodies, parenthesized members), so the parse stays linear.
//   - Statements other than SELECT (WITH included), INSERT, REPLACE,
//     UPDATE, DELETE, EXPLAIN, DESCRIBE/DESC and SHOW TABLES/INDEXES are
//     "unsupported" errors, as are WITH RECURSIVE, FULL OUTER JOIN, set
//     operators or WITH inside a subquery of WHERE or the select list, and
//     query parameters.
//   - EXPLAIN ATHENA <select> and EXPLAIN DUCKDB <select> are an Explain
//     with Dialect set (commands.go); the dialect word counts only before
//     a SELECT, so EXPLAIN athena still describes a table named athena.
//   - Writes (write.go): UPDATE, DELETE and INSERT … VALUES go through the
//     SELECT path's rewrite (parseSQL), so quoting, keyword names, paths and
//     positions follow the rules above; INSERT … SELECT parses its query as
//     any query. UPDATE and DELETE carry Read, the SELECT * FROM t WHERE …
//     that finds their items, for the planner to plan like any SELECT. They
//     change one table (no joins, no index, no ORDER BY or LIMIT); INSERT
//     names top-level attributes, each once, and VALUES rows as long as
//     that list.
package parser
