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
package columnar
