package main

import (
	"strings"
	"testing"
)

func TestAnswersOfBothPeersCompare(t *testing.T) {
	csvOut := "status,COUNT(*),SUM(total)\ncancelled,3,20.5\npaid,1,7\n"
	jsonOut := `{"status":"paid","n":"1","total":"7.00"}` + "\n" + `{"status":"cancelled","n":"3","total":"20.50"}` + "\n"
	want := answer{"cancelled": {3, "20.5"}, "paid": {1, "7"}}
	c, err := parseCSV([]byte(csvOut))
	if err != nil {
		t.Fatal(err)
	}
	j, err := parseJSONLines([]byte(jsonOut))
	if err != nil {
		t.Fatal(err)
	}
	if err := want.compare("ddbsql", c); err != nil {
		t.Error(err)
	}
	if err := want.compare("DuckDB", j); err != nil {
		t.Error(err)
	}
}

func TestDifferencesAreReported(t *testing.T) {
	want := answer{"paid": {1, "7"}, "shipped": {2, "3.5"}}
	for _, c := range []struct {
		got  answer
		says string
	}{
		{answer{"paid": {1, "7"}}, `no group "shipped"`},
		{answer{"paid": {1, "7"}, "shipped": {2, "3.5"}, "lost": {1, "1"}}, `unexpected group "lost"`},
		{answer{"paid": {2, "7"}, "shipped": {2, "3.5"}}, `"paid": 2, 7; want 1, 7`},
		{answer{"paid": {1, "7.01"}, "shipped": {2, "3.5"}}, `"paid": 1, 7.01; want 1, 7`},
	} {
		err := want.compare("x", c.got)
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%v: error %v, want one saying %s", c.got, err, c.says)
		}
	}
}

func TestUnreadableAnswers(t *testing.T) {
	for _, out := range []string{"", "status,n\npaid,1\n", "status,n,sum\npaid,x,1\n", "status,n,sum\npaid,1,1\npaid,1,1\n"} {
		if _, err := parseCSV([]byte(out)); err == nil {
			t.Errorf("parseCSV(%q): no error", out)
		}
	}
	if _, err := parseJSONLines([]byte(`{"status":"paid","n":"one","total":"1"}`)); err == nil {
		t.Error("a count that is not a number parsed")
	}
}

func TestCanonical(t *testing.T) {
	for in, want := range map[string]string{"12.50": "12.5", "12.00": "12", "120": "120", "0.05": "0.05", "100.0": "100"} {
		if got := canonical(in); got != want {
			t.Errorf("canonical(%q) = %q, want %q", in, got, want)
		}
	}
}
