package planner

import "time"

// Options are the session settings that change plans.
type Options struct {
	// AllowScan permits Scan when no key condition applies (--allow-scan).
	AllowScan bool
	// Consistent asks for strongly consistent reads (--consistent); a read
	// of a GSI then fails, because GSIs only support eventual consistency.
	Consistent bool
	// Segments is the number of parallel Scan segments; 0 chooses about one
	// per GiB of table, at least 1 and at most 8 per unit of Parallelism.
	Segments int
	// Parallelism is how many reads the host can drive at once (the session
	// passes runtime.NumCPU()); it caps the Scan segments chosen when
	// Segments is 0. It is an input rather than read from the host so that
	// the same statement with the same options plans the same on any
	// machine. 0 or less counts as 1.
	Parallelism int
	// Strict enforces the single-table design rule that every access
	// pattern is one Query or GetItem: plans needing a Scan, a
	// FilterExpression, a client-side filter or sort over the items read, or
	// a join that is not by key fail before any request.
	Strict bool
	// Now is the statement's time, which now(), current_timestamp and
	// current_date stand for in every row and clause. The planner never
	// reads the clock: the session sets Now for each statement. Zero
	// leaves them calls, evaluated per row.
	Now time.Time
	// queries are the named queries (WITH, derived tables) of the
	// statement being planned, set by PlanStatement (derived.go).
	queries *queryScopes
}
