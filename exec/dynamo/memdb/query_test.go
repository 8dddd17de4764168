package memdb

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func qin(table, kc string, vals map[string]av) *dynamodb.QueryInput {
	return &dynamodb.QueryInput{TableName: aws.String(table), KeyConditionExpression: aws.String(kc), ExpressionAttributeValues: vals}
}

func TestQuerySortOrderByKeyType(t *testing.T) {
	db := newDB(t, tableDef("nums", "pk:S", "sk:N"), tableDef("strs", "pk:S", "sk:S"), tableDef("bins", "pk:S", "sk:B"))
	for _, n := range []string{"10", "2", "-1.5", "0", "1e3", "-20", "2.25", "99999999999999999999999999999999999999"} {
		put(t, db, "nums", rec{"pk": S("p"), "sk": N(n)})
	}
	for _, s := range []string{"b", "a", "B", "ab", "é", "a\x00", "Z"} {
		put(t, db, "strs", rec{"pk": S("p"), "sk": S(s)})
	}
	for _, b := range [][]byte{{0xff}, {0x00}, {0x00, 0x01}, {0x7f}, {0x80}} {
		put(t, db, "bins", rec{"pk": S("p"), "sk": B(b...)})
	}
	got := strs(query(t, db, qin("nums", "pk = :p", map[string]av{":p": S("p")})).Items, "sk")
	want := []string{"-20", "-1.5", "0", "2", "2.25", "10", "1000", "99999999999999999999999999999999999999"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("numeric order: got %v want %v", got, want)
	}
	got = strs(query(t, db, qin("strs", "pk = :p", map[string]av{":p": S("p")})).Items, "sk")
	want = []string{"B", "Z", "a", "a\x00", "ab", "b", "é"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("string order: got %q want %q", got, want)
	}
	out := query(t, db, qin("bins", "pk = :p", map[string]av{":p": S("p")}))
	var bins [][]byte
	for _, it := range out.Items {
		bins = append(bins, it["sk"].(*types.AttributeValueMemberB).Value)
	}
	if wantB := [][]byte{{0x00}, {0x00, 0x01}, {0x7f}, {0x80}, {0xff}}; !reflect.DeepEqual(bins, wantB) {
		t.Errorf("binary order: got %v want %v", bins, wantB)
	}
	rev := query(t, db, &dynamodb.QueryInput{TableName: aws.String("nums"), KeyConditionExpression: aws.String("pk = :p"),
		ExpressionAttributeValues: map[string]av{":p": S("p")}, ScanIndexForward: aws.Bool(false), Limit: aws.Int32(2)})
	if got := strs(rev.Items, "sk"); !reflect.DeepEqual(got, []string{"99999999999999999999999999999999999999", "1000"}) {
		t.Errorf("descending: %v", got)
	}
}

func TestQuerySortKeyConditions(t *testing.T) {
	db := newDB(t, tableDef("tbl", "pk:S", "sk:N"), tableDef("str", "pk:S", "sk:S"))
	for i := 1; i <= 10; i++ {
		put(t, db, "tbl", rec{"pk": S("p"), "sk": N(fmt.Sprint(i))})
	}
	for _, s := range []string{"a", "ab", "abc", "abd", "ac", "b", "ab\xff", "ab\xff\xff"} {
		put(t, db, "str", rec{"pk": S("p"), "sk": S(s)})
	}
	cases := []struct {
		table, kc string
		vals      map[string]av
		forward   bool
		want      []string
	}{
		{"tbl", "pk = :p AND sk = :a", map[string]av{":a": N("3")}, true, []string{"3"}},
		{"tbl", "pk = :p AND sk < :a", map[string]av{":a": N("3")}, true, []string{"1", "2"}},
		{"tbl", "pk = :p AND sk <= :a", map[string]av{":a": N("3")}, false, []string{"3", "2", "1"}},
		{"tbl", "pk = :p AND sk > :a", map[string]av{":a": N("8")}, true, []string{"9", "10"}},
		{"tbl", "pk = :p AND sk >= :a", map[string]av{":a": N("8")}, false, []string{"10", "9", "8"}},
		{"tbl", "pk = :p AND sk BETWEEN :a AND :b", map[string]av{":a": N("4"), ":b": N("6")}, true, []string{"4", "5", "6"}},
		{"tbl", "pk = :p AND sk BETWEEN :a AND :b", map[string]av{":a": N("4"), ":b": N("6")}, false, []string{"6", "5", "4"}},
		{"tbl", ":a > sk AND pk = :p", map[string]av{":a": N("3")}, true, []string{"1", "2"}},
		{"tbl", "pk = :p AND sk < :a", map[string]av{":a": N("1")}, true, nil},
		{"str", "pk = :p AND begins_with(sk, :a)", map[string]av{":a": S("ab")}, true, []string{"ab", "abc", "abd", "ab\xff", "ab\xff\xff"}},
		{"str", "pk = :p AND begins_with(sk, :a)", map[string]av{":a": S("ab\xff")}, false, []string{"ab\xff\xff", "ab\xff"}},
		{"str", "pk = :p AND begins_with(sk, :a)", map[string]av{":a": S("z")}, true, nil},
		{"str", "pk = :p AND sk > :a", map[string]av{":a": S("ab")}, true, []string{"abc", "abd", "ab\xff", "ab\xff\xff", "ac", "b"}},
	}
	for _, c := range cases {
		c.vals[":p"] = S("p")
		in := qin(c.table, c.kc, c.vals)
		in.ScanIndexForward = aws.Bool(c.forward)
		got := strs(query(t, db, in).Items, "sk")
		if len(got) == 0 {
			got = nil
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s (forward=%v): got %q want %q", c.kc, c.forward, got, c.want)
		}
	}
}

// pageCounts follows a query to the end and returns (ScannedCount, Count)
// per page.
func pageCounts(t *testing.T, db *DB, in *dynamodb.QueryInput) (scanned, counts []int32, pages []*dynamodb.QueryOutput) {
	t.Helper()
	for i := 0; i < 100; i++ {
		out := query(t, db, in)
		scanned = append(scanned, out.ScannedCount)
		counts = append(counts, out.Count)
		pages = append(pages, out)
		if out.LastEvaluatedKey == nil {
			return
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
	t.Fatal("too many pages")
	return
}

func TestQueryPagesStopAtOneMegabyteBeforeFilter(t *testing.T) {
	db := newDB(t, tableDef("tbl", "pk:S", "sk:N"))
	const n = 500
	for i := 0; i < n; i++ {
		put(t, db, "tbl", padded(10_000, "pk", S("p"), "sk", N(fmt.Sprint(i))))
	}
	v, _ := convertItem(padded(10_000, "pk", S("p"), "sk", N("100")))
	ps := pageSize(v, "sk")
	perPage := int32((1024*1024 + ps - 1) / ps) // the item crossing 1 MB is included
	in := qin("tbl", "pk = :p", map[string]av{":p": S("p")})
	scanned, counts, pages := pageCounts(t, db, in)
	var total int32
	for i, s := range scanned {
		total += s
		if i < len(scanned)-1 && s != perPage {
			t.Errorf("page %d read %d items, want %d (page size %d)", i, s, perPage, ps)
		}
		if counts[i] != s {
			t.Errorf("page %d: Count %d != ScannedCount %d without a filter", i, counts[i], s)
		}
	}
	if total != n {
		t.Errorf("read %d items in all, want %d", total, n)
	}
	if pages[0].ConsumedCapacity != nil {
		t.Errorf("capacity was not requested but returned")
	}
	// A page bills the bytes read, rounded up to 4 KB once: ceil(bytes/4 KB)/2.
	wantUnits := readUnits(int(perPage)*10_000, false)

	// The same with a filter matching nothing: the same pages, all empty,
	// each with a LastEvaluatedKey but the last.
	in = qin("tbl", "pk = :p", map[string]av{":p": S("p"), ":x": S("nothing")})
	in.FilterExpression = aws.String("#d = :x")
	in.ExpressionAttributeNames = map[string]string{"#d": "data"}
	in.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
	fscanned, fcounts, fpages := pageCounts(t, db, in)
	if !reflect.DeepEqual(fscanned, scanned) {
		t.Errorf("filtered pages read %v, unfiltered %v", fscanned, scanned)
	}
	for i, c := range fcounts {
		if c != 0 || len(fpages[i].Items) != 0 {
			t.Errorf("page %d returned %d items", i, c)
		}
		if i < len(fpages)-1 && fpages[i].LastEvaluatedKey == nil {
			t.Errorf("empty page %d has no LastEvaluatedKey", i)
		}
	}
	if got := units(fpages[0].ConsumedCapacity); got != wantUnits {
		t.Errorf("filtered page consumed %v, want %v (filters do not reduce cost)", got, wantUnits)
	}
}

func TestQueryLimitCountsItemsRead(t *testing.T) {
	db := newDB(t, tableDef("tbl", "pk:S", "sk:N"))
	for i := 0; i < 10; i++ {
		put(t, db, "tbl", rec{"pk": S("p"), "sk": N(fmt.Sprint(i)), "even": &types.AttributeValueMemberBOOL{Value: i%2 == 0}})
	}
	in := qin("tbl", "pk = :p", map[string]av{":p": S("p"), ":t": &types.AttributeValueMemberBOOL{Value: true}})
	in.Limit = aws.Int32(3)
	in.FilterExpression = aws.String("even = :t")
	scanned, counts, pages := pageCounts(t, db, in)
	if want := []int32{3, 3, 3, 1}; !reflect.DeepEqual(scanned, want) {
		t.Errorf("ScannedCount per page %v, want %v", scanned, want)
	}
	if want := []int32{2, 1, 2, 0}; !reflect.DeepEqual(counts, want) {
		t.Errorf("Count per page %v, want %v", counts, want)
	}
	if lek := pages[0].LastEvaluatedKey; !reflect.DeepEqual(strs([]rec{lek}, "sk"), []string{"2"}) || len(lek) != 2 {
		t.Errorf("LastEvaluatedKey %v", lek)
	}
	// Limit equal to what remains still returns a LastEvaluatedKey (as
	// DynamoDB does); the next page is empty.
	in = qin("tbl", "pk = :p", map[string]av{":p": S("p")})
	in.Limit = aws.Int32(10)
	scanned, _, _ = pageCounts(t, db, in)
	if want := []int32{10, 0}; !reflect.DeepEqual(scanned, want) {
		t.Errorf("Limit=10 of 10: pages %v, want %v", scanned, want)
	}
}

func TestQuerySelectAndProjection(t *testing.T) {
	db := newDB(t, tableDef("tbl", "pk:S", "sk:N"))
	for i := 0; i < 5; i++ {
		put(t, db, "tbl", rec{"pk": S("p"), "sk": N(fmt.Sprint(i)), "a": S("x"), "m": &types.AttributeValueMemberM{Value: rec{"k": N("1"), "j": S("y")}}})
	}
	in := qin("tbl", "pk = :p", map[string]av{":p": S("p")})
	in.Select = types.SelectCount
	out := query(t, db, in)
	if out.Items != nil || out.Count != 5 || out.ScannedCount != 5 {
		t.Errorf("COUNT: items %v count %d scanned %d", out.Items, out.Count, out.ScannedCount)
	}
	in = qin("tbl", "pk = :p", map[string]av{":p": S("p")})
	in.ProjectionExpression = aws.String("m.k, sk")
	out = query(t, db, in)
	want := rec{"sk": N("0"), "m": &types.AttributeValueMemberM{Value: rec{"k": N("1")}}}
	if !reflect.DeepEqual(out.Items[0], want) {
		t.Errorf("projection: got %#v", out.Items[0])
	}
	in.Select = types.SelectAllAttributes
	_, err := db.Query(ctx, in)
	wantValidation(t, err, "Cannot specify the ProjectionExpression when choosing to get ALL_ATTRIBUTES")
	in.Select = types.SelectAllProjectedAttributes
	in.ProjectionExpression = nil
	_, err = db.Query(ctx, in)
	wantValidation(t, err, "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName")
	in.Select = types.SelectSpecificAttributes
	_, err = db.Query(ctx, in)
	wantValidation(t, err, "Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES")
}

func TestQueryCapacity(t *testing.T) {
	// A 13 KB item collection read by one Query: ceil(13 KB / 4 KB) = 4
	// units, 2 eventually consistent, 4 strongly consistent.
	db := newDB(t, tableDef("tbl", "pk:S", "sk:N"))
	for i := 0; i < 13; i++ {
		put(t, db, "tbl", padded(1024, "pk", S("p"), "sk", N(fmt.Sprint(i))))
	}
	in := qin("tbl", "pk = :p", map[string]av{":p": S("p")})
	in.ReturnConsumedCapacity = types.ReturnConsumedCapacityIndexes
	out := query(t, db, in)
	if got := units(out.ConsumedCapacity); got != 2 {
		t.Errorf("eventually consistent query of 13 KB: %v units, want 2", got)
	}
	if tbl := out.ConsumedCapacity.Table; tbl == nil || aws.ToFloat64(tbl.CapacityUnits) != 2 {
		t.Errorf("INDEXES must report the table's share: %+v", tbl)
	}
	in.ConsistentRead = aws.Bool(true)
	if got := units(query(t, db, in).ConsumedCapacity); got != 4 {
		t.Errorf("strongly consistent query of 13 KB: %v units, want 4", got)
	}
	in.ReturnConsumedCapacity = types.ReturnConsumedCapacityNone
	if cc := query(t, db, in).ConsumedCapacity; cc != nil {
		t.Errorf("NONE returned %+v", cc)
	}
}

func TestQueryValidation(t *testing.T) {
	db := newDB(t, tableDef("tbl", "pk:S", "sk:N"), tableDef("hsh", "pk:S"))
	cases := []struct {
		in   *dynamodb.QueryInput
		want string
	}{
		{qin("tbl", "sk = :a", map[string]av{":a": N("1")}), "Query condition missed key schema element: pk"},
		{qin("tbl", "pk < :a", map[string]av{":a": S("1")}), "Query key condition not supported"},
		{qin("hsh", "pk = :a AND sk = :b", map[string]av{":a": S("1"), ":b": N("1")}), "Query key condition not supported"},
		{qin("tbl", "pk = :a", map[string]av{":a": N("1")}), "One or more parameter values were invalid: Condition parameter type does not match schema type"},
		{qin("tbl", "pk = :a AND sk = :b", map[string]av{":a": S("1"), ":b": S("1")}), "Condition parameter type does not match schema type"},
		{qin("tbl", "pk = :a OR pk = :b", map[string]av{":a": S("1"), ":b": S("2")}), "Invalid operator used in KeyConditionExpression: OR"},
		{qin("tbl", "pk IN (:a)", map[string]av{":a": S("1")}), "Invalid operator used in KeyConditionExpression: IN"},
		{qin("tbl", "NOT pk = :a", map[string]av{":a": S("1")}), "Invalid operator used in KeyConditionExpression: NOT"},
		{qin("tbl", "pk <> :a", map[string]av{":a": S("1")}), "Invalid operator used in KeyConditionExpression: <>"},
		{qin("tbl", "pk = :a AND attribute_exists(sk)", map[string]av{":a": S("1")}), "Invalid operator used in KeyConditionExpression: attribute_exists"},
		{qin("tbl", "pk = :a AND size(sk) > :a", map[string]av{":a": S("1")}), "KeyConditionExpressions cannot contain nested operations"},
		{qin("tbl", "pk = :a AND pk = :a", map[string]av{":a": S("1")}), "KeyConditionExpressions must only contain one condition per key"},
		{qin("tbl", "pk = sk", nil), "Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition"},
		{qin("tbl", ":a = :a", map[string]av{":a": S("1")}), "Invalid condition in KeyConditionExpression: No key attribute specified"},
		{qin("tbl", "pk = :a AND begins_with(sk, :b)", map[string]av{":a": S("1"), ":b": N("1")}), "Incorrect operand type for operator or function; operator or function: begins_with, operand type: N"},
		{qin("tbl", "pk = :a", map[string]av{":a": S("1"), ":b": S("1")}), "Value provided in ExpressionAttributeValues unused in expressions: keys: {:b}"},
		{qin("tbl", "pk = :zz", map[string]av{":a": S("1")}), "An expression attribute value used in expression is not defined; attribute value: :zz"},
		{qin("tbl", "pk = ", map[string]av{":a": S("1")}), `Invalid KeyConditionExpression: Syntax error; token: "<EOF>", near: "="`},
		{qin("nope", "pk = :a", map[string]av{":a": S("1")}), "Requested resource not found"},
		{qin("x", "pk = :a", map[string]av{":a": S("1")}), "Member must have length greater than or equal to 3"},
		{&dynamodb.QueryInput{TableName: aws.String("tbl")}, "Either the KeyConditions or KeyConditionExpression parameter must be specified in the request."},
	}
	for _, c := range cases {
		_, err := db.Query(ctx, c.in)
		if c.want == "Requested resource not found" {
			var rnf *types.ResourceNotFoundException
			if !errorsAs(err, &rnf) {
				t.Errorf("%s: want ResourceNotFoundException, got %v", *c.in.KeyConditionExpression, err)
			}
			continue
		}
		if err == nil || errCode(err) != "ValidationException" || !containsMsg(err, c.want) {
			t.Errorf("%v: got %v, want ValidationException %q", aws.ToString(c.in.KeyConditionExpression), err, c.want)
		}
	}
	if _, err := db.Query(ctx, &dynamodb.QueryInput{}); err == nil || !containsMsg(err, "missing required field, QueryInput.TableName") {
		t.Errorf("nil TableName: %v", err)
	}
}

func TestQueryExclusiveStartKeyValidation(t *testing.T) {
	db := newDB(t, tableDef("tbl", "pk:S", "sk:N"))
	put(t, db, "tbl", rec{"pk": S("a"), "sk": N("1")}, rec{"pk": S("a"), "sk": N("2")})
	base := func(kc string, esk rec) *dynamodb.QueryInput {
		in := qin("tbl", kc, map[string]av{":a": S("a"), ":n": N("2")})
		if kc == "pk = :a" {
			delete(in.ExpressionAttributeValues, ":n")
		}
		in.ExclusiveStartKey = esk
		return in
	}
	cases := []struct {
		in   *dynamodb.QueryInput
		want string
	}{
		{base("pk = :a", rec{"pk": S("a")}), "The provided starting key is invalid"},
		{base("pk = :a", rec{"pk": S("a"), "sk": S("1")}), "The provided key element does not match the schema"},
		{base("pk = :a", rec{"pk": S("b"), "sk": N("1")}), "The provided starting key is outside query boundaries based on provided conditions"},
		{base("pk = :a AND sk < :n", rec{"pk": S("a"), "sk": N("5")}), "The provided starting key does not match the range key predicate"},
		{base("pk = :a AND sk < :n", rec{"pk": S("b"), "sk": N("1")}), "The query can return at most one row and cannot be restarted"},
	}
	for _, c := range cases {
		_, err := db.Query(ctx, c.in)
		if err == nil || !containsMsg(err, c.want) {
			t.Errorf("ESK %v: got %v, want %q", c.in.ExclusiveStartKey, err, c.want)
		}
	}
	// A valid start key for a deleted item still resumes after it.
	out := query(t, db, base("pk = :a", rec{"pk": S("a"), "sk": N("1.5")}))
	if got := strs(out.Items, "sk"); !reflect.DeepEqual(got, []string{"2"}) {
		t.Errorf("resume after 1.5: %v", got)
	}
}

func TestQueryTouchesOnlyItsPartition(t *testing.T) {
	db := newDB(t, withGSI(tableDef("tbl", "pk:S", "sk:N"), "gsi", types.ProjectionTypeKeysOnly, nil, "gpk:S", "gsk:N"))
	var batch []types.WriteRequest
	flush := func() {
		if len(batch) == 0 {
			return
		}
		if _, err := db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"tbl": batch}}); err != nil {
			t.Fatal(err)
		}
		batch = nil
	}
	for p := 0; p < 200; p++ {
		for i := 0; i < 100; i++ {
			batch = append(batch, types.WriteRequest{PutRequest: &types.PutRequest{Item: rec{
				"pk": S(fmt.Sprintf("P%04d", p)), "sk": N(fmt.Sprint(i)), "gpk": S(fmt.Sprintf("G%03d", p%50)), "gsk": N(fmt.Sprint(p*100 + i)),
			}}})
			if len(batch) == 25 {
				flush()
			}
		}
	}
	flush()
	db.ResetStats()
	out := query(t, db, qin("tbl", "pk = :p", map[string]av{":p": S("P0123")}))
	if out.Count != 100 || db.ItemsRead() != 100 {
		t.Errorf("query read %d items and returned %d; want 100 and 100", db.ItemsRead(), out.Count)
	}
	db.ResetStats()
	out = query(t, db, qin("tbl", "pk = :p AND sk BETWEEN :a AND :b", map[string]av{":p": S("P0007"), ":a": N("10"), ":b": N("19")}))
	if out.Count != 10 || db.ItemsRead() != 10 {
		t.Errorf("range query read %d, returned %d; want 10", db.ItemsRead(), out.Count)
	}
	db.ResetStats()
	in := qin("tbl", "gpk = :p", map[string]av{":p": S("G007")})
	in.IndexName = aws.String("gsi")
	out = query(t, db, in)
	if out.Count != 400 || db.ItemsRead() != 400 {
		t.Errorf("GSI query read %d, returned %d; want 400", db.ItemsRead(), out.Count)
	}
	if db.Requests("Query") != 1 || db.Requests("") != 1 {
		t.Errorf("request counts: Query %d, all %d", db.Requests("Query"), db.Requests(""))
	}
}
