// Package replay is an in-process DynamoDB endpoint for benchmarks: an
// httptest server that answers DescribeTable, ListTables, Query and Scan
// over a generated single-table dataset from pre-serialized 1 MB pages, so
// that a benchmark measures the client (SDK, decoding, operators), not the
// server. dynalite serves ~30 k items/s and must never be used for speed
// figures; this serves memory-speed pages.
//
// Phase: test/benchmark support for exec (imported only by tests and
// benchmarks). It builds clients with dynamo.Connect, so it sits beside
// exec/dynamo, not under it: a package never imports its parent.
//
// Data: item i has pk "TENANT#<i / PartitionSize>" and sk "ORDER#<i>"; every
// item is ~480 bytes of wire JSON (S, N, BOOL, L and M attributes: type,
// status, x, amount, qty, customer, email, created, gsi1pk, address{street,
// city, zip}, and for orders currency, express, tags[]; every tenth
// item is a RETURN with a reason instead), attribute order shuffled per
// item, x missing from 5 % of items. Items are deterministic in i.
// Options.Keys > 0 selects the narrow shape instead (narrow.go): pk, sk, k
// (Keys distinct values, NarrowKey), x (NarrowX) and status, ~100 bytes of
// wire JSON, for measurements that sort or group millions of rows.
//
// Invariants:
//   - A page holds items in sk order from the item after ExclusiveStartKey
//     until ~1 MiB of DynamoDB item size (PageBytes) is read or its range
//     ends; it carries LastEvaluatedKey exactly when more items remain, and
//     ConsumedCapacity for eventually consistent reads.
//   - Scan segment s of TotalSegments n covers items [s·N/n, (s+1)·N/n);
//     Query covers the partition whose TENANT# value appears among the
//     ExpressionAttributeValues. Limit ends a page early. FilterExpression,
//     ProjectionExpression and ScanIndexForward are ignored (pages hold
//     whole items, in sk order).
//   - Bodies are built once per (range start, range end) and served from
//     memory with their X-Amz-Crc32 (Options.Lazy rebuilds each page per
//     request instead, keeping memory O(page) for very large tables).
package replay
