package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWritesAnExportAndItsTotals(t *testing.T) {
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	if code := run([]string{"-items", "100", "-files", "2", "-o", dir}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 6 || !strings.HasSuffix(lines[0], ": 100 items in 2 files") {
		t.Fatalf("output:\n%s", out.String())
	}
	exp := strings.TrimSuffix(lines[0], ": 100 items in 2 files")
	for _, f := range []string{"manifest-summary.json", "manifest-files.json"} {
		if _, err := os.Stat(filepath.Join(exp, f)); err != nil {
			t.Error(err)
		}
	}
	if data, _ := filepath.Glob(filepath.Join(exp, "data", "*.json.gz")); len(data) != 2 {
		t.Errorf("data files: %v", data)
	}
}

func TestBadUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"-items", "x", "-o", t.TempDir()}, {"-o", t.TempDir(), "extra"}} {
		var out, errOut bytes.Buffer
		if code := run(args, &out, &errOut); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"-files", "0", "-o", t.TempDir()}, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "files") {
		t.Errorf("-files 0: exit %d, %q", code, errOut.String())
	}
}

func TestWritesAChain(t *testing.T) {
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	if code := run([]string{"-items", "20", "-files", "1", "-windows", "2", "-changes", "5", "-o", dir}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], "full export, 20 items") || !strings.Contains(lines[2], "5 records") {
		t.Fatalf("output:\n%s", out.String())
	}
	for _, sub := range []string{"full", "incr1", "incr2"} {
		if m, _ := filepath.Glob(filepath.Join(dir, sub, "AWSDynamoDB", "*", "manifest-summary.json")); len(m) != 1 {
			t.Errorf("%s: %v", sub, m)
		}
	}
}
