package offline

import (
	"strconv"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// readAllItems is ReadItems collecting "path:line PK/SK" per item.
func readAllItems(t *testing.T, src Source) ([]string, error) {
	t.Helper()
	var got []string
	err := ReadItems(ctx, src, func(items []Item) error {
		for _, it := range items {
			got = append(got, it.Path[strings.LastIndexByte(it.Path, '/')+1:]+":"+strconv.Itoa(it.Line)+" "+sOf(it.Attrs, "PK")+"/"+sOf(it.Attrs, "SK"))
		}
		return nil
	})
	return got, err
}

func TestReadItemsOfExport(t *testing.T) {
	root := t.TempDir()
	makeExport(t, root, "Users", usersExport, map[string]any{})
	got, err := readAllItems(t, Source{Path: root, Table: "target", Keys: []string{"PK:S", "SK:S"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"bafybeiczss3yxay3o4abnabbb.json.gz:1 USER#u_001/PROFILE",
		"bafybeiczss3yxay3o4abnabbb.json.gz:2 USER#u_001/ORDER#2026-04-25",
		"bafybeiczss3yxay3o4abnabbb.json.gz:3 USER#u_001/ORDER#2026-04-30",
		"nv3i3gsvmu3zfmfsjcqyhdx4yq.json.gz:1 USER#u_002/PROFILE",
		"nv3i3gsvmu3zfmfsjcqyhdx4yq.json.gz:2 EMAIL#alice@example.com/EMAIL#alice@example.com",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("items:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestReadItemsKeepsNumbersExact(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "items.jsonl", lines(
		`{"PK":{"S":"a"},"SK":{"N":"1"},"big":{"N":"12345678901234567890123456789012345678"},"small":{"N":"0.000000000000000000000000000000000001"}}`,
	))
	var big, small string
	err := ReadItems(ctx, Source{Path: p, Table: "t", Keys: []string{"PK:S", "SK:N"}}, func(items []Item) error {
		big, small = sOf(items[0].Attrs, "big"), sOf(items[0].Attrs, "small")
		return nil
	})
	if err != nil || big != "12345678901234567890123456789012345678" || small != "0.000000000000000000000000000000000001" {
		t.Fatalf("big %q small %q err %v", big, small, err)
	}
}

func TestReadItemsErrorsNameFileAndLine(t *testing.T) {
	dir := t.TempDir()
	keys := []string{"PK:S", "SK:N"}
	for _, c := range []struct {
		name, data string
		code       diag.Code
		says       string
	}{
		{"bad json", lines(`{"PK":{"S":"a"},"SK":{"N":"1"}}`, `{"PK":{"S":"b"},"SK":{"N":"2"}`), diag.CodeBadJSON, "items.jsonl:2"},
		{"wrong key type", lines(`{"PK":{"S":"a"},"SK":{"N":"1"}}`, `{"PK":{"S":"a"},"SK":{"S":"x"}}`), diag.CodeKeyType, "items.jsonl:2"},
		{"missing key", lines(`{"PK":{"S":"a"}}`), diag.CodeMissingKey, "items.jsonl:1"},
		{"duplicate", lines(`{"PK":{"S":"a"},"SK":{"N":"1.50"}}`, `{"PK":{"S":"b"},"SK":{"N":"1"}}`, `{"PK":{"S":"a"},"SK":{"N":"15E-1"}}`), diag.CodeDuplicateKey, "items.jsonl:3"},
		{"rejected by DynamoDB", lines(`{"PK":{"S":"a"},"SK":{"N":"1"},"s":{"SS":["x","x"]}}`), diag.CodeBadItem, "items.jsonl:1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := write(t, dir, "items.jsonl", c.data)
			_, err := readAllItems(t, Source{Path: p, Table: "t", Keys: keys})
			if diag.CodeOf(err) != c.code || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("error %v (code %q); want %s at %s", err, diag.CodeOf(err), c.code, c.says)
			}
		})
	}
	if _, err := readAllItems(t, Source{Path: write(t, dir, "x.jsonl", "{}\n"), Table: "t", Keys: []string{"PK"}}); diag.CodeOf(err) != diag.CodeBadKeyFlag {
		t.Fatalf("untyped key: %v", err)
	}
}
