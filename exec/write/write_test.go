package write_test

import (
	"context"
	"errors"
	"net"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/exec/engine"
	"github.com/ddbsql/ddbsql/exec/write"
	"github.com/ddbsql/ddbsql/parser"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
)

// backend is a DynamoDB to write to: memdb or dynalite.
type backend interface {
	dynamo.Client
	dynamo.ItemWriter
	dynamo.Writer
}

// backends runs f on memdb and on dynalite (which must be running).
func backends(t *testing.T, f func(t *testing.T, db backend, table string)) {
	t.Run("memdb", func(t *testing.T) { f(t, memdb.New(), "writes") })
	t.Run("dynalite", func(t *testing.T) {
		c := dynalitetest.Client(t)
		f(t, c, dynalitetest.Prefix(t)+"writes")
	})
}

func create(t *testing.T, db backend, table string, items ...map[string]types.AttributeValue) {
	t.Helper()
	ctx := context.Background()
	_, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String(table),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS}, {AttributeName: aws.String("SK"), AttributeType: types.ScalarAttributeTypeN}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
		BillingMode:          types.BillingModePayPerRequest,
	})
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := db.(*dynamodb.Client); ok {
		if err := dynamodb.NewTableExistsWaiter(c).Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)}, time.Minute); err != nil {
			t.Fatal(err)
		}
	}
	for _, it := range items {
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
}

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func n(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }

func item(pk, sk string, kv ...any) map[string]types.AttributeValue {
	m := map[string]types.AttributeValue{"PK": s(pk), "SK": n(sk)}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1].(types.AttributeValue)
	}
	return m
}

func get(t *testing.T, db backend, table, pk, sk string) map[string]types.AttributeValue {
	t.Helper()
	out, err := db.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String(table), Key: item(pk, sk), ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	return out.Item
}

func numOf(t *testing.T, it map[string]types.AttributeValue, name string) string {
	t.Helper()
	v, ok := it[name].(*types.AttributeValueMemberN)
	if !ok {
		t.Fatalf("%s is %#v, want a number", name, it[name])
	}
	return v.Value
}

// run plans and runs one write statement.
func run(t *testing.T, db backend, client dynamo.ItemWriter, sql string, hook func(context.Context, map[string]types.AttributeValue)) (*write.Result, error) {
	t.Helper()
	ctx := context.Background()
	st, err := parser.ParseOne(sql)
	if err != nil {
		t.Fatal(err)
	}
	wp, err := planner.PlanWrite(ctx, dynamo.NewCatalog(db), st, planner.Options{Parallelism: 1, AllowScan: true})
	if err != nil {
		return nil, err
	}
	env := &write.Env{Engine: &engine.Env{Client: db, Mem: memory.DefaultAllocator, Stats: engine.NewStats(), Concurrency: 1},
		Client: client, BeforeWrite: hook}
	return write.Run(ctx, env, wp)
}

// A writer that changes the item between ddbsql's read and its write
// never loses its change: b = b + 1 is computed again from its value.
func TestConcurrentChangeIsKept(t *testing.T) {
	backends(t, func(t *testing.T, db backend, table string) {
		create(t, db, table, item("a", "1", "b", n("1"), "c", s("x")))
		once := false
		hook := func(ctx context.Context, key map[string]types.AttributeValue) {
			if once {
				return
			}
			once = true
			if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item("a", "1", "b", n("10"), "c", s("x"))}); err != nil {
				t.Error(err)
			}
		}
		res, err := run(t, db, db, "UPDATE `"+table+"` SET b = b + 1 WHERE PK = 'a' AND c = 'x'", hook)
		if err != nil {
			t.Fatal(err)
		}
		if got := numOf(t, get(t, db, table, "a", "1"), "b"); got != "11" {
			t.Errorf("b = %s, want 11 (the other writer's 10, plus one)", got)
		}
		if res.Conditions != 1 || len(res.Written) != 1 {
			t.Errorf("conditions %d written %v", res.Conditions, res.Written)
		}
	})
}

// A writer that makes the WHERE false in between: the item is left as
// that writer made it, and reported as skipped.
func TestConcurrentChangeThatNoLongerMatches(t *testing.T) {
	backends(t, func(t *testing.T, db backend, table string) {
		create(t, db, table, item("a", "1", "b", n("1"), "c", s("x")), item("a", "2", "b", n("1"), "c", s("x")))
		hook := func(ctx context.Context, key map[string]types.AttributeValue) {
			if numOfAV(key["SK"]) != "1" {
				return
			}
			if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item("a", "1", "b", n("5"), "c", s("y"))}); err != nil {
				t.Error(err)
			}
		}
		res, err := run(t, db, db, "DELETE FROM `"+table+"` WHERE PK = 'a' AND c = 'x'", hook)
		if err != nil {
			t.Fatal(err)
		}
		if it := get(t, db, table, "a", "1"); it == nil || numOf(t, it, "b") != "5" {
			t.Errorf("the changed item is %v, want it kept with b = 5", it)
		}
		if it := get(t, db, table, "a", "2"); it != nil {
			t.Errorf("the matching item is still there: %v", it)
		}
		if len(res.Skipped) != 1 || len(res.Written) != 1 {
			t.Errorf("skipped %v written %v", res.Skipped, res.Written)
		}
	})
}

func numOfAV(v types.AttributeValue) string {
	if x, ok := v.(*types.AttributeValueMemberN); ok {
		return x.Value
	}
	return ""
}

// resetAfter applies the first UpdateItem and then loses the response, as
// a connection reset after the server applied the write does.
type resetAfter struct {
	dynamo.ItemWriter
	resets atomic.Int32
}

func (r *resetAfter) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	out, err := r.ItemWriter.UpdateItem(ctx, in, opts...)
	if err == nil && r.resets.Add(1) == 1 {
		return nil, &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}
	}
	return out, err
}

// The retry after a reset finds the write applied: b = b + 1 applies once.
func TestResetAfterAppliedUpdateAppliesOnce(t *testing.T) {
	backends(t, func(t *testing.T, db backend, table string) {
		create(t, db, table, item("a", "1", "b", n("1")))
		proxy := &resetAfter{ItemWriter: db}
		res, err := run(t, db, proxy, "UPDATE `"+table+"` SET b = b + 1 WHERE PK = 'a'", nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := numOf(t, get(t, db, table, "a", "1"), "b"); got != "2" {
			t.Errorf("b = %s, want 2: the replayed request applied twice", got)
		}
		if res.Requests != 2 || res.Conditions != 1 || len(res.Written) != 1 {
			t.Errorf("requests %d conditions %d written %v", res.Requests, res.Conditions, res.Written)
		}
	})
}

// INSERT of an existing key is an error naming it; an INSERT of several
// rows that fails part-way says which keys were written and which not.
func TestInsertExistingKey(t *testing.T) {
	backends(t, func(t *testing.T, db backend, table string) {
		create(t, db, table, item("a", "2", "b", n("7")))
		_, err := run(t, db, db, "INSERT INTO `"+table+"` (PK, SK, b) VALUES ('a', 1, 1), ('a', 2, 2), ('a', 3, 3)", nil)
		de, ok := diag.As(err)
		if !ok || de.Code != diag.CodePartialWrite {
			t.Fatalf("got %v, want a partial_write error", err)
		}
		for _, want := range []string{"1 of 3 items were written (PK='a', SK=1)", "2 were not (PK='a', SK=2; PK='a', SK=3)", "already exists"} {
			if !strings.Contains(de.Msg, want) {
				t.Errorf("%q lacks %q", de.Msg, want)
			}
		}
		var cause *diag.Error
		if !errors.As(de.Cause, &cause) || cause.Code != diag.CodeItemExists {
			t.Errorf("cause %v", de.Cause)
		}
		if numOf(t, get(t, db, table, "a", "2"), "b") != "7" {
			t.Error("the existing item was overwritten")
		}
		if get(t, db, table, "a", "3") != nil {
			t.Error("a row after the failure was written")
		}
	})
}

// SET x = NULL removes the attribute; ddb_null() stores DynamoDB's NULL;
// a document path changes inside its attribute (whose old value the
// condition compares member by member).
func TestSetNullAndPaths(t *testing.T) {
	backends(t, func(t *testing.T, db backend, table string) {
		doc := &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"x": n("1"), "l": &types.AttributeValueMemberL{Value: []types.AttributeValue{s("p")}}}}
		create(t, db, table, item("a", "1", "b", n("1"), "c", s("x"), "doc", doc))
		if _, err := run(t, db, db, "UPDATE `"+table+"` SET b = NULL, c = ddb_null(), doc.x = doc.x + 1, doc.l[1] = 'q' WHERE PK = 'a' AND SK = 1", nil); err != nil {
			t.Fatal(err)
		}
		it := get(t, db, table, "a", "1")
		if _, ok := it["b"]; ok {
			t.Errorf("b is still there: %v", it["b"])
		}
		if _, ok := it["c"].(*types.AttributeValueMemberNULL); !ok {
			t.Errorf("c = %#v, want NULL", it["c"])
		}
		m := it["doc"].(*types.AttributeValueMemberM).Value
		if numOfAV(m["x"]) != "2" || len(m["l"].(*types.AttributeValueMemberL).Value) != 2 {
			t.Errorf("doc = %#v", m)
		}
	})
}

// REPLACE overwrites an existing item and writes new ones, through
// BatchWriteItem.
func TestReplace(t *testing.T) {
	backends(t, func(t *testing.T, db backend, table string) {
		create(t, db, table, item("a", "1", "b", n("1"), "c", s("x")))
		res, err := run(t, db, db, "REPLACE INTO `"+table+"` (PK, SK, b) VALUES ('a', 1, 5), ('a', 2, 6)", nil)
		if err != nil {
			t.Fatal(err)
		}
		it := get(t, db, table, "a", "1")
		if numOf(t, it, "b") != "5" || it["c"] != nil {
			t.Errorf("replaced item %v, want b = 5 and no c", it)
		}
		if numOf(t, get(t, db, table, "a", "2"), "b") != "6" || len(res.Written) != 2 || res.Requests != 1 || res.WCU != 2 {
			t.Errorf("written %v requests %d WCU %v", res.Written, res.Requests, res.WCU)
		}
	})
}

// Several writes in flight: every item is written once, and a failure
// part-way names exactly the items written and not written.
func TestConcurrentWrites(t *testing.T) {
	backends(t, func(t *testing.T, db backend, table string) {
		var items []map[string]types.AttributeValue
		for i := 1; i <= 30; i++ {
			items = append(items, item("a", strconv.Itoa(i), "b", n(strconv.Itoa(i))))
		}
		create(t, db, table, items...)
		ctx := context.Background()
		st, err := parser.ParseOne("UPDATE `" + table + "` SET b = b * 2 WHERE PK = 'a'")
		if err != nil {
			t.Fatal(err)
		}
		wp, err := planner.PlanWrite(ctx, dynamo.NewCatalog(db), st, planner.Options{Parallelism: 1})
		if err != nil {
			t.Fatal(err)
		}
		env := &write.Env{Engine: &engine.Env{Client: db, Mem: memory.DefaultAllocator, Stats: engine.NewStats(), Concurrency: 6}, Client: db}
		res, err := write.Run(ctx, env, wp)
		if err != nil || len(res.Written) != 30 || res.Requests != 30 {
			t.Fatalf("err %v written %d requests %d", err, len(res.Written), res.Requests)
		}
		for i := 1; i <= 30; i++ {
			if got := numOf(t, get(t, db, table, "a", strconv.Itoa(i)), "b"); got != strconv.Itoa(2*i) {
				t.Errorf("item %d: b = %s", i, got)
			}
		}
		// A writer that fails every item from the 10th on.
		var calls atomic.Int32
		failing := &failFrom{ItemWriter: db, from: 10, calls: &calls}
		env.Client = failing
		res, err = write.Run(ctx, env, wp)
		de, ok := diag.As(err)
		if !ok || de.Code != diag.CodePartialWrite {
			t.Fatalf("got %v, want partial_write", err)
		}
		if len(res.Written)+len(res.NotWritten) != 30 || len(res.Written) < 9 || len(res.Written) > 9+6 {
			t.Errorf("written %d, not written %d", len(res.Written), len(res.NotWritten))
		}
		for _, k := range res.Written {
			i, _ := strconv.Atoi(strings.TrimPrefix(k, "PK='a', SK="))
			if got := numOf(t, get(t, db, table, "a", strconv.Itoa(i)), "b"); got != strconv.Itoa(4*i) {
				t.Errorf("written item %d: b = %s, want %d", i, got, 4*i)
			}
		}
		for _, k := range res.NotWritten {
			i, _ := strconv.Atoi(strings.TrimPrefix(k, "PK='a', SK="))
			if got := numOf(t, get(t, db, table, "a", strconv.Itoa(i)), "b"); got != strconv.Itoa(2*i) {
				t.Errorf("item %d listed as not written has b = %s, want %d", i, got, 2*i)
			}
		}
	})
}

// failFrom answers UpdateItem with a validation error from the from-th call on.
type failFrom struct {
	dynamo.ItemWriter
	from  int32
	calls *atomic.Int32
}

func (f *failFrom) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	if f.calls.Add(1) >= f.from {
		return nil, &smithy.GenericAPIError{Code: "ValidationException", Message: "refused by the test"}
	}
	return f.ItemWriter.UpdateItem(ctx, in, opts...)
}

// A key of the wrong type in any row is refused before the first write.
func TestKeyTypeCheckedBeforeWriting(t *testing.T) {
	backends(t, func(t *testing.T, db backend, table string) {
		create(t, db, table)
		_, err := run(t, db, db, "INSERT INTO `"+table+"` (PK, SK) VALUES ('a', 1), (2, 2)", nil)
		if de, ok := diag.As(err); !ok || de.Code != diag.CodeKeyType || !strings.Contains(de.Msg, "nothing was written") {
			t.Fatalf("got %v", err)
		}
		if get(t, db, table, "a", "1") != nil {
			t.Error("the first row was written")
		}
	})
}

// A change inside a document between the read and the write is kept: the
// condition compares the document member by member.
func TestConcurrentDocumentChangeIsKept(t *testing.T) {
	backends(t, func(t *testing.T, db backend, table string) {
		doc := func(x, l0 string) types.AttributeValue {
			return &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"x": n(x), "l": &types.AttributeValueMemberL{Value: []types.AttributeValue{s(l0)}}}}
		}
		create(t, db, table, item("a", "1", "doc", doc("1", "p")))
		once := false
		hook := func(ctx context.Context, _ map[string]types.AttributeValue) {
			if !once {
				once = true
				if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item("a", "1", "doc", doc("1", "q"))}); err != nil {
					t.Error(err)
				}
			}
		}
		res, err := run(t, db, db, "UPDATE `"+table+"` SET doc.x = doc.x + 1 WHERE PK = 'a'", hook)
		if err != nil {
			t.Fatal(err)
		}
		m := get(t, db, table, "a", "1")["doc"].(*types.AttributeValueMemberM).Value
		if numOfAV(m["x"]) != "2" || m["l"].(*types.AttributeValueMemberL).Value[0].(*types.AttributeValueMemberS).Value != "q" {
			t.Errorf("doc = %#v: the other writer's l[0] = 'q' or our x + 1 is lost", m)
		}
		if res.Conditions != 1 {
			t.Errorf("conditions %d", res.Conditions)
		}
	})
}

// Env.Confirm is asked, with the count and WCU, before a statement of
// several items writes; no writes nothing.
func TestConfirm(t *testing.T) {
	db := memdb.New()
	create(t, db, "writes", item("a", "1", "b", n("1")), item("a", "2", "b", n("2")))
	ctx := context.Background()
	for _, answer := range []bool{false, true} {
		st, err := parser.ParseOne("DELETE FROM writes WHERE PK = 'a'")
		if err != nil {
			t.Fatal(err)
		}
		wp, err := planner.PlanWrite(ctx, dynamo.NewCatalog(db), st, planner.Options{Parallelism: 1})
		if err != nil {
			t.Fatal(err)
		}
		var asked write.Confirmation
		env := &write.Env{Engine: &engine.Env{Client: db, Mem: memory.DefaultAllocator, Stats: engine.NewStats(), Concurrency: 1}, Client: db,
			Confirm: func(_ context.Context, c write.Confirmation) bool { asked = c; return answer }}
		_, err = write.Run(ctx, env, wp)
		if asked.Items != 2 || asked.WCU != 2 || len(asked.Keys) != 2 {
			t.Errorf("asked %+v", asked)
		}
		de, _ := diag.As(err)
		switch {
		case !answer && (de == nil || de.Code != diag.CodeCancelled || get(t, db, "writes", "a", "1") == nil):
			t.Errorf("declined: %v, item %v", err, get(t, db, "writes", "a", "1"))
		case answer && (err != nil || get(t, db, "writes", "a", "1") != nil):
			t.Errorf("confirmed: %v", err)
		}
	}
}
