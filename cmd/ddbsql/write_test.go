package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestWrites drives INSERT, UPDATE, DELETE and their flags through the
// command line, on dynalite and on the in-process backend. Each subtest
// writes under a partition key of its own.
func TestWrites(t *testing.T) { backends(t, testWrites) }

func testWrites(t *testing.T, c *cli) {
	mustRun := func(t *testing.T, args ...string) result {
		t.Helper()
		r := c.run(args...)
		if r.code != 0 {
			t.Fatalf("ddbsql %v: exit %d\nstderr: %s", args, r.code, r.err)
		}
		return r
	}
	failRun := func(t *testing.T, want []string, args ...string) result {
		t.Helper()
		r := c.run(args...)
		if r.code != 1 || !strings.HasPrefix(r.err, "error: ") {
			t.Fatalf("ddbsql %v: exit %d, want 1 with an error\nstderr: %s", args, r.code, r.err)
		}
		for _, w := range want {
			if !strings.Contains(r.err, w) {
				t.Errorf("stderr lacks %q:\n%s", w, r.err)
			}
		}
		return r
	}
	t.Run("insert update delete", func(t *testing.T) {
		r := mustRun(t, "-e", "INSERT INTO {app} (PK, SK, n, title) VALUES ('W#1', 'A', 1, 'x'), ('W#1', 'B', 2, 'y')")
		if !strings.Contains(r.err, "2 items inserted") {
			t.Errorf("stderr: %s", r.err)
		}
		mustRun(t, "-e", "UPDATE {app} SET n = n + 10, title = NULL, tags = ddb_null() WHERE PK = 'W#1' AND n > 1")
		rows := c.rows(t, nil, "SELECT SK, n, title, attribute_type(tags, 'NULL') AS t FROM {app} WHERE PK = 'W#1'")
		got, _ := json.Marshal(rows)
		if string(got) != `[{"SK":"A","n":1,"t":false,"title":"x"},{"SK":"B","n":12,"t":true,"title":null}]` {
			t.Errorf("after UPDATE: %s", got)
		}
		mustRun(t, "-e", "DELETE FROM {app} WHERE PK = 'W#1' AND SK = 'A'")
		if rows := c.rows(t, nil, "SELECT SK FROM {app} WHERE PK = 'W#1'"); len(rows) != 1 || rows[0]["SK"] != "B" {
			t.Errorf("after DELETE: %v", rows)
		}
	})
	t.Run("insert of an existing key", func(t *testing.T) {
		mustRun(t, "-e", "INSERT INTO {app} (PK, SK) VALUES ('W#2', 'A')")
		failRun(t, []string{"an item with the key PK='W#2', SK='A' already exists", "REPLACE INTO"},
			"-e", "INSERT INTO {app} (PK, SK) VALUES ('W#2', 'A')")
	})
	t.Run("key change", func(t *testing.T) {
		failRun(t, []string{"UPDATE cannot change SK", "primary key", "DELETE"}, "-e", "UPDATE {app} SET SK = 'Z' WHERE PK = 'W#3'")
	})
	t.Run("dry run", func(t *testing.T) {
		mustRun(t, "-e", "INSERT INTO {app} (PK, SK, n) VALUES ('W#4', 'A', 1), ('W#4', 'B', 2)")
		r := mustRun(t, "--dry-run", "-e", "DELETE FROM {app} WHERE PK = 'W#4'")
		for _, w := range []string{"dry run: 2 items would be deleted", "about 2 WCU", "PK='W#4', SK='A'", "nothing was written"} {
			if !strings.Contains(r.err, w) {
				t.Errorf("stderr lacks %q:\n%s", w, r.err)
			}
		}
		if rows := c.rows(t, nil, "SELECT SK FROM {app} WHERE PK = 'W#4'"); len(rows) != 2 {
			t.Errorf("--dry-run deleted: %v", rows)
		}
	})
	t.Run("max wcu", func(t *testing.T) {
		mustRun(t, "-e", "INSERT INTO {app} (PK, SK) VALUES ('W#5', 'A'), ('W#5', 'B'), ('W#5', 'C')")
		failRun(t, []string{"would consume 3 WCU (3 items)", "--max-wcu budget of 2", "nothing was written"},
			"--max-wcu", "2", "-e", "DELETE FROM {app} WHERE PK = 'W#5'")
		if rows := c.rows(t, nil, "SELECT SK FROM {app} WHERE PK = 'W#5'"); len(rows) != 3 {
			t.Errorf("--max-wcu let items be deleted: %v", rows)
		}
	})
	t.Run("read only", func(t *testing.T) {
		failRun(t, []string{"--read-only", "nothing was written"}, "--read-only", "-e", "INSERT INTO {app} (PK, SK) VALUES ('W#6', 'A')")
		if rows := c.rows(t, nil, "SELECT SK FROM {app} WHERE PK = 'W#6'"); len(rows) != 0 {
			t.Errorf("--read-only wrote: %v", rows)
		}
	})
	t.Run("scan rule", func(t *testing.T) {
		failRun(t, []string{"needs a Scan", "--allow-scan"}, "-e", "DELETE FROM {app} WHERE n = 1")
	})
	t.Run("strict and max rcu apply to the read", func(t *testing.T) {
		failRun(t, []string{"--strict"}, "--strict", "-e", "DELETE FROM {app} WHERE PK = 'W#9' AND n = 1")
		failRun(t, []string{"--max-rcu"}, "--allow-scan", "--max-rcu", "1", "-e", "DELETE FROM {app} WHERE n = 1")
	})
	t.Run("stats json", func(t *testing.T) {
		r := mustRun(t, "--stats", "json", "-e", "INSERT INTO {app} (PK, SK) VALUES ('W#7', 'A')")
		var line struct {
			Write struct {
				Written []string           `json:"written"`
				WCU     float64            `json:"wcu"`
				By      map[string]float64 `json:"wcu_by_table_and_index"`
			} `json:"write"`
		}
		found := false
		for _, l := range strings.Split(r.err, "\n") {
			if strings.HasPrefix(l, `{"write"`) {
				found = true
				if err := json.Unmarshal([]byte(l), &line); err != nil {
					t.Fatal(err)
				}
			}
		}
		if !found || len(line.Write.Written) != 1 || line.Write.WCU != 1 || len(line.Write.By) == 0 {
			t.Errorf("stats: %+v\n%s", line, r.err)
		}
	})
	t.Run("explain", func(t *testing.T) {
		r := mustRun(t, "-e", "EXPLAIN UPDATE {app} SET n = 1 WHERE PK = 'W#8'")
		for _, w := range []string{"UPDATE ", "UpdateItem", "condition:", "└─ read:", "Query"} {
			if !strings.Contains(r.out, w) {
				t.Errorf("EXPLAIN lacks %q:\n%s", w, r.out)
			}
		}
		r = mustRun(t, "--format", "json", "-e", "EXPLAIN DELETE FROM {app} WHERE PK = 'W#8'")
		var doc struct {
			Write struct {
				Kind, Request string
			} `json:"write"`
			Read struct {
				Plan struct {
					Kind string `json:"kind"`
				} `json:"plan"`
			} `json:"read"`
		}
		if err := json.Unmarshal([]byte(r.out), &doc); err != nil {
			t.Fatalf("%v\n%s", err, r.out)
		}
		if doc.Write.Kind != "DELETE" || !strings.Contains(doc.Write.Request, "DeleteItem") || doc.Read.Plan.Kind == "" {
			t.Errorf("EXPLAIN json: %+v\n%s", doc, r.out)
		}
	})
}

// TestDemoWritesInMemory: --demo tables take writes, and say once that
// they end with the process.
func TestDemoWritesInMemory(t *testing.T) {
	r := invoke([]string{"--demo", "-e", "INSERT INTO users (PK, SK) VALUES ('X', 'Y'); INSERT INTO users (PK, SK) VALUES ('X', 'Z'); SELECT SK FROM users WHERE PK = 'X'"}, "")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.err)
	}
	if strings.Count(r.err, "changes last until ddbsql exits") != 1 {
		t.Errorf("the in-memory note should appear once:\n%s", r.err)
	}
	if !strings.Contains(r.out, "Y") || !strings.Contains(r.out, "Z") {
		t.Errorf("output: %s", r.out)
	}
}

// TestJournalAndUndo: --journal records a script's writes and --undo puts
// the table back; --statement N undoes one statement; a conflict is an
// error that leaves the item alone.
func TestJournalAndUndo(t *testing.T) { backends(t, testJournalAndUndo) }

func testJournalAndUndo(t *testing.T, c *cli) {
	journal := filepath.Join(t.TempDir(), "j.jsonl")
	table := func() string {
		r := c.run("--format", "ndjson", "-e", "SELECT * FROM {app} WHERE PK = 'U#1'")
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.err)
		}
		return r.out
	}
	if r := c.run("-e", "INSERT INTO {app} (PK, SK, n) VALUES ('U#1', 'A', 1), ('U#1', 'B', 2)"); r.code != 0 {
		t.Fatal(r.err)
	}
	before := table()
	r := c.run("--journal", journal, "-e", "UPDATE {app} SET n = n + 1, m = 'x' WHERE PK = 'U#1'; DELETE FROM {app} WHERE PK = 'U#1' AND SK = 'A'; INSERT INTO {app} (PK, SK) VALUES ('U#1', 'C')")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.err)
	}
	r = c.run("--undo", journal, "--statement", "3")
	if r.code != 0 || !strings.Contains(r.out, "undo of statement 3: 1 items restored, 0 conflicts") {
		t.Fatalf("exit %d\n%s%s", r.code, r.out, r.err)
	}
	if rows := c.rows(t, nil, "SELECT SK FROM {app} WHERE PK = 'U#1'"); len(rows) != 1 {
		t.Errorf("after undoing the INSERT: %v", rows)
	}
	r = c.run("--undo", journal)
	if r.code != 1 || !strings.Contains(r.err, "1 items changed since") || !strings.Contains(r.err, "SK='C'") {
		t.Fatalf("undo of everything, statement 3 undone already: exit %d\n%s%s", r.code, r.out, r.err)
	}
	if got := table(); got != before {
		t.Errorf("after --undo:\n%s\nwant:\n%s", got, before)
	}
}
