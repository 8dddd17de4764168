// Package spill bounds the memory of a statement's blocking operators
// (ORDER BY, GROUP BY, DISTINCT, COUNT(DISTINCT), the hash-join build
// side) and gives them somewhere to put what does not fit.
//
// A Budget is the statement's share of --memory-limit: operators reserve
// the bytes they are about to retain and release them when they let go;
// a reservation that would pass the limit is refused, and the operator
// then spills (writes what it holds to a file and starts again with an
// empty budget share) instead of growing. A Dir is the statement's spill
// directory under --temp-dir: created on first use, removed with every
// file in it by Close, and by RemoveAll for every Dir still open when the
// process is told to stop (a signal handler calls it), so no exit path
// leaves files behind. Spill files hold Arrow IPC streams (see run.go).
// Shares (Budget.Share, Dir.Share) give one operator figures of its own
// (its peak reservation, its files and bytes) while it reserves from the
// statement's budget and writes in the statement's directory, for EXPLAIN
// ANALYZE; the statement's own figures still count everything.
//
// Users: ORDER BY (exec/engine sortspill.go) reserves its input batches,
// keys and index, and spills sorted runs whose batches end with a binary
// column of normalized sort keys, merged back with one RunReader per run.
//
// SteerCollector points the Go runtime's soft memory limit at the live
// heap plus a statement's budget, so the process's memory follows the
// limit instead of the collector's default of about twice the live heap.
//
// Phase: execute. Imports: arrow-go, parser/diag and the runtime's debug
// and metrics packages; the engine, the session and format (whose parquet
// and arrow spool is a Run) import it. Invariants: a nil *Budget means no
// limit and a nil *Dir cannot spill (operators then fail with
// CodeMemoryLimit where they would have spilled); Budget methods are safe
// for concurrent use; errors are *diag.Error of the execute phase,
// CodeMemoryLimit naming the operator and the limit, CodeSpill naming the
// file.
package spill
