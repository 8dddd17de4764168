package planner

import (
	"reflect"
	"testing"

	"github.com/ddbsql/ddbsql/parser"
	"github.com/ddbsql/ddbsql/planner/value"
)

// The parser records paths as written; the binder works on value paths.
// The conversion must keep every step, and both must print a path the same
// way (parser.Select.Render and EXPLAIN show the same text).
func TestDocumentPathsFromParser(t *testing.T) {
	name := func(n string) value.PathElem { return value.PathElem{Name: n} }
	idx := func(i int) value.PathElem { return value.PathElem{Index: i, IsIndex: true} }
	tests := []struct {
		sql  string
		want []value.Path // every path the parser recorded, in any order
	}{
		{"SELECT info.rating.imdb FROM t", []value.Path{{name("info"), name("rating"), name("imdb")}}},
		{"SELECT tags[0], m[1][22].sk FROM t", []value.Path{{name("tags"), idx(0)}, {name("m"), idx(1), idx(22), name("sk")}}},
		{"SELECT `x-y`[0].\"a b\" FROM t WHERE t.info.`a.b`[3] = 1",
			[]value.Path{{name("x-y"), idx(0), name("a b")}, {name("t"), name("info"), name("a.b"), idx(3)}}},
		{"SELECT info.`a``b`.c FROM t", []value.Path{{name("info"), name("a`b"), name("c")}}},
		{"SELECT a.b FROM t", nil},
	}
	for _, tt := range tests {
		st, err := parser.ParseOne(tt.sql)
		if err != nil {
			t.Fatalf("%s: %v", tt.sql, err)
		}
		written := st.(*parser.Select).Paths
		got := documentPaths(written)
		if len(got) != len(tt.want) {
			t.Errorf("%s: %d paths %v, want %v", tt.sql, len(got), got, tt.want)
			continue
		}
		for synthetic, p := range got {
			if !containsPath(tt.want, p) {
				t.Errorf("%s: path %#v, want one of %v", tt.sql, p, tt.want)
			}
			if p.String() != written[synthetic].String() {
				t.Errorf("%s: value path prints %s, parser path %s", tt.sql, p, written[synthetic])
			}
		}
	}
}

func containsPath(ps []value.Path, p value.Path) bool {
	for _, q := range ps {
		if reflect.DeepEqual(p, q) {
			return true
		}
	}
	return false
}
