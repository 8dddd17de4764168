// Package session runs statements for the command line and the REPL: it
// parses, plans against the catalog, executes and writes results in the
// chosen format, with statistics on stderr.
//
// The API. A session is made with New(client, out, errOut, cfg); its
// fields are unexported, so nothing outside changes a setting behind its
// back. The Config holds what cmd/ddbsql reads from its flags (format,
// statistics mode, planner options, --max-rcu, --rate-limit, --timeout,
// --read-price, --concurrency, --memory-limit, --temp-dir, the progress
// line, the fast read path) and
// what an embedding caller provides (the allocator, the ConfirmScan
// question, a ResultWriter that replaces the format's writer, as a
// partitioned export's exec/partition.Writer does); DefaultConfig is a session without flags. What the REPL
// changes between statements goes through named setters (settings.go):
// SetFormat, SetExpanded, SetStats, SetPlanOptions, SetConcurrency,
// SetMemoryLimit,
// SetOutput, SetMessages, SetProgress, SetStatsSink, SetConfirmScan and
// WrapClient; SetFormat and SetStats refuse a format or statistics mode the
// session does not know and leave the setting as it was. Settings returns
// the current settings as a Config (what New was given, as the setters
// changed it); Client and Catalog give the connection and the cache of
// table descriptions (the REPL completes names from it and \refresh
// empties it). Statistics are a value, StatementStats (the engine's
// Snapshot, the Outcome, the read price, the spill figures), which the
// session renders on its statistics writer (errOut) with Text or JSON, or
// hands to the caller's sink, which renders it with the same methods: no
// caller parses or edits rendered text. Planner options reach the planner
// with the host's CPU count as Parallelism unless one was given: the
// planner itself never asks the host, so a plan is a function of the
// statement, the catalog and the options alone.
//
// Each statement gets a fresh spill.Budget of MemoryLimit and a spill.Dir
// under TempDir in its engine.Env; the Dir is closed by a deferred call
// when the statement ends, by success, error, cancellation or panic, so
// no spill file outlives its statement. With Config.SteerCollector (the
// command line sets it) the Go runtime's soft memory limit is pointed at
// the live heap plus the statement's budget before it runs, so the
// process's memory follows --memory-limit rather than twice it.
//
// EXPLAIN ATHENA and EXPLAIN DUCKDB (explaindialect.go) print
// planner.ExplainDialect's rewrite with Config.Export (where the exports
// are, their form, the decimal scale); like EXPLAIN they read nothing but
// the catalog.
//
// Imports: parser, planner and its leaves, and the exec packages below
// this one (engine, dynamo, format, columnar, spill); cmd/ddbsql and repl import
// it, no exec package does outside its tests. A session runs one statement
// at a time: the setters are called between statements, never while one
// runs.
//
// Writes (write.go): INSERT, REPLACE, UPDATE and DELETE are planned with
// planner.PlanWrite (the Scan question and --strict as for a SELECT) and
// run by exec/write; Config.ReadOnly refuses them before planning,
// Config.DryRun reports the keys and WCU instead of writing, Config.MaxWCU
// bounds them, Config.Journal names the file each write's images are
// recorded in (opened for the statement, appended to), and
// Config.ConfirmWrite (SetConfirmWrite; the REPL asks the user) is asked
// before a write of several items, with the --timeout clock paused. The outcome goes to errOut ("3 items updated in t"); --stats
// adds a write line (JSON: every key written and not written, WCU by table
// and index, conditional-check failures). A client that says it is
// InMemory (the --demo and --data backend) gets a note at the session's
// first write that its changes end with the process.
//
// Phase: all three, in order, for one statement at a time. Invariants: a
// script is parsed completely before anything runs, so a syntax error late in
// a file sends no request; statements run in order and the first failure
// stops the script; EXPLAIN never sends a read (only DescribeTable and
// ListTables), and with the json and ndjson formats prints one JSON
// document instead of the tree; DESCRIBE asks DescribeTable afresh plus
// DescribeTimeToLive and DescribeContinuousBackups, and a setting the
// endpoint does not answer is shown as unknown, saying why; errors come
// back typed from the phase that failed; a plan's notes are written (to
// the notes writer, else the statistics writer) before its first row;
// EXPLAIN adds Config.TableNotes of the tables its plan reads. A
// failed statement leaves
// buffered output unwritten, so a partial result cannot pass for a whole
// one, except when the caller's context was cancelled with a cause
// matching ErrInterrupted (a signal while a script runs): then the rows
// read so far are written out and the error says it was interrupted (not
// with parquet and arrow, whose partial file would pass for a whole one: a
// result that does not end is abandoned with format.Writer.Abort, which
// removes their spool). EXPLAIN and DESCRIBE print text, so they are
// refused with those formats; results go to the output writer as given
// (a format.Destination decides where a binary file lands). A panic while
// a statement runs, on its goroutine, a worker's or the progress line's, is
// the statement's internal error (engine.PanicError), never a crash; with
// DDBSQL_DEBUG set its stack is written to the statistics writer.
//
// --timeout is one deadline per statement, started before the statement is
// planned (for the first statement of a script, before the script is
// parsed) and covering every call it makes: DescribeTable and ListTables for
// planning, EXPLAIN, DESCRIBE and SHOW, the reads, back-fetches and join
// lookups. The caller's context (Ctrl-C in the REPL) still cancels it; the
// clock is paused while ConfirmScan waits for the user. A statement it
// stops fails with code timeout: "no answer from <endpoint> within 2s
// (DescribeTable app)" when no read got an answer and a request was left
// waiting, else "statement did not finish within --timeout 2s" and what it
// had read (deadline.go).
package session
