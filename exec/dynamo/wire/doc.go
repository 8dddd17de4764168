// Package wire is ddbsql's fast read path: it decodes the JSON body of a
// DynamoDB Query or Scan response straight into one Arrow record batch,
// instead of the SDK's []map[string]types.AttributeValue followed by a
// conversion (~10× slower, ~74 allocations per item).
//
// Phase: exec. Reader is a rawpage.Reader (set as engine.Env.Raw, or
// session.Config.Raw); it also decodes GetItem and BatchGetItem bodies
// (Reader.GetItem, Reader.BatchGetItem), which exec does not call yet. It
// imports exec/dynamo/rawpage (the contract, and the SDK path's item batch
// it falls back to), exec/columnar and planner/value, never exec or
// exec/dynamo, its ancestors; its tests compare it with the SDK path
// through rawpage.ItemsBatch and reach exec only through exec/session.
//
// Design. Reader keeps the AWS SDK client for everything but the body: the
// request is built, signed, sent and retried, its endpoint resolved, and
// error responses become the SDK's typed errors, all by the SDK. A
// deserialize-step middleware inserted right after the SDK's
// OperationDeserializer (so it sees the body after the SDK's CRC32 wrapper
// and before the SDK unmarshals it) takes a 2xx body: one goroutine reads
// it into a pooled buffer (Content-Length long) while the decoder, a
// hand-written tokenizer, decodes the part that has arrived into
// per-column buffers; then the SDK is handed the same body with the
// decoded member replaced (Items: [], Item: null, Responses: {}), so Count,
// ScannedCount, LastEvaluatedKey, ConsumedCapacity and UnprocessedKeys are
// the SDK's own. The batch travels back to Reader through the per-call
// state the middleware closes over (each retry attempt replaces it).
//
// Invariants:
//   - A batch is exactly what exec's SDK path builds (rawpage.ItemsBatch
//     over value.FromItem): one column per attribute present, key attributes
//     first then the rest in byte order, encoded as package columnar says
//     (utf8 / int64 ddb=N / exact number text ddb=N / bool / binary /
//     value.AppendBinary ddb=value). Numbers are canonical text
//     (value.CanonicalNumber), never float64; set members are sorted in
//     value.Order; map entries in key order. A column only widens while a
//     page is decoded (int64 → number text, typed → encoded values).
//   - The decoder only accepts the shapes it reproduces exactly. Anything
//     else — a syntax error, a null where a value belongs, an empty or
//     multi-member attribute value, an unknown type, a repeated attribute or
//     map key, a number sent as a JSON number, an invalid number or base64,
//     escaped member or type names, nesting beyond 64 levels — is an
//     *Error, and Reader then lets the SDK deserialize the untouched body
//     and converts its items the SDK path's way (or returns the SDK's
//     error). Results never depend on which path ran; only speed does.
//   - Strings without escapes are taken byte for byte (as the SDK does);
//     escaped strings are unescaped as encoding/json does (invalid UTF-8 and
//     unpaired surrogates become U+FFFD).
//   - Nothing is retained after a call. With Go's allocator (sessions use
//     memory.DefaultAllocator) a column's buffers become the batch's as they
//     are (no copy; the next page starts new ones sized from this one); any
//     other allocator gets copies made with it, so a checked allocator
//     accounts for every byte. Scratch state and bodies are pooled; steady
//     state is well under one allocation per item (~0.04 for the decoder,
//     ~0.15 with the SDK's per-request cost).
//   - The decoder never runs ahead of the bytes that have arrived: before
//     each item it waits until 128 KiB more have arrived (or the body is
//     complete); a decode that still meets the end is redone on the whole
//     body. Reads happen on one goroutine per request, which the middleware
//     waits for before returning, a panic in the decoder included (the
//     pooled buffer is never reused while the reader writes into it). A
//     panic while reading the body is a read error, a *rawpage.PanicError
//     (exec reports it as an internal error); a panic in the decoder
//     releases what it built and goes on to the goroutine that reads the
//     pages, which reports it as an internal error (exec.Safely).
package wire
