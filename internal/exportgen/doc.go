// Package exportgen writes a synthetic DynamoDB full export of an orders
// table, laid out as ExportTableToPointInTime writes it to S3 in
// DYNAMODB_JSON format and copied locally:
//
//	DIR/AWSDynamoDB/<export id>/manifest-summary.json
//	DIR/AWSDynamoDB/<export id>/manifest-files.json
//	DIR/AWSDynamoDB/<export id>/data/<name>.json.gz   (K files)
//
// so `ddbsql --data orders=DIR --key PK,SK` loads it. It exists to measure
// the offline loader and the engine on realistic exports of any size
// (cmd/genexport, `make bench-peers`) without an AWS account.
//
// Phase: none: a tool of the development, not a layer of the product. Its
// non-test files import nothing of the module (internal/ is below every
// layer); its tests, an external package, load what it writes with
// exec/dynamo/offline and query it through exec/session.
//
// # Items
//
// Each data line is {"Item": {…}} with 11 or 12 attributes: about 255 bytes
// of DynamoDB item size (DESCRIBE's size_bytes over item_count), 510 bytes
// of DynamoDB JSON, 85 bytes gzipped:
//
//	PK       S     CUST#<n>, n < max(1, items/8) (about 8 orders per customer)
//	SK       S     ORDER#<created>#<order number, 8 digits> (unique)
//	status   S     placed, paid, shipped, delivered, cancelled
//	total    N     the sum of the lines' qty × price, with up to 2 decimals
//	currency S     USD, EUR or JPY
//	created  S     ISO 8601 UTC time in 2024–2025 (string order is time order)
//	qty      N     the sum of the lines' qty
//	tags     SS    1–3 distinct tags
//	items    L     1–3 lines, each M {sku S, qty N, price N}
//	address  M     {city S, zip S, country S}
//	flag     BOOL
//	note     S     on about one item in three, absent otherwise
//
// Numbers are written canonically, as DynamoDB returns them (12.5, not
// 12.50), so a loader that stores them exactly prints them back the same.
//
// # Incremental exports (WriteChain)
//
// WriteChain writes a full export of an accounts table (PK S ACC#<n>, SK
// S A or B; status, balance, rev, tags, note, prefs: see account.go) to
// DIR/full and incremental exports after it to DIR/incr1, DIR/incr2, …,
// laid out as AWS writes them: a summary with exportType
// INCREMENTAL_EXPORT, exportFromTime and exportToTime (the window
// [from, to)), outputView (NEW_AND_OLD_IMAGES or NEW_IMAGE), and data lines
//
//	{"Metadata":{"WriteTimestampMicros":{"N":"…"}},"Keys":{…},"OldImage":{…},"NewImage":{…}}
//
// where an insert has no OldImage, a delete no NewImage, and a NEW_IMAGE
// export never an OldImage. Each window changes distinct keys once
// (AWS compacts an item's changes within a window into one record):
// inserts of new keys, re-inserts of deleted ones, modifications and
// deletes. The records go to the data files in key order, not in time
// order. Chain returns the history: every record with what it did and
// the item before it, and the table's state at every window boundary, so
// tests compare a reader's result with it. Gap and Overlap shift one
// window's start by a minute, for the error tests.
//
// # Invariants
//
//   - Deterministic: item i is a function of (Seed, i) alone (SplitMix64
//     seeded from both, no clock, no math/rand, no map order), so the same
//     Options write the same bytes, whatever the number of files, and files
//     can be written in parallel. Item i goes to file i mod Files.
//   - Self-checking: Write returns what the export holds (item count, and
//     per status the count and the sum of total in cents), computed while
//     writing, which tests and benchmarks compare with what a query answers.
//   - The manifests agree with the data: per-file itemCount, md5Checksum
//     (base64) and etag (hex MD5) of each data file, the summary's
//     itemCount and the MD5 of manifest-files.json.
package exportgen
