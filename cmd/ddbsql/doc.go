// Command ddbsql runs SQL against Amazon DynamoDB: from -e, -f, piped stdin,
// or an interactive REPL when stdin and stdout are terminals.
//
// Phase: the entry point. It parses flags (with defaults from the settings
// file, settings.go), builds the connection (AWS
// configuration chain, --endpoint-url, or the in-process backend for --demo
// and --data) and a session, and maps outcomes to exit statuses. The
// flags of EXPLAIN ATHENA/DUCKDB (--export-location, --athena-source,
// --decimal-scale; exportflags.go) become the session's Config.Export,
// with each --data TABLE=DIR export folder as DuckDB's default location.
//
// Invariants: exit status 0 on success, 1 when a statement fails, 2 for bad
// usage, 128+signal when SIGINT or SIGTERM stopped a script (a process
// ended by a signal first removes every spill directory, spill.RemoveAll;
// --memory-limit defaults to a quarter of physical memory, memorylimit.go);
// every failure
// is printed to stderr as "error: …" (with hint and source lines below;
// "error: report.sql:12: …" for a failure in a named script), never as a
// panic or stack trace; printError finds the *diag.Error of every phase
// with one errors.As and prints its Text and Hint as they are (in a
// script, TextAtColumn: the script location names the line), never
// editing message text; all scripts are parsed before any statement runs
// (a file run by \i when it is reached).
//
// --load TABLE=PATH (load.go) runs exec/bulkload for each --load instead
// of statements, prints what each wrote and checked, and exits 1 on the
// first failure (its checkpoint lets the same command resume).
//
// --undo FILE [--statement N] (undo.go) runs exec/write.Undo on the
// journal --journal FILE wrote instead of statements, prints what it
// restored, and exits 1 when an item was left alone as a conflict.
// --dry-run, --max-wcu, --read-only and --journal reach the session's
// Config for write statements.
//
// Output: results go to stdout, or to -o/--output FILE (created or
// truncated before any statement runs; a file that cannot be created is
// bad usage), which scripts treat as if they began with \o FILE. Both are
// format.Destinations, so a parquet or arrow result is alone in its file,
// and a file's is renamed into place only when complete. --format parquet
// or arrow without -o while stdout is a terminal is bad usage. With
// --partition-by, --output is a directory instead (partitioned.go): it is
// readied (created, or continued from its state file) before anything is
// read, and the session writes the result through exec/partition.
//
// The README is part of the contract: readme_test.go runs every statement of
// its sql blocks and every demo command line of its sh blocks on --demo
// (a "-- flags: …" comment line above a statement gives the flags it
// needs), and compares its "$ ddbsql --demo …" transcripts with what the
// command prints. --help and the README's Flags section list every flag
// of the flag set (flags_test.go walks it).
package main
