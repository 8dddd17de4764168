// Package format writes query results: table (default), csv, tsv, json,
// ndjson and markdown as text, parquet and arrow (the Arrow IPC stream
// format) as binary files.
//
// Phase: exec, the last step. May import exec/columnar, exec/spill (the
// binary formats' spool), planner/value, parser/diag and Arrow (arrow-go,
// its parquet and pqarrow packages), go-pretty. A Writer
// receives Begin(Header), then the result's arrow.RecordBatches in order,
// then End exactly once (also for zero rows and after a failed WriteBatch),
// or Abort when the result is abandoned. The text formats read cells
// straight from the columns, without a value.Value tree: json/ndjson
// append a cell's JSON (integers formatted in place, encoded documents
// through value.AppendEncodedJSON), csv/tsv and the buffered grid of table,
// markdown and a SELECT * csv/tsv header append its value.Display text
// (strings and numbers as stored, encoded values through
// value.AppendEncodedDisplay): the same bytes as rendering the value.
// Streamed json/ndjson/csv/tsv cells go through textColumn, which holds
// each column's concrete Arrow array (no interface call per cell); csv/tsv
// escape a field from where its text lies (a string in the batch, a
// document rendered into scratch) straight into the record. The binary
// formats, and the _extra object's scalar cells, read
// columnar.ColumnOf(rec, i).Value(row).
//
// Invariants:
//   - A writer never retains or releases a batch. Streaming formats (json,
//     ndjson, csv/tsv with fixed columns) write each batch before WriteBatch
//     returns and flush it (csv/tsv build the batch's records in memory and
//     write them once all are done, so a failed batch writes none; json
//     and ndjson build the batch's objects and write those before a row
//     that fails, never half an object);
//     buffering formats (table, markdown, and csv/tsv
//     while learning a SELECT * header) copy the rendered text of every cell
//     first, because strings read from Arrow share the batch's buffers.
//   - Numbers print with their exact stored digits in every format; nothing
//     passes through float64.
//   - No value panics a writer: Arrow types the columnar encoding does not
//     produce and undecodable encoded values are errors. A failed WriteBatch
//     writes nothing of that batch and is sticky; End still closes the
//     output (json's "]").
//   - Data is never dropped and a schemaless result never fails a
//     format: a SELECT * attribute that csv/tsv meet after their header is
//     out goes into the ExtraColumn (see Columns).
//   - parquet and arrow write nothing to their destination before End: a
//     failed or abandoned result leaves no file behind (Destination), and
//     their temporary spool file (and its directory) is unlinked as soon
//     as it is created.
//
// Columns. With fixed columns (Header.Columns) batches carry exactly those
// fields in that order and cells are matched by position. With
// Header.Dynamic (SELECT *) each batch has its own fields; output columns are
// Header.KeyColumns first, then the other attributes in byte order of their
// names:
//   - json/ndjson: each object holds exactly the item's attributes (a missing
//     attribute is absent, DynamoDB NULL is null), ordered as above.
//   - table, markdown: the header is the union of all attributes (the key
//     columns always, even if no row has them); the expanded table shows each
//     item's own attributes.
//   - csv/tsv: the header is the union over the first Options.MaxBufferedRows
//     rows (default 10000; negative: all rows), or all rows if End comes
//     first. A header written before End (the result went past the
//     buffer) ends in one more column, _extra (ExtraColumn; _extra_2 if an
//     attribute has that name), because rows may still bring attributes it
//     lacks: each later row's attributes that the header lacks are written
//     there as a compact JSON object, keys in byte order, values as the
//     json format writes them ({"b":"x","n":12}); the field is empty for a
//     row that has none. A header written at End covers every row and has
//     no _extra. With no rows the header is the key columns.
//   - parquet, arrow: the columns are the union of all attributes, ordered
//     as above (the key columns always): the writers see every row before
//     they write, so they need no _extra column.
//
// Duplicate names. Every format shows the same, unique column names
// (Writer.Begin rewrites Header.Columns): the first occurrence keeps its name
// and each later one becomes name_2, name_3, … (skipping names already used
// by another column): SELECT a.SK, b.SK gives columns SK and SK_2 in a
// table, a CSV header and JSON keys alike. A SELECT * batch of joined items
// that holds one attribute name twice is named the same way, in output
// order (dynamicNames), so no format merges the two.
//
// Values per format:
//
//	              json/ndjson       csv / tsv            table, markdown
//	S             string            raw / escaped        text (sanitised)
//	N             number, exact     exact digits         exact, right-aligned*
//	B             base64 string     base64               base64
//	BOOL          true/false        true/false           true/false
//	NULL,missing  null (see above)  empty field          Options.NullText
//	M             object, sorted    compact JSON text    compact JSON text
//	L             array             compact JSON text    compact JSON text
//	SS/NS/BS      array             set text**           set text**
//
// (**) PartiQL's set syntax (value.SetText), so a set never reads as a list:
// <<'a', 'b'>>, <<1, 2.5>>, base64 members in quotes for BS. A set nested in
// a map or list is part of that value's JSON text, an array.
// (*) a column is right-aligned when all its non-NULL cells are numbers.
// json escapes no HTML characters. csv quotes exactly as encoding/csv's
// Writer does (only when needed: a comma, quote, CR or LF, a leading
// Unicode space, or the field `\.`; LF line ends); an empty string and
// NULL both give an empty field, and a record of one empty field is written
// "" — a blank line would be skipped by CSV readers, losing the row.
// tsv escapes \ tab LF CR NUL as \\ \t \n \r \0 (MySQL batch style). Table
// and markdown cells keep line breaks (markdown: <br/>, "|" becomes "\|"),
// expand tabs to four spaces and show other control characters as \r, \x1b,
// \u009b so data cannot break the layout or drive the terminal.
//
// Empty results: table and markdown print the header, the expanded table
// prints "(0 rows)", csv/tsv print the header line, json prints "[]", ndjson
// prints nothing, parquet and arrow write a file with the columns and no
// rows.
//
// Parquet and Arrow. A column's type must hold every value of the result,
// and a number column's scale depends on every number, which a stream
// cannot know before it ends. So these writers spool the result's batches
// to a temporary Arrow IPC file, a spill.Run in a spill directory of its
// own under Options.TempDir (spool.go; one IPC stream per run of batches
// with one schema, since batches choose their own encodings; a file that
// cannot be made is spill's CodeSpill error) while they gather each
// column's facts (the DynamoDB types
// seen, the most integer and fraction digits of its numbers), then decide
// the schema at End and write the file from the spool:
//
//	column's values            Arrow / Parquet type
//	only S                     utf8
//	only N, fitting one scale  decimal128(38, s), s = the most fraction
//	                           digits; fits when every number's integer
//	                           digits + s <= 38 (Parquet DECIMAL, 16 bytes)
//	only N, not fitting        utf8, each number's exact text (as json)
//	only BOOL                  bool
//	only B                     binary
//	only L, M, SS, NS, BS      utf8, the value's JSON text (as json:
//	                           sets are arrays, binary is base64)
//	several of these types     utf8: strings as they are, numbers' exact
//	                           text, true/false, binary as base64, and
//	                           L, M and sets as JSON text (as csv writes
//	                           them, except sets); the kind is not kept
//	no value at all            null
//
// Missing attributes and DynamoDB NULL are nulls in every column. Numbers
// go from their decimal text to decimal128 digit by digit, never through
// float64. Parquet files are Snappy-compressed, in row groups of at most
// 122880 rows or about 64 MiB of Arrow data (gathered, then the group's
// columns encoded in parallel, one goroutine per core, each into its own
// column writer of a buffered row group), with the Arrow schema stored
// (ARROW:schema). A column is
// dictionary-encoded when the values of its first 4096 present cells
// repeat (at most one distinct value in four: a status, a type, a shared
// document); others are plain, which for ids, prices and documents is
// both smaller work and what the dictionary would fall back to. Arrow
// output is the IPC stream format (schema, batches, end-of-stream), not
// the file format.
// Neither goes to a terminal, and a destination holds one such result
// (Destination).
package format
