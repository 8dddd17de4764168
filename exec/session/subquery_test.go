package session_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/exec/session"
	"github.com/ddbsql/ddbsql/planner/value"
)

// subqueryTables are small customers and orders tables: customers keyed by
// id with a GSI on tier (c4 has no tier), orders under each customer with a
// GSI on status (c9 has orders but no customer item; o7 has no total).
func subqueryTables() (customers, orders *fixtures.Table) {
	s := func(n string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: types.ScalarAttributeTypeS}
	}
	hash := func(n string) types.KeySchemaElement {
		return types.KeySchemaElement{AttributeName: aws.String(n), KeyType: types.KeyTypeHash}
	}
	all := &types.Projection{ProjectionType: types.ProjectionTypeAll}
	customers = &fixtures.Table{Name: "sq_customers", Create: &dynamodb.CreateTableInput{
		AttributeDefinitions:   []types.AttributeDefinition{s("id"), s("tier")},
		KeySchema:              []types.KeySchemaElement{hash("id")},
		BillingMode:            types.BillingModePayPerRequest,
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("ByTier"), KeySchema: []types.KeySchemaElement{hash("tier")}, Projection: all}},
	}}
	for _, c := range [][2]string{{"c1", "gold"}, {"c2", "silver"}, {"c3", "gold"}, {"c4", ""}, {"c5", "bronze"}} {
		attrs := map[string]value.Value{"id": value.Str(c[0])}
		if c[1] != "" {
			attrs["tier"] = value.Str(c[1])
		}
		customers.Items = append(customers.Items, value.MapOf(attrs))
	}
	orders = &fixtures.Table{Name: "sq_orders", Create: &dynamodb.CreateTableInput{
		AttributeDefinitions: []types.AttributeDefinition{s("cust"), s("oid"), s("status")},
		KeySchema:            []types.KeySchemaElement{hash("cust"), {AttributeName: aws.String("oid"), KeyType: types.KeyTypeRange}},
		BillingMode:          types.BillingModePayPerRequest,
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("ByStatus"),
			KeySchema: []types.KeySchemaElement{hash("status"), {AttributeName: aws.String("oid"), KeyType: types.KeyTypeRange}}, Projection: all}},
	}}
	for _, o := range []struct{ cust, oid, status, total string }{
		{"c1", "o1", "open", "10"}, {"c1", "o2", "closed", "20"}, {"c2", "o3", "open", "5"},
		{"c3", "o4", "closed", "7"}, {"c9", "o5", "open", "1"}, {"c1", "o6", "open", "10"}, {"c2", "o7", "closed", ""},
	} {
		attrs := map[string]value.Value{"cust": value.Str(o.cust), "oid": value.Str(o.oid), "status": value.Str(o.status)}
		if o.total != "" {
			attrs["total"] = value.NumTrusted(o.total)
		}
		orders.Items = append(orders.Items, value.MapOf(attrs))
	}
	return customers, orders
}

// subqueryBackends loads the tables into memdb and dynalite.
func subqueryBackends(t *testing.T) map[string]struct {
	client dynamo.Client
	prefix string
} {
	ctx := context.Background()
	out := map[string]struct {
		client dynamo.Client
		prefix string
	}{}
	db := memdb.New()
	c, o := subqueryTables()
	if err := fixtures.Load(ctx, db, "", c, o); err != nil {
		t.Fatal(err)
	}
	out["memdb"] = struct {
		client dynamo.Client
		prefix string
	}{db, ""}
	dl := dynalitetest.Client(t)
	prefix := dynalitetest.Prefix(t)
	c, o = subqueryTables()
	if err := fixtures.Load(ctx, dl, prefix, c, o); err != nil {
		t.Fatal(err)
	}
	out["dynalite"] = struct {
		client dynamo.Client
		prefix string
	}{dl, prefix}
	return out
}

func TestSubqueries(t *testing.T) {
	cases := []struct {
		name, sql string
		want      []string
		// ops are the only read operations the statement may send.
		ops []string
	}{
		{"IN on the table key is a BatchGetItem fan-out; a repeated value reads its item once",
			"SELECT id FROM {c} WHERE id IN (SELECT cust FROM {o} WHERE status = 'open') ORDER BY id",
			[]string{"c1", "c2"}, []string{"Query", "BatchGetItem"}},
		{"IN on a partition key with a sort key is a fan-out of Queries",
			"SELECT cust, oid FROM {o} WHERE cust IN (SELECT id FROM {c} WHERE tier = 'gold') ORDER BY oid",
			[]string{"c1,o1", "c1,o2", "c3,o4", "c1,o6"}, []string{"Query"}},
		{"IN on a GSI partition key is a fan-out of index Queries",
			"SELECT id FROM {c} WHERE tier IN (SELECT tier FROM {c} WHERE id IN ('c1', 'c4', 'c5')) ORDER BY id",
			[]string{"c1", "c3", "c5"}, []string{"BatchGetItem", "Query"}},
		{"key = (SELECT …) is a keyed fan-out",
			"SELECT id FROM {c} WHERE id = (SELECT cust FROM {o} WHERE status = 'closed' AND total > 15)",
			[]string{"c1"}, []string{"Query", "BatchGetItem"}},
		{"NOT IN against a set without NULLs",
			"SELECT oid FROM {o} WHERE cust = 'c1' AND total NOT IN (SELECT total FROM {o} WHERE cust = 'c3') ORDER BY oid",
			[]string{"o1", "o2", "o6"}, []string{"Query"}},
		{"NOT IN against a set holding a NULL keeps no row",
			"SELECT oid FROM {o} WHERE cust = 'c1' AND total NOT IN (SELECT total FROM {o} WHERE cust = 'c2')",
			nil, []string{"Query"}},
		{"NOT IN against an empty set keeps every row, even a NULL one",
			"SELECT oid FROM {o} WHERE cust = 'c2' AND total NOT IN (SELECT total FROM {o} WHERE cust = 'nobody') ORDER BY oid",
			[]string{"o3", "o7"}, []string{"Query"}},
		{"IN inside NOT and OR is three-valued",
			"SELECT oid FROM {o} WHERE cust = 'c2' AND (oid = 'o3' OR NOT (total IN (SELECT total FROM {o} WHERE cust = 'c1'))) ORDER BY oid",
			[]string{"o3"}, []string{"Query"}},
		{"an uncorrelated scalar subquery in the select list",
			"SELECT id, (SELECT COUNT(*) FROM {o} WHERE cust = 'c1') AS n FROM {c} WHERE id = 'c1'",
			[]string{"c1,3"}, []string{"GetItem", "Query"}},
		{"a scalar subquery without a row is NULL",
			"SELECT id, (SELECT oid FROM {o} WHERE cust = 'nobody') AS n FROM {c} WHERE id = 'c1'",
			[]string{"c1,"}, []string{"GetItem", "Query"}},
		{"a scalar subquery compared in WHERE",
			"SELECT oid FROM {o} WHERE cust = 'c1' AND total > (SELECT MIN(total) FROM {o} WHERE cust = 'c1')",
			[]string{"o2"}, []string{"Query"}},
		{"EXISTS inside OR",
			"SELECT id FROM {c} WHERE id IN ('c2', 'c3') AND (tier = 'gold' OR EXISTS (SELECT 1 FROM {o} WHERE cust = 'c9')) ORDER BY id",
			[]string{"c2", "c3"}, []string{"BatchGetItem", "Query"}},
		{"a correlated EXISTS is a semi-join",
			"SELECT c.id FROM {c} c WHERE c.id IN ('c1', 'c2', 'c3', 'c4') AND EXISTS (SELECT 1 FROM {o} o WHERE o.status = 'open' AND o.cust = c.id) ORDER BY c.id",
			[]string{"c1", "c2"}, []string{"BatchGetItem", "Query"}},
		{"a correlated NOT EXISTS is an anti-join",
			"SELECT c.id FROM {c} c WHERE c.id IN ('c1', 'c2', 'c3', 'c4') AND NOT EXISTS (SELECT 1 FROM {o} o WHERE o.status = 'open' AND o.cust = c.id) ORDER BY c.id",
			[]string{"c3", "c4"}, []string{"BatchGetItem", "Query"}},
		{"a correlated COUNT is a grouped join; no orders count 0",
			"SELECT c.id, (SELECT COUNT(*) FROM {o} o WHERE o.status = 'open' AND o.cust = c.id) AS n FROM {c} c WHERE c.id IN ('c1', 'c3') ORDER BY c.id",
			[]string{"c1,2", "c3,0"}, []string{"BatchGetItem", "Query"}},
		{"a correlated EXISTS on the subquery table's key is a keyed semi-join (no Scan)",
			"SELECT c.id FROM {c} c WHERE c.id IN ('c1', 'c2', 'c3', 'c9') AND EXISTS (SELECT 1 FROM {o} o WHERE o.cust = c.id AND o.total > 6) ORDER BY c.id",
			[]string{"c1", "c3"}, []string{"BatchGetItem", "Query"}},
		{"a correlated NOT EXISTS on a key is a keyed anti-join",
			"SELECT c.id FROM {c} c WHERE c.id IN ('c1', 'c2', 'c3', 'c4') AND NOT EXISTS (SELECT 1 FROM {o} o WHERE o.cust = c.id AND o.total > 6) ORDER BY c.id",
			[]string{"c2", "c4"}, []string{"BatchGetItem", "Query"}},
		{"a correlated NOT IN on a key: a NULL in the group drops the row",
			"SELECT c.id FROM {c} c WHERE c.id IN ('c1', 'c2', 'c3', 'c4') AND 10 NOT IN (SELECT o.total FROM {o} o WHERE o.cust = c.id) ORDER BY c.id",
			[]string{"c3", "c4"}, []string{"BatchGetItem", "Query"}},
		{"a correlated COUNT and SUM on a key are keyed grouped joins (0 and NULL without orders)",
			"SELECT c.id, (SELECT COUNT(*) FROM {o} o WHERE o.cust = c.id) AS n, (SELECT SUM(o.total) FROM {o} o WHERE o.cust = c.id) AS t FROM {c} c WHERE c.id IN ('c1', 'c3', 'c4') ORDER BY c.id",
			[]string{"c1,3,40", "c3,1,7", "c4,0,"}, []string{"BatchGetItem", "Query"}},
		{"in a join, a keyed semi-join filters the joined rows",
			"SELECT o.oid, c.tier FROM {o} o JOIN {c} c ON c.id = o.cust WHERE o.cust IN ('c1', 'c2', 'c3') AND EXISTS (SELECT 1 FROM {c} c2 WHERE c2.id = o.cust AND c2.tier < 'h') ORDER BY o.oid",
			[]string{"o1,gold", "o2,gold", "o4,gold", "o6,gold"}, []string{"BatchGetItem", "Query"}},
		{"a correlated IN",
			"SELECT c.id FROM {c} c WHERE c.id IN ('c1', 'c2', 'c3') AND 'o3' IN (SELECT o.oid FROM {o} o WHERE o.status = 'open' AND o.cust = c.id)",
			[]string{"c2"}, []string{"BatchGetItem", "Query"}},
	}
	for name, be := range subqueryBackends(t) {
		t.Run(name, func(t *testing.T) {
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					sql := strings.NewReplacer("{c}", "`"+be.prefix+"sq_customers`", "{o}", "`"+be.prefix+"sq_orders`").Replace(tc.sql)
					cc := spy(be.client)
					r := mustRun(t, cc, nil, sql)
					if got := r.rows(); strings.Join(got, "|") != strings.Join(tc.want, "|") {
						t.Fatalf("%s:\ngot  %q\nwant %q", sql, got, tc.want)
					}
					for _, req := range cc.requests() {
						if !containsOp(tc.ops, req.Op) {
							t.Fatalf("%s sent a %s; only %v expected", sql, req.Op, tc.ops)
						}
					}
					if r.Stats.ByOperation["Scan"] != 0 {
						t.Fatalf("stats show a Scan: %+v", r.Stats)
					}
				})
			}
			t.Run("a scalar subquery with two rows is an error", func(t *testing.T) {
				sql := fmt.Sprintf("SELECT id FROM `%ssq_customers` WHERE id = 'c1' AND tier = (SELECT status FROM `%ssq_orders` WHERE cust = 'c1')", be.prefix, be.prefix)
				r := run(t, be.client, nil, sql)
				if r.Error == nil || !strings.Contains(r.Err+r.Error.Error(), "scalar subquery returned more than one row") {
					t.Fatalf("want the more-than-one-row error, got %v\n%s", r.Error, r.Err)
				}
			})
			t.Run("key = (SELECT …) with two rows is an error", func(t *testing.T) {
				sql := fmt.Sprintf("SELECT id FROM `%ssq_customers` WHERE id = (SELECT cust FROM `%ssq_orders` WHERE status = 'open')", be.prefix, be.prefix)
				r := run(t, be.client, nil, sql)
				if r.Error == nil || !strings.Contains(r.Err+r.Error.Error(), "scalar subquery returned more than one row") {
					t.Fatalf("want the more-than-one-row error, got %v\n%s", r.Error, r.Err)
				}
			})
			t.Run("EXPLAIN, EXPLAIN ANALYZE and --max-rcu count the subquery's reads", func(t *testing.T) {
				sql := fmt.Sprintf("SELECT id FROM `%ssq_customers` WHERE id IN (SELECT cust FROM `%ssq_orders` WHERE status = 'open')", be.prefix, be.prefix)
				ex := run(t, be.client, nil, "EXPLAIN "+sql)
				if ex.Error != nil || !strings.Contains(ex.Out, "Keyed fan-out fed by subquery 1: BatchGetItem") || !strings.Contains(ex.Out, "Query "+be.prefix+"sq_orders INDEX ByStatus") {
					t.Fatalf("EXPLAIN: %v\n%s", ex.Error, ex.Out)
				}
				if est := explainTotal(t, be.client, nil, sql); est.Requests < 2 || est.RCU < 1 {
					t.Fatalf("the estimated total %+v leaves out the subquery's or the fan-out's reads", est)
				}
				an := run(t, be.client, nil, "EXPLAIN ANALYZE "+sql)
				if an.Error != nil {
					t.Fatalf("EXPLAIN ANALYZE: %v\n%s", an.Error, an.Err)
				}
				lines := strings.Split(an.Out, "\n")
				for i, line := range lines[:len(lines)-1] {
					if strings.Contains(line, "Keyed fan-out fed by subquery") && !(strings.Contains(lines[i+1], "actual: 2 rows") && strings.Contains(lines[i+1], "1 request,")) {
						t.Fatalf("EXPLAIN ANALYZE does not count the fan-out's BatchGetItem as its own: %q\n%s", lines[i+1], an.Out)
					}
				}
				r := run(t, be.client, func(c *session.Config) { c.MaxRCU = 0.75 }, sql)
				if r.Error == nil || !strings.Contains(r.Error.Error()+r.Err, "--max-rcu") {
					t.Fatalf("--max-rcu 0.75 should refuse the outer read plus the subquery's: %v\n%s", r.Error, r.Err)
				}
			})
			t.Run("a subquery that needs a Scan is refused without --allow-scan", func(t *testing.T) {
				sql := fmt.Sprintf("SELECT id FROM `%ssq_customers` WHERE id = 'c1' AND EXISTS (SELECT 1 FROM `%ssq_orders` WHERE total > 3)", be.prefix, be.prefix)
				r := run(t, be.client, nil, sql)
				if r.Error == nil || !strings.Contains(r.Err+r.Error.Error(), be.prefix+"sq_orders") {
					t.Fatalf("want a Scan refusal naming the orders table, got %v\n%s", r.Error, r.Err)
				}
				allowed := mustRun(t, be.client, func(c *session.Config) { c.Plan.AllowScan = true }, sql)
				if got := allowed.rows(); len(got) != 1 || got[0] != "c1" {
					t.Fatalf("with --allow-scan: got %q", got)
				}
			})
		})
	}
}

func containsOp(ops []string, op string) bool {
	for _, o := range ops {
		if o == op {
			return true
		}
	}
	return false
}
