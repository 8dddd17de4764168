// Package partition writes a query result as a Hive-style partitioned
// layout of Parquet files (--partition-by COL[,COL] with --format parquet
// --output DIR), and makes that export resumable.
//
// Phase: exec, the last step (it is a format.Writer the session is given
// through session.Config.ResultWriter). May import exec/format (whose
// Parquet writer writes every file: the type mapping is that writer's,
// decided per file), exec/columnar, planner/value, parser/diag and
// arrow-go (its compute package gathers a partition's rows).
//
// Layout:
//
//	DIR/_ddbsql_export.json                   the state (see below)
//	DIR/COL=v1/COL2=w1/part-00000.parquet     rows with COL = v1, COL2 = w1
//	DIR/COL=v1/COL2=w1/part-00001.parquet     more of them, from a later unit
//	DIR/COL=__HIVE_DEFAULT_PARTITION__/…      COL NULL, missing or ""
//
// Names and values are escaped as Hive's FileUtils.escapePathName does
// (escape.go); a value is a string as it is, a number's exact digits,
// true/false, binary as base64; documents and sets are refused (CodeType).
// The partition columns are not repeated inside the files (Hive, Trino
// and DuckDB's hive_partitioning take them from the path). With SELECT *
// a file holds the attributes its own rows have.
//
// One schema. Each file is written with the types its own rows need;
// once every unit is written, the files whose schema differs from the
// layout's (harmonize.go: every column of any file, decimals at the
// largest scale or text, mixed types as text) are rewritten to it, so
// one table definition reads every file.
//
// Bounded memory. At most Options.MaxOpen (128) partitions have a file
// open; opening one more finishes the least recently used (its file is
// complete; that partition's later rows go to its next part file). An
// open file's rows are in the Parquet writer's spool on disk, not in
// memory; finishing a file reads its spool back one row group at a time
// (format's bounds: 122,880 rows or about 64 MiB of Arrow data), one file
// at a time.
//
// Units and resuming. The result is cut into units of Options.UnitRows
// rows (1 Mi) or UnitBytes (1 GiB of Arrow data), whichever is reached
// first. At the end of a unit every open file is finished (written under
// a temporary name, .part-NNNNN.parquet.tmp, and renamed; the file is
// created only then, so an open partition holds one descriptor, its
// spool's), the unit's files are synced (one syncfs on Linux), and the
// state file is replaced atomically (written, synced, renamed) with the
// files written so far, the rows they hold and the SHA-256 of those rows
// as ndjson text. A run of the same command (Command: statement, source,
// flags; else an error, never a mix) continues: Prepare removes every
// file the state does not list, the writer reads the result again, writes
// nothing for its first Rows rows but checks their digest (a result that
// changed, or comes in another order, is an error), and writes the rest.
// Files are numbered per partition in the order they are finished, which
// depends on the rows alone, so a resumed export holds the same files,
// byte for byte, as one that was never stopped.
//
// Invariants: a file under its final name is complete; the state lists
// only complete files; an error or Abort removes what the state does not
// list yet and leaves the rest for a rerun; no path leaves DIR (listed
// paths are checked when the state is read).
package partition
