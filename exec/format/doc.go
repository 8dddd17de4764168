// Package format writes query results: table (default), csv, tsv, json,
// ndjson and markdown.
//
// Phase: exec, the last step. A Writer receives Begin(Header), then the
// result's arrow.RecordBatches in order, then End exactly once (also for zero
// rows and after a failed WriteBatch). Cells are read with
// columnar.ColumnOf(rec, i).Value(row) and rendered from value.Value.
//
// Invariants:
//   - A writer never retains or releases a batch. Streaming formats (json,
//     ndjson, csv/tsv with fixed columns) write each batch before WriteBatch
//     returns and flush it; buffering formats (table, markdown, and csv/tsv
//     while learning a SELECT * header) copy the rendered text of every cell
//     first, because strings read from Arrow share the batch's buffers.
//   - Numbers print with their exact stored digits in every format; nothing
//     passes through float64.
//   - No value panics a writer: Arrow types the columnar encoding does not
//     produce and undecodable encoded values are errors. A failed WriteBatch
//     writes nothing of that batch and is sticky; End still closes the
//     output (json's "]").
//   - Data is never dropped silently: a SELECT * attribute that csv/tsv meet
//     after their header is out is a *LateAttributeError.
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
//     first. A later attribute with a value fails; one that is only a field
//     with no values is ignored. With no rows the header is the key columns.
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
// json escapes no HTML characters. csv uses encoding/csv (quotes only when
// needed, LF line ends; an empty string and NULL both give an empty field,
// and a record of one empty field is written "" — a blank line would be
// skipped by CSV readers, losing the row).
// tsv escapes \ tab LF CR NUL as \\ \t \n \r \0 (MySQL batch style). Table
// and markdown cells keep line breaks (markdown: <br/>, "|" becomes "\|"),
// expand tabs to four spaces and show other control characters as \r, \x1b,
// \u009b so data cannot break the layout or drive the terminal.
//
// Empty results: table and markdown print the header, the expanded table
// prints "(0 rows)", csv/tsv print the header line, json prints "[]", ndjson
// prints nothing.
package format
