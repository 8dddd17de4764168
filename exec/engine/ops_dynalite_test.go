package engine

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

const otItems = 120

// otLoadTable loads otItems items (pk "P", sk 0…) with a group g = sk % 7,
// a number x = sk (NULL for every 10th item, absent for every 15th) and a
// string s; it returns an environment reading it and the table's name.
func otLoadTable(t *testing.T) (*Env, string) {
	t.Helper()
	client := dynalitetest.Client(t)
	prefix := dynalitetest.Prefix(t)
	items := make([]value.Value, otItems)
	for i := range items {
		attrs := map[string]value.Value{
			"pk": otS("P"), "sk": otN(strconv.Itoa(i)), "g": otN(strconv.Itoa(i % 7)), "s": otS("item " + strconv.Itoa(i)),
		}
		switch {
		case i%15 == 0:
		case i%10 == 0:
			attrs["x"] = value.NullValue()
		default:
			attrs["x"] = otN(strconv.Itoa(i))
		}
		items[i] = value.MapOf(attrs)
	}
	tbl := &fixtures.Table{Name: "ops", Items: items, Create: &dynamodb.CreateTableInput{
		TableName:   aws.String("ops"),
		BillingMode: types.BillingModePayPerRequest,
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange},
		},
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeN},
		},
	}}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := fixtures.Load(ctx, client, prefix, tbl); err != nil {
		t.Fatal(err)
	}
	env := otEnv(t)
	env.Client = client
	return env, tbl.Named(prefix)
}

// otPagedClient makes pages small: every Query and Scan page holds at most
// pageItems items, as if DynamoDB's 1 MB page boundary came early. The
// request's own Limit (a bound on all its pages) is left to the pager.
type otPagedClient struct {
	dynamo.Client
	pageItems int32
}

func (c otPagedClient) Query(ctx context.Context, in *dynamodb.QueryInput, opts ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	cp := *in
	if cp.Limit == nil || *cp.Limit > c.pageItems {
		cp.Limit = aws.Int32(c.pageItems)
	}
	return c.Client.Query(ctx, &cp, opts...)
}

func (c otPagedClient) Scan(ctx context.Context, in *dynamodb.ScanInput, opts ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	cp := *in
	if cp.Limit == nil || *cp.Limit > c.pageItems {
		cp.Limit = aws.Int32(c.pageItems)
	}
	return c.Client.Scan(ctx, &cp, opts...)
}

// otQuery reads the partition; the environment's client gets pages of
// pageSize items.
func otQuery(env *Env, table string, pageSize int32) *planner.Access {
	if pc, ok := env.Client.(otPagedClient); ok {
		env.Client = pc.Client
	}
	env.Client = otPagedClient{Client: env.Client, pageItems: pageSize}
	return &planner.Access{
		Op: planner.OpQuery, Table: table, KeyAttrs: []string{"pk", "sk"},
		Queries: []*dynamodb.QueryInput{{
			TableName:                 aws.String(table),
			KeyConditionExpression:    aws.String("#pk = :pk"),
			ExpressionAttributeNames:  map[string]string{"#pk": "pk"},
			ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: "P"}},
			ReturnConsumedCapacity:    types.ReturnConsumedCapacityIndexes,
		}},
	}
}

// Operators over a real paginated read: results are right, LIMIT stops the
// reads early, and no Arrow memory is left behind, including on early close
// and on a DynamoDB error.
func TestOperatorsOverDynalite(t *testing.T) {
	env, table := otLoadTable(t)
	ctx := context.Background()

	t.Run("limit1_reads_one_page", func(t *testing.T) {
		env.Stats = NewStats()
		op := otMustBuild(t, env, &planner.Limit{Count: 1, Input: otQuery(env, table, 10)})
		rows, _, err := otDrain(op)
		if err != nil || len(rows) != 1 || rows[0].get("sk").Text() != "0" {
			t.Fatalf("%v, %v", rows, err)
		}
		op.Close()
		if pages := env.Stats.Snapshot().Pages; pages != 1 {
			t.Errorf("LIMIT 1 read %d pages, want 1", pages)
		}
	})
	t.Run("limit0_reads_nothing", func(t *testing.T) {
		env.Stats = NewStats()
		op := otMustBuild(t, env, &planner.Limit{Count: 0, Input: otQuery(env, table, 10)})
		if rows, _, err := otDrain(op); err != nil || len(rows) != 0 {
			t.Fatalf("%v, %v", rows, err)
		}
		op.Close()
		if n := env.Stats.Snapshot().TotalRequests(); n != 0 {
			t.Errorf("LIMIT 0 sent %d requests", n)
		}
	})
	t.Run("offset_limit_across_pages", func(t *testing.T) {
		env.Stats = NewStats()
		op := otMustBuild(t, env, &planner.Limit{Offset: 25, Count: 10, Input: otQuery(env, table, 10)})
		rows, _, err := otDrain(op)
		if err != nil || len(rows) != 10 || rows[0].get("sk").Text() != "25" || rows[9].get("sk").Text() != "34" {
			t.Fatalf("%d rows, %v", len(rows), err)
		}
		op.Close()
		if pages := env.Stats.Snapshot().Pages; pages != 4 {
			t.Errorf("OFFSET 25 LIMIT 10 read %d pages of 10, want 4", pages)
		}
	})
	t.Run("close_before_next", func(t *testing.T) {
		env.Stats = NewStats()
		op := otMustBuild(t, env, &planner.Sort{Keys: []planner.SortKey{{Expr: otCol("x")}}, Input: otQuery(env, table, 10)})
		op.Close()
		if n := env.Stats.Snapshot().TotalRequests(); n != 0 {
			t.Errorf("Close before Next sent %d requests", n)
		}
	})
	t.Run("filter_aggregate", func(t *testing.T) {
		// SELECT g, COUNT(*), COUNT(x), SUM(x), MIN(s) WHERE sk >= 20 GROUP BY g
		plan := &planner.Aggregate{
			Groups: []expr.Expr{otCol("g")},
			Aggs:   []expr.Aggregate{otAgg("count", nil, false), otAgg("count", otCol("x"), false), otAgg("sum", otCol("x"), false), otAgg("min", otCol("s"), false)},
			Input:  &planner.Filter{Pred: expr.Binary{Op: expr.OpGe, L: otCol("sk"), R: otLit(otN("20"))}, Input: otQuery(env, table, 13)},
		}
		op := otMustBuild(t, env, plan)
		rows, _, err := otDrain(op)
		if err != nil {
			t.Fatal(err)
		}
		op.Close()
		if len(rows) != 7 {
			t.Fatalf("%d groups, want 7", len(rows))
		}
		for _, r := range rows {
			g, _ := strconv.Atoi(r.vals[0].Text())
			count, countX, sum := 0, 0, 0
			minS := ""
			for i := 20; i < otItems; i++ {
				if i%7 != g {
					continue
				}
				count++
				if s := "item " + strconv.Itoa(i); minS == "" || s < minS {
					minS = s
				}
				if i%15 != 0 && i%10 != 0 {
					countX++
					sum += i
				}
			}
			otWantRow(t, "group "+strconv.Itoa(g), r, strconv.Itoa(g), strconv.Itoa(count), strconv.Itoa(countX), strconv.Itoa(sum), minS)
		}
	})
	t.Run("topn_over_pages", func(t *testing.T) {
		// ORDER BY x DESC LIMIT 3: NULL and missing x last.
		op := otMustBuild(t, env, &planner.Limit{Count: 3, Input: &planner.Sort{TopN: 3, Keys: []planner.SortKey{{Expr: otCol("x"), Desc: true}}, Input: otQuery(env, table, 9)}})
		rows, _, err := otDrain(op)
		if err != nil || len(rows) != 3 {
			t.Fatalf("%v, %v", rows, err)
		}
		for i, want := range []string{"119", "118", "117"} {
			if got := rows[i].get("x").Text(); got != want {
				t.Errorf("row %d: x = %s, want %s", i, got, want)
			}
		}
		op.Close()
	})
	t.Run("distinct_limit", func(t *testing.T) {
		env.Stats = NewStats()
		plan := &planner.Limit{Count: 3, Input: &planner.Distinct{Input: &planner.Project{
			Exprs: []expr.Expr{otCol("g")}, Names: []string{"g"}, Input: otQuery(env, table, 10)}}}
		op := otMustBuild(t, env, plan)
		rows, _, err := otDrain(op)
		if err != nil || len(rows) != 3 {
			t.Fatalf("%v, %v", rows, err)
		}
		op.Close()
		if pages := env.Stats.Snapshot().Pages; pages != 1 {
			t.Errorf("read %d pages for 3 distinct groups among the first 10 items", pages)
		}
	})
	t.Run("dynamodb_error", func(t *testing.T) {
		bad := otQuery(env, table+"-missing", 10)
		op := otMustBuild(t, env, &planner.Sort{Keys: []planner.SortKey{{Expr: otCol("x")}}, Input: &planner.Filter{Pred: otLit(value.BoolOf(true)), Input: bad}})
		if _, err := op.Next(ctx); otCode(err) != diag.CodeNotFound {
			t.Fatalf("error %v (code %q), want not_found", err, otCode(err))
		}
		op.Close()
	})
}
