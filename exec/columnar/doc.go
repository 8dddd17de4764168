// Package columnar maps DynamoDB values onto Arrow record batches and back.
//
// Phase: exec. Items are schemaless, so every batch carries its own schema,
// chosen from the values it holds. Per column:
//
//	all S            → utf8
//	all N, integral  → int64            (field metadata ddb=N)
//	all N            → utf8, exact text (field metadata ddb=N)
//	all BOOL         → bool
//	all B            → binary
//	anything else    → binary holding value.AppendBinary encodings (ddb=value):
//	                   documents, sets, DynamoDB NULL, or a mix of types
//
// An Arrow null is always a missing attribute. Invariants: ValueAt(Build(x))
// returns exactly x for every cell; a column whose items disagree on type is
// never coerced, it falls back to the encoded form.
//
// Ownership. Column.Value and Row read in place: the text of an S, and of an
// N stored as text, is a view of the batch's buffer (no copy per cell), so
// such a value is valid only while the batch is retained. Column.OwnedValue
// and OwnedRow return values that share nothing with the batch; use them,
// or value.Value.Clone, for what is kept after the batch is released.
// RowBuilder copies the values it is given into the batch's buffers at
// Build (not at Append), so their source must be retained until then.
package columnar
