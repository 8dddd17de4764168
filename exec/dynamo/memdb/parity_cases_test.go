package memdb_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo"
)

const (
	total   = types.ReturnConsumedCapacityTotal
	indexes = types.ReturnConsumedCapacityIndexes
)

func q(table, kc string, v vals) dynamodb.QueryInput {
	return dynamodb.QueryInput{TableName: aws.String(table), KeyConditionExpression: aws.String(kc),
		ExpressionAttributeValues: v, ReturnConsumedCapacity: indexes}
}

func sc(table string) dynamodb.ScanInput {
	return dynamodb.ScanInput{TableName: aws.String(table), ReturnConsumedCapacity: indexes}
}

func with[T any](in T, f func(*T)) T {
	f(&in)
	return in
}

func parityCases() []parityCase {
	var cs []parityCase
	add := func(name string, run func(context.Context, dynamo.Client, string) []string) {
		cs = append(cs, parityCase{name, run})
	}
	// addWithoutCapacity compares everything but the consumed capacity, for
	// requests whose capacity dynalite computes unlike DynamoDB.
	addWithoutCapacity := func(name string, run func(context.Context, dynamo.Client, string) []string) {
		add(name, func(ctx context.Context, c dynamo.Client, p string) []string {
			lines := run(ctx, c, p)
			for i, l := range lines {
				if at := strings.Index(l, " cc="); at >= 0 {
					lines[i] = l[:at] + " cc=<not compared>"
				}
			}
			return lines
		})
	}
	acme := vals{":pk": s("WS#acme")}
	big := vals{":pk": s("WS#big")}

	// Query: key conditions, order, paging.
	add("query/partition", pagesQ(q("app", "PK = :pk", acme)))
	add("query/partition-total", pagesQ(with(q("app", "PK = :pk", acme), func(in *dynamodb.QueryInput) { in.ReturnConsumedCapacity = total })))
	add("query/begins_with-desc-limit", pagesQ(with(q("app", "PK = :pk AND begins_with(SK, :p)", vals{":pk": s("WS#acme"), ":p": s("DOC#")}),
		func(in *dynamodb.QueryInput) { in.ScanIndexForward = aws.Bool(false); in.Limit = aws.Int32(5) })))
	add("query/sk-between", pagesQ(q("app", "PK = :pk AND SK BETWEEN :a AND :b", vals{":pk": s("WS#acme"), ":a": s("DOC#0003"), ":b": s("DOC#0007")})))
	add("query/sk-lt", pagesQ(q("app", "PK = :pk AND SK < :a", vals{":pk": s("WS#acme"), ":a": s("DOC#0003")})))
	add("query/sk-le-desc", pagesQ(with(q("app", "PK = :pk AND SK <= :a", vals{":pk": s("WS#acme"), ":a": s("DOC#0003")}),
		func(in *dynamodb.QueryInput) { in.ScanIndexForward = aws.Bool(false) })))
	add("query/sk-gt-limit", pagesQ(with(q("app", "PK = :pk AND SK > :a", vals{":pk": s("WS#acme"), ":a": s("DOC#0010")}),
		func(in *dynamodb.QueryInput) { in.Limit = aws.Int32(1) })))
	add("query/sk-ge", pagesQ(q("app", ":a <= SK AND PK = :pk", vals{":pk": s("WS#acme"), ":a": s("DOC#0011")})))
	add("query/sk-eq", pagesQ(q("app", "PK = :pk AND SK = :a", vals{":pk": s("WS#acme"), ":a": s("META")})))
	add("query/missing-partition", pagesQ(q("app", "PK = :pk", vals{":pk": s("WS#nope")})))
	add("query/numeric-sort", pagesQ(q("metrics", "device = :d AND seq BETWEEN :a AND :b", vals{":d": n("10"), ":a": n("2"), ":b": n("12")})))
	add("query/numeric-desc", pagesQ(with(q("metrics", "device = :d AND seq > :a", vals{":d": n("42"), ":a": n("9.5")}),
		func(in *dynamodb.QueryInput) { in.ScanIndexForward = aws.Bool(false); in.Limit = aws.Int32(4) })))
	add("query/consistent", pagesQ(with(q("users", "PK = :pk", vals{":pk": s("USER#u_005")}),
		func(in *dynamodb.QueryInput) { in.ConsistentRead = aws.Bool(true) })))

	// 1 MB pages, before filters; Limit; Select=COUNT.
	add("query/1mb-pages", pagesQ(q("app", "PK = :pk", big)))
	add("query/1mb-pages-desc", pagesQ(with(q("app", "PK = :pk", big), func(in *dynamodb.QueryInput) { in.ScanIndexForward = aws.Bool(false) })))
	add("query/1mb-filter-empty-pages", pagesQ(with(q("app", "PK = :pk", vals{":pk": s("WS#big"), ":n": n("2400")}),
		func(in *dynamodb.QueryInput) { in.FilterExpression = aws.String("seq > :n") })))
	add("query/count", pagesQ(with(q("app", "PK = :pk", big), func(in *dynamodb.QueryInput) { in.Select = types.SelectCount })))
	add("query/limit-300", pagesQ(with(q("app", "PK = :pk AND begins_with(SK, :p)", vals{":pk": s("WS#big"), ":p": s("DOC#B0")}),
		func(in *dynamodb.QueryInput) { in.Limit = aws.Int32(300); in.Select = types.SelectCount })))
	add("query/limit-over-1mb", pagesQ(with(q("app", "PK = :pk", big),
		func(in *dynamodb.QueryInput) {
			in.Limit = aws.Int32(1000)
			in.ProjectionExpression = aws.String("SK, seq")
		})))
	add("query/limit-filter", pagesQ(with(q("app", "PK = :pk", vals{":pk": s("WS#acme"), ":s": s("review")}),
		func(in *dynamodb.QueryInput) {
			in.Limit = aws.Int32(4)
			in.FilterExpression = aws.String("#s = :s")
			in.ExpressionAttributeNames = names{"#s": "status"}
		})))

	// Indexes: sparse GSI, projections, ExclusiveStartKey on indexes.
	add("gsi/sparse-review", pagesQ(with(q("app", "GSI1PK = :pk", vals{":pk": s("STATUS#REVIEW")}),
		func(in *dynamodb.QueryInput) { in.IndexName = aws.String("GSI1"); in.Limit = aws.Int32(3) })))
	add("gsi/plan-team-desc", pagesQ(with(q("app", "GSI1PK = :pk", vals{":pk": s("PLAN#team")}),
		func(in *dynamodb.QueryInput) {
			in.IndexName = aws.String("GSI1")
			in.ScanIndexForward = aws.Bool(false)
		})))
	add("gsi/include-projection", pagesQ(with(q("app", "#o = :o", vals{":o": s("u_alice")}),
		func(in *dynamodb.QueryInput) {
			in.IndexName = aws.String("ByOwner")
			in.ExpressionAttributeNames = names{"#o": "owner"}
			in.Limit = aws.Int32(3)
		})))
	add("gsi/include-select-all-rejected", pagesQ(with(q("app", "#o = :o", vals{":o": s("u_alice")}),
		func(in *dynamodb.QueryInput) {
			in.IndexName = aws.String("ByOwner")
			in.ExpressionAttributeNames = names{"#o": "owner"}
			in.Select = types.SelectAllAttributes
		})))
	add("gsi/consistent-rejected", pagesQ(with(q("app", "GSI1PK = :pk", vals{":pk": s("PLAN#team")}),
		func(in *dynamodb.QueryInput) { in.IndexName = aws.String("GSI1"); in.ConsistentRead = aws.Bool(true) })))
	add("gsi/hash-only-keys-only", pagesQ(with(q("leaderboard", "handle = :h", vals{":h": s("swift_fox")}),
		func(in *dynamodb.QueryInput) { in.IndexName = aws.String("handle") })))
	add("gsi/season-top", pagesQ(with(q("leaderboard", "gsiPartition = :p AND begins_with(gsiSort, :r)", vals{":p": s("SEASON#2026-Q2"), ":r": s("RATING#")}),
		func(in *dynamodb.QueryInput) {
			in.IndexName = aws.String("season")
			in.ScanIndexForward = aws.Bool(false)
			in.Limit = aws.Int32(7)
			in.ProjectionExpression = aws.String("handle, rating, gsiSort")
		})))
	add("gsi/numeric-range", pagesQ(with(q("products", "category = :c AND price BETWEEN :a AND :b", vals{":c": s("games"), ":a": n("10"), ":b": n("60")}),
		func(in *dynamodb.QueryInput) { in.IndexName = aws.String("ByCategory"); in.Limit = aws.Int32(2) })))
	add("lsi/keys-only", pagesQ(with(q("app", "PK = :pk", acme), func(in *dynamodb.QueryInput) {
		in.IndexName = aws.String("ByCreated")
		in.Limit = aws.Int32(5)
	})))
	// DynamoDB charges each fetched item on its own; dynalite rounds their
	// sum (capacity_test.go tests memdb against the rule).
	addWithoutCapacity("lsi/fetch-all-attributes", pagesQ(with(q("app", "PK = :pk AND createdAt > :t", vals{":pk": s("WS#acme"), ":t": s("2026-01-10")}),
		func(in *dynamodb.QueryInput) {
			in.IndexName = aws.String("ByCreated")
			in.Select = types.SelectAllAttributes
			in.ConsistentRead = aws.Bool(true)
			in.Limit = aws.Int32(4)
		})))
	add("lsi/big-partition", pagesQ(with(q("app", "PK = :pk", big), func(in *dynamodb.QueryInput) { in.IndexName = aws.String("ByCreated") })))

	// Filters and projections.
	filter := func(name, f string, nm names, v vals, proj string) {
		in := q("app", "PK = :pk", vals{":pk": s("WS#acme")})
		in.FilterExpression = aws.String(f)
		if proj != "" {
			in.ProjectionExpression = aws.String(proj)
		}
		in.ExpressionAttributeNames = nm
		for k, x := range v {
			in.ExpressionAttributeValues[k] = x
		}
		add("filter/"+name, pagesQ(in))
	}
	filter("exists", "attribute_exists(priority)", nil, nil, "SK, priority")
	filter("not-exists", "attribute_not_exists(priority) AND attribute_exists(title)", nil, nil, "SK")
	filter("type-S", "attribute_type(#r, :t)", names{"#r": "ref"}, vals{":t": s("S")}, "SK, #r")
	filter("type-NULL", "attribute_type(reviewer, :t)", nil, vals{":t": s("NULL")}, "SK, reviewer")
	filter("contains-set", "contains(labels, :l)", nil, vals{":l": s("needs-review")}, "SK, labels")
	filter("contains-list", "contains(info.tags, :t)", nil, vals{":t": s("urgent")}, "SK, info.tags")
	filter("contains-string", "contains(title, :t)", nil, vals{":t": s("plan")}, "SK, title")
	filter("contains-numset", "contains(versions, :v)", nil, vals{":v": n("2")}, "SK, versions")
	filter("size", "size(title) > :n AND size(info.tags) = :m", nil, vals{":n": n("10"), ":m": n("3")}, "SK, title")
	filter("begins_with", "begins_with(title, :p)", nil, vals{":p": s("Road")}, "SK, title")
	filter("in", "#s IN (:a, :b)", names{"#s": "status"}, vals{":a": s("draft"), ":b": s("archived")}, "SK, #s")
	filter("not-or-parens", "NOT (#s = :a OR #s = :b) AND (pinned = :t OR score > :z)", names{"#s": "status"},
		vals{":a": s("draft"), ":b": s("archived"), ":t": &types.AttributeValueMemberBOOL{Value: true}, ":z": n("20")}, "SK, #s, pinned, score")
	filter("ne-missing", "priority <> :p", nil, vals{":p": n("1")}, "SK, priority")
	filter("nested-number", "info.rating >= :r", nil, vals{":r": n("4")}, "SK, info.rating")
	filter("list-index", "info.tags[0] = :q", nil, vals{":q": s("q2")}, "SK, info.tags[0], info.tags[2]")
	filter("deep-map", "a.b.c.d = :d", names{"#xy": "x.y", "#dash": "my-attr"}, vals{":d": s("deep")}, "a.b.c, #xy, x.y, #dash")
	filter("null-eq", "reviewer = :n", nil, vals{":n": &types.AttributeValueMemberNULL{Value: true}}, "SK")
	filter("between-num", "score BETWEEN :a AND :b", nil, vals{":a": n("-1"), ":b": n("20")}, "SK, score")
	filter("cross-type", "#r < :n", names{"#r": "ref"}, vals{":n": n("100")}, "SK, #r")
	filter("big-numbers", "score > :a", nil, vals{":a": n("12345678901234567890123456789012345678")}, "SK, score")
	filter("binary", "begins_with(#d, :b)", names{"#d": "data"}, vals{":b": &types.AttributeValueMemberB{Value: []byte{0}}}, "SK, #d, checksums")

	// Scan: pages, segments, indexes, filters, counts.
	add("scan/app", pagesS(sc("app")))
	add("scan/users-limit", pagesS(with(sc("users"), func(in *dynamodb.ScanInput) { in.Limit = aws.Int32(7) })))
	add("scan/customers-filter", pagesS(with(sc("customers"), func(in *dynamodb.ScanInput) {
		in.FilterExpression = aws.String("balance < :z")
		in.ExpressionAttributeValues = vals{":z": n("0")}
		in.Limit = aws.Int32(10)
	})))
	add("scan/metrics-count", pagesS(with(sc("metrics"), func(in *dynamodb.ScanInput) { in.Select = types.SelectCount; in.Limit = aws.Int32(33) })))
	add("scan/gsi1", pagesS(with(sc("app"), func(in *dynamodb.ScanInput) { in.IndexName = aws.String("GSI1") })))
	add("scan/byowner-limit", pagesS(with(sc("app"), func(in *dynamodb.ScanInput) { in.IndexName = aws.String("ByOwner"); in.Limit = aws.Int32(9) })))
	add("scan/season", pagesS(with(sc("leaderboard"), func(in *dynamodb.ScanInput) { in.IndexName = aws.String("season") })))
	add("scan/lsi-limit", pagesS(with(sc("app"), func(in *dynamodb.ScanInput) {
		in.IndexName = aws.String("ByCreated")
		in.Limit = aws.Int32(500)
	})))
	add("scan/projection", pagesS(with(sc("products"), func(in *dynamodb.ScanInput) {
		in.ProjectionExpression = aws.String("#n, price, tags")
		in.ExpressionAttributeNames = names{"#n": "name"}
	})))
	for _, tot := range []int32{1, 2, 3, 7} {
		add(fmt.Sprintf("scan/segments-%d", tot), segments("leaderboard", tot, 0))
	}
	add("scan/segments-app-4-limit", segments("app", 4, 400))

	// GetItem and BatchGetItem.
	key := func(pk, sk string) map[string]types.AttributeValue {
		return vals{"PK": s(pk), "SK": s(sk)}
	}
	add("get/hit", getItem(dynamodb.GetItemInput{TableName: aws.String("app"), Key: key("WS#acme", "DOC#0001"), ReturnConsumedCapacity: indexes}))
	add("get/big-consistent", getItem(dynamodb.GetItemInput{TableName: aws.String("app"), Key: key("WS#big", "DOC#B00007"),
		ConsistentRead: aws.Bool(true), ReturnConsumedCapacity: total}))
	add("get/miss", getItem(dynamodb.GetItemInput{TableName: aws.String("app"), Key: key("WS#acme", "DOC#9999"), ReturnConsumedCapacity: total}))
	add("get/projection", getItem(dynamodb.GetItemInput{TableName: aws.String("app"), Key: key("WS#acme", "DOC#0001"),
		ProjectionExpression: aws.String("info.tags[1], #s, a.b"), ExpressionAttributeNames: names{"#s": "status"}}))
	add("get/hash-only", getItem(dynamodb.GetItemInput{TableName: aws.String("customers"), Key: vals{"id": s("c_0007")}}))
	add("get/numeric-key", getItem(dynamodb.GetItemInput{TableName: aws.String("metrics"), Key: vals{"device": n("10"), "seq": n("2.0")}}))
	add("get/wrong-type", getItem(dynamodb.GetItemInput{TableName: aws.String("app"), Key: vals{"PK": n("1"), "SK": s("x")}}))
	add("get/missing-key-attr", getItem(dynamodb.GetItemInput{TableName: aws.String("app"), Key: vals{"PK": s("WS#acme")}}))
	add("get/extra-key-attr", getItem(dynamodb.GetItemInput{TableName: aws.String("customers"), Key: vals{"id": s("c_0001"), "x": s("y")}}))
	add("get/empty-key", getItem(dynamodb.GetItemInput{TableName: aws.String("customers"), Key: vals{"id": s("")}}))
	add("get/unknown-table", getItem(dynamodb.GetItemInput{TableName: aws.String("nope"), Key: vals{"id": s("x")}}))
	var many []map[string]types.AttributeValue
	for i := 1; i <= 13; i++ {
		many = append(many, key("WS#big", fmt.Sprintf("DOC#B%05d", i)))
	}
	many = append(many, key("WS#acme", "missing"))
	add("batchget/big", batchGet(dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
		"app": {Keys: many},
		"customers": {Keys: []map[string]types.AttributeValue{{"id": s("c_0001")}, {"id": s("c_0002")}},
			ProjectionExpression: aws.String("#n, balance"), ExpressionAttributeNames: names{"#n": "name"}, ConsistentRead: aws.Bool(true)},
	}, ReturnConsumedCapacity: indexes}))
	add("batchget/duplicates", batchGet(dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
		"app": {Keys: []map[string]types.AttributeValue{key("WS#acme", "META"), key("WS#acme", "META")}},
	}}))
	var tooMany []map[string]types.AttributeValue
	for i := 0; i < 101; i++ {
		tooMany = append(tooMany, vals{"id": s(fmt.Sprintf("c_%04d", i))})
	}
	add("batchget/too-many", batchGet(dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"customers": {Keys: tooMany}}}))
	add("batchget/bad-key", batchGet(dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"customers": {Keys: []map[string]types.AttributeValue{{"id": n("1")}}}}}))

	// DescribeTable.
	for _, tbl := range []string{"app", "leaderboard", "users", "customers", "products", "metrics"} {
		add("describe/"+tbl, describe(tbl))
	}
	add("describe/unknown", describe("nope"))

	// Validation errors.
	bad := func(name string, in dynamodb.QueryInput) { add("error/"+name, pagesQ(in)) }
	bad("no-partition-key", q("app", "SK = :a", vals{":a": s("META")}))
	bad("hash-not-eq", q("app", "PK > :a", vals{":a": s("WS")}))
	bad("type-mismatch", q("app", "PK = :a", vals{":a": n("1")}))
	bad("or", q("app", "PK = :a OR PK = :b", vals{":a": s("x"), ":b": s("y")}))
	bad("not-key-attr", q("app", "PK = :a AND title = :b", vals{":a": s("x"), ":b": s("y")}))
	bad("nested-key", q("app", "PK.x = :a", vals{":a": s("x")}))
	bad("three-conditions", q("app", "PK = :a AND SK = :b AND SK > :c", vals{":a": s("x"), ":b": s("y"), ":c": s("z")}))
	bad("begins_with-number", q("metrics", "device = :d AND begins_with(seq, :p)", vals{":d": n("1"), ":p": n("1")}))
	bad("unused-value", q("app", "PK = :a", vals{":a": s("x"), ":b": s("y")}))
	bad("undefined-value", q("app", "PK = :zz", vals{":a": s("x")}))
	bad("unused-name", with(q("app", "PK = :a", vals{":a": s("x")}), func(in *dynamodb.QueryInput) { in.ExpressionAttributeNames = names{"#n": "name"} }))
	bad("undefined-name", q("app", "#pk = :a", vals{":a": s("x")}))
	bad("reserved", with(q("app", "PK = :a", vals{":a": s("x")}), func(in *dynamodb.QueryInput) { in.FilterExpression = aws.String("status = :a2") }))
	bad("syntax", with(q("app", "PK = :a", vals{":a": s("x")}), func(in *dynamodb.QueryInput) { in.FilterExpression = aws.String("title = ") }))
	bad("filter-on-key", with(q("app", "PK = :a", vals{":a": s("x"), ":b": s("y")}), func(in *dynamodb.QueryInput) { in.FilterExpression = aws.String("SK = :b") }))
	bad("unknown-index", with(q("app", "PK = :a", vals{":a": s("x")}), func(in *dynamodb.QueryInput) { in.IndexName = aws.String("Nope") }))
	bad("unknown-table", q("nope", "PK = :a", vals{":a": s("x")}))
	bad("unknown-function", with(q("app", "PK = :a", vals{":a": s("x")}), func(in *dynamodb.QueryInput) { in.FilterExpression = aws.String("foo(title)") }))
	bad("between-reversed", with(q("app", "PK = :a", vals{":a": s("x"), ":l": n("5"), ":h": n("1")}), func(in *dynamodb.QueryInput) {
		in.FilterExpression = aws.String("score BETWEEN :l AND :h")
	}))
	bad("size-wrong-type", with(q("app", "PK = :a", vals{":a": s("x"), ":n": n("5")}), func(in *dynamodb.QueryInput) {
		in.FilterExpression = aws.String("size(:n) > :n")
	}))
	bad("redundant-parens", with(q("app", "PK = :a", vals{":a": s("x"), ":n": n("5")}), func(in *dynamodb.QueryInput) {
		in.FilterExpression = aws.String("((score > :n))")
	}))
	bad("projection-overlap", with(q("app", "PK = :a", vals{":a": s("x")}), func(in *dynamodb.QueryInput) { in.ProjectionExpression = aws.String("info, info.tags") }))
	bad("empty-filter", with(q("app", "PK = :a", vals{":a": s("x")}), func(in *dynamodb.QueryInput) { in.FilterExpression = aws.String("") }))
	bad("esk-other-partition", with(q("app", "PK = :a", vals{":a": s("WS#acme")}), func(in *dynamodb.QueryInput) {
		in.ExclusiveStartKey = vals{"PK": s("WS#globex"), "SK": s("META")}
	}))
	bad("esk-outside-range", with(q("app", "PK = :a AND SK < :b", vals{":a": s("WS#acme"), ":b": s("DOC#0003")}), func(in *dynamodb.QueryInput) {
		in.ExclusiveStartKey = vals{"PK": s("WS#acme"), "SK": s("META")}
	}))
	bad("esk-missing-index-key", with(q("app", "GSI1PK = :a", vals{":a": s("PLAN#team")}), func(in *dynamodb.QueryInput) {
		in.IndexName = aws.String("GSI1")
		in.ExclusiveStartKey = vals{"PK": s("WS#acme"), "SK": s("META")}
	}))
	bad("limit-zero", with(q("app", "PK = :a", vals{":a": s("x")}), func(in *dynamodb.QueryInput) { in.Limit = aws.Int32(0) }))
	badScan := func(name string, in dynamodb.ScanInput) { add("error/"+name, pagesS(in)) }
	badScan("segment-too-big", with(sc("app"), func(in *dynamodb.ScanInput) { in.Segment = aws.Int32(4); in.TotalSegments = aws.Int32(4) }))
	badScan("segment-without-total", with(sc("app"), func(in *dynamodb.ScanInput) { in.Segment = aws.Int32(1) }))
	badScan("total-without-segment", with(sc("app"), func(in *dynamodb.ScanInput) { in.TotalSegments = aws.Int32(2) }))
	badScan("esk-wrong-segment", with(sc("leaderboard"), func(in *dynamodb.ScanInput) {
		in.Segment = aws.Int32(0)
		in.TotalSegments = aws.Int32(16)
		in.ExclusiveStartKey = vals{"partitionId": s("PLAYER#p001"), "rangeId": s("PROFILE")}
	}))
	badScan("scan-values-without-filter", with(sc("app"), func(in *dynamodb.ScanInput) { in.ExpressionAttributeValues = vals{":a": s("x")} }))
	return cs
}
