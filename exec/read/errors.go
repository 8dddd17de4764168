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
	"github.com/ddbsql/ddbsql/parser/diag"
)

// execErrorf makes an execute-phase error: a failure while running a
// statement.
func execErrorf(code diag.Code, format string, args ...any) *diag.Error {
	return &diag.Error{Phase: diag.Execute, Code: code, Msg: fmt.Sprintf(format, args...)}
}

// ConnectError is a failure to connect (dynamo.Connect) as a connect-phase
// error: Connect's own errors (a bad endpoint URL, a missing region, a bad
// profile, unreadable config files: different problems with different
// fixes and codes) pass through; anything else is a config error.
func ConnectError(err error) error {
	var de *diag.Error
	if errors.As(err, &de) && de.Phase == diag.Connect {
		return de
	}
	return &diag.Error{Phase: diag.Connect, Code: diag.CodeConfig, Msg: err.Error(), Cause: err}
}

// unreadableItem gives an item DynamoDB returned that ddbsql cannot read
// (a rawpage.ItemError, from either read path) its code; ok is false for
// any other error.
func unreadableItem(err error) (*diag.Error, bool) {
	var unreadable *rawpage.ItemError
	if !errors.As(err, &unreadable) {
		return nil, false
	}
	return &diag.Error{Phase: diag.Execute, Code: diag.CodeDecode, Msg: unreadable.Error(), Cause: err}, true
}

// DynamoError explains an error from a DynamoDB call. op names the call.
func DynamoError(op string, err error) error {
	var ee *diag.Error
	if errors.As(err, &ee) && (ee.Phase == diag.Execute || ee.Phase == diag.Connect || ee.Phase == diag.Load) {
		return ee // Load: a --data file read while the statement runs (bad JSON, a duplicate key)
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
		return &diag.Error{Phase: diag.Execute, Code: diag.CodeUnreachable, Msg: silent.Error(), Cause: err,
			Hint: unreachableHint}
	}
	var bounded *dynamo.AttemptTimeoutError
	if errors.As(err, &bounded) {
		// Attempts that reached their bound before they were sent (e.g.
		// while the SDK was getting credentials).
		return withAttempts(&diag.Error{Phase: diag.Execute, Code: diag.CodeUnreachable, Msg: fmt.Sprintf("%s: %v", op, bounded), Hint: unreachableHint, Cause: err}, err)
	}
	switch {
	case errors.Is(err, context.Canceled):
		return &diag.Error{Phase: diag.Execute, Code: diag.CodeCancelled, Msg: "cancelled", Cause: err}
	case errors.Is(err, context.DeadlineExceeded):
		return &diag.Error{Phase: diag.Execute, Code: diag.CodeTimeout, Msg: op + ": timed out", Cause: err}
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
		return &diag.Error{Phase: diag.Execute, Code: diag.CodeThrottled, Msg: fmt.Sprintf("%s: gave up after %d attempts: %v", op, maxAttempts.Attempt, maxAttempts.Err), Cause: err}
	}
	return &diag.Error{Phase: diag.Execute, Code: diag.CodeDynamo, Msg: fmt.Sprintf("%s: %v", op, err), Cause: err}
}

// withAttempts says how often the SDK tried before giving up, so a failure
// after retries reads differently from one that was never retried.
func withAttempts(e *diag.Error, err error) *diag.Error {
	var maxAttempts *retry.MaxAttemptsError
	if !errors.As(err, &maxAttempts) || maxAttempts.Attempt < 2 || strings.Contains(e.Msg, "attempts") {
		return e
	}
	e.Msg = fmt.Sprintf("%s (gave up after %d attempts)", e.Msg, maxAttempts.Attempt)
	return e
}

func apiError(op string, apiErr smithy.APIError, err error) *diag.Error {
	code, msg := apiErr.ErrorCode(), apiErr.ErrorMessage()
	switch code {
	case "ResourceNotFoundException":
		return &diag.Error{Phase: diag.Execute, Code: diag.CodeNotFound, Msg: fmt.Sprintf("%s: %s", op, msg), Hint: "SHOW TABLES lists the tables at this endpoint and region", Cause: err}
	case "ValidationException":
		return &diag.Error{Phase: diag.Execute, Code: diag.CodeValidation, Msg: fmt.Sprintf("DynamoDB rejected the %s request: %s", op, msg), Cause: err}
	case "ProvisionedThroughputExceededException", "ThrottlingException", "RequestLimitExceeded":
		return &diag.Error{Phase: diag.Execute, Code: diag.CodeThrottled, Msg: fmt.Sprintf("%s was throttled by DynamoDB and retries were exhausted: %s", op, msg),
			Hint: "lower the read rate with --rate-limit, or retry later", Cause: err}
	case "AccessDeniedException":
		return &diag.Error{Phase: diag.Execute, Code: diag.CodeAccessDenied, Msg: fmt.Sprintf("%s: access denied: %s", op, msg), Hint: "check the IAM permissions of this profile (dynamodb:" + op + ")", Cause: err}
	case "UnrecognizedClientException", "InvalidSignatureException", "MissingAuthenticationTokenException", "ExpiredTokenException":
		return &diag.Error{Phase: diag.Execute, Code: diag.CodeCredentials, Msg: fmt.Sprintf("%s: DynamoDB did not accept the credentials: %s", op, msg),
			Hint: credentialsHint, Cause: err}
	}
	return &diag.Error{Phase: diag.Execute, Code: diag.CodeDynamo, Msg: fmt.Sprintf("%s failed: %s: %s", op, code, msg), Cause: err}
}

const unreachableHint = "check --endpoint-url, --region and the network; --timeout bounds a whole statement"

const credentialsHint = "use --profile NAME, set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, point --endpoint-url at DynamoDB Local, or try ddbsql --demo"

func credentialsError(err error) *diag.Error {
	text := err.Error()
	if strings.Contains(text, "failed to retrieve credentials") || strings.Contains(text, "no valid credential sources") ||
		strings.Contains(text, "static credentials are empty") || strings.Contains(text, "failed to refresh cached credentials") {
		return &diag.Error{Phase: diag.Execute, Code: diag.CodeCredentials, Msg: "no AWS credentials found", Hint: credentialsHint, Cause: err}
	}
	return nil
}

func networkError(op string, err error) *diag.Error {
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
	return &diag.Error{Phase: diag.Execute, Code: diag.CodeUnreachable, Msg: fmt.Sprintf("cannot reach %s (%s): %s", where, op, reason),
		Hint: "check --endpoint-url, --region and the network; for offline use try ddbsql --demo", Cause: err}
}
