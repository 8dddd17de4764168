package dynamo

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	awsmiddle "github.com/aws/aws-sdk-go-v2/aws/middleware"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/ddbsql/ddbsql/planner/plural"
)

// Every request a Connect client sends is bounded per attempt, with or
// without a statement --timeout, so that no call waits forever on an
// endpoint that accepts connections and never answers:
//   - DescribeTable and ListTables (and DESCRIBE's DescribeTimeToLive and
//     DescribeContinuousBackups): each attempt ends after
//     DefaultMetadataAttemptTimeout (ConnectOptions.MetadataAttemptTimeout),
//     and they are tried MetadataAttempts times: planning needs them, they are
//     small, and a dead endpoint should fail in about half a minute.
//   - Every request, reads included: the connection may stay silent (not a
//     byte of the answer arriving) for at most ReadIdleTimeout per attempt
//     (ConnectOptions.ReadIdleTimeout; the SDK's read timeout). A large page that keeps arriving is not cut
//     off; a stalled one is retried.
//
// The dial timeout (ConnectOptions.DialTimeout) bounds connecting, and the
// retry backoff honours the statement's context.
const (
	DefaultMetadataAttemptTimeout = 10 * time.Second
	MetadataAttempts              = 3
	ReadIdleTimeout               = 60 * time.Second
)

// MetadataRetries is the per-call option for the metadata calls (above):
// MetadataAttempts tries, or fewer when the client allows fewer.
func MetadataRetries(o *dynamodb.Options) {
	if o.RetryMaxAttempts <= 0 || o.RetryMaxAttempts > MetadataAttempts {
		o.RetryMaxAttempts = MetadataAttempts
	}
}

func isMetadata(op string) bool {
	switch op {
	case "DescribeTable", "ListTables", "DescribeTimeToLive", "DescribeContinuousBackups":
		return true
	}
	return false
}

// NoAnswerError says that every attempt of a request was sent and none got
// an answer within the per-attempt bound.
type NoAnswerError struct {
	Endpoint string // scheme://host[:port]
	Op       string
	Table    string // empty for ListTables
	Wait     time.Duration
	Attempts int
	Err      error
}

func (e *NoAnswerError) Error() string {
	return fmt.Sprintf("no answer from %s within %s per attempt, %s (%s)", e.Endpoint, e.Wait, plural.Of(e.Attempts, "attempt"), Target(e.Op, e.Table))
}

func (e *NoAnswerError) Unwrap() error { return e.Err }

// Target names a request in messages: "DescribeTable app", "ListTables".
func Target(op, table string) string {
	if table == "" {
		return op
	}
	return op + " " + table
}

// AttemptTimeoutError ends one attempt that got no answer within its
// bound. The SDK retries it (unlike the context errors a caller's deadline
// produces, which it must not retry).
type AttemptTimeoutError struct{ Wait time.Duration }

func (e *AttemptTimeoutError) Error() string {
	return fmt.Sprintf("no answer within %s", e.Wait)
}

// Timeout and RetryableError tell the SDK's retryer what this is.
func (e *AttemptTimeoutError) Timeout() bool        { return true }
func (e *AttemptTimeoutError) RetryableError() bool { return true }

var errAttemptBound = errors.New("per-attempt bound reached")

// installBounds adds the middlewares that bound and record attempts.
func installBounds(metadataWait time.Duration) func(*middleware.Stack) error {
	return func(stack *middleware.Stack) error {
		if err := stack.Initialize.Add(callRecorder{}, middleware.Before); err != nil {
			return err
		}
		if err := stack.Finalize.Insert(attemptBound{metadataWait: metadataWait}, "Retry", middleware.After); err != nil {
			return err
		}
		return stack.Finalize.Add(sentRecorder{}, middleware.After)
	}
}

// callRecorder opens the record of one call, reports it to the statement's
// Watch, and turns a call whose every attempt went unanswered into a
// NoAnswerError.
type callRecorder struct{}

func (callRecorder) ID() string { return "ddbsql:Call" }

func (callRecorder) HandleInitialize(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
	c := &call{op: operationOf(in.Parameters), table: tableOf(in.Parameters)}
	watchOf(ctx).add(c)
	out, md, err := next.HandleInitialize(withCall(ctx, c), in)
	if err != nil {
		err = c.explain(err)
	}
	return out, md, err
}

// attemptBound sits inside the SDK's retry loop: it bounds metadata
// attempts, makes an attempt that reached its bound retryable, and records
// each attempt's outcome.
type attemptBound struct{ metadataWait time.Duration }

func (attemptBound) ID() string { return "ddbsql:AttemptBound" }

func (m attemptBound) HandleFinalize(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
	c := callOf(ctx)
	if c == nil {
		return next.HandleFinalize(ctx, in)
	}
	var wait time.Duration
	actx := ctx
	if isMetadata(c.op) && m.metadataWait > 0 {
		wait = m.metadataWait
		var cancel context.CancelFunc
		actx, cancel = context.WithTimeoutCause(ctx, wait, errAttemptBound)
		defer cancel()
	}
	out, md, err := next.HandleFinalize(actx, in)
	answered := gotResponse(md)
	var bound time.Duration
	if err != nil && !answered && ctx.Err() == nil {
		var idle *awshttp.ResponseTimeoutError
		switch {
		case wait > 0 && errors.Is(context.Cause(actx), errAttemptBound):
			err, bound = &AttemptTimeoutError{Wait: wait}, wait
		case errors.As(err, &idle):
			bound = idle.TimeoutDur
		}
	}
	c.attempted(answered, bound, err, ctx.Err() != nil)
	return out, md, err
}

// sentRecorder runs last before the request goes out: it records where
// the attempt was sent.
type sentRecorder struct{}

func (sentRecorder) ID() string { return "ddbsql:Sent" }

func (sentRecorder) HandleFinalize(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
	if c := callOf(ctx); c != nil {
		if req, ok := in.Request.(*smithyhttp.Request); ok && req.URL != nil {
			c.sent(origin(req.URL))
		}
	}
	return next.HandleFinalize(ctx, in)
}

// gotResponse reports whether an attempt received an HTTP response (any
// status). Without one the SDK's transport leaves a status of 0.
func gotResponse(md middleware.Metadata) bool {
	raw, ok := awsmiddle.GetRawResponse(md).(*smithyhttp.Response)
	return ok && raw != nil && raw.Response != nil && raw.StatusCode != 0
}

func (c *call) sent(endpoint string) {
	c.mu.Lock()
	c.attempts++
	c.endpoint = endpoint
	c.mu.Unlock()
}

// attempted records how an attempt ended: answered, or silent until a
// bound (bound > 0), or cut short by the caller's context.
func (c *call) attempted(answered bool, bound time.Duration, err error, callerDone bool) {
	if answered && c.watch != nil {
		c.watch.heard(c.op)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tries++
	switch {
	case answered:
		c.answers++
	case bound > 0:
		c.timeouts++
		c.wait = bound
	}
	if err != nil && !callerDone {
		c.failure = err
	}
}

// explain turns the error of a call whose every attempt was sent and
// reached its bound unanswered into a NoAnswerError.
func (c *call) explain(err error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tries == 0 || c.timeouts != c.tries || c.attempts != c.tries || c.endpoint == "" {
		return err
	}
	return &NoAnswerError{Endpoint: c.endpoint, Op: c.op, Table: c.table, Wait: c.wait, Attempts: c.tries, Err: err}
}

// operationOf names the API call from its input.
func operationOf(in any) string {
	switch in.(type) {
	case *dynamodb.DescribeTableInput:
		return "DescribeTable"
	case *dynamodb.ListTablesInput:
		return "ListTables"
	case *dynamodb.GetItemInput:
		return "GetItem"
	case *dynamodb.BatchGetItemInput:
		return "BatchGetItem"
	case *dynamodb.QueryInput:
		return "Query"
	case *dynamodb.ScanInput:
		return "Scan"
	}
	name := fmt.Sprintf("%T", in) // *dynamodb.PutItemInput
	name = name[strings.LastIndex(name, ".")+1:]
	return strings.TrimSuffix(name, "Input")
}

// tableOf is the table a request reads ("" for ListTables; the first of a
// BatchGetItem's tables in name order).
func tableOf(in any) string {
	var name *string
	switch in := in.(type) {
	case *dynamodb.DescribeTableInput:
		name = in.TableName
	case *dynamodb.DescribeTimeToLiveInput:
		name = in.TableName
	case *dynamodb.DescribeContinuousBackupsInput:
		name = in.TableName
	case *dynamodb.GetItemInput:
		name = in.TableName
	case *dynamodb.QueryInput:
		name = in.TableName
	case *dynamodb.ScanInput:
		name = in.TableName
	case *dynamodb.BatchGetItemInput:
		first := ""
		for t := range in.RequestItems {
			if first == "" || t < first {
				first = t
			}
		}
		return first
	}
	if name == nil {
		return ""
	}
	return *name
}
