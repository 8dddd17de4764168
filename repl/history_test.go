//go:build unix

package repl

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestHistoryFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "conf", "ddbsql", "history")
	h, err := loadHistory(path, 5)
	if err != nil || len(h.Entries()) != 0 {
		t.Fatalf("missing file: %v %v", h.Entries(), err)
	}
	for _, e := range []string{"SELECT 1;", "SELECT 1;", "  ", "", `\dt`, "SELECT 1;", "two\nlines"} {
		if err := h.Add(e); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"SELECT 1;", `\dt`, "SELECT 1;"}
	if !reflect.DeepEqual(h.Entries(), want) {
		t.Fatalf("entries %q, want %q", h.Entries(), want)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
	if di, _ := os.Stat(filepath.Dir(path)); di.Mode().Perm() != 0o700 {
		t.Errorf("directory mode %v", di.Mode().Perm())
	}
	again, err := loadHistory(path, 5)
	if err != nil || !reflect.DeepEqual(again.Entries(), want) {
		t.Fatalf("reloaded %q, %v", again.Entries(), err)
	}
}

func TestHistoryBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	h, _ := loadHistory(path, 3)
	for i := 0; i < 10; i++ {
		if err := h.Add(fmt.Sprintf("q%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if want := []string{"q7", "q8", "q9"}; !reflect.DeepEqual(h.Entries(), want) {
		t.Fatalf("memory %q", h.Entries())
	}
	data, _ := os.ReadFile(path)
	if n := strings.Count(string(data), "\n"); n >= 2*3+1 {
		t.Errorf("file has %d lines; it should be trimmed", n)
	}
	// A long file is cut to the newest entries on load.
	var b strings.Builder
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&b, "old%d\n", i)
	}
	os.WriteFile(path, []byte(b.String()), 0o644)
	h, err := loadHistory(path, 3)
	if err != nil || !reflect.DeepEqual(h.Entries(), []string{"old17", "old18", "old19"}) {
		t.Fatalf("loaded %q %v", h.Entries(), err)
	}
	data, _ = os.ReadFile(path)
	if string(data) != "old17\nold18\nold19\n" {
		t.Errorf("rewritten file %q", data)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("rewritten file mode %v", fi.Mode().Perm())
	}
}

func TestHistoryNarrowsMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	os.WriteFile(path, []byte("SELECT 1;\n"), 0o644)
	h, _ := loadHistory(path, 10)
	if err := h.Add("SELECT 2;"); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
}

func TestHistoryInMemoryOnly(t *testing.T) {
	h, err := loadHistory("", 10)
	if err != nil {
		t.Fatal(err)
	}
	h.Add("SELECT 1;")
	if !reflect.DeepEqual(h.Entries(), []string{"SELECT 1;"}) {
		t.Fatal(h.Entries())
	}
}

func TestHistoryEntries(t *testing.T) {
	cases := []struct {
		src  string
		want []string
	}{
		{"SELECT 1;", []string{"SELECT 1;"}},
		{"SELECT a,\n  b\nFROM t\nWHERE k = 'x';", []string{"SELECT a, b FROM t WHERE k = 'x';"}},
		{"SELECT a /* c */\nFROM t;", []string{"SELECT a /* c */ FROM t;"}},
		// A line comment or a line break inside a string would change
		// meaning if joined: keep the lines.
		{"SELECT a -- why\nFROM t;", []string{"SELECT a -- why", "FROM t;"}},
		{"SELECT * FROM t WHERE s = 'a\nb';", []string{"SELECT * FROM t WHERE s = 'a", "b';"}},
		{"SELECT a # c\nFROM t;", []string{"SELECT a # c", "FROM t;"}},
	}
	for _, c := range cases {
		if got := historyEntries(c.src); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: %q, want %q", c.src, got, c.want)
		}
	}
}

func TestHistoryPath(t *testing.T) {
	env := func(kv ...string) func(string) (string, bool) {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
	}
	cases := []struct {
		env  func(string) (string, bool)
		want string
	}{
		{env("DDBSQL_HISTORY", "/x/h", "XDG_CONFIG_HOME", "/c", "HOME", "/home/u"), "/x/h"},
		{env("DDBSQL_HISTORY", "", "HOME", "/home/u"), ""},
		{env("XDG_CONFIG_HOME", "/c", "HOME", "/home/u"), "/c/ddbsql/history"},
		{env("XDG_CONFIG_HOME", "", "HOME", "/home/u"), "/home/u/.ddbsql_history"},
		{env("HOME", "/home/u"), "/home/u/.ddbsql_history"},
	}
	for i, c := range cases {
		if got := HistoryPath(c.env); got != c.want {
			t.Errorf("case %d: %q, want %q", i, got, c.want)
		}
	}
}
