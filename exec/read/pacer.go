package read

import "context"

// Wait blocks until the limiter lets the next request go (nil: at once).
// With Book it paces writers outside this package (exec/batchwrite) by the
// same cost-based rule as reads.
func (l *RateLimiter) Wait(ctx context.Context) error { return l.wait(ctx) }

// Book charges capacity units a response reports against the rate.
func (l *RateLimiter) Book(units float64) { l.book(units) }
