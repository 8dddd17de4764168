package offline

import (
	"errors"
	"sort"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// scanAll reads every page of in through the Backend's fast path (raw)
// or its SDK path and returns the items' keys ("PK/SK") with the pages'
// totals; it stops at the first error.
func scanAll(t testing.TB, b *Backend, in dynamodb.ScanInput, raw bool) (keys []string, scanned, count int, rcu float64, err error) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	in.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
	for {
		var lek map[string]types.AttributeValue
		if raw {
			p, err := b.Raw().Scan(ctx, &in, mem, pkSK)
			if err != nil {
				return keys, scanned, count, rcu, err
			}
			if p.Batch != nil {
				for r := 0; r < int(p.Batch.NumRows()); r++ {
					keys = append(keys, p.Batch.Column(0).ValueStr(r)+"/"+p.Batch.Column(1).ValueStr(r))
				}
				p.Batch.Release()
			}
			lek, scanned, count, rcu = p.LastEvaluatedKey, scanned+int(p.ScannedCount), count+int(p.Count), rcu+aws.ToFloat64(p.ConsumedCapacity.CapacityUnits)
		} else {
			o, err := b.Scan(ctx, &in)
			if err != nil {
				return keys, scanned, count, rcu, err
			}
			for _, it := range o.Items {
				keys = append(keys, sOf(it, "PK")+"/"+sOf(it, "SK"))
			}
			lek, scanned, count, rcu = o.LastEvaluatedKey, scanned+int(o.ScannedCount), count+int(o.Count), rcu+aws.ToFloat64(o.ConsumedCapacity.CapacityUnits)
		}
		if lek == nil {
			return keys, scanned, count, rcu, nil
		}
		in.ExclusiveStartKey = lek
	}
}

// sameErrorStreamed checks that the sources, opened for streaming, fail
// with want (the error Load gave): at Open when the first item is at
// fault, else in a Scan on either path, and in the Query that loads the
// table, then again in the next one.
func sameErrorStreamed(t *testing.T, want *diag.Error, sources ...Source) {
	t.Helper()
	same := func(where string, err error) {
		t.Helper()
		var e *diag.Error
		if !errors.As(err, &e) || e.Code != want.Code || e.Error() != want.Error() {
			t.Errorf("%s: error %v, want the load's %s %v", where, err, want.Code, want)
		}
	}
	b, err := Open(ctx, newDB(), sources, Options{})
	if err != nil {
		same("Open", err)
		return
	}
	defer b.Close()
	names := tableNames(t, b.DB)
	if len(names) != 1 {
		t.Fatalf("tables %v, want one", names)
	}
	for _, raw := range []bool{true, false} {
		_, _, _, _, err := scanAll(t, b, dynamodb.ScanInput{TableName: aws.String(names[0]), Limit: aws.Int32(2)}, raw)
		same("Scan", err)
	}
	for range 2 {
		_, err := b.Query(ctx, eq(names[0], "", b.lazy[names[0]].ps.spec.keys[0].Name, S("a")))
		same("Query", err)
	}
}

// TestStreamPagesContinue checks that a paginated Scan continues its
// stream (one stream for all pages), that a start key no stream holds
// resumes after it, and that the pages equal the loaded table's.
func TestStreamPagesContinue(t *testing.T) {
	dir := t.TempDir()
	var ls []string
	for i := range 500 {
		ls = append(ls, `{"PK":{"S":"p`+itoa(i%37)+`"},"SK":{"N":"`+itoa(i)+`"},"v":{"N":"`+itoa(i%7)+`"}}`)
	}
	p := write(t, dir, "tab.jsonl.gz", lines(ls...))
	b, err := Open(ctx, newDB(), []Source{{Path: p, Keys: pkSK}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ref := newDB()
	mustLoad(t, ref, Source{Path: p, Keys: pkSK})
	refB, _ := Open(ctx, ref, nil, Options{})
	in := dynamodb.ScanInput{TableName: aws.String("tab"), Limit: aws.Int32(9),
		FilterExpression: aws.String("v < :x"), ExpressionAttributeValues: map[string]types.AttributeValue{":x": N("4")}}
	for _, seg := range [][2]int32{{0, 1}, {0, 3}, {2, 3}} {
		in := in
		if seg[1] > 1 {
			in.Segment, in.TotalSegments = aws.Int32(seg[0]), aws.Int32(seg[1])
		}
		for _, raw := range []bool{true, false} {
			opened := b.streams.Load()
			keys, scanned, count, rcu, err := scanAll(t, b, in, raw)
			if err != nil {
				t.Fatal(err)
			}
			if n := b.streams.Load() - opened; n != 1 {
				t.Errorf("segment %v: %d streams opened, want 1 for all pages", seg, n)
			}
			refKeys, refScanned, refCount, refRCU, err := scanAll(t, refB, in, raw)
			if err != nil {
				t.Fatal(err)
			}
			if scanned != refScanned || count != refCount || rcu != refRCU || len(keys) != count {
				t.Errorf("segment %v: scanned %d, count %d, %v RCU; loaded: %d, %d, %v", seg, scanned, count, rcu, refScanned, refCount, refRCU)
			}
			sort.Strings(keys)
			sort.Strings(refKeys)
			if len(keys) != len(refKeys) || (len(keys) > 0 && (keys[0] != refKeys[0] || keys[len(keys)-1] != refKeys[len(refKeys)-1])) {
				t.Errorf("segment %v: %d keys, loaded %d", seg, len(keys), len(refKeys))
			}
		}
	}
	// A start key that no kept stream ends at: the page starts after it.
	first, err := b.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("tab"), Limit: aws.Int32(5)})
	if err != nil {
		t.Fatal(err)
	}
	b.Close() // drops the stream kept at first's last key
	next, err := b.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("tab"), Limit: aws.Int32(5), ExclusiveStartKey: first.LastEvaluatedKey})
	if err != nil {
		t.Fatal(err)
	}
	if len(next.Items) != 5 || sOf(next.Items[0], "SK") != "5" {
		t.Errorf("resumed page %v, want the items from SK 5", next.Items)
	}
	if b.Loads() != 0 {
		t.Errorf("%d loads; scans must stream", b.Loads())
	}
}

// TestDescribeBeforeLoading: DescribeTable answers without loading, with
// the export's item count; a Query loads once, then the live counts show.
func TestDescribeBeforeLoading(t *testing.T) {
	dir := makeExport(t, t.TempDir(), "Users", usersExport, map[string]any{})
	b, err := Open(ctx, newDB(), []Source{{Path: dir, Keys: pkSK}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	describe := func() *types.TableDescription {
		out, err := b.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("Users")})
		if err != nil {
			t.Fatal(err)
		}
		return out.Table
	}
	if td := describe(); aws.ToInt64(td.ItemCount) != 5 || aws.ToInt64(td.TableSizeBytes) != 0 || len(td.KeySchema) != 2 || b.Loaded("Users") {
		t.Errorf("before loading: %d items, %d bytes, key %v, loaded %v", aws.ToInt64(td.ItemCount), aws.ToInt64(td.TableSizeBytes), td.KeySchema, b.Loaded("Users"))
	}
	for range 2 {
		if items := query(t, b.DB, eq("Users", "", "PK", S("USER#u_001"))); len(items) != 0 && !b.Loaded("Users") {
			t.Fatal("the DB answered before loading")
		}
		out, err := b.Query(ctx, eq("Users", "", "PK", S("USER#u_001")))
		if err != nil || len(out.Items) != 3 {
			t.Fatalf("Query: %v, %d items", err, len(out.Items))
		}
	}
	if td := describe(); aws.ToInt64(td.ItemCount) != 5 || aws.ToInt64(td.TableSizeBytes) == 0 || b.Loads() != 1 {
		t.Errorf("after loading: %d items, %d bytes, %d loads", aws.ToInt64(td.ItemCount), aws.ToInt64(td.TableSizeBytes), b.Loads())
	}
}

// Without manifest-summary.json, the data files' counts add up.
func TestDescribeWithoutSummary(t *testing.T) {
	dir := makeExport(t, t.TempDir(), "Users", usersExport, nil)
	b, err := Open(ctx, newDB(), []Source{{Path: dir, Table: "Users", Keys: pkSK}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	out, err := b.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("Users")})
	if err != nil || aws.ToInt64(out.Table.ItemCount) != 5 || b.Loaded("Users") {
		t.Errorf("DescribeTable: %v, %v items, loaded %v", err, out.Table.ItemCount, b.Loaded("Users"))
	}
}

// TestStreamTypesFromFirstItem: key types not given are the first item's,
// read by Open alone; an empty file's keys are S.
func TestStreamTypesFromFirstItem(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "nums.jsonl", lines(`{"id":{"N":"7"},"v":{"S":"x"}}`, `{"id":{"N":"8"}}`))
	e := write(t, dir, "empty.jsonl", "")
	b, err := Open(ctx, newDB(), []Source{{Path: p, Keys: []string{"id"}}, {Path: e, Keys: []string{"id"}}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for table, want := range map[string]types.ScalarAttributeType{"nums": types.ScalarAttributeTypeN, "empty": types.ScalarAttributeTypeS} {
		out, err := b.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
		if err != nil || out.Table.AttributeDefinitions[0].AttributeType != want {
			t.Errorf("%s: %v, %v; want key type %s", table, err, out, want)
		}
	}
	_, scanned, _, _, err := scanAll(t, b, dynamodb.ScanInput{TableName: aws.String("nums")}, true)
	if err != nil || scanned != 2 || b.Loads() != 0 {
		t.Errorf("scan: %v, %d items, %d loads", err, scanned, b.Loads())
	}
}

// TestLoadDuringStream: a table loaded while a Scan streams it (a join
// reading it both ways) does not change that Scan's pages: they go on in
// the stream's order; a new Scan reads the loaded table.
func TestLoadDuringStream(t *testing.T) {
	var ls []string
	for i := range 40 {
		ls = append(ls, `{"PK":{"S":"p`+itoa(i%7)+`"},"SK":{"N":"`+itoa(i)+`"}}`)
	}
	p := write(t, t.TempDir(), "tab.jsonl", lines(ls...))
	b, err := Open(ctx, newDB(), []Source{{Path: p, Keys: pkSK}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	first, err := b.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("tab"), Limit: aws.Int32(5)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Query(ctx, eq("tab", "", "PK", S("p1"))); err != nil || !b.Loaded("tab") {
		t.Fatalf("Query: %v, loaded %v", err, b.Loaded("tab"))
	}
	seen := map[string]bool{}
	for _, it := range first.Items {
		seen[sOf(it, "SK")] = true
	}
	in := &dynamodb.ScanInput{TableName: aws.String("tab"), Limit: aws.Int32(5), ExclusiveStartKey: first.LastEvaluatedKey}
	for in.ExclusiveStartKey != nil {
		out, err := b.Scan(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range out.Items {
			if seen[sOf(it, "SK")] {
				t.Fatalf("item %s read twice", sOf(it, "SK"))
			}
			seen[sOf(it, "SK")] = true
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
	if len(seen) != 40 || b.streams.Load() != 1 {
		t.Errorf("%d items read by %d streams, want 40 by 1", len(seen), b.streams.Load())
	}
	if _, _, _, _, err := scanAll(t, b, dynamodb.ScanInput{TableName: aws.String("tab")}, true); err != nil || b.streams.Load() != 1 {
		t.Errorf("a new Scan after loading: %v, %d streams", err, b.streams.Load())
	}
}
