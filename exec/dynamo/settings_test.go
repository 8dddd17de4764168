package dynamo

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// settingsClient adds the short backoff to the settings calls.
type settingsClient struct{ backoffClient }

func (c settingsClient) DescribeTimeToLive(ctx context.Context, in *dynamodb.DescribeTimeToLiveInput, o ...func(*dynamodb.Options)) (*dynamodb.DescribeTimeToLiveOutput, error) {
	return c.Client.DescribeTimeToLive(ctx, in, append(o, shortBackoff)...)
}

// TestSettingsCallsAreBounded: DESCRIBE's DescribeTimeToLive is a
// metadata call, each attempt bounded like DescribeTable's, and an
// endpoint that never answers is an error, not an unknown setting.
func TestSettingsCallsAreBounded(t *testing.T) {
	srv := newSilentListener(t)
	client := quickConnect(t, srv.url(), ConnectOptions{MetadataAttemptTimeout: 200 * time.Millisecond})
	td := &types.TableDescription{TableName: aws.String("app"), TableStatus: types.TableStatusActive}
	_, err := DescribeSettings(context.Background(), settingsClient{backoffClient{client}}, td)
	var na *NoAnswerError
	if !errors.As(err, &na) {
		t.Fatalf("DescribeSettings on a silent endpoint: %v (%T), want a NoAnswerError", err, err)
	}
	if want := "no answer from " + srv.url() + " within 200ms per attempt, 3 attempts (DescribeTimeToLive app)"; na.Error() != want {
		t.Errorf("message %q\nwant    %q", na.Error(), want)
	}
	if n := srv.accepted.Load(); n != MetadataAttempts {
		t.Errorf("the endpoint saw %d connections, want one per attempt (%d)", n, MetadataAttempts)
	}
}
