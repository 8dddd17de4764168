package main

import (
	"strings"
	"testing"
)

// TestBadInput checks that every kind of bad input fails with exit status 1
// (2 for usage), a clear "error:" message on stderr, and no stack trace.
func TestBadInput(t *testing.T) { backends(t, testBadInput) }

func testBadInput(t *testing.T, c *cli) {
	cases := []struct {
		name string
		args []string
		code int
		want []string // substrings of stderr
	}{
		{"syntax error with line and column", []string{"-e", "SELECT *\nFORM {app}"}, 1,
			[]string{"error: ", "line 2, column 1", "^"}},
		{"unknown table", []string{"-e", "SELECT * FROM nosuch_table WHERE PK = 'x'"}, 1,
			[]string{`table "nosuch_table" does not exist`}},
		{"unknown index", []string{"-e", "SELECT * FROM {app} USE INDEX (Nope) WHERE PK = 'x'"}, 1,
			[]string{`no index "Nope"`, "GSI1", "ByOwner", "ByCreated"}},
		{"key compared with the wrong type", []string{"-e", "SELECT * FROM {app} WHERE PK = 5"}, 1,
			[]string{"PK is a key attribute", "type S", "quote the value"}},
		{"numeric key compared with a string", []string{"-e", "SELECT * FROM {metrics} WHERE device = '10'"}, 1,
			[]string{"device is a key attribute", "type N"}},
		{"unquoted hash in a name", []string{"-e", "SELECT * FROM {app} WHERE GSI1#PK = 'x'"}, 1,
			[]string{"error: ", "`GSI1#PK`"}},
		{"scan without --allow-scan", []string{"-e", "SELECT * FROM {app} WHERE status = 'review'"}, 1,
			[]string{"needs a Scan", "whole table", "partition key PK (S)", "GSI1", "--allow-scan"}},
		{"GSI with --consistent", []string{"--consistent", "-e", "SELECT * FROM {app} WHERE GSI1PK = 'STATUS#REVIEW'"}, 1,
			[]string{"global secondary index GSI1", "eventually consistent"}},
		{"not supported SQL", []string{"-e", "WITH RECURSIVE x AS (SELECT 1) SELECT * FROM x"}, 1,
			[]string{"error: ", "not supported"}},
		{"write statements are refused under --read-only", []string{"--read-only", "-e", "DELETE FROM {app} WHERE PK = 'x'"}, 1,
			[]string{"--read-only"}},
		{"negative LIMIT", []string{"-e", "SELECT * FROM {app} WHERE PK = 'x' LIMIT -1"}, 1,
			[]string{"error: "}},
		{"unknown function", []string{"-e", "SELECT frobnicate(SK) FROM {app} WHERE PK = 'x'"}, 1,
			[]string{"unknown function frobnicate"}},
		{"arithmetic on a string while running", []string{"-e", "SELECT SK, status + 1 FROM {app} WHERE PK = 'WS#acme'"}, 1,
			[]string{"error: \"status + 1\": + needs numbers, got S and N ("}},
		{"bad format flag", []string{"--format", "yaml", "-e", "SHOW TABLES"}, 2,
			[]string{"unknown --format", "csv"}},
		{"stray argument", []string{"SELECT 1"}, 2,
			[]string{"unexpected argument"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := c.run(tc.args...)
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d\nstderr: %s", r.code, tc.code, r.err)
			}
			if !strings.HasPrefix(r.err, "error: ") {
				t.Errorf("stderr must start with 'error: ', got %q", r.err)
			}
			for _, w := range tc.want {
				if !strings.Contains(r.err, c.expand(w)) {
					t.Errorf("stderr lacks %q:\n%s", w, r.err)
				}
			}
			if strings.Contains(r.err, "goroutine ") || strings.Contains(r.err, "panic") {
				t.Errorf("stack trace on stderr:\n%s", r.err)
			}
		})
	}

	t.Run("a failing statement stops the script", func(t *testing.T) {
		r := c.run("--format", "csv", "-e", "SELECT PK FROM {customers} WHERE id = 'c_0001'; SELECT * FROM nosuch WHERE a = 1; SHOW TABLES")
		if r.code != 1 || strings.Contains(r.out, "table_name") {
			t.Fatalf("exit %d, out %q", r.code, r.out)
		}
	})

	t.Run("a syntax error anywhere runs nothing", func(t *testing.T) {
		r := c.run("--format", "csv", "-e", "SHOW TABLES; SELEC oops")
		if r.code != 1 || r.out != "" {
			t.Fatalf("exit %d, out %q", r.code, r.out)
		}
	})
}
