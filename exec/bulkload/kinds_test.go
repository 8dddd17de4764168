package bulkload_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/exec/bulkload"
)

func gzipped(t *testing.T, data string) string {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(data)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// Every kind of file --load reads ends with the same table.
func TestLoadEveryInputKind(t *testing.T) {
	items := genItems(60)
	var pretty []string
	for _, it := range items {
		pretty = append(pretty, strings.ReplaceAll(it, `,"`, ",\n  \""))
	}
	var tsv strings.Builder
	tsv.WriteString("PK\tSK\tpad:S\n")
	var tsvItems []string
	for i := range 60 {
		pk, sk := "P"+string(rune('a'+i%5)), i
		tsv.WriteString(pk + "\t" + itoa(sk) + "\tx" + itoa(i) + "\n")
		tsvItems = append(tsvItems, `{"PK":{"S":"`+pk+`"},"SK":{"N":"`+itoa(sk)+`"},"pad":{"S":"x`+itoa(i)+`"}}`)
	}
	kinds := []struct {
		name, file, data string
		want             []string
	}{
		{"lines, gzipped", "items.jsonl.gz", gzipped(t, strings.Join(items, "\n")+"\n"), items},
		{"array", "items.json", "[\n" + strings.Join(items, ",\n") + "\n]\n", items},
		{"pretty-printed", "items.json", strings.Join(pretty, "\n"), items},
		{"wrapped as exports write them", "items.jsonl", `{"Item":` + strings.Join(items, "}\n{\"Item\":") + "}\n", items},
		{"tsv, gzipped", "rows.tsv.gz", gzipped(t, tsv.String()), tsvItems},
	}
	eachBackend(t, func(t *testing.T, b backend) {
		for i, k := range kinds {
			t.Run(k.name, func(t *testing.T) {
				p := filepath.Join(t.TempDir(), k.file)
				if err := os.WriteFile(p, []byte(k.data), 0o644); err != nil {
					t.Fatal(err)
				}
				table := b.table("kind" + itoa(i))
				rep, err := bulkload.Load(context.Background(), b.client, bulkload.Source{Table: table, Path: p, Keys: pkSK}, options(t))
				if err != nil || rep.Written != 60 || rep.Verified != 60 {
					t.Fatalf("%+v, %v", rep, err)
				}
				same(t, dump(t, b.client, table), normalized(t, k.want))
			})
		}
	})
}

func itoa(n int) string { return strconv.Itoa(n) }
