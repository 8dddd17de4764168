package memdb

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestCreateTableValidation(t *testing.T) {
	lsiOnHashOnly := withLSI(tableDef("tbl", "pk:S"), "lsi", types.ProjectionTypeAll, "x:S")
	undefined := tableDef("tbl", "pk:S")
	undefined.AttributeDefinitions = append(undefined.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String("x"), AttributeType: types.ScalarAttributeTypeS})
	notDefined := tableDef("tbl", "pk:S")
	notDefined.AttributeDefinitions[0].AttributeName = aws.String("other")
	provisioned := tableDef("tbl", "pk:S")
	provisioned.BillingMode = ""
	badProj := withGSI(tableDef("tbl", "pk:S"), "gsi", types.ProjectionTypeAll, []string{"a"}, "g:S")
	dupIndex := withGSI(withGSI(tableDef("tbl", "pk:S"), "gsi", types.ProjectionTypeAll, nil, "g:S"), "gsi", types.ProjectionTypeAll, nil, "h:S")
	cases := []struct {
		in   *dynamodb.CreateTableInput
		want string
	}{
		{lsiOnHashOnly, "Table KeySchema does not have a range key, which is required when specifying a LocalSecondaryIndex"},
		{undefined, "Number of attributes in KeySchema does not exactly match number of attributes defined in AttributeDefinitions"},
		{notDefined, "Some index key attributes are not defined in AttributeDefinitions. Keys: [pk], AttributeDefinitions: [other]"},
		{provisioned, "ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED"},
		{badProj, "ProjectionType is ALL, but NonKeyAttributes is specified"},
		{dupIndex, "Duplicate index name: gsi"},
		{tableDef("x", "pk:S"), "Member must have length greater than or equal to 3"},
	}
	for _, c := range cases {
		_, err := New().CreateTable(ctx, c.in)
		wantValidation(t, err, c.want)
	}
	db := newDB(t, tableDef("tbl", "pk:S"))
	_, err := db.CreateTable(ctx, tableDef("tbl", "pk:S"))
	var inUse *types.ResourceInUseException
	if !errors.As(err, &inUse) {
		t.Errorf("duplicate table: %v", err)
	}
}

func TestDescribeAndDeleteTable(t *testing.T) {
	in := withLSI(withGSI(tableDef("tbl", "pk:S", "sk:S"), "gsi", types.ProjectionTypeKeysOnly, nil, "g:S"), "lsi", types.ProjectionTypeAll, "l:N")
	db := newDB(t, in)
	put(t, db, "tbl", rec{"pk": S("a"), "sk": S("1"), "g": S("x")}, rec{"pk": S("a"), "sk": S("2"), "l": N("5")}, rec{"pk": S("b"), "sk": S("1")})
	d := describeTable(t, db, "tbl")
	if d.TableStatus != types.TableStatusActive || aws.ToInt64(d.ItemCount) != 3 || aws.ToInt64(d.TableSizeBytes) != 8+9+6 {
		t.Errorf("table: status %s items %d bytes %d", d.TableStatus, aws.ToInt64(d.ItemCount), aws.ToInt64(d.TableSizeBytes))
	}
	if len(d.KeySchema) != 2 || len(d.AttributeDefinitions) != 4 || d.BillingModeSummary.BillingMode != types.BillingModePayPerRequest {
		t.Errorf("schema: %+v", d)
	}
	g, l := d.GlobalSecondaryIndexes[0], d.LocalSecondaryIndexes[0]
	if g.IndexStatus != types.IndexStatusActive || aws.ToInt64(g.ItemCount) != 1 || aws.ToInt64(g.IndexSizeBytes) != 8 || g.Projection.ProjectionType != types.ProjectionTypeKeysOnly {
		t.Errorf("gsi: %+v", g)
	}
	if aws.ToInt64(l.ItemCount) != 1 || aws.ToInt64(l.IndexSizeBytes) != 9 {
		t.Errorf("lsi: items %d bytes %d", aws.ToInt64(l.ItemCount), aws.ToInt64(l.IndexSizeBytes))
	}
	out, err := db.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("tbl")})
	if err != nil || out.TableDescription.TableStatus != types.TableStatusDeleting {
		t.Fatalf("delete: %v", err)
	}
	_, err = db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("tbl")})
	var rnf *types.ResourceNotFoundException
	if !errors.As(err, &rnf) || aws.ToString(rnf.Message) != "Requested resource not found: Table: tbl not found" {
		t.Errorf("describe deleted: %v", err)
	}
}

func TestListTablesPaging(t *testing.T) {
	db := New()
	var want []string
	for i := 0; i < 7; i++ {
		name := fmt.Sprintf("table%d", 6-i)
		if _, err := db.CreateTable(ctx, tableDef(name, "pk:S")); err != nil {
			t.Fatal(err)
		}
		want = append([]string{name}, want...)
	}
	var got []string
	in := &dynamodb.ListTablesInput{Limit: aws.Int32(3)}
	pages := 0
	for {
		out, err := db.ListTables(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		got = append(got, out.TableNames...)
		if out.LastEvaluatedTableName == nil {
			break
		}
		in.ExclusiveStartTableName = out.LastEvaluatedTableName
	}
	if !reflect.DeepEqual(got, want) || pages != 3 {
		t.Errorf("listed %v in %d pages", got, pages)
	}
	out, _ := db.ListTables(ctx, &dynamodb.ListTablesInput{ExclusiveStartTableName: aws.String("table3x")})
	if !reflect.DeepEqual(out.TableNames, []string{"table4", "table5", "table6"}) {
		t.Errorf("after table3x: %v", out.TableNames)
	}
	_, err := db.ListTables(ctx, &dynamodb.ListTablesInput{Limit: aws.Int32(101)})
	wantValidation(t, err, "Member must have value less than or equal to 100")
}

func TestRequestHookAndContext(t *testing.T) {
	boom := errors.New("injected")
	var seen []string
	db := New(WithRequestHook(func(_ context.Context, op string, in any) error {
		seen = append(seen, op)
		if q, ok := in.(*dynamodb.QueryInput); ok && aws.ToString(q.TableName) == "fail" {
			return boom
		}
		return nil
	}))
	if _, err := db.CreateTable(ctx, tableDef("tbl", "pk:S")); err != nil {
		t.Fatal(err)
	}
	_, err := db.Query(ctx, qin("fail", "pk = :p", map[string]av{":p": S("x")}))
	if !errors.Is(err, boom) {
		t.Errorf("hook error not returned: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := db.GetItem(cctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: rec{"pk": S("a")}}); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled context: %v", err)
	}
	if !reflect.DeepEqual(seen, []string{"CreateTable", "Query"}) || db.Requests("GetItem") != 1 || db.Requests("") != 3 {
		t.Errorf("hook saw %v; GetItem requests %d, all %d", seen, db.Requests("GetItem"), db.Requests(""))
	}
}

func TestConcurrentReadersAndWriters(t *testing.T) {
	db := newDB(t, withGSI(tableDef("tbl", "pk:S", "sk:N"), "gsi", types.ProjectionTypeAll, nil, "g:S"))
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"),
					Item: rec{"pk": S(fmt.Sprint("p", w)), "sk": N(fmt.Sprint(i)), "g": S(fmt.Sprint("g", i%3))}})
				if err != nil {
					t.Error(err)
					return
				}
			}
		}(w)
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				in := qin("tbl", "g = :g", map[string]av{":g": S("g1")})
				in.IndexName = aws.String("gsi")
				if _, err := db.Query(ctx, in); err != nil {
					t.Error(err)
					return
				}
				if _, err := db.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("tbl"), Limit: aws.Int32(50)}); err != nil {
					t.Error(err)
					return
				}
			}
		}(w)
	}
	wg.Wait()
	if d := describeTable(t, db, "tbl"); aws.ToInt64(d.ItemCount) != 800 || aws.ToInt64(d.GlobalSecondaryIndexes[0].ItemCount) != 800 {
		t.Errorf("after concurrent writes: %d items, %d in the GSI", aws.ToInt64(d.ItemCount), aws.ToInt64(d.GlobalSecondaryIndexes[0].ItemCount))
	}
}
