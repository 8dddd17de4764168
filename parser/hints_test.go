package parser

import "testing"

func TestCloseKeyword(t *testing.T) {
	tests := map[string]string{
		"FORM": "FROM", "form": "FROM", "SELET": "SELECT", "SELECTT": "SELECT", "WHRE": "WHERE",
		"LIMT": "LIMIT", "GROPU": "GROUP", "ORDR": "ORDER", "EXPLIAN": "EXPLAIN",
		"FROM": "", "status": "", "ab": "", "FOR": "", "SLECTX": "",
	}
	for in, want := range tests {
		if got := closeKeyword(in); got != want {
			t.Errorf("closeKeyword(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestGluedName(t *testing.T) {
	src := "FROM my-table-v2 WHERE a - b AND x.y.z"
	if got := gluedName(src, 7); got != "my-table-v2" {
		t.Errorf("got %q", got)
	}
	if got := gluedName(src, 25); got != "" {
		t.Errorf("spaced minus: got %q", got)
	}
	if got := gluedName(src, 34); got != "x.y.z" {
		t.Errorf("dots: got %q", got)
	}
}
