package memdb

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/planner/value"
)

// jsonItems parses a body QueryJSON or ScanJSON rendered into values; nil
// when it has no Items member.
func jsonItems(t *testing.T, body []byte) []value.Value {
	t.Helper()
	var b struct{ Items *[]json.RawMessage }
	if err := json.Unmarshal(body, &b); err != nil {
		t.Fatalf("body %s: %v", body, err)
	}
	if b.Items == nil {
		return nil
	}
	out := []value.Value{}
	for _, raw := range *b.Items {
		v, err := value.ParseItemJSON(raw)
		if err != nil {
			t.Fatalf("item %s: %v", raw, err)
		}
		out = append(out, v)
	}
	return out
}

func sdkItems(t *testing.T, items []map[string]types.AttributeValue) []value.Value {
	t.Helper()
	if items == nil {
		return nil
	}
	out := []value.Value{}
	for _, it := range items {
		v, err := value.FromItem(it)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

func richDB(t *testing.T) *DB {
	db := newDB(t, withGSI(tableDef("tbl", "pk:S", "sk:N"), "byA", types.ProjectionTypeKeysOnly, nil, "a:S"))
	for i := 0; i < 40; i++ {
		it := rec{"pk": S(fmt.Sprint("p", i%3)), "sk": N(fmt.Sprint(i)), "a": S(fmt.Sprint("x\"\\\u00e9\n", i%4)),
			"m":     &types.AttributeValueMemberM{Value: rec{"k": N("1.50"), "l": &types.AttributeValueMemberL{Value: []av{B(1, 2, 255), &types.AttributeValueMemberNULL{Value: true}}}}},
			"ss":    &types.AttributeValueMemberSS{Value: []string{"b", "a"}},
			"ns":    &types.AttributeValueMemberNS{Value: []string{"10", "-2.5"}},
			"odd ☃": &types.AttributeValueMemberBOOL{Value: i%2 == 0}}
		if i%5 == 0 {
			delete(it, "a")
		}
		put(t, db, "tbl", it)
	}
	return db
}

func TestQueryJSONMatchesQuery(t *testing.T) {
	db := richDB(t)
	ins := map[string]func() *dynamodb.QueryInput{
		"all": func() *dynamodb.QueryInput { return qin("tbl", "pk = :p", map[string]av{":p": S("p1")}) },
		"limit desc": func() *dynamodb.QueryInput {
			in := qin("tbl", "pk = :p", map[string]av{":p": S("p1")})
			in.Limit, in.ScanIndexForward = aws.Int32(4), aws.Bool(false)
			return in
		},
		"filter projection": func() *dynamodb.QueryInput {
			in := qin("tbl", "pk = :p AND sk > :s", map[string]av{":p": S("p0"), ":s": N("5"), ":b": &types.AttributeValueMemberBOOL{Value: true}})
			in.FilterExpression = aws.String("#o = :b")
			in.ExpressionAttributeNames = map[string]string{"#o": "odd ☃"}
			in.ProjectionExpression = aws.String("m.l[0], sk, ss")
			return in
		},
		"count": func() *dynamodb.QueryInput {
			in := qin("tbl", "pk = :p", map[string]av{":p": S("p2")})
			in.Select = types.SelectCount
			return in
		},
		"index": func() *dynamodb.QueryInput {
			in := qin("tbl", "a = :a", map[string]av{":a": S("x\"\\\u00e9\n1")})
			in.IndexName = aws.String("byA")
			return in
		},
		"nothing": func() *dynamodb.QueryInput { return qin("tbl", "pk = :p", map[string]av{":p": S("none")}) },
	}
	for name, mk := range ins {
		t.Run(name, func(t *testing.T) {
			want, err := db.Query(ctx, mk())
			if err != nil {
				t.Fatal(err)
			}
			got, body, err := db.QueryJSON(ctx, mk(), []byte("keep"))
			if err != nil {
				t.Fatal(err)
			}
			if string(body[:4]) != "keep" {
				t.Fatalf("body does not extend dst: %q", body)
			}
			if got.Items != nil {
				t.Errorf("QueryJSON returned SDK items")
			}
			wantItems, gotItems := sdkItems(t, want.Items), jsonItems(t, body[4:])
			if !reflect.DeepEqual(gotItems, wantItems) {
				t.Errorf("items\n got %v\nwant %v", gotItems, wantItems)
			}
			if got.Count != want.Count || got.ScannedCount != want.ScannedCount || !reflect.DeepEqual(got.LastEvaluatedKey, want.LastEvaluatedKey) {
				t.Errorf("got count %d scanned %d lek %v, want %d %d %v", got.Count, got.ScannedCount, got.LastEvaluatedKey, want.Count, want.ScannedCount, want.LastEvaluatedKey)
			}
		})
	}
}

func TestScanJSONMatchesScan(t *testing.T) {
	db := richDB(t)
	for _, seg := range []int32{0, 1, 2} {
		in := func() *dynamodb.ScanInput {
			return &dynamodb.ScanInput{TableName: aws.String("tbl"), Segment: aws.Int32(seg), TotalSegments: aws.Int32(3), Limit: aws.Int32(7),
				ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal}
		}
		want, err := db.Scan(ctx, in())
		if err != nil {
			t.Fatal(err)
		}
		got, body, err := db.ScanJSON(ctx, in(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(jsonItems(t, body), sdkItems(t, want.Items)) || got.Count != want.Count ||
			!reflect.DeepEqual(got.LastEvaluatedKey, want.LastEvaluatedKey) || !reflect.DeepEqual(got.ConsumedCapacity, want.ConsumedCapacity) {
			t.Errorf("segment %d: ScanJSON differs from Scan: %s", seg, body)
		}
	}
	_, _, err := db.ScanJSON(ctx, &dynamodb.ScanInput{TableName: aws.String("missing")}, nil)
	if errCode(err) != "ResourceNotFoundException" {
		t.Errorf("missing table: %v", err)
	}
}
