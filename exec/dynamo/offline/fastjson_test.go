package offline

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/planner/value"
)

var fastCases = []string{
	lineA,
	`{"Item":{"PK":{"S":"USER#1"},"SK":{"S":"ORDER#2026"},"total":{"N":"012.50"}}}`,
	`{"Item":{"PK":{"S":"x"}},"Metadata":{}}`,
	` { "PK" : { "S" : "a\"b\\c\u00e9\ud83d\ude00" } , "n" : { "N" : "-0.000" } } `,
	`{"s":{"S":"日本語"},"b":{"B":"AAEC"},"t":{"BOOL":true},"f":{"BOOL":false},"z":{"NULL":true}}`,
	`{"m":{"M":{"a":{"M":{"b":{"L":[{"S":"x"},{"N":"1"},{"L":[]},{"M":{}}]}}}}}}`,
	`{"ss":{"SS":["b","a"]},"ns":{"NS":["10","9.50","-1"]},"bs":{"BS":["AQ==","AA=="]}}`,
	`{"big":{"N":"12345678901234567890123456789012345678"},"tiny":{"N":"0.00000000000000000000000000000000000001"}}`,
	`{"long":{"N":"1000000000000000000000000000000000000000"}}`,
	`{"e":{"N":"1E+3"},"plus":{"N":"+5"},"bare":{"N":7}}`,
	`{"x":{"NULL":false}}`,
	`{"x":{"S":"a","N":"1"}}`,
	`{"x":{"Q":"a"}}`,
	`{"x":{"B":"not base64!"}}`,
	`{"x":{"S":"a"}`,
	`{"x":{"S":"a"}}}`,
	`{"x":{"S":"bad \x01 control"}}`,
	"{\"x\":{\"S\":\"bad utf8 \xff\"}}",
	`{"Item":{"S":"x"}}`,
	`{}`,
	`[]`,
	`{"a":{"N":"1.5"},"a":{"N":"2"}}`,
	`{"":{"BS":[]}}`, `{"x":{"SS":[]}}`, `{"x":{"NS":[]}}`,
}

// fastItem, when it succeeds, agrees with the exact slow path.
func TestFastItemAgreesWithSlowPath(t *testing.T) {
	for _, c := range fastCases {
		for _, unwrap := range []bool{true, false} {
			checkFast(t, []byte(c), unwrap)
		}
	}
	// And on every item of the demo.
	f, err := demoFS.Open(demoDir + "/demo-model.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		line := bytes.TrimSuffix(bytes.TrimSpace(sc.Bytes()), []byte(","))
		if bytes.HasPrefix(line, []byte(`{"`)) && !bytes.HasPrefix(line, []byte(`{"AttributeName"`)) {
			if _, ok := fastItem(line, true, nil); !ok {
				t.Errorf("fast path refused a demo item: %s", line)
			}
			checkFast(t, line, true)
			n++
		}
	}
	if n < 3000 {
		t.Errorf("checked %d demo items", n)
	}
}

func checkFast(t testing.TB, data []byte, unwrap bool) {
	t.Helper()
	fast, ok := fastItem(data, unwrap, nil)
	if !ok {
		return
	}
	slow, ierr := itemParser{unwrap: unwrap}.slowParse(data)
	if ierr != nil {
		t.Fatalf("fast path accepted %s (unwrap %v), slow path: %v", data, unwrap, ierr)
	}
	if a, b := canonical(t, asMap(fast)), canonical(t, slow); a != b {
		t.Fatalf("%s (unwrap %v):\nfast %s\nslow %s", data, unwrap, a, b)
	}
}

func asMap(item []memdb.NamedValue) value.Value {
	m := map[string]value.Value{}
	for _, nv := range item {
		m[nv.Name] = nv.Value
	}
	return value.MapOf(m)
}

// canonical is an item's DynamoDB JSON with set members sorted (the fast
// path keeps them as written).
func canonical(t testing.TB, item value.Value) string {
	v, err := value.FromItem(item.AttributeValue().(*types.AttributeValueMemberM).Value)
	if err != nil {
		t.Fatal(err)
	}
	return string(value.AppendItemJSON(nil, v))
}

func FuzzFastItem(f *testing.F) {
	for _, c := range fastCases {
		f.Add([]byte(c), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, unwrap bool) {
		checkFast(t, data, unwrap)
	})
}

func TestFastNumber(t *testing.T) {
	for in, want := range map[string]string{
		"0": "0", "-0": "0", "00": "0", "0.0": "0", "-0.000": "0", "7": "7", "007": "7", "-12.50": "-12.5",
		"100": "100", "0.010": "0.01", "3.14159": "3.14159", "-0.5": "-0.5",
		"-00.5": "-0.5", "10.05": "10.05", "1.10": "1.1", "-7": "-7", "0100": "100", "0.5": "0.5", "-10": "-10",
	} {
		got, ok := fastNumber(in)
		canon, err := value.CanonicalNumber(in)
		if !ok || got != want || err != nil || canon != want {
			t.Errorf("fastNumber(%q) = %q, %v; want %q (CanonicalNumber %q, %v)", in, got, ok, want, canon, err)
		}
	}
	for _, in := range []string{"", "-", ".5", "5.", "1e3", "+1", "1.2.3", "abc", " 1", "1 ",
		"123456789012345678901234567890123456789", "12345678901234567890123456789012345678901"} {
		if got, ok := fastNumber(in); ok {
			t.Errorf("fastNumber(%q) = %q, want it left to CanonicalNumber", in, got)
		}
	}
}
