// Package session runs statements for the command line and the REPL: it
// parses, plans against the catalog, executes and writes results in the
// chosen format, with statistics on stderr.
//
// Phase: all three, in order, for one statement at a time. Invariants: a
// script is parsed completely before anything runs, so a syntax error late in
// a file sends no request; statements run in order and the first failure
// stops the script; EXPLAIN never sends a read (only DescribeTable and
// ListTables); errors come back typed from the phase that failed; a plan's
// notes are written (to Notes, else Err) before its first row.
package session
