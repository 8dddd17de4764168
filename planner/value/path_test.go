package value

import "testing"

func name(s string) PathElem { return PathElem{Name: s} }
func index(i int) PathElem   { return PathElem{Index: i, IsIndex: true} }

func TestPathGet(t *testing.T) {
	inner := MapOf(map[string]Value{"c": Str("deep"), "a.b": Str("dotted")})
	list := ListOf([]Value{NumTrusted("1"), inner, ListOf([]Value{Str("x"), Str("y")}), NullValue()})
	top := MapOf(map[string]Value{"b": list, "s": Str("str")})
	tests := []struct {
		path Path
		want Value
	}{
		{Path{name("a")}, top}, // a one-element path is the top-level value itself
		{Path{name("a"), name("s")}, Str("str")},
		{Path{name("a"), name("b"), index(0)}, NumTrusted("1")},
		{Path{name("a"), name("b"), index(1), name("c")}, Str("deep")},
		{Path{name("a"), name("b"), index(1), name("a.b")}, Str("dotted")},
		{Path{name("a"), name("b"), index(2), index(1)}, Str("y")},
		{Path{name("a"), name("b"), index(3)}, NullValue()},
		{Path{name("a"), name("b"), index(4)}, MissingValue()},               // out of range
		{Path{name("a"), name("b"), index(-1)}, MissingValue()},              // negative
		{Path{name("a"), name("b"), name("0")}, MissingValue()},              // a name on a list
		{Path{name("a"), index(0)}, MissingValue()},                          // an index on a map
		{Path{name("a"), name("s"), name("x")}, MissingValue()},              // into a string
		{Path{name("a"), name("s"), index(0)}, MissingValue()},               // strings are not lists
		{Path{name("a"), name("nope"), name("c"), index(0)}, MissingValue()}, // stops at the first miss
		{Path{name("a"), name("b"), index(3), name("x")}, MissingValue()},    // into a NULL
	}
	for _, tc := range tests {
		got := tc.path.Get(top)
		if !identical(got, tc.want) {
			t.Errorf("%s.Get = %s, want %s", tc.path, show(got), show(tc.want))
		}
	}
	if got := (Path{name("a"), name("x")}).Get(MissingValue()); got.Kind() != Missing {
		t.Errorf("Get on a missing attribute = %s", show(got))
	}
	if (Path{name("top"), name("x")}).Attr() != "top" {
		t.Error("Attr")
	}
}

// Lookup reports the index step that met a set; Get sees Missing there.
func TestPathLookupFindsSetIndex(t *testing.T) {
	ss := SetOf(StringSet, []Value{Str("a")})
	top := MapOf(map[string]Value{"tags": ss, "l": ListOf([]Value{Str("x"), ss})})
	for _, tc := range []struct {
		path  Path
		setAt int
	}{
		{Path{name("a"), name("tags"), index(0)}, 2},
		{Path{name("a"), name("l"), index(1), index(0)}, 3},
		{Path{name("a"), name("l"), index(0)}, 0},
		{Path{name("a"), name("tags")}, 0}, // the whole set is fine
		{Path{name("a"), name("nope"), index(0)}, 0},
	} {
		v, at := tc.path.Lookup(top)
		if at != tc.setAt {
			t.Errorf("%s: setAt %d, want %d", tc.path, at, tc.setAt)
		}
		if at > 0 && v.Kind() != Missing {
			t.Errorf("%s: value %s at a set index, want Missing", tc.path, show(v))
		}
	}
	if got := (Path{name("s"), index(0)}).Get(ss); got.Kind() != Missing {
		t.Errorf("Get into a set = %s, want Missing", show(got))
	}
}

func TestPathStringAndPlain(t *testing.T) {
	tests := []struct {
		path       Path
		str, plain string
	}{
		{Path{name("a")}, "a", "a"},
		{Path{name("info"), name("rating")}, "info.rating", "info.rating"},
		{Path{name("tags"), index(0)}, "tags[0]", "tags[0]"},
		{Path{name("m"), index(10), index(2), name("x_1")}, "m[10][2].x_1", "m[10][2].x_1"},
		{Path{name("a.b")}, "`a.b`", "a.b"},
		{Path{name("my-attr"), name("x#y")}, "`my-attr`.`x#y`", "my-attr.x#y"},
		{Path{name("GSI1#PK")}, "`GSI1#PK`", "GSI1#PK"},
		{Path{name("back`tick")}, "`back``tick`", "back`tick"},
		{Path{name("1abc")}, "`1abc`", "1abc"},
		{Path{name("_x9")}, "_x9", "_x9"},
		{Path{name("")}, "``", ""},
		{Path{name("sp ace"), index(1)}, "`sp ace`[1]", "sp ace[1]"},
		{Path{name("é")}, "`é`", "é"},
	}
	for _, tc := range tests {
		if got := tc.path.String(); got != tc.str {
			t.Errorf("String() = %q, want %q", got, tc.str)
		}
		if got := tc.path.Plain(); got != tc.plain {
			t.Errorf("Plain() = %q, want %q", got, tc.plain)
		}
	}
}

func TestQuoteName(t *testing.T) {
	tests := map[string]string{
		"abc": "abc", "ABC_1": "ABC_1", "_": "_", "a1": "a1",
		"1a": "`1a`", "": "``", "a-b": "`a-b`", "a.b": "`a.b`", "a`b": "`a``b`", "``": "``````",
		"a b": "`a b`", "ä": "`ä`", "#": "`#`", "a[0]": "`a[0]`",
	}
	for in, want := range tests {
		if got := QuoteName(in); got != want {
			t.Errorf("QuoteName(%q) = %q, want %q", in, got, want)
		}
		if IsPlainIdentifier(in) != (in == want) {
			t.Errorf("IsPlainIdentifier(%q) = %v", in, IsPlainIdentifier(in))
		}
	}
}

func TestPathCovers(t *testing.T) {
	a := Path{name("a")}
	ab := Path{name("a"), name("b")}
	abc := Path{name("a"), name("b"), name("c")}
	a0 := Path{name("a"), index(0)}
	a1 := Path{name("a"), index(1)}
	a0b := Path{name("a"), index(0), name("b")}
	x := Path{name("x")}
	dotted := Path{name("a.b")}
	idx0name := Path{name("a"), name("0")}
	tests := []struct {
		p, q Path
		want bool
	}{
		{a, a, true},
		{a, ab, true},
		{a, abc, true},
		{ab, abc, true},
		{ab, a, false},
		{abc, ab, false},
		{a, a0, true},
		{a0, a0b, true},
		{a0, a1, false},
		{a1, a0b, false},
		{a, x, false},
		{dotted, ab, false}, // `a.b` is one attribute, not a path
		{ab, dotted, false},
		{a0, idx0name, false}, // [0] is not the member "0"
		{idx0name, a0, false},
	}
	for _, tc := range tests {
		if got := tc.p.Covers(tc.q); got != tc.want {
			t.Errorf("%s.Covers(%s) = %v, want %v", tc.p, tc.q, got, tc.want)
		}
	}
}
