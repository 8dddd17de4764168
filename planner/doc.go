// Package planner compiles a parsed statement and the catalog into a plan
// tree: which DynamoDB requests to send (GetItem, BatchGetItem, Query on the
// table or an index, Scan only when allowed) and which operators run on the
// client above them. It also renders EXPLAIN, as a text tree and as a JSON
// document (explainjson.go) whose requests are the plan's SDK inputs,
// rendered field by field (explaininput.go), never re-typed. Each kind of
// plan node is declared in plan_<kind>.go together with its EXPLAIN
// description, which both renderings share; every walk over a plan tree
// goes through Walk (walk.go), and Inputs is the one way to a node's
// children.
//
// Phase: plan. The planner is pure: it calls nothing but the Catalog
// (DescribeTable/ListTables, cached by the caller) and never sends a read.
// Nothing it decides depends on the host: what does (how many reads the
// machine can drive at once, Options.Parallelism) is an input, so the same
// statement, catalog and options give the same plan on any machine. The
// clock is an input too: now(), current_timestamp and current_date become
// literals of Options.Now, which the session sets once per statement.
//
// Invariants:
//   - UNNEST (unnest.go, plan_unnest.go) is a FROM item after the tables
//     (or named queries) it expands: an Unnest node above the single
//     table's read, or above the whole join when the statement joins
//     several (with the read's or join's client filter below it), whose
//     reads project the expanded attributes and never take LIMIT, ORDER BY
//     or COUNT(*) (rows multiply or vanish above it). Conjuncts that read
//     an UNNEST's columns run in a Filter above it; the others stay where
//     they run without UNNEST (key conditions, reads, join steps). A bare
//     name is the UNNEST column it names, or else the one table's
//     attribute (with several tables, the join rules decide). An UNNEST
//     between joined tables, and an ON that reads an UNNEST's column, are
//     errors. SELECT * passes the items' attributes with the UNNEST's
//     columns as attributes of the row (output orders them as any SELECT
//     *); alias.* of a table keeps that table's attributes, of an UNNEST
//     its columns.
//   - Every WHERE conjunct ends in exactly one place: the key condition, the
//     FilterExpression (only where DynamoDB's semantics equal SQL's), or a
//     client-side Filter. None is dropped and none is applied twice. A
//     FilterExpression stays within DynamoDB's limits on an expression (4 KB,
//     300 operators and functions): conjuncts beyond them run on the client
//     (exprlimits.go).
//   - Requests are built completely here, with the SDK expression builder
//     (names and values only as #n/:v placeholders); exec sends them as they
//     are, adding only ExclusiveStartKey. So EXPLAIN prints exactly what exec
//     will send. Two rules of the templates complete this: a Query's or
//     Scan's Limit is the statement's total for that request, not a page's
//     (each page asks for what remains, and the request ends once Limit
//     items have been read: a LIMIT counted across pages never reads more);
//     and the BatchGetItems of a Fetch and a LookupJoin, and a lookup's
//     Query, are built here by Fetch.Request, LookupJoin.BatchRequest and
//     LookupJoin.QueryFor (requesttemplates.go) from the keys or values
//     exec has, the same code EXPLAIN calls with none. UnprocessedKeys are
//     re-sent as DynamoDB returned them.
//   - A statement that needs a Scan fails before any request unless the
//     caller allows Scans; the error names the table, its keys and indexes.
//   - A join runs as a left-deep pipeline in an order that returns SQL's
//     rows (joinorder.go states the rules): the driving table is chosen by
//     its key conditions wherever it is written, the optional side of a
//     LEFT join never drives and is joined after the tables its ON
//     mentions, and a LEFT join whose optional side a WHERE condition
//     null-rejects is planned as the inner join it is.
//   - An index hint (USE/FORCE INDEX) only chooses among plans that return
//     the same rows: a hinted read of a sparse index that could miss
//     matching items fails before any request (sparsehint.go). FROM
//     `t`.`i` reads the index itself.
//   - Every DynamoDB read of a plan carries an Estimate (Access, Fetch,
//     LookupJoin and its fetch) and TotalEstimate sums them all. Printed
//     figures are true: estimates from DescribeTable's averages, lower
//     bounds marked ≥ that say what they assume, or "unknown" when
//     DescribeTable has no figures yet (a new or freshly loaded table
//     reports 0 items) — never ~0.
//   - A WHERE with OR is read by key when every branch of its disjunctive
//     normal form has a key condition of its own (dnf.go, disjunction.go):
//     as one IN list, one BatchGetItem of full keys, or a Union of the
//     branches' reads deduplicated by primary key. NOT is never pushed
//     through, and the rewrite is used only when it reads less than the
//     key condition outside the OR (if any) would; otherwise the WHERE is
//     planned as written, and a Scan error names the branch without a key.
//   - Window functions (expr.Window) are bound only in the select list and
//     ORDER BY, and are computed after WHERE, GROUP BY and HAVING
//     (window.go): a Project computes every expression they and the
//     statement's items and ORDER BY read, then one Window node per
//     distinct PARTITION BY and ORDER BY adds its functions' columns, and
//     the items, ORDER BY and LIMIT read those columns by Ref. With
//     windows, neither ORDER BY nor LIMIT is pushed into the read. A RANGE
//     frame with an offset (window_bind.go) needs exactly one ORDER BY key
//     not known to be non-numeric (a string constant, a CAST to CHAR, a
//     condition are rejected; a column is checked only at run time); its
//     offsets are canonical decimals (expr.FrameBound.Offset).
//   - A statement of several SELECTs (WITH, UNION/INTERSECT/EXCEPT, derived
//     tables) is planned by PlanStatement: each SELECT by PlanSelect, in
//     its own column space, combined by SetOp nodes, with the compound's
//     ORDER BY (output positions) and LIMIT above (setop.go). A FROM item
//     that names a WITH query or derived table reads it (derived.go): the
//     name shadows a table's; a query the plan reads once runs in place
//     (Derived), one read several times is materialized once (Materialize
//     under a With) and replayed (CTEScan), and one never read is not
//     planned, so it sends no request. Such an item has no keys: it is
//     joined by hash, or drives a lookup join into a table by that table's
//     key. Its columns are known (a name it lacks is an error), except for
//     a SELECT *, which passes its items' attributes. A column list, WITH
//     x(a, b) or (SELECT …) AS d(a, b), renames them; a count that differs
//     from the query's, or a list over a SELECT *, is an "invalid" error.
//     A bare name in a join that no FROM item has as a key or known column
//     belongs to the one schemaless FROM item, when there is exactly one
//     (bind.go).
//   - Function calls are bound against the function catalogue
//     (planner/funcs), which exec implements; the planner never asks the
//     executor what a function is.
//   - Columns have identity (columns.go). The binder numbers a statement's
//     columns densely from 1, one expr.ColumnID per FROM item and
//     top-level attribute, and every column reference carries its ID, so
//     exec reads a cell by the slot its ID is bound to, never by name.
//     Items are schemaless: which attributes a page holds (and so where a
//     column is in a batch) is only known when it arrives, so the plan
//     fixes identities, not offsets; exec binds IDs to a batch's columns
//     once per batch. A node's rows carry the attributes of the FROM items
//     FromItems lists, in that order; a projection's or an aggregation's
//     columns are positions, read by expr.Ref. ClientExprs and Uses say
//     what each node evaluates and which columns it reads.
//   - A subquery (scalar, IN, EXISTS, in WHERE, HAVING or the select
//     list) is planned as a statement of its own, numbering its own columns
//     (subquery.go). A correlated one is decorrelated first
//     (subquery_correlate.go): its correlation equalities inner = outer.col
//     leave its WHERE and their inner sides lead its rows, which the outer
//     expression looks up by the outer values (a client semi- or anti-join;
//     a grouped join for a correlated aggregate, whose missing groups yield
//     the aggregate over no rows); any other reference to the outer query
//     is an unsupported error naming it. Its rows are read once, before the
//     statement's first row (the Subqueries node above the plan), so its
//     reads follow the Scan rule and count in the estimates like any other.
//     The one exception is key IN (SELECT …) on the partition key of the
//     table or a GSI when the WHERE has no key condition of its own: that
//     conjunct becomes a KeyedFanout (subquery_fanout.go), the reads of a
//     literal IN list (BatchGetItem of full keys, or a Query per value)
//     fed by the subquery's rows, each distinct value read once. And a
//     correlated EXISTS or IN whose decorrelated read would be a Scan but
//     that correlates on the partition key of its table or a GSI is a
//     KeyedSemiJoin (subquery_semijoin.go) above the outer read: the outer
//     values are looked up by key as the rows arrive, before anything above
//     tests them (a correlated aggregate is folded per value: a keyed
//     grouped join); where a node of the read would test the subquery itself
//     (a branch of a union), it is read whole instead, under the Scan rule.
//   - Writes (write.go, explainwrite.go): PlanWrite plans INSERT, REPLACE,
//     UPDATE and DELETE as a WritePlan whose Read is planned by
//     PlanStatement like any SELECT (SELECT * FROM t WHERE … for UPDATE and
//     DELETE, the query of INSERT … SELECT), so keys, indexes, the Scan rule
//     and estimates are a SELECT's. SET and VALUES expressions and the WHERE
//     (for exec's re-check of a changed item) are bound over the one table.
//     Assigning a primary-key attribute is a key_change error; an index
//     key may change (a note says the item moves in the index). SET x =
//     NULL is a removal (Expr nil). Refs lists the attributes the statement
//     names, for the write's condition.
//   - Errors are *diag.Error of phase plan with a stable Code; the error
//     of a refused Scan has a *ScanNeeded cause (what the Scan would read).
//   - EXPLAIN ATHENA and EXPLAIN DUCKDB (ExplainDialect, dialect*.go)
//     rewrite a SELECT for another engine over the tables' exports. They
//     bind the statement exactly as PlanSelect does (bindOnly) and render
//     the bound expressions, never the input text, so names, paths,
//     aliases and functions mean what they mean to ddbsql; no read is
//     chosen. Each column reference reads one DynamoDB type, inferred from
//     the statement (dialect_types.go: key types, literals, arithmetic,
//     function parameters, CAST), else its text; the DDL declares exactly
//     the attributes, members, list elements and type-wrappers the
//     rendering used (dialect_columns.go). What does not translate is an
//     unsupported error naming the construct, never a different statement.
//   - A double-quoted name is a name, never a string, even where a value
//     usually goes (status = "open"); when it is no key attribute of the
//     tables read, the planner says so in the error's hint if planning
//     fails, else in a note on the plan (Plan.Notes), which EXPLAIN shows.
package planner
