package engine

import (
	"fmt"

	"github.com/ddbsql/ddbsql/exec/read"
	"github.com/ddbsql/ddbsql/parser/diag"
)

// The statement's error helpers, its statistics and its rate limiter belong
// to exec/read, the layer below, which needs them first (every DynamoDB
// response is recorded, paced and explained there). The names below let
// the operators here and the callers of Build keep using them as parts of
// the engine they run.

// DynamoError explains an error from a DynamoDB call; op names the call.
func DynamoError(op string, err error) error { return read.DynamoError(op, err) }

// ConnectError gives a failure to connect (dynamo.Connect) its code.
func ConnectError(err error) error { return read.ConnectError(err) }

// Safely calls fn and returns its error, or the internal error a panic in
// fn becomes.
func Safely(fn func() error) error { return read.Safely(fn) }

// PanicError turns a recovered panic value into a statement's error; call
// it from the deferred function that recovered.
func PanicError(r any) *diag.Error { return read.PanicError(r) }

// PanicStack returns the stack of the panic behind err, or nil.
func PanicStack(err error) []byte { return read.PanicStack(err) }

// execErrorf makes an execute-phase error: a failure while running a
// statement.
func execErrorf(code diag.Code, format string, args ...any) *diag.Error {
	return &diag.Error{Phase: diag.Execute, Code: code, Msg: fmt.Sprintf(format, args...)}
}

// Stats counts what one statement asked of DynamoDB and what it cost.
type Stats = read.Stats

// Snapshot is a consistent copy of a Stats' counters.
type Snapshot = read.Snapshot

// NewStats starts a statement's clock.
func NewStats() *Stats { return read.NewStats() }

// RateLimiter paces a statement's reads to an average RCU per second.
type RateLimiter = read.RateLimiter

// NewRateLimiter paces to rcuPerSecond (must be > 0).
func NewRateLimiter(rcuPerSecond float64) *RateLimiter { return read.NewRateLimiter(rcuPerSecond) }
