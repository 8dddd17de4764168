package write_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/exec/dynamo/faultproxy"
)

// Through the fault proxy (resets after dynalite applied the write, resets
// before it, server errors and throttling on a share of the attempts),
// UPDATE … SET b = b + 1 adds exactly one to every item, and DELETE
// deletes every item: no retried request applies twice or is lost.
func TestWritesUnderFaults(t *testing.T) {
	direct := dynalitetest.Client(t)
	prefix := dynalitetest.Prefix(t)
	table := prefix + "writes"
	create(t, direct, table)
	ctx := context.Background()
	for i := 1; i <= 40; i++ {
		if _, err := direct.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item("a", strconv.Itoa(i), "b", n(strconv.Itoa(i)))}); err != nil {
			t.Fatal(err)
		}
	}
	proxy, srv := faultproxy.New(t, dynalitetest.Endpoint(t), prefix, 7, 0.35,
		faultproxy.ResetMidBody, faultproxy.Reset, faultproxy.ServerError, faultproxy.Throttling)
	proxy.Faulted = func(target string) bool {
		return strings.HasSuffix(target, "UpdateItem") || strings.HasSuffix(target, "DeleteItem")
	}
	faulty := dynalitetest.NewClient(srv.URL)
	res, err := run(t, direct, faulty, "UPDATE `"+table+"` SET b = b + 1 WHERE PK = 'a'", nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 40; i++ {
		if got := numOf(t, get(t, direct, table, "a", strconv.Itoa(i)), "b"); got != strconv.Itoa(i+1) {
			t.Errorf("item %d: b = %s, want %d", i, got, i+1)
		}
	}
	counts := proxy.Counts()
	if counts[faultproxy.ResetMidBody] == 0 || counts[faultproxy.Reset] == 0 || len(res.Written) != 40 {
		t.Errorf("faults %v, written %d: the test injected too little", counts, len(res.Written))
	}
	if res.Conditions == 0 {
		t.Error("no replay met its condition: the applied-then-reset case was not exercised")
	}
	if _, err := run(t, direct, faulty, "DELETE FROM `"+table+"` WHERE PK = 'a' AND b > 10", nil); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 40; i++ {
		it := get(t, direct, table, "a", strconv.Itoa(i))
		if (i+1 > 10) != (it == nil) {
			t.Errorf("item %d after DELETE: %v", i, it)
		}
	}
	t.Logf("faults: %v; conditional-check failures on UPDATE: %d", counts, res.Conditions)
}
