package planner

// Options are the session settings that change plans.
type Options struct {
	// AllowScan permits Scan when no key condition applies (--allow-scan).
	AllowScan bool
	// Consistent asks for strongly consistent reads (--consistent); a read
	// of a GSI then fails, because GSIs only support eventual consistency.
	Consistent bool
}
