package memdb

import (
	"testing"

	"github.com/ddbsql/ddbsql/planner/value"
)

func TestAttrsPickAndGet(t *testing.T) {
	a := sortAttrs(attrs{{"z", value.Str("1")}, {"b", value.Str("2")}, {"m", value.Str("3")}, {"a", value.Str("4")}})
	got := a.pick("z", "a", "", "nope", "z", "a", "m")
	if len(got) != 3 || got[0].name != "a" || got[1].name != "m" || got[2].name != "z" {
		t.Errorf("pick: %v", got)
	}
	for _, at := range a {
		if v, ok := a.get(at.name); !ok || v.Text() != at.val.Text() {
			t.Errorf("get(%s) = %v, %v", at.name, v, ok)
		}
	}
	if a.has("c") || a.has("") || !a.has("b") {
		t.Error("has")
	}
}
