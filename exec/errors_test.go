package exec

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws/retry"

	"github.com/ddbsql/ddbsql/exec/dynamo"
)

func TestBoundedAttemptErrors(t *testing.T) {
	silent := &dynamo.NoAnswerError{Endpoint: "http://127.0.0.1:8000", Op: "DescribeTable", Table: "app", Wait: 10 * time.Second, Attempts: 3,
		Err: &retry.MaxAttemptsError{Attempt: 3, Err: &dynamo.AttemptTimeoutError{Wait: 10 * time.Second}}}
	cases := []struct {
		name string
		err  error
		code string
		msg  string
	}{
		{"every attempt unanswered", fmt.Errorf("operation error DynamoDB: DescribeTable, %w", silent), CodeUnreachable,
			"no answer from http://127.0.0.1:8000 within 10s per attempt, 3 attempts (DescribeTable app)"},
		{"bounded attempts never sent", &retry.MaxAttemptsError{Attempt: 3, Err: &dynamo.AttemptTimeoutError{Wait: 10 * time.Second}}, CodeUnreachable,
			"DescribeTable: no answer within 10s (gave up after 3 attempts)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var ee *Error
			if !errors.As(DynamoError("DescribeTable", tc.err), &ee) || ee.Code != tc.code || ee.Msg != tc.msg {
				t.Fatalf("got %+v, want code %q and message %q", ee, tc.code, tc.msg)
			}
		})
	}
}

func TestConnectErrorCodes(t *testing.T) {
	for problem, code := range map[dynamo.ConfigProblem]string{
		dynamo.ProblemEndpoint: CodeEndpoint, dynamo.ProblemRegion: CodeRegion,
		dynamo.ProblemProfile: CodeProfile, dynamo.ProblemConfig: CodeConfig,
	} {
		err := ConnectError(&dynamo.ConfigError{Problem: problem, Msg: "what was wrong", Hint: "what to do"})
		var ee *Error
		if !errors.As(err, &ee) || ee.Code != code || ee.Msg != "what was wrong" || ee.Hint != "what to do" {
			t.Errorf("%s: got %+v, want code %q", problem, ee, code)
		}
	}
}
