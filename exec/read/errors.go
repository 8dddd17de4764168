package read

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/smithy-go"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/dynamo/rawpage"
)

// Error codes. Tests and callers match on these; keep them stable.
const (
	CodeCancelled    = "cancelled"
	CodeTimeout      = "timeout"
	CodeUnreachable  = "unreachable"
	CodeCredentials  = "credentials"
	CodeEndpoint     = "endpoint" // the endpoint URL is not an http(s) URL with a host
	CodeRegion       = "region"   // no region configured
	CodeProfile      = "profile"  // the AWS profile does not exist or cannot be loaded
	CodeConfig       = "config"   // the shared AWS config files cannot be read
	CodeAccessDenied = "access_denied"
	CodeNotFound     = "not_found"
	CodeValidation   = "validation"
	CodeThrottled    = "throttled"
	CodeDynamo       = "dynamodb"
	CodeDecode       = "decode"
	CodeEval         = "eval"
	CodeBudget       = "budget"
	CodeInternal     = "internal"
)

// Error is a failure while running a statement.
type Error struct {
	Code string
	Msg  string
	Hint string
	Err  error
}

func (e *Error) Error() string {
	if e.Hint == "" {
		return e.Msg
	}
	return e.Msg + "\n" + e.Hint
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf makes an *Error with code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// ConnectError gives a failure to connect (dynamo.Connect) its code: a bad
// endpoint URL, a missing region, a bad profile and unreadable config files
// are different problems with different fixes.
func ConnectError(err error) error {
	var ce *dynamo.ConfigError
	if !errors.As(err, &ce) {
		return &Error{Code: CodeConfig, Msg: err.Error(), Err: err}
	}
	code := CodeConfig
	switch ce.Problem {
	case dynamo.ProblemEndpoint:
		code = CodeEndpoint
	case dynamo.ProblemRegion:
		code = CodeRegion
	case dynamo.ProblemProfile:
		code = CodeProfile
	}
	return &Error{Code: code, Msg: ce.Msg, Hint: ce.Hint, Err: err}
}

// unreadableItem gives an item DynamoDB returned that ddbsql cannot read
// (a rawpage.ItemError, from either read path) its code; ok is false for
// any other error.
func unreadableItem(err error) (*Error, bool) {
	var unreadable *rawpage.ItemError
	if !errors.As(err, &unreadable) {
		return nil, false
	}
	return &Error{Code: CodeDecode, Msg: unreadable.Error(), Err: err}, true
}

// DynamoError explains an error from a DynamoDB call. op names the call.
func DynamoError(op string, err error) error {
	var ee *Error
	if errors.As(err, &ee) {
		return ee
	}
	if e, ok := unreadableItem(err); ok {
		return e
	}
	var caught *rawpage.PanicError
	if errors.As(err, &caught) {
		// A panic on a goroutine of the fast read path (reading a body).
		return panicError(caught.Value, caught.Stack)
	}
	var silent *dynamo.NoAnswerError
	if errors.As(err, &silent) {
		return &Error{Code: CodeUnreachable, Msg: silent.Error(), Err: err,
			Hint: unreachableHint}
	}
	var bounded *dynamo.AttemptTimeoutError
	if errors.As(err, &bounded) {
		// Attempts that reached their bound before they were sent (e.g.
		// while the SDK was getting credentials).
		return withAttempts(&Error{Code: CodeUnreachable, Msg: fmt.Sprintf("%s: %v", op, bounded), Hint: unreachableHint, Err: err}, err)
	}
	switch {
	case errors.Is(err, context.Canceled):
		return &Error{Code: CodeCancelled, Msg: "cancelled", Err: err}
	case errors.Is(err, context.DeadlineExceeded):
		return &Error{Code: CodeTimeout, Msg: op + ": timed out", Err: err}
	}
	if e := credentialsError(err); e != nil {
		return e
	}
	var maxAttempts *retry.MaxAttemptsError
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		return withAttempts(apiError(op, apiErr, err), err)
	}
	if e := networkError(op, err); e != nil {
		return withAttempts(e, err)
	}
	if errors.As(err, &maxAttempts) {
		return &Error{Code: CodeThrottled, Msg: fmt.Sprintf("%s: gave up after %d attempts: %v", op, maxAttempts.Attempt, maxAttempts.Err), Err: err}
	}
	return &Error{Code: CodeDynamo, Msg: fmt.Sprintf("%s: %v", op, err), Err: err}
}

// withAttempts says how often the SDK tried before giving up, so a failure
// after retries reads differently from one that was never retried.
func withAttempts(e *Error, err error) *Error {
	var maxAttempts *retry.MaxAttemptsError
	if !errors.As(err, &maxAttempts) || maxAttempts.Attempt < 2 || strings.Contains(e.Msg, "attempts") {
		return e
	}
	e.Msg = fmt.Sprintf("%s (gave up after %d attempts)", e.Msg, maxAttempts.Attempt)
	return e
}

func apiError(op string, apiErr smithy.APIError, err error) *Error {
	code, msg := apiErr.ErrorCode(), apiErr.ErrorMessage()
	switch code {
	case "ResourceNotFoundException":
		return &Error{Code: CodeNotFound, Msg: fmt.Sprintf("%s: %s", op, msg), Hint: "SHOW TABLES lists the tables at this endpoint and region", Err: err}
	case "ValidationException":
		return &Error{Code: CodeValidation, Msg: fmt.Sprintf("DynamoDB rejected the %s request: %s", op, msg), Err: err}
	case "ProvisionedThroughputExceededException", "ThrottlingException", "RequestLimitExceeded":
		return &Error{Code: CodeThrottled, Msg: fmt.Sprintf("%s was throttled by DynamoDB and retries were exhausted: %s", op, msg),
			Hint: "lower the read rate with --rate-limit, or retry later", Err: err}
	case "AccessDeniedException":
		return &Error{Code: CodeAccessDenied, Msg: fmt.Sprintf("%s: access denied: %s", op, msg), Hint: "check the IAM permissions of this profile (dynamodb:" + op + ")", Err: err}
	case "UnrecognizedClientException", "InvalidSignatureException", "MissingAuthenticationTokenException", "ExpiredTokenException":
		return &Error{Code: CodeCredentials, Msg: fmt.Sprintf("%s: DynamoDB did not accept the credentials: %s", op, msg),
			Hint: credentialsHint, Err: err}
	}
	return &Error{Code: CodeDynamo, Msg: fmt.Sprintf("%s failed: %s: %s", op, code, msg), Err: err}
}

const unreachableHint = "check --endpoint-url, --region and the network; --timeout bounds a whole statement"

const credentialsHint = "use --profile NAME, set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, point --endpoint-url at DynamoDB Local, or try ddbsql --demo"

func credentialsError(err error) *Error {
	text := err.Error()
	if strings.Contains(text, "failed to retrieve credentials") || strings.Contains(text, "no valid credential sources") ||
		strings.Contains(text, "static credentials are empty") || strings.Contains(text, "failed to refresh cached credentials") {
		return &Error{Code: CodeCredentials, Msg: "no AWS credentials found", Hint: credentialsHint, Err: err}
	}
	return nil
}

func networkError(op string, err error) *Error {
	var uerr *url.Error
	var nerr net.Error
	var operr *net.OpError
	var dnsErr *net.DNSError
	endpoint := ""
	if errors.As(err, &uerr) {
		if u, perr := url.Parse(uerr.URL); perr == nil {
			endpoint = u.Scheme + "://" + u.Host
		}
	}
	if !errors.As(err, &operr) && !errors.As(err, &dnsErr) && !errors.As(err, &nerr) && uerr == nil {
		return nil
	}
	where := "DynamoDB"
	if endpoint != "" {
		where = endpoint
	}
	reason := err.Error()
	switch {
	case dnsErr != nil || errors.As(err, &dnsErr):
		reason = "the host name does not resolve"
	case strings.Contains(reason, "connection refused"):
		reason = "connection refused"
	case strings.Contains(reason, "connection reset"):
		reason = "the connection was reset"
	case nerr != nil && nerr.Timeout(), errors.As(err, &nerr) && nerr.Timeout():
		reason = "no answer within the timeout"
	}
	return &Error{Code: CodeUnreachable, Msg: fmt.Sprintf("cannot reach %s (%s): %s", where, op, reason),
		Hint: "check --endpoint-url, --region and the network; for offline use try ddbsql --demo", Err: err}
}
