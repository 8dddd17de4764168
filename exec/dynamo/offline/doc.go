// Package offline fills the in-process DynamoDB (exec/dynamo/memdb) for
// ddbsql's offline modes: `ddbsql --data PATH` (a table export or a file of
// items, queried locally and read-only) and `ddbsql --demo` (the built-in
// demo tables). Everything else — planner, EXPLAIN, stats, REPL — then runs
// on the memdb.DB exactly as on DynamoDB.
//
// Phase: exec. It imports memdb, planner/value and, for RawReader,
// exec/dynamo/wire and rawpage; never the planner or the session. The demo files live in demodata/ next to it and are embedded
// here (demo.go), so no package above offline has to hold them.
//
// # API
//
//	src := offline.ParseDataFlag("orders=exports/orders.jsonl.gz") // "PATH" or "name=PATH"
//	src.Keys, err = offline.ParseKeyFlag("PK,SK")                   // --key PK[,SK], types optional: "PK:S,SK:N"
//	db := memdb.New(memdb.ReadOnly())
//	b, err := offline.Open(ctx, db, []offline.Source{src}, offline.Options{}) // what ddbsql --data uses
//	client, raw := b, b.Raw()                                                 // dynamo.Client, rawpage.Reader
//	tables, err := offline.Load(ctx, db, []offline.Source{src})               // or load everything now
//	tables, err := offline.LoadDemo(ctx, db)                                  // the demo tables
//
// ReadItems(ctx, src, fn) reads a file of items or an export with Load's
// detection, decoders and checks (memdb's PutItem checks included, against
// a scratch table) but stores nothing: it hands each batch of checked
// items, as SDK attribute values with their file and line, to fn, in file
// order (`ddbsql --load` writes them to DynamoDB). src.Keys must be typed.
//
// RawReader(db) is the fast read path (rawpage.Reader) over a loaded DB:
// memdb renders each Query or Scan page as a DynamoDB-JSON body and the
// wire decoder turns it into one Arrow batch, as for DynamoDB itself, so
// scans of large offline tables build no SDK item maps.
//
// Load creates one table per source (one per table of a Workbench model),
// with its key schema and indexes, decodes the items straight into
// value.Value (no SDK attribute values), stores them through db.Loader()'s
// PutValues (PutItem's checks and errors, one table lock per batch), and
// then freezes db (read-only).
//
// # Streamed tables (Open, Backend)
//
// Open reads no items: for an export or a file of items it reads the
// manifests, creates the table empty with its key schema (a --key without
// types takes them from the first item, which it reads for that alone;
// an empty source's keys are S) and returns a Backend, a dynamo.Client
// whose requests decide for themselves (a Workbench model is loaded by
// Open, as by Load; the demo is loaded by LoadDemo):
//
//   - A Scan of a table that is not loaded streams its files (stream.go):
//     the loader's own pipeline (producer, parallel decoding workers,
//     in-order checks) runs on its own goroutines a few batches ahead of
//     the pages, the workers also make memdb's item checks and build its
//     compact items, and memdb.ScanFeed serves each page from that feed
//     with a stored table's request checks, FilterExpression,
//     ProjectionExpression, Select, Limit, 1 MB pages, segments (by
//     placement bucket: a segment gets exactly the items memdb would give
//     it, so each segment's stream reads and checks every file; decoding is
//     parallel within a stream already), LastEvaluatedKey, ScannedCount and consumed capacity. Items
//     come in file order (files in manifest order). A page that ends with
//     a LastEvaluatedKey keeps its stream under that key (cursors.go), so
//     the next page continues it; a start key no kept stream ends at
//     starts a stream that skips to the item after it. Streams that nobody
//     continues are stopped past 64 kept ones and by Close. Nothing of the
//     table is held but the pages in flight and the duplicate-key set.
//     A Scan that names its attributes (a ProjectionExpression, or Select
//     COUNT) decodes only those its projection and filter name and the
//     keys (needs.go: every word of the expressions counts, so it may
//     decode a few more); the others are checked and sized without
//     building values (skip.go), conservatively: sets, binary, escaped
//     strings and anything unusual are decoded as usual, so every check
//     and error is a full decode's, and sizes, capacity and pages are the
//     whole item's. A kept stream is only continued by a request needing
//     the same attributes.
//   - GetItem, BatchGetItem and Query (of the table; streamed tables have
//     no indexes) load the table first, once: the same pipeline into
//     memdb, counted into a Progress handed to Options.Loading (ddbsql's
//     loading line). From then on every request reads the loaded table.
//     A load that fails empties the table and fails every later load with
//     the same error (the files are what they were). A Scan that was
//     streaming the table when it got loaded (a join reading it both ways)
//     goes on streaming, so its pages keep one order; a load never waits
//     for scans, nor scans for a load.
//   - DescribeTable never loads: before loading it reports the itemCount
//     of an export's manifests (else 0, which the planner shows as
//     unknown) and no size.
//
// ddbsql's REPL calls LoadAll at start (keyed statements are then fast
// from the first); -e, -f and piped scripts stay lazy, so a report that
// only scans never loads.
//
// # Formats and detection
//
// The format comes from the layout and the content, never from --flags:
//
//  1. A directory holding manifest-summary.json or manifest-files.json is a
//     DynamoDB export to S3 (ExportTableToPointInTime, DYNAMODB_JSON),
//     copied locally: the AWSDynamoDB/<export id>/ folder. A directory
//     without them is searched two levels down (<prefix>/AWSDynamoDB/<id>/)
//     for exactly one such folder. A path to manifest-summary.json or
//     manifest-files.json means its folder.
//  2. Otherwise a file is read, gunzipped when it starts with the gzip magic
//     bytes 1f 8b (whatever its name; a zero-length file is empty). After
//     a UTF-8 BOM and whitespace its first byte decides:
//     '[' — a JSON array of items;
//     '{' — if the first line is a whole JSON object: a NoSQL Workbench
//     model when it has "DataModel", an export manifest when it has
//     "exportArn", "manifestFilesS3Key" or "dataFileS3Key", else DynamoDB-JSON
//     lines (one item per line). If the first object spans lines, the first
//     JSON value decides the same way, and anything else is a sequence of
//     pretty-printed items;
//     '$' — an Amazon Ion export: refused (DYNAMODB_JSON only);
//     nothing — an empty file of items; any other byte — "unknown format".
//
// Items are DynamoDB JSON: bare ({"PK": {"S": "a"}, …}) or wrapped as
// exports write them ({"Item": {…}}; not when a key attribute is itself
// named "Item"). Numbers may be strings or JSON numbers; they are stored
// exactly (38 digits), canonically (12.50 is 12.5).
//
// An export's data files are the ones manifest-files.json lists
// (dataFileS3Key's part after "data/", looked up in <folder>/data/); each
// must hold the itemCount its manifest line says, and the total the
// summary's itemCount. The table is named by name=, else by the summary's
// tableArn. Ion exports are refused with a clear message; incremental
// exports are applied to a full export (see Incremental exports).
//
// # Incremental exports (time travel)
//
// An export whose summary says exportType INCREMENTAL_EXPORT holds the
// changes of its window [exportFromTime, exportToTime): one record per
// changed item, {"Metadata":{"WriteTimestampMicros":{"N":…}},"Keys":…,
// "NewImage":…,"OldImage":…} (no NewImage: deleted; OldImage only in
// NEW_AND_OLD_IMAGES exports). Given with a full export of the same table
// (name= or the tableArn decides; any order of the --data flags; a folder
// holding several exports of which some are incremental, an S3 prefix
// copied whole, counts as one source per export), they
// form a chain (chain.go): the windows, ordered by exportFromTime, must
// join exactly — the first starts at the full export's exportTime, each
// next where the one before ends (AWS documents exportFromTime as
// inclusive and exportToTime as exclusive, and the full export as the
// table at exportTime, so equal times are the only way to miss no write
// and count none twice; the first window may also start at the whole
// second of a full export's exportTime, since ExportFromTime is given in
// seconds); a gap or an overlap is an export_chain error
// naming the two exports, and so are incremental exports without a full
// export of their table or of another table (tableArn). Options.AsOf
// keeps the windows that end at or before it (the latest boundary not
// after it; before the full export's exportTime it is an as_of error);
// Backend.Boundaries says which boundary each table shows.
//
// Such a table is loaded, never streamed (overlay.go): a Scan loads it
// first, as a Query does. The full export's items are checked as any load
// checks them and held; the records of the windows that apply are
// checked (key attributes and types, a write time inside the window,
// images with the record's key, each file's itemCount), sorted by window
// and WriteTimestampMicros, and applied per key: a NewImage puts the item,
// no NewImage deletes it. The same pass fills <table>$changes
// (changes.go: one row per record, keyed by export_id and seq, with the
// operation, write_time, the keys and new_/old_ attributes), which memdb
// accepts as a Loader's derived table name. The records are read first and
// held decoded (they are few next to the table), and of the export's items
// only those of changed keys are held; the rest are stored as they come.
// Measured on the shared 2-core machine: a 200,000-item accounts export
// with three windows of 20,000 records each (genexport) loads in 4–12 s
// depending on the machine's load, with a peak live heap of about 500 MB
// (the plain export alone: 230 MB resident).
//
// A Workbench model (Export data model) gives table names, key attributes
// (S, N or B), GlobalSecondaryIndexes with their projections and the items
// of TableData (or of its TableFacets); LocalSecondaryIndexes in the same
// shape are read too (the Workbench does not write them). name= renames a
// model's only table.
//
// # Key schema
//
// Exports and item files carry no key schema: --key PK[,SK] gives it, or
// the load fails with "no key schema in <file>: … pass --key PK[,SK]". A key
// given without a type takes the type of the first item's attribute; every
// item must then have its key attributes with that type. With a Workbench
// model --key is optional and must agree with the model.
//
// # Invariants
//
//   - All or nothing: when any source fails, the tables this Load created
//     are deleted, no tables are returned and the DB is not frozen. Table
//     names are checked first: a name already in the DB, or loaded twice,
//     is an error.
//   - Errors are *diag.Error of phase load (ParseKeyFlag: config), located
//     at their file (Pos.Source, Line, Column), with a stable Code and the text
//     "path[:line[:col]]: message" — truncated or corrupt gzip (with the
//     last good line), invalid JSON (line and column), an item without a
//     key attribute, a key of the wrong type, a duplicate key (with the
//     line of the first one), an item DynamoDB would reject (memdb's
//     message), an unknown format. Items are checked in file order, so the
//     error reported is the first in the file.
//   - Duplicate keys are found by a 128-bit hash of each key (numbers in
//     canonical form, so 1.50 and 15E-1 are one key), never silently
//     overwritten.
//   - A streamed Scan makes every check a load makes, in the same order,
//     and meets the same error with the same code and text when it
//     reaches the item at fault (or the end of a file whose manifest
//     count differs); the statement then fails with it, after the pages
//     before it (Options.Reword words it as the command line does). One
//     difference from Load: a stream checks each item in file order, while
//     Load stores batches of 256 after their key and duplicate checks, so
//     when one batch holds both an item memdb rejects and a later key
//     error, Load reports the key error and a stream the rejected item.
//
// # Speed
//
// A producer goroutine cuts the file into lines (or array elements) and
// chunks of 256; GOMAXPROCS workers decode the chunks in parallel with a
// one-pass DynamoDB-JSON decoder (fastjson.go; anything unusual falls back
// to value.ParseItemJSON, which also explains errors); one goroutine takes
// the chunks in order, checks keys and stores batches of 256 through
// Loader.PutValues (no BatchWriteItem request checks or capacity). On the 2-core
// development machine BenchmarkLoad1M loads 1,000,000 items (150 MB of
// DynamoDB-JSON lines) in 2.8–3.9 s when the machine is otherwise idle
// (5–8 s while it is busy), keeping about 260 bytes of heap per item
// (memdb's compact items), and a Query of one 100-item partition then takes
// about 0.1–0.3 ms and reads exactly those 100 items.
// BenchmarkLoadGroupBy200k/1M load generated twelve-attribute orders
// (lists, nested maps) and scan status and total through RawReader, as
// the GROUP BY of a --data session does, reporting ns/item and the heap.
// Decoding into values rather than SDK attribute maps cut that benchmark's
// allocations at 1M items from 141 M to about 90 M and its bytes allocated
// by about a quarter; the process peak is still set by the live heap (about
// 500 MB at 1M of these items, stored items and the duplicate-key index)
// times the GC's growth allowance, not by the load's garbage.
//
// Streaming costs what loading does minus the stores, and holds only the
// duplicate-key set (about 40 bytes an item) and the batches in flight:
// BenchmarkStreamGroupBy1M scans 1 M twelve-attribute items in 18 µs an
// item with a peak heap of 126 MB on the shared 2-core machine under heavy
// load (BenchmarkLoadGroupBy200k, loading then scanning, took 1.2–1.5 × the
// stream's time per item when the two ran back to back). Exports are inflated
// with klauspost/compress, about twice as fast as compress/gzip. Decoding
// only the projected attributes (status, total and the keys of twelve)
// halved the CPU time of that GROUP BY: BenchmarkStreamGroupBy200k went
// from 15.4 M to 5.3 M allocations and from 1.31 GB to 0.51 GB allocated,
// and `ddbsql --data` over the 1 M-item export from 13.2 s to 7.0 s of
// user CPU (same machine, back to back). What remains is the parallel
// decode (skipping still reads every byte), the producer's inflating and
// cutting lines, the in-order duplicate-key check and the pages' render
// and wire decode, in that order.
//
// While LoadProgress runs, Progress counts the items written and the bytes
// read from the stored (compressed) files against their total size, which
// gives ddbsql's loading line its MB/s and time left.
//
// # The demo tables
//
// `ddbsql --demo` loads demodata/demo-model.json.gz, a NoSQL
// Workbench model written by `go run ./cmd/gendemo` (deterministic; 3,129
// items), through the Workbench loader. All times are UTC ISO 8601
// ("2026-04-26T20:16:00Z"), so string order is time order; "today" is
// 2026-05-15.
//
// app (PK S, SK S) — the seeds' single-table workspace/documents, 484
// items, every one with a Type attribute:
//   - 8 workspaces WS#<slug> / META (Type Workspace): name, plan, region,
//     seats, docCount, createdAt, settings (a map with a list), tags (a
//     string set, enterprise only). Slugs: acme, globex, initech, umbrella,
//     hooli, stark, wayne, wonka.
//   - 300 documents WS#<slug> / DOC#<nnnn> (Type Document): title, status
//     (draft, review, published, archived — "status" is a reserved word),
//     owner, createdAt, updatedAt, words, size, version, tags (list),
//     stats (map), reviewers (string set, on review documents), pinned,
//     thumbnail (binary) on some. WS#acme has DOC#0001..DOC#0012.
//   - 40 members WS#<slug> / MEMBER#<user id> (Type Member) and the same
//     edges reversed, USER#<user id> / WS#<slug> (Type Membership).
//   - 96 share links DOC#<nnnn> / META (Type ShareLink), for two in three
//     published documents: workspace, title, token, views, public,
//     expiresAt (NULL for links that never expire).
//   - GSI1 (GSI1PK, GSI1SK), ALL — overloaded and sparse: the 45 documents
//     in review under STATUS#REVIEW with GSI1SK = updatedAt; the
//     workspaces under PLAN#team (acme, initech, stark, wonka),
//     PLAN#enterprise (globex, hooli), PLAN#free (umbrella, wayne), with
//     GSI1SK = WS#<slug>. Nothing else is in it.
//   - LSI ByUpdated (PK, updatedAt), INCLUDE title, status: documents only.
//
// leaderboard (partitionId S, rangeId S) — the seeds' game leaderboard,
// 1,696 items:
//   - 200 players PLAYER#p0001..p0200 / PROFILE (Type Player): handle
//     (unique, p0001 swift_fox, p0004 lucky_fox), displayName, rating
//     (distinct, 800..2999), country, wins and losses (their matches'
//     counts), lifetimeXp (p0007's has 38 digits), joinedAt, settings
//     (map), recentMaps (list), badges (string set) on some; gsiPartition
//     SEASON#2026-Q2 (p0001..p0160) or SEASON#2026-Q1, gsiSort
//     RATING#<5-digit zero-padded rating>.
//   - 1,496 matches PLAYER#<id> / MATCH#<ISO time> (Type Match): opponent,
//     result (win, loss, draw), ratingDelta, durationSec, map, kills, deaths.
//   - GSI season (gsiPartition, gsiSort), ALL: the players, ranked by the
//     zero-padded rating (160 in 2026-Q2, best Hidden Owl, 2991). GSI handle
//     (handle), KEYS_ONLY: handle -> player id.
//
// The shop is one set of 40 people (u_001..u_040, u_001 is Alice Tanaka),
// 40 products and 183 orders, stored two ways:
//   - users (PK S, SK S), 446 items — the seeds' single table: USER#<id> /
//     PROFILE (Type User: name, email, plan, createdAt, address map, phone
//     on some), USER#<id> / ORDER#<ISO time> (Type Order: orderId, total
//     with decimals, currency, status, item map, shipping map with a nested
//     address), ORDER#<order id> / META (Type Order, for lookups by order
//     id), EMAIL#<email> / EMAIL#<email> (Type Email: userId, uniqueness).
//     USER#u_001 has 6 orders.
//   - customers (id S), 40 items, partition key only: id (= the user id),
//     name, email, country, city, tier, since, balance (some negative),
//     lifetime_spend, active, status, phone on some, favorite_sku on two
//     in three.
//   - orders (PK S, SK S), 183 items: PK USER#<id>, SK ORDER#<ISO time>,
//     order_id, customer_id (joins customers.id), sku (joins
//     products.sku), quantity, unit_price, shipping, total, currency,
//     status, ordered_at. GSI ByStatus (status, ordered_at), ALL: placed 4,
//     paid 5, shipped 27, delivered 139, cancelled 8.
//   - products (sku S), 40 items: SKU-1001..SKU-1040, name, category (books,
//     games, tools, toys, food; 8 each), price, stock, tags (string set),
//     dimensions (map), rating on some, discontinued on some. GSI
//     ByCategory (category S, price N), ALL.
//
// metrics (device N, ts N), 240 items: devices 1, 2, 3, 10 and 42, a
// reading every 30 minutes of 2026-05-01 (ts in epoch seconds from
// 1777593600): at, temp (decimals, some negative; NULL with ok=false on
// failed readings), humidity, battery. Numeric keys sort numerically.
//
// Queries to try (each a single Query, GetItem or keyed join; see EXPLAIN):
//
//	SELECT SK, Type, title, status FROM app WHERE PK = 'WS#acme'
//	SELECT PK, SK, title, GSI1SK FROM app WHERE GSI1PK = 'STATUS#REVIEW' ORDER BY GSI1SK LIMIT 5
//	SELECT name, plan, seats FROM app WHERE GSI1PK = 'PLAN#team'
//	SELECT * FROM app WHERE PK = 'DOC#0002' AND SK = 'META'
//	SELECT displayName, rating FROM leaderboard WHERE gsiPartition = 'SEASON#2026-Q2' ORDER BY gsiSort DESC LIMIT 10
//	SELECT partitionId FROM leaderboard WHERE handle = 'lucky_fox'
//	SELECT rangeId, result, ratingDelta FROM leaderboard WHERE partitionId = 'PLAYER#p0004' AND rangeId LIKE 'MATCH#%' ORDER BY rangeId DESC LIMIT 5
//	SELECT SK, total, status, item.sku FROM users WHERE PK = 'USER#u_001' AND SK LIKE 'ORDER#%'
//	SELECT o.SK, o.total, c.name FROM orders o JOIN customers c ON o.customer_id = c.id WHERE o.PK = 'USER#u_001'
//	SELECT o.SK, p.name, o.quantity, o.total FROM orders o JOIN products p ON o.sku = p.sku WHERE o.PK = 'USER#u_001'
//	SELECT status, COUNT(*) AS n, SUM(total) AS revenue FROM orders WHERE status = 'shipped' GROUP BY status
//	SELECT name, price FROM products WHERE category = 'books' ORDER BY price LIMIT 3
//	SELECT ts, temp FROM metrics WHERE device = 10 AND ts BETWEEN 1777593600 AND 1777600800
//
// Write statements change the tables in memory (write.go): the command line
// thaws the DB once it is open, and PutItem, UpdateItem and DeleteItem load a
// streamed table before they change it.
package offline
