package offline

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// skipCases are valid items whose non-key attributes a projection of PK
// and SK skips or, where the skipper cannot vouch for them, decodes.
var skipCases = []string{
	`"s":{"S":"plain"},"e":{"S":""},"u":{"S":"日本語"},"n":{"N":"-012.50"},"t":{"BOOL":true},"z":{"NULL":true}`,
	`"m":{"M":{"a":{"M":{"b":{"L":[{"S":"x"},{"N":"1"},{"L":[]},{"M":{}},{"BOOL":false}]}}},"c":{"NULL":true}}}`,
	`"l":{"L":[{"N":"12345678901234567890123456789012345678"},{"N":"0.00000000000000000000000000000000000001"},{"N":"0"}]}`,
	`"esc":{"S":"a\"b\u00e9"},"b":{"B":"AAEC"},"ss":{"SS":["b","a"]},"ns":{"NS":["10","9.50"]},"bs":{"BS":["AQ=="]}`,
	`"name\u00e9":{"S":"escaped name"},"dupm":{"M":{"a":{"N":"1"},"a":{"N":"2"}}}`,
	`"long":{"S":"` + strings.Repeat("x", 20000) + `"},"mid":{"S":"` + strings.Repeat("y", 300) + `"}`,
	`"twice":{"S":"a"},"twice":{"N":"1"}`,
}

// badSkipCases are items PutItem rejects for an attribute no projection
// names.
var badSkipCases = []string{
	`"big":{"N":"123456789012345678901234567890123456789"}`,
	`"e":{"N":"1E+3"},"huge":{"N":"1E+200"}`,
	`"bad":{"N":"12a"}`,
	`"nested":{"M":{"x":{"L":[{"N":"1.2.3"}]}}}`,
	`"empty":{"SS":[]}`,
	`"dups":{"NS":["1.5","1.50"]}`,
	`"dupss":{"SS":["a","a"]}`,
	`"nul":{"NULL":false}`,
	`"bin":{"B":"not base64!"}`,
	`"over":{"S":"` + strings.Repeat("z", 410_000) + `"}`,
	`"typo":{"Q":"a"}`,
}

func skipItem(i int, attrs string) []byte {
	return []byte(fmt.Sprintf(`{"Item":{"PK":{"S":"p%d"},"SK":{"N":"%d"},%s}}`, i, i, attrs))
}

// TestSkippedAttributesCheckedAndSized: an item decoded with only some
// attributes needed gets the size, page size and error it gets decoded
// whole.
func TestSkippedAttributesCheckedAndSized(t *testing.T) {
	db := newDB()
	p := write(t, t.TempDir(), "t.jsonl", string(skipItem(0, `"x":{"S":"a"}`))+"\n")
	mustLoad(t, db, Source{Path: p, Table: "tab", Keys: pkSK})
	check, err := db.Loader().Checker("tab")
	if err != nil {
		t.Fatal(err)
	}
	run := func(data []byte, need map[string]bool) string {
		item, sk, ierr := itemParser{unwrap: true, need: need}.parse(data, nil)
		if ierr != nil {
			return "parse: " + ierr.msg
		}
		fed, err := check(item, sk)
		if err != nil {
			return "check: " + err.Error()
		}
		size, page := fed.Sizes()
		return fmt.Sprintf("size %d, page %d", size, page)
	}
	// The skipper does skip: the first case keeps only its keys.
	if item, sk, _ := (itemParser{unwrap: true, need: map[string]bool{"PK": true, "SK": true}}).parse(skipItem(0, skipCases[0]), nil); len(item) != 2 || sk.Size == 0 {
		t.Errorf("decoded %d attributes (skipped %+v), want only the 2 keys", len(item), sk)
	}
	for i, c := range append(append([]string(nil), skipCases...), badSkipCases...) {
		data := skipItem(i, c)
		want := run(data, nil)
		for _, need := range []map[string]bool{{"PK": true, "SK": true}, {"PK": true, "SK": true, "s": true, "l": true, "bad": true}} {
			if got := run(data, need); got != want {
				t.Errorf("case %d, need %v: %s; decoded whole: %s", i, need, got, want)
			}
		}
	}
}

// TestStreamedProjectionSameAsLoaded: a projected, filtered and counted
// streamed Scan reads, counts and charges what the loaded table's does,
// and an item whose unprojected attribute PutItem rejects fails the
// streamed Scan with the load's error.
func TestStreamedProjectionSameAsLoaded(t *testing.T) {
	dir := t.TempDir()
	var ls []string
	for i := range 300 {
		ls = append(ls, string(skipItem(i, skipCases[i%len(skipCases)]+fmt.Sprintf(`,"v":{"N":"%d"}`, i%5))))
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
	ins := []dynamodb.ScanInput{
		{ProjectionExpression: aws.String("PK, SK")},
		{ProjectionExpression: aws.String("PK, SK, #l[0]"), ExpressionAttributeNames: map[string]string{"#l": "l"}, Limit: aws.Int32(7)},
		{ProjectionExpression: aws.String("PK, SK"), FilterExpression: aws.String("v < :x"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":x": N("2")}},
		{Select: types.SelectCount, FilterExpression: aws.String("attribute_exists(m.a)")},
		{Select: types.SelectCount},
	}
	type totals struct {
		keys           string
		scanned, count int
		rcu            float64
	}
	scan := func(b *Backend, in dynamodb.ScanInput, raw, sorted bool) totals {
		keys, scanned, count, rcu, err := scanAll(t, b, in, raw)
		if err != nil {
			t.Fatal(err)
		}
		if sorted {
			sort.Strings(keys)
		}
		return totals{strings.Join(keys, " "), scanned, count, rcu}
	}
	for i, in := range ins {
		in.TableName = aws.String("tab")
		// The same request reading whole items: same pages, same totals.
		whole := in
		whole.ProjectionExpression, whole.Select = nil, ""
		if whole.FilterExpression == nil {
			whole.ExpressionAttributeNames = nil
		}
		for _, raw := range []bool{true, false} {
			got, want := scan(b, in, raw, false), scan(b, whole, raw, false)
			if in.Select == types.SelectCount {
				want.keys = "" // a count returns no items
			}
			if got != want {
				t.Errorf("request %d (raw %v): %+v; whole items: %+v", i, raw, got, want)
			}
			if in.Limit == nil {
				if got, want := scan(b, in, raw, true), scan(refB, in, raw, true); got != want {
					t.Errorf("request %d (raw %v): %+v; loaded: %+v", i, raw, got, want)
				}
			}
		}
	}
	if b.Loads() != 0 {
		t.Errorf("%d loads; scans must stream", b.Loads())
	}

	for _, bad := range badSkipCases {
		ls := []string{string(skipItem(1, `"ok":{"S":"a"}`)), string(skipItem(2, bad))}
		p := write(t, t.TempDir(), "bad.jsonl", lines(ls...))
		var want *diag.Error
		if _, err := Load(ctx, newDB(), []Source{{Path: p, Keys: pkSK}}); !errors.As(err, &want) {
			t.Fatalf("%s: Load error %v, want a *diag.Error", bad[:min(len(bad), 30)], err)
		}
		b, err := Open(ctx, newDB(), []Source{{Path: p, Keys: pkSK}}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, raw := range []bool{true, false} {
			_, _, _, _, err := scanAll(t, b, dynamodb.ScanInput{TableName: aws.String("bad"), ProjectionExpression: aws.String("PK, SK")}, raw)
			var e *diag.Error
			if !errors.As(err, &e) || e.Code != want.Code || e.Error() != want.Error() {
				t.Errorf("%s: streamed error %v, want the load's %s %v", bad[:min(len(bad), 30)], err, want.Code, want)
			}
		}
		b.Close()
	}
}
