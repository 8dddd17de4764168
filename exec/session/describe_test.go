package session_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/exec/session"
	"github.com/ddbsql/ddbsql/parser/diag"
)

// describeTables are two tables with different settings: provisioned with
// a stream, and on-demand with a sort key and a GSI.
func describeTables(prefix string) []*dynamodb.CreateTableInput {
	s := types.ScalarAttributeTypeS
	return []*dynamodb.CreateTableInput{{
		TableName:             aws.String(prefix + "dprov"),
		KeySchema:             []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
		AttributeDefinitions:  []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeN}},
		BillingMode:           types.BillingModeProvisioned,
		ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(7), WriteCapacityUnits: aws.Int64(3)},
		StreamSpecification:   &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages},
	}, {
		TableName: aws.String(prefix + "dod"),
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: s}, {AttributeName: aws.String("SK"), AttributeType: s},
			{AttributeName: aws.String("g"), AttributeType: types.ScalarAttributeTypeB}},
		BillingMode: types.BillingModePayPerRequest,
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("byG"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}},
	}}
}

func createDescribeTables(t *testing.T, w dynamo.Writer, prefix string) {
	t.Helper()
	ctx := context.Background()
	for _, in := range describeTables(prefix) {
		if _, err := w.CreateTable(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	if c, ok := w.(*dynamodb.Client); ok {
		for _, in := range describeTables(prefix) {
			if err := dynamodb.NewTableExistsWaiter(c).Wait(ctx, &dynamodb.DescribeTableInput{TableName: in.TableName}, time.Minute); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// settingsOf runs DESCRIBE in CSV and returns its settings block.
func settingsOf(t *testing.T, client dynamo.Client, table string) map[string]string {
	t.Helper()
	r := run(t, client, nil, "DESCRIBE `"+table+"`")
	if r.Error != nil {
		t.Fatalf("DESCRIBE %s: %v", table, r.Error)
	}
	blocks := strings.Split(r.Out, "\n\n")
	if len(blocks) != 2 || !strings.HasPrefix(blocks[0], "name,type,partition_key,sort_key,projection,item_count,size_bytes\n") ||
		!strings.HasPrefix(blocks[1], "setting,value\n") {
		t.Fatalf("DESCRIBE %s: want the structure, a blank line and the settings:\n%s", table, r.Out)
	}
	out := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(blocks[1]), "\n")[1:] {
		k, v, _ := strings.Cut(line, ",")
		out[k] = strings.Trim(v, `"`)
	}
	return out
}

func checkSettings(t *testing.T, backend string, got, want map[string]string) {
	t.Helper()
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %s = %q, want %q", backend, k, got[k], v)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%s: settings %v, want %v", backend, got, want)
	}
}

// TestDescribeSettings: DESCRIBE shows status, billing mode, stream, TTL
// and point-in-time recovery, on the in-process backend and on dynalite,
// which does not answer DescribeContinuousBackups: that line says so and
// DESCRIBE still succeeds. (dynalite does answer DescribeTimeToLive.)
func TestDescribeSettings(t *testing.T) {
	db := memdb.New()
	createDescribeTables(t, db, "")
	client := dynalitetest.Client(t)
	prefix := dynalitetest.Prefix(t)
	createDescribeTables(t, client, prefix)

	prov := map[string]string{"status": "ACTIVE", "billing_mode": "PROVISIONED (7 RCU, 3 WCU)", "stream": "enabled (NEW_AND_OLD_IMAGES)",
		"ttl": "disabled", "point_in_time_recovery": "disabled"}
	od := map[string]string{"status": "ACTIVE", "billing_mode": "PAY_PER_REQUEST", "stream": "disabled", "ttl": "disabled", "point_in_time_recovery": "disabled"}
	checkSettings(t, "memdb dprov", settingsOf(t, db, "dprov"), prov)
	checkSettings(t, "memdb dod", settingsOf(t, db, "dod"), od)

	// dynalite keeps no streams: its DescribeTable reports none.
	prov["stream"] = "disabled"
	prov["point_in_time_recovery"] = "unknown (the endpoint does not answer DescribeContinuousBackups)"
	od["point_in_time_recovery"] = prov["point_in_time_recovery"]
	checkSettings(t, "dynalite dprov", settingsOf(t, client, prefix+"dprov"), prov)
	checkSettings(t, "dynalite dod", settingsOf(t, client, prefix+"dod"), od)
}

// describeDoc is DESCRIBE's JSON document.
type describeDoc struct {
	Table         string `json:"table"`
	Status        string `json:"status"`
	BillingMode   string `json:"billing_mode"`
	ReadCapacity  *int64 `json:"read_capacity"`
	WriteCapacity *int64 `json:"write_capacity"`
	Keys          []struct {
		Name, Type    string
		AttributeType string `json:"attribute_type"`
	} `json:"keys"`
	Stream struct {
		Status   string `json:"status"`
		ViewType string `json:"view_type"`
	} `json:"stream"`
	TTL struct {
		Status, Attribute string
		Reason            string `json:"unknown_reason"`
	} `json:"ttl"`
	PITR struct {
		Status string
		Reason string `json:"unknown_reason"`
	} `json:"point_in_time_recovery"`
	Indexes []struct {
		Name, Type, Projection, Status string
		Keys                           []struct {
			Name, Type    string
			AttributeType string `json:"attribute_type"`
		}
	} `json:"indexes"`
}

// TestDescribeJSON: with json and ndjson DESCRIBE is one document whose
// keys give name, key type and attribute type as separate fields.
func TestDescribeJSON(t *testing.T) {
	db := memdb.New()
	createDescribeTables(t, db, "")
	for _, format := range []string{"json", "ndjson"} {
		r := run(t, db, withFormat(format, nil), "DESCRIBE dod")
		if r.Error != nil {
			t.Fatal(r.Error)
		}
		if format == "ndjson" && strings.Count(r.Out, "\n") != 1 {
			t.Errorf("ndjson: want one line, got %q", r.Out)
		}
		var d describeDoc
		if err := json.Unmarshal([]byte(r.Out), &d); err != nil {
			t.Fatalf("%s: %v\n%s", format, err, r.Out)
		}
		if d.Table != "dod" || d.Status != "ACTIVE" || d.BillingMode != "PAY_PER_REQUEST" || d.ReadCapacity != nil {
			t.Errorf("%s: %+v", format, d)
		}
		if len(d.Keys) != 2 || d.Keys[0].Name != "PK" || d.Keys[0].Type != "HASH" || d.Keys[0].AttributeType != "S" ||
			d.Keys[1].Name != "SK" || d.Keys[1].Type != "RANGE" {
			t.Errorf("%s: keys %+v", format, d.Keys)
		}
		if len(d.Indexes) != 1 || d.Indexes[0].Name != "byG" || d.Indexes[0].Type != "GSI" || d.Indexes[0].Projection != "KEYS_ONLY" ||
			d.Indexes[0].Status != "ACTIVE" || len(d.Indexes[0].Keys) != 1 || d.Indexes[0].Keys[0].AttributeType != "B" {
			t.Errorf("%s: indexes %+v", format, d.Indexes)
		}
		if d.Stream.Status != "DISABLED" || d.TTL.Status != "DISABLED" || d.PITR.Status != "DISABLED" {
			t.Errorf("%s: settings %+v %+v %+v", format, d.Stream, d.TTL, d.PITR)
		}
	}
	r := run(t, db, withFormat("json", nil), "DESCRIBE dprov")
	var d describeDoc
	if err := json.Unmarshal([]byte(r.Out), &d); err != nil {
		t.Fatal(err)
	}
	if d.BillingMode != "PROVISIONED" || d.ReadCapacity == nil || *d.ReadCapacity != 7 || *d.WriteCapacity != 3 ||
		d.Stream.Status != "ENABLED" || d.Stream.ViewType != "NEW_AND_OLD_IMAGES" || d.Keys[0].AttributeType != "N" {
		t.Errorf("dprov: %+v", d)
	}
}

// settingsFaults answers the settings calls as a given endpoint would.
type settingsFaults struct {
	dynamo.Client
	ttl, pitr error
	ttlOut    *types.TimeToLiveDescription
}

func (c settingsFaults) DescribeTimeToLive(ctx context.Context, in *dynamodb.DescribeTimeToLiveInput, o ...func(*dynamodb.Options)) (*dynamodb.DescribeTimeToLiveOutput, error) {
	if c.ttl != nil {
		if c.ttl == context.DeadlineExceeded {
			<-ctx.Done()
			return nil, ctx.Err()
		}
		return nil, c.ttl
	}
	if c.ttlOut != nil {
		return &dynamodb.DescribeTimeToLiveOutput{TimeToLiveDescription: c.ttlOut}, nil
	}
	return c.Client.DescribeTimeToLive(ctx, in, o...)
}

func (c settingsFaults) DescribeContinuousBackups(ctx context.Context, in *dynamodb.DescribeContinuousBackupsInput, o ...func(*dynamodb.Options)) (*dynamodb.DescribeContinuousBackupsOutput, error) {
	if c.pitr != nil {
		return nil, c.pitr
	}
	return c.Client.DescribeContinuousBackups(ctx, in, o...)
}

// TestDescribeSettingsUnknown: an endpoint that refuses a settings call
// leaves that setting unknown and says why; an enabled TTL names its
// attribute; a settings call that never answers is bound by --timeout.
func TestDescribeSettingsUnknown(t *testing.T) {
	db := memdb.New()
	createDescribeTables(t, db, "")
	unknownOp := &smithy.GenericAPIError{Code: "UnknownOperationException"}
	denied := &smithy.GenericAPIError{Code: "AccessDeniedException", Message: "not authorized"}
	got := settingsOf(t, settingsFaults{Client: db, ttl: unknownOp, pitr: denied}, "dod")
	if got["ttl"] != "unknown (the endpoint does not answer DescribeTimeToLive)" {
		t.Errorf("ttl = %q", got["ttl"])
	}
	if got["point_in_time_recovery"] != "unknown (DescribeContinuousBackups is not allowed for these credentials (AccessDeniedException))" {
		t.Errorf("pitr = %q", got["point_in_time_recovery"])
	}
	got = settingsOf(t, settingsFaults{Client: db, ttlOut: &types.TimeToLiveDescription{TimeToLiveStatus: types.TimeToLiveStatusEnabled, AttributeName: aws.String("expiresAt")}}, "dod")
	if got["ttl"] != "enabled on attribute expiresAt" {
		t.Errorf("ttl = %q", got["ttl"])
	}
	r := run(t, settingsFaults{Client: db, ttl: unknownOp}, withFormat("json", nil), "DESCRIBE dod")
	var d describeDoc
	if err := json.Unmarshal([]byte(r.Out), &d); err != nil {
		t.Fatal(err)
	}
	if d.TTL.Status != "unknown" || d.TTL.Reason != "the endpoint does not answer DescribeTimeToLive" {
		t.Errorf("json ttl %+v", d.TTL)
	}

	stuck := run(t, settingsFaults{Client: db, ttl: context.DeadlineExceeded}, func(cfg *session.Config) { cfg.Timeout = 200 * time.Millisecond }, "DESCRIBE dod")
	if errorCode(stuck.Error) != diag.CodeTimeout {
		t.Errorf("a stuck DescribeTimeToLive: %v (code %s), want the timeout error", stuck.Error, errorCode(stuck.Error))
	}
}
