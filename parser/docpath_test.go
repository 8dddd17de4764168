package parser

import "testing"

func TestPathString(t *testing.T) {
	tests := []struct {
		path Path
		want string
	}{
		{Path{name("info"), name("rating"), name("imdb")}, "info.rating.imdb"},
		{Path{name("tags"), idx(0)}, "tags[0]"},
		{Path{name("m"), idx(1), idx(22), name("sk")}, "m[1][22].sk"},
		{Path{name("x-y"), idx(0), name("a b")}, "`x-y`[0].`a b`"},
		{Path{name("info"), name("a.b"), name("c")}, "info.`a.b`.c"},
		{Path{name("info"), name("a`b")}, "info.`a``b`"},
		{Path{name("_id9"), name("9lives")}, "_id9.`9lives`"},
		{Path{name("Data"), name("Status")}, "Data.Status"},
		{Path{name("")}, "``"},
	}
	for _, tt := range tests {
		if got := tt.path.String(); got != tt.want {
			t.Errorf("%#v.String() = %s, want %s", tt.path, got, tt.want)
		}
	}
}

// The rewriter keys paths by their text, so different paths must never
// render alike, however their names are spelled.
func TestPathStringTellsPathsApart(t *testing.T) {
	pairs := [][2]Path{
		{{name("a"), name("b"), name("c")}, {name("a.b"), name("c")}},
		{{name("a"), name("b"), name("c")}, {name("a"), name("b.c")}},
		{{name("a"), idx(0)}, {name("a[0]")}},
		{{name("a"), name("b")}, {name("a.b")}},
		{{name("a"), name("b`")}, {name("a"), name("b``")}},
		{{name("a"), idx(1), idx(2)}, {name("a"), idx(12)}},
	}
	for _, pair := range pairs {
		if a, b := pair[0].String(), pair[1].String(); a == b {
			t.Errorf("%#v and %#v both render as %s", pair[0], pair[1], a)
		}
	}
}
