package main

import (
	"strings"
	"testing"
)

// TestUnknownCost runs, through the command line, statements on tables
// whose DescribeTable reports 0 items. dynalite always does, as DynamoDB
// does for a new or freshly loaded table until it refreshes the counts
// (about every six hours); the in-process backend reports live counts, so
// the same refusal there gives an estimate.
func TestUnknownCost(t *testing.T) {
	c := newCLI(t)
	app := c.expand("{app}")
	table := strings.Trim(app, "`")

	r := c.run("--max-rcu", "1", "--allow-scan", "-e", "SELECT * FROM {app}")
	want := "error: this statement's estimated cost is unknown (DescribeTable reports 0 items for table " + table +
		"; counts lag by up to six hours), so --max-rcu 1 cannot be guaranteed; nothing was read\n"
	if r.code != 1 || !strings.HasPrefix(r.err, want) || r.out != "" {
		t.Fatalf("exit %d\nstdout %q\nstderr %q\nwant stderr starting %q", r.code, r.out, r.err, want)
	}
	if !strings.Contains(r.err, "add a LIMIT") || strings.Contains(r.err, "goroutine") {
		t.Fatalf("stderr gives no way out, or a stack trace: %q", r.err)
	}

	r = c.run("--allow-scan", "-e", "EXPLAIN SELECT * FROM {app}")
	for _, line := range []string{
		"estimate: unknown — DescribeTable reports 0 items; counts lag by up to six hours\n",
		"estimated total: unknown — DescribeTable reports 0 items for table " + table + "; counts lag by up to six hours\n",
	} {
		if r.code != 0 || !strings.Contains(r.out, line) {
			t.Fatalf("EXPLAIN: exit %d, no %q in\n%s%s", r.code, line, r.out, r.err)
		}
	}

	// LIMIT 5 without a filter reads at most 5 items: bounded, so it runs
	// under --max-rcu 1 (the runtime check guards the budget).
	r = c.run("--max-rcu", "1", "--allow-scan", "--format", "csv", "-e", "SELECT SK FROM {app} LIMIT 5")
	if r.code != 0 || strings.Count(r.out, "\n") != 6 {
		t.Fatalf("LIMIT 5 under --max-rcu 1: exit %d\n%s%s", r.code, r.out, r.err)
	}

	// With live counts the refusal is the estimate.
	m := newMemCLI(t)
	r = m.run("--max-rcu", "1", "--allow-scan", "-e", "SELECT * FROM {app}")
	if r.code != 1 || !strings.Contains(r.err, "is estimated to consume") {
		t.Fatalf("memdb: exit %d\n%s", r.code, r.err)
	}
}
