package offline

import (
	"reflect"
	"testing"
)

func TestParseDataFlag(t *testing.T) {
	for _, tc := range []struct {
		arg  string
		want Source
	}{
		{"exports/orders", Source{Path: "exports/orders"}},
		{"orders=exports/2026/orders.jsonl.gz", Source{Table: "orders", Path: "exports/2026/orders.jsonl.gz"}},
		{"my-table.v2=/tmp/x.json", Source{Table: "my-table.v2", Path: "/tmp/x.json"}},
		{"/data/run=1/items.json", Source{Path: "/data/run=1/items.json"}}, // "/data/run" is not a table name
		{"ab=x.json", Source{Path: "ab=x.json"}},                           // too short for a table name
		{"=x.json", Source{Path: "=x.json"}},
	} {
		if got := ParseDataFlag(tc.arg); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseDataFlag(%q) = %+v, want %+v", tc.arg, got, tc.want)
		}
	}
}

func TestParseKeyFlag(t *testing.T) {
	for _, tc := range []struct {
		arg     string
		want    []string
		wantErr string
	}{
		{"PK", []string{"PK"}, ""},
		{"PK,SK", []string{"PK", "SK"}, ""},
		{" device:N , ts:n ", []string{"device:N", "ts:n"}, ""},
		{"a,b,c", nil, `--key "a,b,c": give the partition key and at most one sort key, PK[,SK]`},
		{"PK:X", nil, `--key "PK:X": key PK: type "X" is not S, N or B`},
		{"PK,PK", nil, `--key "PK,PK": the partition and sort keys are both PK`},
		{",SK", nil, `--key ",SK": empty key attribute name`},
	} {
		got, err := ParseKeyFlag(tc.arg)
		if tc.wantErr != "" {
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("ParseKeyFlag(%q) error %v, want %s", tc.arg, err, tc.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseKeyFlag(%q) = %q, %v; want %q", tc.arg, got, err, tc.want)
		}
	}
}

func TestTableNameFromFile(t *testing.T) {
	for in, want := range map[string]string{
		"orders.jsonl.gz": "orders", "orders.json": "orders", "users.ndjson": "users",
		"data.txt": "data", "plain": "plain", "x.json.gz.json": "x", ".json": ".json",
	} {
		if got := tableNameFromFile(in); got != want {
			t.Errorf("tableNameFromFile(%q) = %q, want %q", in, got, want)
		}
	}
}
