// Package exec runs plans: it turns a planner.Plan into a tree of operators
// that pull Arrow record batches from DynamoDB reads up through client-side
// filters, aggregation, projection, sorting and limits.
//
// Phase: exec. Invariants:
//   - Only access operators (and Fetch and lookup joins) talk to DynamoDB;
//     they paginate to the end (an empty page with a LastEvaluatedKey is not
//     the end), check ctx between pages, and record requests, pages, items
//     read/returned and consumed capacity in Stats. They request a page
//     before it is asked for only where the plan marks the read ReadAhead
//     (every page will be read: no LIMIT can stop it) and for the first
//     pages of parallel segments and IN lists; a LIMIT stops reading.
//   - A union (an OR of key conditions) reads its branches one after
//     another, building each only when the one before it has ended, and
//     passes each item once, by primary key.
//   - Env.Raw, when set, decodes Query/Scan pages straight into batches; the
//     batches equal what the item path builds.
//   - A batch returned by Next belongs to the caller, who must Release it.
//     Close is idempotent and safe before the first Next.
//   - A statement either returns every matching row or fails with an error;
//     it never returns a shorter result silently.
//   - Errors are *Error with a stable Code.
package exec
