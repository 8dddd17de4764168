package engine

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/dynamo/rawpage"
	"github.com/ddbsql/ddbsql/parser/diag"
)

func TestBoundedAttemptErrors(t *testing.T) {
	silent := &dynamo.NoAnswerError{Endpoint: "http://127.0.0.1:8000", Op: "DescribeTable", Table: "app", Wait: 10 * time.Second, Attempts: 3,
		Err: &retry.MaxAttemptsError{Attempt: 3, Err: &dynamo.AttemptTimeoutError{Wait: 10 * time.Second}}}
	cases := []struct {
		name string
		err  error
		code diag.Code
		msg  string
	}{
		{"every attempt unanswered", fmt.Errorf("operation error DynamoDB: DescribeTable, %w", silent), diag.CodeUnreachable,
			"no answer from http://127.0.0.1:8000 within 10s per attempt, 3 attempts (DescribeTable app)"},
		{"bounded attempts never sent", &retry.MaxAttemptsError{Attempt: 3, Err: &dynamo.AttemptTimeoutError{Wait: 10 * time.Second}}, diag.CodeUnreachable,
			"DescribeTable: no answer within 10s (gave up after 3 attempts)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var ee *diag.Error
			if !errors.As(DynamoError("DescribeTable", tc.err), &ee) || ee.Code != tc.code || ee.Msg != tc.msg {
				t.Fatalf("got %+v, want code %q and message %q", ee, tc.code, tc.msg)
			}
		})
	}
}

// ConnectError keeps the connect-phase errors of dynamo.Connect (each
// with its own code) and makes anything else a config error.
func TestConnectErrorCodes(t *testing.T) {
	for _, code := range []diag.Code{diag.CodeEndpoint, diag.CodeRegion, diag.CodeProfile, diag.CodeConfig} {
		in := &diag.Error{Phase: diag.Connect, Code: code, Msg: "what was wrong", Hint: "what to do"}
		var ee *diag.Error
		if err := ConnectError(in); !errors.As(err, &ee) || ee != in {
			t.Errorf("%s: got %+v, want the error unchanged", code, ee)
		}
	}
	var ee *diag.Error
	if err := ConnectError(errors.New("odd")); !errors.As(err, &ee) || ee.Phase != diag.Connect || ee.Code != diag.CodeConfig || ee.Msg != "odd" {
		t.Errorf("another error: got %+v, want a connect-phase config error", ee)
	}
}

// An item neither read path can read is a decode error with the same
// message, whether exec converted it (the SDK path) or a rawpage.Reader's
// fallback did and the error came back through the SDK call.
func TestUnreadableItemIsDecodeError(t *testing.T) {
	items := []map[string]types.AttributeValue{{"pk": &types.AttributeValueMemberN{Value: "not a number"}}}
	_, convErr := convertItems(items)
	_, rawErr := rawpage.ItemsBatch(memory.NewGoAllocator(), items, []string{"pk"})
	viaReader := DynamoError("Scan", fmt.Errorf("operation error DynamoDB: Scan: %w", rawErr))
	for name, err := range map[string]error{"SDK path": convErr, "reader": viaReader} {
		var ee *diag.Error
		if !errors.As(err, &ee) || ee.Code != diag.CodeDecode {
			t.Fatalf("%s: error %T %v, want code %s", name, err, err, diag.CodeDecode)
		}
		if want := "DynamoDB returned an item ddbsql cannot read: attribute pk"; !strings.HasPrefix(ee.Msg, want) {
			t.Errorf("%s: message %q, want it to start with %q", name, ee.Msg, want)
		}
	}
}

// A panic the fast read path caught on its body-reading goroutine comes
// back through the SDK call as a rawpage.PanicError; exec reports it as
// the statement's internal error and keeps the panic's stack.
func TestCaughtReaderPanicIsInternal(t *testing.T) {
	caught := &rawpage.PanicError{Value: "fault in a body wrapper", Stack: []byte("goroutine 7 [running]:\nwire.(*stream).fill")}
	err := DynamoError("Scan", fmt.Errorf("operation error DynamoDB: Scan: %w", caught))
	var ee *diag.Error
	if !errors.As(err, &ee) || ee.Code != diag.CodeInternal {
		t.Fatalf("error %T %v, want code %s", err, err, diag.CodeInternal)
	}
	if want := "internal error: fault in a body wrapper (please report this statement)"; ee.Msg != want {
		t.Errorf("message %q, want %q", ee.Msg, want)
	}
	if got := string(PanicStack(err)); got != string(caught.Stack) {
		t.Errorf("stack %q, want the caught one", got)
	}
}
