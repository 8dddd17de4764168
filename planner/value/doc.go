// Package value is ddbsql's model of one DynamoDB attribute value.
//
// Phase: a leaf of the planner layer, shared by the planner (typed literals,
// key values) and exec (evaluation, output): it lives in the lowest layer
// that needs it, so imports still flow one way (exec → planner).
//
// May import: nothing of the module (only the standard library, apd and the
// SDK's attribute types).
//
// Invariants:
//   - A Value is immutable once built; copies share backing slices safely.
//     A Value may share memory it does not own: one read in place from an
//     Arrow batch (columnar.Column.Value) points into the batch's buffers
//     and is valid only while the batch is retained. Clone returns a deep
//     copy that owns all its memory.
//   - Numbers (N, NS members) are kept as their exact decimal text, never as
//     float64; arithmetic and comparison go through exact decimals (apd) with
//     DynamoDB's limits (38 significant digits, exponent -130..+125).
//   - Missing (the attribute is absent) and Null (DynamoDB's NULL type) are
//     distinct kinds: both are SQL NULL, but attribute_exists sees the second.
//   - Values of different DynamoDB types are never equal and never ordered
//     against each other (DynamoDB's rule); Order gives a total, documented
//     order across types only for ORDER BY and GROUP BY. AppendOrderKey
//     writes that order as bytes (orderkey.go): bytes.Compare of two keys
//     is Order of their values, keys are prefix-free so a row's keys
//     concatenate, and inverted keys order in reverse (DESC). Numbers key
//     exactly at any exponent (AppendNumberKey, which the in-process
//     DynamoDB's sort keys use too).
package value
