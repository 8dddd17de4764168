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
// document whose paths work.
func TestUnnestSemantics(t *testing.T) {
	items := []value.Value{
		semItem(1, attrs{"v": value.ListOf([]value.Value{str("b"), num("2"), value.NullValue(),
			value.MapOf(map[string]value.Value{"k": str("deep")})})}),
		semItem(2, attrs{"v": value.SetOf(value.StringSet, []value.Value{str("x"), str("y")})}),
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
			if err := fixtures.Load(context.Background(), be.client, be.prefix, tbl); err != nil {
				t.Fatal(err)
			}
			r := newDDBOn(t, be.client)
			run := func(q string) string {
				t.Helper()
				rows, err := r.run(context.Background(), strings.ReplaceAll(q, "{t}", "`"+tbl.Named(be.prefix)+"`"), false)
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
