package dynamo

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
)

// TableSettings is what DESCRIBE shows of a table besides its keys and
// indexes: status, billing, stream, TTL and point-in-time recovery.
type TableSettings struct {
	Status string // TableStatus: ACTIVE, UPDATING, …
	// Billing is PROVISIONED or PAY_PER_REQUEST; ReadCapacity and
	// WriteCapacity are the provisioned units (PROVISIONED only).
	Billing                     string
	ReadCapacity, WriteCapacity int64
	Stream                      Setting
	TTL                         Setting
	PITR                        Setting
}

// Setting is one optional feature of a table. Known is false when the
// endpoint gave no answer to the call that reports it (Unknown says why);
// otherwise Status is DynamoDB's word for it (ENABLED, DISABLED, ENABLING…)
// and Detail what goes with it (the stream's view type, the TTL attribute).
type Setting struct {
	Known   bool
	Unknown string
	Status  string
	Detail  string
}

// Enabled reports whether the feature is on (or being turned on).
func (s Setting) Enabled() bool {
	return s.Known && (s.Status == "ENABLED" || s.Status == "ENABLING")
}

// DescribeSettings reads a table's settings: status, billing and stream
// from its DescribeTable answer, TTL from DescribeTimeToLive and
// point-in-time recovery from DescribeContinuousBackups. Both calls are
// metadata calls (bounded per attempt, MetadataRetries). An endpoint that
// does not answer one (DynamoDB-compatible servers often lack them) or
// does not allow it leaves that setting unknown; an error that is not an
// answer of the endpoint (timeout, cancellation, network) is returned.
func DescribeSettings(ctx context.Context, c Client, td *types.TableDescription) (TableSettings, error) {
	s := TableSettings{Status: string(td.TableStatus), Billing: string(types.BillingModeProvisioned)}
	if td.BillingModeSummary != nil && td.BillingModeSummary.BillingMode != "" {
		s.Billing = string(td.BillingModeSummary.BillingMode)
	}
	if s.Billing == string(types.BillingModeProvisioned) && td.ProvisionedThroughput != nil {
		s.ReadCapacity = aws.ToInt64(td.ProvisionedThroughput.ReadCapacityUnits)
		s.WriteCapacity = aws.ToInt64(td.ProvisionedThroughput.WriteCapacityUnits)
	}
	s.Stream = Setting{Known: true, Status: "DISABLED"}
	if sp := td.StreamSpecification; sp != nil && aws.ToBool(sp.StreamEnabled) {
		s.Stream = Setting{Known: true, Status: "ENABLED", Detail: string(sp.StreamViewType)}
	}
	name := td.TableName

	ttl, err := c.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: name}, MetadataRetries)
	if s.TTL, err = settingOf("DescribeTimeToLive", err); err != nil {
		return s, err
	}
	if s.TTL.Known {
		s.TTL.Status = string(types.TimeToLiveStatusDisabled)
		if d := ttl.TimeToLiveDescription; d != nil && d.TimeToLiveStatus != "" {
			s.TTL.Status, s.TTL.Detail = string(d.TimeToLiveStatus), aws.ToString(d.AttributeName)
		}
	}

	cb, err := c.DescribeContinuousBackups(ctx, &dynamodb.DescribeContinuousBackupsInput{TableName: name}, MetadataRetries)
	if s.PITR, err = settingOf("DescribeContinuousBackups", err); err != nil {
		return s, err
	}
	if s.PITR.Known {
		s.PITR.Status = string(types.PointInTimeRecoveryStatusDisabled)
		if d := cb.ContinuousBackupsDescription; d != nil && d.PointInTimeRecoveryDescription != nil &&
			d.PointInTimeRecoveryDescription.PointInTimeRecoveryStatus != "" {
			s.PITR.Status = string(d.PointInTimeRecoveryDescription.PointInTimeRecoveryStatus)
		}
	}
	return s, nil
}

// settingOf sorts a settings call's error: nil is a known setting; an
// error response of the endpoint makes it unknown, saying why; anything
// else (no answer at all) is returned.
func settingOf(op string, err error) (Setting, error) {
	if err == nil {
		return Setting{Known: true}, nil
	}
	var noAnswer *NoAnswerError
	var apiErr smithy.APIError
	if errors.As(err, &noAnswer) || !errors.As(err, &apiErr) {
		return Setting{}, err
	}
	switch code := apiErr.ErrorCode(); code {
	case "UnknownOperationException", "NotImplemented", "InvalidAction":
		return Setting{Unknown: "the endpoint does not answer " + op}, nil
	case "AccessDeniedException", "UnrecognizedClientException":
		return Setting{Unknown: fmt.Sprintf("%s is not allowed for these credentials (%s)", op, code)}, nil
	default:
		why := code
		if msg := apiErr.ErrorMessage(); msg != "" {
			why += ": " + msg
		}
		return Setting{Unknown: fmt.Sprintf("%s failed (%s)", op, why)}, nil
	}
}
