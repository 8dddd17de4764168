package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestExplainAndDescribeJSONFromTheCommandLine: through the command line,
// on dynalite and the in-process backend, --format json makes EXPLAIN,
// EXPLAIN ANALYZE and DESCRIBE print one JSON document each (ndjson: one
// line), and a failing EXPLAIN still exits non-zero with the plan error.
func TestExplainAndDescribeJSONFromTheCommandLine(t *testing.T) {
	backends(t, func(t *testing.T, c *cli) {
		for _, format := range []string{"json", "ndjson"} {
			r := c.run("--format", format, "-e", "EXPLAIN SELECT SK FROM {app} WHERE PK = 'WS#acme'")
			if r.code != 0 {
				t.Fatalf("%s: exit %d: %s", format, r.code, r.err)
			}
			if format == "ndjson" && strings.Count(r.out, "\n") != 1 {
				t.Errorf("ndjson EXPLAIN is not one line: %q", r.out)
			}
			var doc struct {
				Version int `json:"version"`
				Plan    struct {
					Children []struct {
						Kind     string `json:"kind"`
						Requests []struct {
							Operation string         `json:"operation"`
							Input     map[string]any `json:"input"`
						} `json:"requests"`
					} `json:"children"`
				} `json:"plan"`
			}
			if err := json.Unmarshal([]byte(r.out), &doc); err != nil {
				t.Fatalf("%s: %v\n%s", format, err, r.out)
			}
			q := doc.Plan.Children[0]
			if doc.Version != 1 || q.Kind != "Query" || len(q.Requests) != 1 || q.Requests[0].Input["TableName"] != strings.Trim(c.expand("{app}"), "`") {
				t.Errorf("%s: unexpected document:\n%s", format, r.out)
			}
		}

		r := c.run("--format", "json", "--stats", "json", "-e", "EXPLAIN ANALYZE SELECT SK FROM {app} WHERE PK = 'WS#acme'")
		var an struct {
			Plan struct {
				Actual struct {
					Ran  bool  `json:"ran"`
					Rows int64 `json:"rows"`
				} `json:"actual"`
			} `json:"plan"`
			ActualTotal struct {
				Requests int `json:"requests"`
			} `json:"actual_total"`
		}
		if r.code != 0 || json.Unmarshal([]byte(r.out), &an) != nil || !an.Plan.Actual.Ran || an.Plan.Actual.Rows == 0 || an.ActualTotal.Requests == 0 {
			t.Errorf("EXPLAIN ANALYZE json: exit %d\n%s\n%s", r.code, r.out, r.err)
		}

		r = c.run("--format", "json", "-e", "DESCRIBE {app}")
		var d struct {
			Status      string `json:"status"`
			BillingMode string `json:"billing_mode"`
			Keys        []struct {
				Name, Type    string
				AttributeType string `json:"attribute_type"`
			} `json:"keys"`
			Indexes []struct{ Name string } `json:"indexes"`
		}
		if r.code != 0 || json.Unmarshal([]byte(r.out), &d) != nil {
			t.Fatalf("DESCRIBE json: exit %d\n%s\n%s", r.code, r.out, r.err)
		}
		if d.Status != "ACTIVE" || d.BillingMode != "PAY_PER_REQUEST" || len(d.Keys) != 2 || d.Keys[0].Name != "PK" || d.Keys[0].Type != "HASH" ||
			d.Keys[1].Type != "RANGE" || d.Keys[1].AttributeType != "S" || len(d.Indexes) != 3 {
			t.Errorf("DESCRIBE json: %+v", d)
		}

		r = c.run("--format", "json", "-e", "EXPLAIN SELECT * FROM {app} WHERE title = 'x' AND nosuch(1)")
		if r.code == 0 || r.out != "" || !strings.Contains(r.err, "error") {
			t.Errorf("a failing EXPLAIN: exit %d, out %q, err %q", r.code, r.out, r.err)
		}
	})
}
