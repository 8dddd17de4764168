package difftest

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/planner/value"
)

// TestUnnestSemantics pins UNNEST's decisions on both backends, through
// the real SDK on dynalite: L, SS, NS and BS expand (a set's members in
// the order DynamoDB returns them, so only compared sorted here), a value
// that is no list or set expands into no row (CROSS) or one NULL row
// (LEFT), WITH ORDINALITY numbers a list from 1, and an element may be a
// document whose paths work; with a join, a joined table's list flattens
// after the join, a named query's column flattens too; SELECT * has the
// UNNEST's columns as attributes.
func TestUnnestSemantics(t *testing.T) {
	items := []value.Value{
		semItem(1, attrs{"v": value.ListOf([]value.Value{str("b"), num("2"), value.NullValue(),
			value.MapOf(map[string]value.Value{"k": str("deep")})}), "kind": str("K1")}),
		semItem(2, attrs{"v": value.SetOf(value.StringSet, []value.Value{str("x"), str("y")}), "kind": str("K2")}),
		semItem(3, attrs{"v": value.SetOf(value.NumberSet, []value.Value{num("10"), num("-2.5")})}),
		semItem(4, attrs{"v": value.SetOf(value.BinarySet, []value.Value{value.Bin([]byte("hi"))})}),
		semItem(5, attrs{"v": value.ListOf(nil)}),
		semItem(6, attrs{"v": str("scalar")}),
		semItem(7, attrs{"v": value.NullValue()}),
		semItem(8, attrs{}),
		semItem(9, attrs{"v": value.MapOf(map[string]value.Value{"a": num("1")})}),
	}
	for _, be := range []struct {
		name   string
		client interface {
			dynamo.Client
			dynamo.Writer
		}
		prefix string
	}{
		{"dynalite", dynalitetest.Client(t), dynalitetest.Prefix(t)},
		{"memdb", memdb.New(), "sem."},
	} {
		t.Run(be.name, func(t *testing.T) {
			tbl := &fixtures.Table{Name: "unnestsem", Create: &dynamodb.CreateTableInput{
				TableName:   aws.String("unnestsem"),
				BillingMode: types.BillingModePayPerRequest,
				KeySchema: []types.KeySchemaElement{
					{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
					{AttributeName: aws.String("id"), KeyType: types.KeyTypeRange},
				},
				AttributeDefinitions: []types.AttributeDefinition{
					{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
					{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeN},
				},
			}, Items: items}
			kinds := &fixtures.Table{Name: "unnestkinds", Create: &dynamodb.CreateTableInput{
				TableName:   aws.String("unnestkinds"),
				BillingMode: types.BillingModePayPerRequest,
				KeySchema:   []types.KeySchemaElement{{AttributeName: aws.String("kind"), KeyType: types.KeyTypeHash}},
				AttributeDefinitions: []types.AttributeDefinition{
					{AttributeName: aws.String("kind"), AttributeType: types.ScalarAttributeTypeS},
				},
			}, Items: []value.Value{
				value.MapOf(map[string]value.Value{"kind": str("K1"), "label": str("one"),
					"tags": value.ListOf([]value.Value{str("red"), str("blue")})}),
				value.MapOf(map[string]value.Value{"kind": str("K2"), "label": str("two")}),
			}}
			if err := fixtures.Load(context.Background(), be.client, be.prefix, tbl, kinds); err != nil {
				t.Fatal(err)
			}
			r := newDDBOn(t, be.client)
			run := func(q string) string {
				t.Helper()
				rows, err := r.run(context.Background(), strings.NewReplacer("{t}", "`"+tbl.Named(be.prefix)+"`", "{k}", "`"+kinds.Named(be.prefix)+"`").Replace(q), false)
				if err != nil {
					t.Fatalf("%s: %v", q, err)
				}
				return strings.Join(funcRowsText(rows), "; ")
			}
			want := func(q, w string) {
				t.Helper()
				if got := run(q); got != w {
					t.Errorf("%s\n got  %s\n want %s", q, got, w)
				}
			}
			want("SELECT t.id, e FROM {t} t CROSS JOIN UNNEST(t.v) AS u(e) WHERE t.pk = 'P' AND t.id = 1",
				`n:1 | s:"b"; n:1 | n:2; n:1 | NULL; n:1 | j:{"k":"deep"}`)
			want("SELECT e, n, u.e.k FROM {t} t CROSS JOIN UNNEST(t.v) WITH ORDINALITY AS u(e, n) WHERE t.pk = 'P' AND t.id = 1 AND n >= 3",
				`NULL | n:3 | NULL; j:{"k":"deep"} | n:4 | s:"deep"`)
			want("SELECT t.id, CAST(e AS CHAR) AS s FROM {t} t CROSS JOIN UNNEST(t.v) AS u(e) WHERE t.pk = 'P' AND t.id BETWEEN 2 AND 4 ORDER BY t.id, s",
				`n:2 | s:"x"; n:2 | s:"y"; n:3 | s:"-2.5"; n:3 | s:"10"; n:4 | s:"hi"`)
			// No list or set: nothing (CROSS), or one row with NULL (LEFT).
			want("SELECT COUNT(*) FROM {t} t CROSS JOIN UNNEST(t.v) AS u(e) WHERE t.pk = 'P' AND t.id >= 5", `n:0`)
			want("SELECT t.id, e, n FROM {t} t LEFT JOIN UNNEST(t.v) WITH ORDINALITY AS u(e, n) ON true WHERE t.pk = 'P' AND t.id >= 4 ORDER BY t.id",
				`n:4 | s:"aGk=" | n:1; n:5 | NULL | NULL; n:6 | NULL | NULL; n:7 | NULL | NULL; n:8 | NULL | NULL; n:9 | NULL | NULL`)
			// Conditions on elements filter rows, on the table items.
			want("SELECT t.id, COUNT(*) FROM {t} t CROSS JOIN UNNEST(t.v) AS u(e) WHERE t.pk = 'P' AND e IS NOT NULL GROUP BY t.id ORDER BY t.id",
				`n:1 | n:3; n:2 | n:2; n:3 | n:2; n:4 | n:1`)
			// LIMIT counts flattened rows, not items.
			want("SELECT t.id FROM {t} t CROSS JOIN UNNEST(t.v) AS u(e) WHERE t.pk = 'P' ORDER BY t.id LIMIT 5",
				`n:1; n:1; n:1; n:1; n:2`)
			// With a join, the joined table's list flattens after the join;
			// conditions on the element and across tables run above it.
			want("SELECT t.id, k.label, tag FROM {t} t JOIN {k} k ON t.kind = k.kind CROSS JOIN UNNEST(k.tags) WITH ORDINALITY AS u(tag, n) WHERE t.pk = 'P' ORDER BY t.id, n",
				`n:1 | s:"one" | s:"red"; n:1 | s:"one" | s:"blue"`)
			want("SELECT t.id, k.label, tag FROM {t} t JOIN {k} k ON t.kind = k.kind LEFT JOIN UNNEST(k.tags) AS u(tag) ON true WHERE t.pk = 'P' AND tag IS NULL",
				`n:2 | s:"two" | NULL`)
			want("SELECT t.id, e, tag FROM {t} t JOIN {k} k ON t.kind = k.kind CROSS JOIN UNNEST(t.v) AS u(e) CROSS JOIN UNNEST(k.tags) AS w(tag) WHERE t.pk = 'P' AND e = 'b' AND tag <> 'red'",
				`n:1 | s:"b" | s:"blue"`)
			// A WITH query's or a derived table's column (renamed by its
			// column list) expands too.
			want("WITH w AS (SELECT id, v FROM {t} WHERE pk = 'P' AND id = 2) SELECT w.id, CAST(e AS CHAR) AS s FROM w CROSS JOIN UNNEST(w.v) AS u(e) ORDER BY s",
				`n:2 | s:"x"; n:2 | s:"y"`)
			want("SELECT d.k, e FROM (SELECT id, v FROM {t} WHERE pk = 'P' AND id = 1) AS d(k, list) CROSS JOIN UNNEST(d.list) WITH ORDINALITY AS u(e, n) WHERE n = 1",
				`n:1 | s:"b"`)
			// SELECT *: the item's attributes and the UNNEST's columns, keys
			// first and the rest by name, as every SELECT * (pk, id, e,
			// kind, n, v); t.* is the item alone, once per element.
			want("SELECT * FROM {t} t CROSS JOIN UNNEST(t.v) WITH ORDINALITY AS u(e, n) WHERE t.pk = 'P' AND t.id = 1 AND n = 2",
				`s:"P" | n:1 | n:2 | s:"K1" | n:2 | j:["b",2,null,{"k":"deep"}]`)
			want("SELECT t.* FROM {t} t CROSS JOIN UNNEST(t.v) AS u(e) WHERE t.pk = 'P' AND t.id = 2",
				`s:"P" | n:2 | s:"K2" | j:["x","y"]; s:"P" | n:2 | s:"K2" | j:["x","y"]`)
			want("SELECT u.* FROM {t} t CROSS JOIN UNNEST(t.v) WITH ORDINALITY AS u(e, n) WHERE t.pk = 'P' AND t.id = 1 AND n <= 2",
				`s:"b" | n:1; n:2 | n:2`)
			want("SELECT * FROM {t} t JOIN {k} k ON t.kind = k.kind CROSS JOIN UNNEST(k.tags) AS u(tag) WHERE t.pk = 'P' AND tag = 'red'",
				`s:"P" | n:1 | s:"K1" | s:"K1" | s:"one" | s:"red" | j:["red","blue"] | j:["b",2,null,{"k":"deep"}]`)
		})
	}
}

func semItem(id int, a attrs) value.Value {
	m := map[string]value.Value{"pk": str("P"), "id": num(strconv.Itoa(id))}
	for k, v := range a {
		m[k] = v
	}
	return value.MapOf(m)
}
