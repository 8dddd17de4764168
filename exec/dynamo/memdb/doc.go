// Package memdb is an in-process DynamoDB: the offline backend behind
// `ddbsql --demo`, loaded table exports (--data) and fast tests. *DB
// implements dynamo.Client (DescribeTable, ListTables, GetItem,
// BatchGetItem, Query, Scan), dynamo.Writer (CreateTable, DeleteTable,
// PutItem, BatchWriteItem) and dynamo.ItemWriter (UpdateItem and
// DeleteItem too, with ConditionExpression and ReturnValues; UpdateItem
// serves SET of top-level attributes to values and REMOVE, update.go, and
// answers any other UpdateExpression with a ValidationException saying so) with DynamoDB's semantics, checked request by
// request against dynalite by the parity test (parity_test.go).
//
// Phase: exec. It imports only the SDK types and planner/value (not
// exec/dynamo), so exec/dynamo may construct it.
//
// # Storage
//
// Each table and each index is a space: a hash map from partition key to
// partition, each partition a B-tree (github.com/google/btree) of items
// ordered by sort key — S and B byte-wise, N numerically through an
// order-preserving encoding. A Query finds its partition in O(1) and walks
// only the sort-key range it reads: its cost is proportional to the items
// of its partition that it reads, never to the table (ItemsRead counts the
// work). Partitions are also ordered by placement hash (the first 24 bits
// of md5("Outliers" ‖ key bytes), as DynamoDB and dynalite place them), which
// gives Scan its order and its segments: segment s of n covers placement
// buckets ⌈4096·s/n⌉ … ⌈4096·(s+1)/n⌉−1, so segments are disjoint,
// deterministic and cover the table. Index entries with equal index keys
// are ordered by the placement hash of their table key, then the key. An
// item is stored as one byte slice (compact.go: its attributes in name
// order, each value in value.AppendBinary's encoding) with its sizes
// precomputed — about a seventh of the memory of a tree of value.Values,
// and nothing for the GC to trace; reads decode it on demand, only the
// top-level attributes a projection and filter name when there is a
// projection. A KEYS_ONLY or INCLUDE index stores its projected copy, an
// ALL index shares the table's.
//
// # Derived tables
//
// The Loader may create tables whose names hold '$' (derivedname.go),
// which DynamoDB's names cannot: requests may name such a table once it
// exists; every other name is validated exactly as DynamoDB does.
//
// # Invariants
//
//   - Stored items are never modified (a put replaces them); responses are
//     fresh SDK values sharing nothing with the store. Numbers are exact
//     (38 significant digits) and compared numerically.
//   - A Query or Scan page stops after Limit items read, or once 1 MB of
//     items has been read (the item that crosses 1 MB is included), before
//     FilterExpression applies; LastEvaluatedKey is returned whenever the page
//     stopped on Limit or 1 MB (so it can be followed by an empty page, as in
//     DynamoDB). Page size is DynamoDB's storage size as dynalite reproduces
//     it, so page boundaries match dynalite exactly.
//   - Read capacity follows DynamoDB's documented rules: 4 KB units rounded
//     up, ×½ when eventually consistent. Query/Scan round the total size of
//     the items a page read (before FilterExpression, whatever the
//     projection or Select=COUNT) once, and a page that read nothing costs
//     one unit; GetItem/BatchGetItem round each item, and a missing item
//     costs one unit. An index read is charged to the index; an LSI read
//     with Select=ALL_ATTRIBUTES is also charged, to the table, for each
//     fetched item rounded on its own. INDEXES reports Table and
//     GlobalSecondaryIndexes / LocalSecondaryIndexes, TOTAL only the total,
//     NONE (or nothing) no ConsumedCapacity. capacity_test.go cites the rule
//     behind every figure.
//   - Errors are what the SDK surfaces: *smithy.OperationError wrapping
//     *types.ResourceNotFoundException, *types.ResourceInUseException,
//     *types.ConditionalCheckFailedException or a smithy.APIError with code
//     "ValidationException" and DynamoDB's message text; request-shape
//     errors come before table lookups, as in DynamoDB.
//   - Concurrency: a RWMutex guards the table map and one per table guards
//     its data; reads share, writes exclude. A BatchWriteItem is validated
//     whole before any write, so a rejected batch writes nothing.
//     Loader.PutItems and PutValues (bulk loading; PutValues takes items
//     decoded as values) are not requests: they store items in order and
//     stop at the first rejected one, naming it.
//
// # Supported
//
// Tables with S/N/B partition and optional sort keys; GSIs (sparse, own
// keys, ALL/KEYS_ONLY/INCLUDE projections, eventually consistent only) and
// LSIs (strong reads, Select=ALL_ATTRIBUTES fetches from the table);
// KeyConditionExpression (= on the partition key and one of = < <= > >=
// BETWEEN begins_with on the sort key); FilterExpression and
// ConditionExpression (comparators, BETWEEN, IN ≤ 100, AND/OR/NOT,
// parentheses, attribute_exists, attribute_not_exists, attribute_type,
// begins_with, contains, size, document paths a.b[2].c); ProjectionExpression;
// ExpressionAttributeNames/Values with DynamoDB's checks (undefined, unused,
// reserved words, redundant parentheses, overlapping paths); Select
// COUNT/ALL_ATTRIBUTES/ALL_PROJECTED_ATTRIBUTES/SPECIFIC_ATTRIBUTES;
// ScanIndexForward; Segment/TotalSegments; ExclusiveStartKey on tables and
// indexes; BatchGetItem (≤ 100 keys, no duplicates, 16 MB per response);
// PutItem with ConditionExpression and ReturnValues=ALL_OLD; BatchWriteItem
// (≤ 25 puts and deletes); item validation (key types, empty keys, key
// sizes, 400 KB items, number range and precision, empty or duplicate
// sets); DescribeTable with live ItemCount/TableSizeBytes and per-index
// ItemCount/IndexSizeBytes (sums of item sizes); ListTables paging.
// QueryJSON and ScanJSON serve the same pages with their items rendered as
// the JSON body DynamoDB would send ({"Items":[…]}) instead of SDK maps,
// for a wire decoder to turn into columns (see exec/dynamo/offline's
// RawReader).
// ScanFeed and ScanFeedJSON serve a Scan page of a table whose items are
// not stored but fed in order (a Feed of FedItems, which Loader.Checker
// makes with PutValues' checks, safe from many goroutines): the request
// checks, filter, projection, Select, Limit, 1 MB pages, segments (an
// item outside the segment's placement buckets is skipped),
// LastEvaluatedKey and capacity are a stored table's; the feed is either
// positioned after the ExclusiveStartKey or skipped up to it (see
// feed.go; exec/dynamo/offline streams files this way). A FedItem may
// hold only the attributes its Scan reads: the checker's Skipped counts
// the others, which the caller checked itself and sized with Sizes'
// functions (skipped.go, valSize's and storedSize's rules), so sizes,
// capacity and pages are the whole item's.
// Every numeric limit above is checked against planner/ddblimits, the
// constants the planner and exec plan and bill by; the error texts are
// DynamoDB's own, word for word.
//
// Options: ReadOnly (writes fail with ErrReadOnly; Loader writes anyway;
// Freeze switches a loaded DB to read-only), WithUnprocessedKeys (make
// BatchGetItem return chosen keys in UnprocessedKeys, to test retries),
// WithRequestHook (observe or fail requests), WithLaggingCounts
// (DescribeTable reports the counts of the last RefreshCounts, 0 before it,
// as DynamoDB does between its six-hourly refreshes); Requests and
// ItemsRead count requests and the items they read.
//
// # Not supported
//
// Legacy parameters (KeyConditions, QueryFilter, ScanFilter,
// AttributesToGet, Expected, ConditionalOperator) are rejected with a
// ValidationException naming them. UpdateItem, DeleteItem, transactions,
// PartiQL, streams, TTL, UpdateTable and tags are not implemented (they are
// not in dynamo.Client/Writer). Tables are ACTIVE at once; there is no
// throttling; BatchWriteItem never returns UnprocessedItems. Write capacity
// is reported for the table only. Syntax-error messages follow DynamoDB's
// shape (`Syntax error; token: "x", near: "a x b"`) but not always its exact
// token. Known differences from dynalite, where memdb follows DynamoDB: sizes
// and size() count UTF-8 bytes (dynalite counts UTF-16 units); maps and
// lists compare deeply with = (dynalite never finds them equal); Scan honours
// ConsistentRead (dynalite ignores it) and rejects it on a GSI; DescribeTable
// reports live counts (dynalite reports 0); BatchGetItem returns items in
// request order and spills to UnprocessedKeys only past 16 MB (dynalite
// shuffles and spills past about 1.4 MB); a Query or Scan page that reads
// nothing costs the minimum unit (dynalite: 0); an LSI read's fetched items
// are rounded up to 4 KB one by one (dynalite rounds their sum).
package memdb
