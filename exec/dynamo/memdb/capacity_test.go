package memdb_test

import (
	"context"
	"fmt"
	"sort"
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

// Consumed read capacity, one table-driven test per operation. Every case
// names the rule its figure comes from, in the words of AWS's
// documentation:
//
//   - [unit]: "A strongly consistent read request of an item up to 4 KB
//     requires one read unit. An eventually consistent read request of an
//     item up to 4 KB requires one-half read unit." (Developer Guide, read
//     and write operations)
//   - [getitem]: "To determine the number of capacity units that GetItem
//     will consume, take the item size and round it up to the next 4 KB
//     boundary." (ibid.)
//   - [missing]: "If you perform a read operation on an item that does not
//     exist, DynamoDB still consumes provisioned read throughput: A strongly
//     consistent read request consumes one read capacity unit, while an
//     eventually consistent read request consumes 0.5 of a read capacity
//     unit." (ibid.)
//   - [subset]: "For any operation that returns items, you can request a
//     subset of attributes to retrieve. However, doing so has no impact on
//     the item size calculations." (ibid.)
//   - [count]: "Getting the count of items uses the same quantity of read
//     capacity units and is subject to the same item size calculations."
//     (ibid.)
//   - [batch]: "DynamoDB processes each item in the batch as an individual
//     GetItem request, so DynamoDB first rounds up the size of each item to
//     the next 4 KB boundary, and then calculates the total size." (ibid.)
//   - [batch-missing]: "Requests for nonexistent items consume the minimum
//     read capacity units according to the type of read." (API Reference,
//     BatchGetItem)
//   - [query]: "All items returned are treated as a single read operation,
//     where DynamoDB computes the total size of all items and then rounds up
//     to the next 4 KB boundary." (Developer Guide, read and write
//     operations)
//   - [query-empty]: "Queries that do not return results consume the
//     minimum read capacity units according to the type of read." (API
//     Reference, Query)
//   - [scan]: "DynamoDB considers the size of the items that are evaluated,
//     not the size of the items returned by the scan." (Developer Guide,
//     read and write operations)
//   - [filter]: "A filter expression is applied after a Query finishes, but
//     before the results are returned. Therefore, a Query consumes the same
//     amount of read capacity, regardless of whether a filter expression is
//     present." (Developer Guide, Query; the Scan page says the same)
//   - [limit]: "With the Query operation, you can limit the number of items
//     that it reads." (Developer Guide, Query): capacity counts only what
//     was read.
//   - [gsi]: "For global secondary index queries, DynamoDB calculates the
//     provisioned read activity in the same way as it does for queries
//     against tables. The only difference is that the calculation is based
//     on the sizes of the index entries ... the sum of all projected
//     attribute sizes across all of the items returned." (Developer Guide,
//     GSI) — and a GSI read consumes "the index's provisioned read
//     capacity" (Developer Guide, Query).
//   - [lsi-fetch]: "In addition to the reads from the local secondary index
//     described previously, you are charged for read capacity units for
//     every base table item fetched. This charge is for reading each entire
//     item from the table", and the guide's example rounds the fetched
//     items "each item individually rounded up to the next 4 KB" (Developer
//     Guide, LSI).
//   - [return-cc]: "INDEXES - The response includes the aggregate
//     ConsumedCapacity for the operation, together with ConsumedCapacity for
//     each table and secondary index that was accessed. ... TOTAL - The
//     response includes only the aggregate ConsumedCapacity for the
//     operation. NONE - No ConsumedCapacity details are included in the
//     response." (API Reference)
//
// Each request also runs against dynalite (DDBSQL_TEST_DYNALITE). Where
// dynalite differs from the rule, the case records dynalite's figure in
// dynalite and says why; memdb is always held to the rule.

// capacityCase is one request and the capacity the rule gives for it.
type capacityCase struct {
	name string
	// call sends the request and renders the ConsumedCapacity of each
	// response (renderCC), "<none>" when there is none.
	call func(ctx context.Context, c dynamo.Client, p string) string
	want string
	// dynalite is what dynalite answers where it departs from the rule
	// ("" when it follows it).
	dynalite string
}

// The capacity tables. Every attribute is a string, so an item's size is
// the sum of the lengths of its names and values ([getitem]: "item size"
// is names plus values).
const (
	capTable  = "capacity"       // PK/SK, GSIs byG (ALL) and keysG (KEYS_ONLY), LSI byL (KEYS_ONLY)
	capSmall  = "capacity_small" // PK only: k1, k2, k3 of 1,500 bytes
	capEmpty  = "capacity_empty" // no items
	bigItems  = 300              // partition "big": 300 items of 10,000 bytes, over 1 MB
	bigItemSz = 10_000
)

// sizedItem builds an item of exactly size bytes: attrs plus a "filler"
// attribute that takes up the rest.
func sizedItem(size int, attrs ...string) value.Value {
	m := map[string]value.Value{}
	used := len("filler")
	for i := 0; i < len(attrs); i += 2 {
		m[attrs[i]] = value.Str(attrs[i+1])
		used += len(attrs[i]) + len(attrs[i+1])
	}
	m["filler"] = value.Str(strings.Repeat("p", size-used))
	return value.MapOf(m)
}

// stringItemSize is the size of an item of string attributes.
func stringItemSize(item map[string]types.AttributeValue) int {
	n := 0
	for name, av := range item {
		n += len(name) + len(av.(*types.AttributeValueMemberS).Value)
	}
	return n
}

func capacityTables() []*fixtures.Table {
	str := func(names ...string) []types.AttributeDefinition {
		var out []types.AttributeDefinition
		for _, n := range names {
			out = append(out, types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: types.ScalarAttributeTypeS})
		}
		return out
	}
	key := func(names ...string) []types.KeySchemaElement {
		out := []types.KeySchemaElement{{AttributeName: aws.String(names[0]), KeyType: types.KeyTypeHash}}
		if len(names) > 1 {
			out = append(out, types.KeySchemaElement{AttributeName: aws.String(names[1]), KeyType: types.KeyTypeRange})
		}
		return out
	}
	main := &fixtures.Table{Name: capTable, Create: &dynamodb.CreateTableInput{
		TableName:            aws.String(capTable),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: str("PK", "SK", "G", "GS", "L"),
		KeySchema:            key("PK", "SK"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			{IndexName: aws.String("byG"), KeySchema: key("G", "GS"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}},
			{IndexName: aws.String("keysG"), KeySchema: key("G"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}},
		},
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{
			{IndexName: aws.String("byL"), KeySchema: key("PK", "L"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}},
		},
	}}
	main.Items = []value.Value{
		sizedItem(1000, "PK", "one", "SK", "a", "G", "g", "GS", "1", "L", "1"),
		sizedItem(5000, "PK", "one", "SK", "b", "G", "g", "GS", "2", "L", "2"),
		sizedItem(4096, "PK", "one", "SK", "c", "L", "3"),
		sizedItem(4097, "PK", "one", "SK", "d", "L", "4"),
		sizedItem(1500, "PK", "three", "SK", "x", "G", "h", "GS", "1", "L", "1"),
		sizedItem(1500, "PK", "three", "SK", "y", "G", "h", "GS", "2", "L", "2"),
		sizedItem(1500, "PK", "three", "SK", "z", "G", "h", "GS", "3", "L", "3"),
	}
	for i := 0; i < bigItems; i++ {
		main.Items = append(main.Items, sizedItem(bigItemSz, "PK", "big", "SK", fmt.Sprintf("%04d", i)))
	}
	small := &fixtures.Table{Name: capSmall, Create: &dynamodb.CreateTableInput{
		TableName: aws.String(capSmall), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: str("PK"), KeySchema: key("PK"),
	}}
	for _, k := range []string{"k1", "k2", "k3"} {
		small.Items = append(small.Items, sizedItem(1500, "PK", k))
	}
	empty := &fixtures.Table{Name: capEmpty, Create: &dynamodb.CreateTableInput{
		TableName: aws.String(capEmpty), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: str("PK"), KeySchema: key("PK"),
	}}
	return []*fixtures.Table{main, small, empty}
}

// capacityBackends loads the capacity tables into memdb and into dynalite.
func capacityBackends(t *testing.T) (mem, dl dynamo.Client, memPrefix, dlPrefix string) {
	t.Helper()
	ctx := context.Background()
	db := memdb.New()
	if err := fixtures.Load(ctx, db, "", capacityTables()...); err != nil {
		t.Fatal(err)
	}
	client := dynalitetest.Client(t)
	prefix := dynalitetest.Prefix(t)
	if err := fixtures.Load(ctx, client, prefix, capacityTables()...); err != nil {
		t.Fatal(err)
	}
	return db, client, "", prefix
}

// runCapacityCases holds memdb to each case's rule and dynalite to the
// rule or to its recorded difference.
func runCapacityCases(t *testing.T, cases []capacityCase) {
	mem, dl, mp, dp := capacityBackends(t)
	ctx := context.Background()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.call(ctx, mem, mp); got != c.want {
				t.Errorf("memdb:    %s\nthe rule: %s", got, c.want)
			}
			want := c.want
			if c.dynalite != "" {
				want = c.dynalite
			}
			if got := c.call(ctx, dl, dp); got != want {
				t.Errorf("dynalite: %s\nexpected: %s (update the case if dynalite changed)", got, want)
			}
		})
	}
}

func ccText(cc *types.ConsumedCapacity, p string) string {
	if cc == nil {
		return "<none>"
	}
	return renderCC(*cc, p)
}

func key1(pk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"PK": s(pk)}
}

func key2(pk, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"PK": s(pk), "SK": s(sk)}
}

func getCap(in dynamodb.GetItemInput) func(context.Context, dynamo.Client, string) string {
	return func(ctx context.Context, c dynamo.Client, p string) string {
		in := in
		in.TableName = aws.String(p + *in.TableName)
		out, err := c.GetItem(ctx, &in)
		if err != nil {
			return renderErr(err)
		}
		return ccText(out.ConsumedCapacity, p)
	}
}

func TestGetItemCapacity(t *testing.T) {
	get := func(sk string, f func(*dynamodb.GetItemInput)) func(context.Context, dynamo.Client, string) string {
		in := dynamodb.GetItemInput{TableName: aws.String(capTable), Key: key2("one", sk), ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes}
		if f != nil {
			f(&in)
		}
		return getCap(in)
	}
	strong := func(in *dynamodb.GetItemInput) { in.ConsistentRead = aws.Bool(true) }
	runCapacityCases(t, []capacityCase{
		// [getitem], [unit]: 1,000 bytes round up to one 4 KB unit, ½ RCU eventually consistent.
		{name: "1000-byte item", call: get("a", nil), want: "capacity:0.5 table=0.5"},
		// [getitem]: exactly 4 KB is one unit.
		{name: "4096-byte item is one unit", call: get("c", nil), want: "capacity:0.5 table=0.5"},
		// [getitem]: one byte more is two units.
		{name: "4097-byte item is two units", call: get("d", nil), want: "capacity:1 table=1"},
		// [getitem], [unit]: 5,000 bytes are two units: 1 RCU eventually, 2 strongly consistent.
		{name: "5000-byte item", call: get("b", nil), want: "capacity:1 table=1"},
		{name: "5000-byte item strongly consistent", call: get("b", strong), want: "capacity:2 table=2"},
		// [missing]: a key that does not exist costs ½ RCU, 1 strongly consistent.
		{name: "missing key", call: get("nope", nil), want: "capacity:0.5 table=0.5"},
		{name: "missing key strongly consistent", call: get("nope", strong), want: "capacity:1 table=1"},
		// [subset]: a ProjectionExpression does not reduce the item's size.
		{name: "projection of one attribute", call: get("b", func(in *dynamodb.GetItemInput) { in.ProjectionExpression = aws.String("SK") }),
			want: "capacity:1 table=1"},
		// [return-cc]: TOTAL reports only the aggregate; NONE or nothing, no ConsumedCapacity.
		{name: "TOTAL", call: get("b", func(in *dynamodb.GetItemInput) { in.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal }), want: "capacity:1"},
		{name: "NONE", call: get("b", func(in *dynamodb.GetItemInput) { in.ReturnConsumedCapacity = types.ReturnConsumedCapacityNone }), want: "<none>"},
		{name: "not requested", call: get("b", func(in *dynamodb.GetItemInput) { in.ReturnConsumedCapacity = "" }), want: "<none>"},
	})
}

func batchCap(in dynamodb.BatchGetItemInput) func(context.Context, dynamo.Client, string) string {
	return func(ctx context.Context, c dynamo.Client, p string) string {
		req := map[string]types.KeysAndAttributes{}
		for k, v := range in.RequestItems {
			req[p+k] = v
		}
		in := in
		in.RequestItems = req
		out, err := c.BatchGetItem(ctx, &in)
		if err != nil {
			return renderErr(err)
		}
		if len(out.ConsumedCapacity) == 0 {
			return "<none>"
		}
		var ccs []string
		for _, cc := range out.ConsumedCapacity {
			ccs = append(ccs, renderCC(cc, p))
		}
		sort.Strings(ccs)
		return strings.Join(ccs, " | ")
	}
}

func TestBatchGetItemCapacity(t *testing.T) {
	batch := func(mode types.ReturnConsumedCapacity, tables map[string]types.KeysAndAttributes) func(context.Context, dynamo.Client, string) string {
		return batchCap(dynamodb.BatchGetItemInput{RequestItems: tables, ReturnConsumedCapacity: mode})
	}
	keys := func(sks ...string) []map[string]types.AttributeValue {
		var out []map[string]types.AttributeValue
		for _, sk := range sks {
			out = append(out, key2("one", sk))
		}
		return out
	}
	indexes := types.ReturnConsumedCapacityIndexes
	runCapacityCases(t, []capacityCase{
		// [batch]: 1,000 and 5,000 bytes are rounded one by one: 1 + 2
		// units = 1.5 RCU (rounding their 6,000-byte sum would give 1).
		{name: "each item rounded", call: batch(indexes, map[string]types.KeysAndAttributes{capTable: {Keys: keys("a", "b")}}),
			want: "capacity:1.5 table=1.5"},
		// [batch-missing]: a key that does not exist costs the minimum, ½ RCU.
		{name: "missing key", call: batch(indexes, map[string]types.KeysAndAttributes{capTable: {Keys: keys("a", "b", "nope")}}),
			want: "capacity:2 table=2"},
		// [unit], [batch-missing]: strongly consistent, 1 + 2 + 1 units.
		{name: "strongly consistent with a missing key", call: batch(indexes, map[string]types.KeysAndAttributes{
			capTable: {Keys: keys("a", "b", "nope"), ConsistentRead: aws.Bool(true)}}), want: "capacity:4 table=4"},
		// [subset]: the projection does not reduce the sizes.
		{name: "projection", call: batch(indexes, map[string]types.KeysAndAttributes{capTable: {Keys: keys("a", "b"), ProjectionExpression: aws.String("PK, SK")}}),
			want: "capacity:1.5 table=1.5"},
		// [return-cc]: one ConsumedCapacity per table accessed.
		{name: "two tables", call: batch(indexes, map[string]types.KeysAndAttributes{
			capTable: {Keys: keys("b")}, capSmall: {Keys: []map[string]types.AttributeValue{key1("k1"), key1("k2")}}}),
			want: "capacity:1 table=1 | capacity_small:1 table=1"},
		{name: "TOTAL", call: batch(types.ReturnConsumedCapacityTotal, map[string]types.KeysAndAttributes{capTable: {Keys: keys("a", "b")}}),
			want: "capacity:1.5"},
		{name: "NONE", call: batch(types.ReturnConsumedCapacityNone, map[string]types.KeysAndAttributes{capTable: {Keys: keys("a", "b")}}),
			want: "<none>"},
	})
}

func queryCap(in dynamodb.QueryInput) func(context.Context, dynamo.Client, string) string {
	return func(ctx context.Context, c dynamo.Client, p string) string {
		in := in
		in.TableName = aws.String(p + *in.TableName)
		out, err := c.Query(ctx, &in)
		if err != nil {
			return renderErr(err)
		}
		return ccText(out.ConsumedCapacity, p)
	}
}

func TestQueryCapacity(t *testing.T) {
	query := func(pk string, f func(*dynamodb.QueryInput)) func(context.Context, dynamo.Client, string) string {
		in := dynamodb.QueryInput{TableName: aws.String(capTable), KeyConditionExpression: aws.String("PK = :pk"),
			ExpressionAttributeValues: vals{":pk": s(pk)}, ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes}
		if f != nil {
			f(&in)
		}
		return queryCap(in)
	}
	index := func(name, g string, f func(*dynamodb.QueryInput)) func(context.Context, dynamo.Client, string) string {
		return query("", func(in *dynamodb.QueryInput) {
			in.IndexName = aws.String(name)
			in.KeyConditionExpression = aws.String("G = :g")
			in.ExpressionAttributeValues = vals{":g": s(g)}
			if f != nil {
				f(in)
			}
		})
	}
	lsi := func(pk string, f func(*dynamodb.QueryInput)) func(context.Context, dynamo.Client, string) string {
		return query(pk, func(in *dynamodb.QueryInput) {
			in.IndexName = aws.String("byL")
			if f != nil {
				f(in)
			}
		})
	}
	strong := func(in *dynamodb.QueryInput) { in.ConsistentRead = aws.Bool(true) }
	allAttributes := func(in *dynamodb.QueryInput) { in.Select = types.SelectAllAttributes }
	runCapacityCases(t, []capacityCase{
		// [query]: three 1,500-byte items are one 4,500-byte read: 2 units,
		// 1 RCU (rounding each would give 1.5).
		{name: "sum rounded once", call: query("three", nil), want: "capacity:1 table=1"},
		{name: "sum rounded once strongly consistent", call: query("three", strong), want: "capacity:2 table=2"},
		// [query-empty]: a Query that finds nothing costs the minimum.
		// dynalite charges nothing.
		{name: "empty partition", call: query("nobody", nil), want: "capacity:0.5 table=0.5", dynalite: "capacity:0 table=0"},
		{name: "empty partition strongly consistent", call: query("nobody", strong), want: "capacity:1 table=1", dynalite: "capacity:0 table=0"},
		{name: "sort-key range with no items", call: query("three", func(in *dynamodb.QueryInput) {
			in.KeyConditionExpression = aws.String("PK = :pk AND SK > :z")
			in.ExpressionAttributeValues[":z"] = s("zz")
		}), want: "capacity:0.5 table=0.5", dynalite: "capacity:0 table=0"},
		// [filter]: a FilterExpression that keeps nothing costs what the read costs.
		{name: "filter keeps nothing", call: query("three", func(in *dynamodb.QueryInput) {
			in.FilterExpression = aws.String("filler = :no")
			in.ExpressionAttributeValues[":no"] = s("no")
		}), want: "capacity:1 table=1"},
		// [count]: Select=COUNT costs what reading the items costs.
		{name: "Select=COUNT", call: query("three", func(in *dynamodb.QueryInput) { in.Select = types.SelectCount }), want: "capacity:1 table=1"},
		// [subset]: a projection does not reduce the sizes.
		{name: "projection", call: query("three", func(in *dynamodb.QueryInput) { in.ProjectionExpression = aws.String("SK") }), want: "capacity:1 table=1"},
		// [limit], [query]: Limit 1 reads one 1,500-byte item.
		{name: "Limit 1", call: query("three", func(in *dynamodb.QueryInput) { in.Limit = aws.Int32(1) }), want: "capacity:0.5 table=0.5"},
		// [gsi]: an ALL GSI's entries are the whole items (3 × 1,500 bytes:
		// 2 units), charged to the index, nothing to the table.
		{name: "GSI ALL", call: index("byG", "h", nil), want: "capacity:1 table=0 gsi.byG=1"},
		// [gsi]: a KEYS_ONLY GSI's entries hold only the keys: one unit.
		{name: "GSI KEYS_ONLY", call: index("keysG", "h", nil), want: "capacity:0.5 table=0 gsi.keysG=0.5"},
		// [gsi], [query-empty]: an index Query that finds nothing costs the
		// index the minimum. dynalite charges nothing.
		{name: "GSI empty", call: index("byG", "nothing", nil), want: "capacity:0.5 table=0 gsi.byG=0.5", dynalite: "capacity:0 table=0 gsi.byG=0"},
		// [return-cc]: TOTAL has no breakdown by table and index.
		{name: "GSI TOTAL", call: index("byG", "h", func(in *dynamodb.QueryInput) { in.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal }), want: "capacity:1"},
		{name: "NONE", call: query("three", func(in *dynamodb.QueryInput) { in.ReturnConsumedCapacity = types.ReturnConsumedCapacityNone }), want: "<none>"},
		// [gsi] (the LSI guide words it the same): a KEYS_ONLY LSI read of
		// projected attributes only is charged to the index.
		{name: "LSI projected attributes", call: lsi("three", nil), want: "capacity:0.5 table=0 lsi.byL=0.5"},
		// [lsi-fetch]: Select=ALL_ATTRIBUTES fetches each item from the
		// table: the entries are one unit (index), each 1,500-byte item one
		// more (table): 0.5 + 3 × 0.5. dynalite rounds the fetched items'
		// 4,500-byte sum once (2 units).
		{name: "LSI fetch", call: lsi("three", allAttributes), want: "capacity:2 table=1.5 lsi.byL=0.5", dynalite: "capacity:1.5 table=1 lsi.byL=0.5"},
		// [lsi-fetch], [unit]: strongly consistent, items of 1,000, 5,000,
		// 4,096 and 4,097 bytes are 1 + 2 + 1 + 2 units (dynalite: their
		// 14,193-byte sum, 4 units).
		{name: "LSI fetch strongly consistent", call: lsi("one", func(in *dynamodb.QueryInput) { allAttributes(in); strong(in) }),
			want: "capacity:7 table=6 lsi.byL=1", dynalite: "capacity:5 table=4 lsi.byL=1"},
	})
}

func scanCap(in dynamodb.ScanInput) func(context.Context, dynamo.Client, string) string {
	return func(ctx context.Context, c dynamo.Client, p string) string {
		in := in
		in.TableName = aws.String(p + *in.TableName)
		out, err := c.Scan(ctx, &in)
		if err != nil {
			return renderErr(err)
		}
		if out.LastEvaluatedKey != nil && in.Limit == nil {
			return "unexpected second page"
		}
		return ccText(out.ConsumedCapacity, p)
	}
}

func TestScanCapacity(t *testing.T) {
	scanOf := func(table string, f func(*dynamodb.ScanInput)) func(context.Context, dynamo.Client, string) string {
		in := dynamodb.ScanInput{TableName: aws.String(table), ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes}
		if f != nil {
			f(&in)
		}
		return scanCap(in)
	}
	runCapacityCases(t, []capacityCase{
		// [scan], [query]: three 1,500-byte items read in one page, 4,500
		// bytes rounded once: 2 units.
		{name: "sum rounded once", call: scanOf(capSmall, nil), want: "capacity_small:1 table=1"},
		// [unit]: strongly consistent doubles it. dynalite ignores
		// ConsistentRead on Scan.
		{name: "strongly consistent", call: scanOf(capSmall, func(in *dynamodb.ScanInput) { in.ConsistentRead = aws.Bool(true) }),
			want: "capacity_small:2 table=2", dynalite: "capacity_small:1 table=1"},
		// [scan], [filter]: what a filter drops is still billed.
		{name: "filter keeps nothing", call: scanOf(capSmall, func(in *dynamodb.ScanInput) {
			in.FilterExpression = aws.String("filler = :no")
			in.ExpressionAttributeValues = vals{":no": s("no")}
		}), want: "capacity_small:1 table=1"},
		// [count]
		{name: "Select=COUNT", call: scanOf(capSmall, func(in *dynamodb.ScanInput) { in.Select = types.SelectCount }), want: "capacity_small:1 table=1"},
		// [limit]: Limit 1 reads one 1,500-byte item.
		{name: "Limit 1", call: scanOf(capSmall, func(in *dynamodb.ScanInput) { in.Limit = aws.Int32(1) }), want: "capacity_small:0.5 table=0.5"},
		// [query-empty] (the minimum applies to every read): an empty table
		// costs one unit. dynalite charges nothing.
		{name: "empty table", call: scanOf(capEmpty, nil), want: "capacity_empty:0.5 table=0.5", dynalite: "capacity_empty:0 table=0"},
		// [gsi]: a GSI Scan reads the entries (1,000 + 5,000 + 3 × 1,500
		// bytes: 3 units) and charges the index.
		{name: "GSI", call: scanOf(capTable, func(in *dynamodb.ScanInput) { in.IndexName = aws.String("byG") }), want: "capacity:1.5 table=0 gsi.byG=1.5"},
		// [return-cc]
		{name: "TOTAL", call: scanOf(capSmall, func(in *dynamodb.ScanInput) { in.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal }), want: "capacity_small:1"},
		{name: "NONE", call: scanOf(capSmall, func(in *dynamodb.ScanInput) { in.ReturnConsumedCapacity = types.ReturnConsumedCapacityNone }), want: "<none>"},
	})
}

// TestCapacityPerPage: reads over several 1 MB pages are billed page by
// page ([query], [scan]: "a single read operation" is one request), each
// page's items summed and rounded once, at least one unit ([query-empty]).
// The rule is computed from each page's own items, on memdb and dynalite.
func TestCapacityPerPage(t *testing.T) {
	mem, dl, mp, dp := capacityBackends(t)
	ctx := context.Background()
	type pageRead func(ctx context.Context, c dynamo.Client, p string, start map[string]types.AttributeValue) ([]map[string]types.AttributeValue, map[string]types.AttributeValue, *types.ConsumedCapacity, error)
	queryBig := func(consistent bool) pageRead {
		return func(ctx context.Context, c dynamo.Client, p string, start map[string]types.AttributeValue) ([]map[string]types.AttributeValue, map[string]types.AttributeValue, *types.ConsumedCapacity, error) {
			out, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String(p + capTable), KeyConditionExpression: aws.String("PK = :pk"),
				ExpressionAttributeValues: vals{":pk": s("big")}, ConsistentRead: aws.Bool(consistent), ExclusiveStartKey: start,
				ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
			if err != nil {
				return nil, nil, nil, err
			}
			return out.Items, out.LastEvaluatedKey, out.ConsumedCapacity, nil
		}
	}
	scanSegment := func(segment, total int32) pageRead {
		return func(ctx context.Context, c dynamo.Client, p string, start map[string]types.AttributeValue) ([]map[string]types.AttributeValue, map[string]types.AttributeValue, *types.ConsumedCapacity, error) {
			out, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(p + capTable), Segment: aws.Int32(segment), TotalSegments: aws.Int32(total),
				ExclusiveStartKey: start, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
			if err != nil {
				return nil, nil, nil, err
			}
			return out.Items, out.LastEvaluatedKey, out.ConsumedCapacity, nil
		}
	}
	reads := map[string]struct {
		read       pageRead
		consistent bool
	}{
		"Query big partition":                   {queryBig(false), false},
		"Query big partition, strong":           {queryBig(true), true},
		"Scan whole table":                      {scanSegment(0, 1), false},
		"Scan segment 0 of 3":                   {scanSegment(0, 3), false},
		"Scan segment 1 of 3":                   {scanSegment(1, 3), false},
		"Scan segment 2 of 3":                   {scanSegment(2, 3), false},
		"Scan segment 7 of 8 (few or no items)": {scanSegment(7, 8), false},
	}
	backends := []struct {
		name   string
		c      dynamo.Client
		prefix string
	}{{"memdb", mem, mp}, {"dynalite", dl, dp}}
	for name, r := range reads {
		t.Run(name, func(t *testing.T) {
			for _, b := range backends {
				var start map[string]types.AttributeValue
				pages := 0
				for {
					items, lek, cc, err := r.read(ctx, b.c, b.prefix, start)
					if err != nil {
						t.Fatalf("%s: %v", b.name, err)
					}
					bytes := 0
					for _, it := range items {
						bytes += stringItemSize(it)
					}
					units := max(1, (bytes+4095)/4096)
					want := float64(units)
					if !r.consistent {
						want /= 2
					}
					got := aws.ToFloat64(cc.CapacityUnits)
					if got != want && !(b.name == "dynalite" && len(items) == 0 && got == 0) {
						t.Errorf("%s page %d: %d items, %d bytes: %v RCU, the rule gives %v", b.name, pages+1, len(items), bytes, got, want)
					}
					pages++
					if lek == nil {
						break
					}
					start = lek
				}
				if name == "Query big partition" && pages < 3 {
					t.Errorf("%s: %d pages; the partition holds %d bytes, over 1 MB", b.name, pages, bigItems*bigItemSz)
				}
			}
		})
	}
}

// TestLaggingCounts: with WithLaggingCounts, DescribeTable reports the
// counts of the last RefreshCounts (0 before it), as DynamoDB does between
// its refreshes about every six hours; by default they are live.
func TestLaggingCounts(t *testing.T) {
	ctx := context.Background()
	describe := func(db *memdb.DB) (items, bytes, gsiItems int64) {
		t.Helper()
		out, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(capTable)})
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range out.Table.GlobalSecondaryIndexes {
			if aws.ToString(g.IndexName) == "byG" {
				gsiItems = aws.ToInt64(g.ItemCount)
			}
		}
		return aws.ToInt64(out.Table.ItemCount), aws.ToInt64(out.Table.TableSizeBytes), gsiItems
	}
	tables := capacityTables()
	wantItems := int64(len(tables[0].Items))

	live := memdb.New()
	if err := fixtures.Load(ctx, live, "", tables...); err != nil {
		t.Fatal(err)
	}
	if items, bytes, gsi := describe(live); items != wantItems || bytes == 0 || gsi != 5 {
		t.Fatalf("live counts: %d items, %d bytes, %d in byG; want %d items, some bytes, 5 in byG", items, bytes, gsi, wantItems)
	}

	lagging := memdb.New(memdb.WithLaggingCounts())
	if err := fixtures.Load(ctx, lagging, "", tables...); err != nil {
		t.Fatal(err)
	}
	if items, bytes, gsi := describe(lagging); items != 0 || bytes != 0 || gsi != 0 {
		t.Fatalf("freshly loaded with lagging counts: %d items, %d bytes, %d in byG; want 0 until a refresh", items, bytes, gsi)
	}
	lagging.RefreshCounts()
	liveItems, liveBytes, _ := describe(live)
	if items, bytes, gsi := describe(lagging); items != liveItems || bytes != liveBytes || gsi != 5 {
		t.Fatalf("after RefreshCounts: %d items, %d bytes, %d in byG; want %d, %d, 5", items, bytes, gsi, liveItems, liveBytes)
	}
	if _, err := lagging.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(capTable), Item: key2("new", "item")}); err != nil {
		t.Fatal(err)
	}
	if items, _, _ := describe(lagging); items != liveItems {
		t.Fatalf("a write showed in the lagging count at once: %d items, want %d until the next refresh", items, liveItems)
	}
}
