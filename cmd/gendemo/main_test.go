package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The committed demo is what the generators produce: after changing them,
// run go run ./cmd/gendemo.
func TestCommittedDemoIsUpToDate(t *testing.T) {
	files, err := render()
	if err != nil {
		t.Fatal(err)
	}
	if err := checkDir(filepath.Join("..", "..", "exec", "dynamo", "offline", "demodata"), files); err != nil {
		t.Fatal(err)
	}
}

func TestDeterministic(t *testing.T) {
	a, err := render()
	if err != nil {
		t.Fatal(err)
	}
	b, err := render()
	if err != nil {
		t.Fatal(err)
	}
	for name := range a {
		if !bytes.Equal(a[name], b[name]) {
			t.Errorf("%s differs between two runs", name)
		}
	}
}

func TestRunWritesAndChecks(t *testing.T) {
	dir := t.TempDir()
	if err := run(dir, true); err == nil {
		t.Fatal("-check passed on an empty directory")
	}
	if err := run(dir, false); err != nil {
		t.Fatal(err)
	}
	if err := run(dir, true); err != nil {
		t.Fatalf("-check after writing: %v", err)
	}
	readme, err := os.ReadFile(filepath.Join(dir, readmeFile))
	if err != nil || !strings.Contains(string(readme), "| `app` |") {
		t.Fatalf("README: %v\n%s", err, readme)
	}
}

// The seeds' shapes the demo promises.
func TestDemoShapes(t *testing.T) {
	byName := map[string]*table{}
	total := 0
	for _, tb := range tables() {
		byName[tb.Name] = tb
		total += len(tb.Items)
	}
	if total < 2000 || total > 6000 {
		t.Errorf("%d items in all, want a few thousand", total)
	}
	count := func(tb, attr, prefix string) int {
		n := 0
		for _, it := range byName[tb].Items {
			if strings.HasPrefix(it.Attr(attr).Text(), prefix) {
				n++
			}
		}
		return n
	}
	for _, c := range []struct {
		table, attr, prefix string
		want                int
	}{
		{"app", "GSI1PK", "STATUS#REVIEW", 45},
		{"app", "GSI1PK", "PLAN#", 8},
		{"app", "PK", "DOC#", 96},
		{"app", "Type", "", 484},
		{"leaderboard", "rangeId", "MATCH#", 1496},
		{"leaderboard", "gsiSort", "RATING#0", 200},
		{"users", "PK", "EMAIL#", 40},
		{"users", "SK", "ORDER#", 183},
		{"orders", "customer_id", "u_", 183},
	} {
		if got := count(c.table, c.attr, c.prefix); got != c.want {
			t.Errorf("%s items with %s %q…: %d, want %d", c.table, c.attr, c.prefix, got, c.want)
		}
	}
	for _, it := range byName["app"].Items {
		if it.Attr("Type").Text() == "" {
			t.Errorf("app item without Type: %v", it)
		}
	}
}

func TestValidateRejects(t *testing.T) {
	dup := &table{Name: "t", PK: key{"id", "S"}, Items: []valueItem{item(attrs{"id": str("a")}), item(attrs{"id": str("a")})}}
	if err := validate([]*table{dup}); err == nil || !strings.Contains(err.Error(), "duplicate key") {
		t.Errorf("duplicate: %v", err)
	}
	wrong := &table{Name: "t", PK: key{"id", "N"}, Items: []valueItem{item(attrs{"id": str("a")})}}
	if err := validate([]*table{wrong}); err == nil || !strings.Contains(err.Error(), "key id is S, want N") {
		t.Errorf("wrong type: %v", err)
	}
}
