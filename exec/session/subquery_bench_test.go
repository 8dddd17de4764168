package session_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/exec/session"
	"github.com/ddbsql/ddbsql/planner/value"
)

// BenchmarkSubqueryFanout compares key IN (SELECT …) planned as a keyed
// fan-out (BatchGetItem of the 50 keys the subquery returns) with the same
// rows found by a Scan of the 20 000 customers tested against the
// subquery's set (the key wrapped in an expression defeats the fan-out),
// on the in-process backend. items_read/op is what DynamoDB would bill.
// subqueryBenchDB holds 20 000 customers (id) and 50 open orders (status,
// oid) naming 50 of them.
func subqueryBenchDB(b *testing.B) *memdb.DB {
	db := memdb.New()
	s := func(n string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: types.ScalarAttributeTypeS}
	}
	hash := func(n string) types.KeySchemaElement {
		return types.KeySchemaElement{AttributeName: aws.String(n), KeyType: types.KeyTypeHash}
	}
	customers := &fixtures.Table{Name: "bench_customers", Create: &dynamodb.CreateTableInput{
		AttributeDefinitions: []types.AttributeDefinition{s("id")}, KeySchema: []types.KeySchemaElement{hash("id")},
		BillingMode: types.BillingModePayPerRequest}}
	for i := 0; i < 20000; i++ {
		customers.Items = append(customers.Items, value.MapOf(map[string]value.Value{
			"id": value.Str(fmt.Sprintf("c%05d", i)), "name": value.Str(fmt.Sprintf("customer %d", i))}))
	}
	orders := &fixtures.Table{Name: "bench_orders", Create: &dynamodb.CreateTableInput{
		AttributeDefinitions: []types.AttributeDefinition{s("status"), s("oid")},
		KeySchema:            []types.KeySchemaElement{hash("status"), {AttributeName: aws.String("oid"), KeyType: types.KeyTypeRange}},
		BillingMode:          types.BillingModePayPerRequest}}
	for i := 0; i < 50; i++ {
		orders.Items = append(orders.Items, value.MapOf(map[string]value.Value{
			"status": value.Str("open"), "oid": value.Str(fmt.Sprintf("o%03d", i)), "cust": value.Str(fmt.Sprintf("c%05d", i*397))}))
	}
	if err := fixtures.Load(context.Background(), db, "", customers, orders); err != nil {
		b.Fatal(err)
	}
	return db
}

func BenchmarkSubqueryFanout(b *testing.B) {
	db := subqueryBenchDB(b)
	for _, bc := range []struct{ name, sql string }{
		{"keyed fan-out", "SELECT id, name FROM bench_customers WHERE id IN (SELECT cust FROM bench_orders WHERE status = 'open')"},
		{"Scan and client semi-join", "SELECT id, name FROM bench_customers WHERE CONCAT(id, '') IN (SELECT cust FROM bench_orders WHERE status = 'open')"},
	} {
		b.Run(bc.name, func(b *testing.B) { runSubqueryBench(b, db, bc.sql, 51) })
	}
}

// runSubqueryBench runs sql b.N times and reports the items and requests
// of one run; the output must have lines lines (with the header).
func runSubqueryBench(b *testing.B, db *memdb.DB, sql string, lines int) {
	var out, errOut bytes.Buffer
	cfg := session.DefaultConfig()
	cfg.Format = "csv"
	cfg.Plan.AllowScan = true
	cfg.Stats = session.StatsJSON
	sess := session.New(db, &out, &errOut, cfg)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out.Reset()
		errOut.Reset()
		if err := sess.RunScript(context.Background(), sql); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if n := bytes.Count(out.Bytes(), []byte("\n")); n != lines {
		b.Fatalf("%d output lines, want %d", n, lines)
	}
	var st statsJSON
	if err := json.Unmarshal(bytes.TrimSpace(errOut.Bytes()), &st); err != nil {
		b.Fatalf("stats line %q: %v", errOut.String(), err)
	}
	b.ReportMetric(float64(st.ItemsRead), "items_read/op")
	b.ReportMetric(float64(st.Requests), "requests/op")
}

// BenchmarkSubqueryKeyedSemiJoin compares a correlated EXISTS on the key of
// the subquery's table, looked up per outer value (a keyed semi-join), with
// the same subquery read whole by a Scan of the 20 000 customers (the key
// wrapped in an expression defeats the lookup) and tested on the client.
func BenchmarkSubqueryKeyedSemiJoin(b *testing.B) {
	db := subqueryBenchDB(b)
	for _, bc := range []struct{ name, sql string }{
		{"keyed semi-join", "SELECT o.oid FROM bench_orders o WHERE o.status = 'open' AND EXISTS (SELECT 1 FROM bench_customers c WHERE c.id = o.cust AND c.name > 'c')"},
		{"Scan and client semi-join", "SELECT o.oid FROM bench_orders o WHERE o.status = 'open' AND EXISTS (SELECT 1 FROM bench_customers c WHERE CONCAT(c.id, '') = o.cust AND c.name > 'c')"},
	} {
		b.Run(bc.name, func(b *testing.B) { runSubqueryBench(b, db, bc.sql, 51) })
	}
}
