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

// fakeEnv is a getenv over the given NAME, value pairs.
func fakeEnv(kv ...string) func(string) (string, bool) {
	m := map[string]string{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestHistoryPath(t *testing.T) {
	cases := []struct {
		env  func(string) (string, bool)
		want string
	}{
		{fakeEnv("DDBSQL_HISTORY", "/x/h", "XDG_STATE_HOME", "/s", "HOME", "/home/u"), "/x/h"},
		{fakeEnv("DDBSQL_HISTORY", "", "HOME", "/home/u"), ""},
		{fakeEnv("XDG_STATE_HOME", "/s", "XDG_CONFIG_HOME", "/c", "HOME", "/home/u"), "/s/ddbsql/history"},
		// The XDG specification: an empty or relative value is ignored.
		{fakeEnv("XDG_STATE_HOME", "", "HOME", "/home/u"), "/home/u/.local/state/ddbsql/history"},
		{fakeEnv("XDG_STATE_HOME", "state", "HOME", "/home/u"), "/home/u/.local/state/ddbsql/history"},
		{fakeEnv("XDG_CONFIG_HOME", "/c", "HOME", "/home/u"), "/home/u/.local/state/ddbsql/history"},
	}
	for i, c := range cases {
		if got := HistoryPath(c.env); got != c.want {
			t.Errorf("case %d: %q, want %q", i, got, c.want)
		}
	}
}

// TestPrepareHistoryMigrates checks that the history file of an earlier
// version moves to the state directory once, into a private directory and
// a private file, and that the old location is not read again.
func TestPrepareHistoryMigrates(t *testing.T) {
	for _, old := range []string{"config/ddbsql/history", ".ddbsql_history"} {
		t.Run(old, func(t *testing.T) {
			home := t.TempDir()
			env := fakeEnv("HOME", home, "XDG_CONFIG_HOME", filepath.Join(home, "config"))
			oldPath := filepath.Join(home, old)
			if err := os.MkdirAll(filepath.Dir(oldPath), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(oldPath, []byte("SELECT 1;\n\\dt\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			path, err := PrepareHistory(env)
			want := filepath.Join(home, ".local", "state", "ddbsql", "history")
			if err != nil || path != want {
				t.Fatalf("PrepareHistory = %q, %v; want %q", path, err, want)
			}
			if _, err := os.Stat(oldPath); !os.IsNotExist(err) {
				t.Errorf("the old file is still there (%v)", err)
			}
			fi, err := os.Stat(path)
			if err != nil || fi.Mode().Perm() != 0o600 {
				t.Fatalf("new file: %v %v", fi, err)
			}
			if di, _ := os.Stat(filepath.Dir(path)); di.Mode().Perm() != 0o700 {
				t.Errorf("directory mode %v, want 0700", di.Mode().Perm())
			}
			h, err := loadHistory(path, 10)
			if err != nil || !reflect.DeepEqual(h.Entries(), []string{"SELECT 1;", `\dt`}) {
				t.Errorf("migrated entries %q, %v", h.Entries(), err)
			}
		})
	}
}

// TestPrepareHistoryKeepsNewFile checks that an existing new file wins:
// an old file left behind is neither merged nor removed.
func TestPrepareHistoryKeepsNewFile(t *testing.T) {
	home := t.TempDir()
	state := filepath.Join(home, "state")
	env := fakeEnv("HOME", home, "XDG_STATE_HOME", state)
	newPath := filepath.Join(state, "ddbsql", "history")
	oldPath := filepath.Join(home, ".ddbsql_history")
	if err := os.MkdirAll(filepath.Dir(newPath), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(newPath, []byte("new\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(oldPath, []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	path, err := PrepareHistory(env)
	if err != nil || path != newPath {
		t.Fatalf("PrepareHistory = %q, %v", path, err)
	}
	if data, _ := os.ReadFile(newPath); string(data) != "new\n" {
		t.Errorf("new file changed: %q", data)
	}
	if _, err := os.Stat(oldPath); err != nil {
		t.Errorf("old file removed: %v", err)
	}
	// DDBSQL_HISTORY: no migration at all.
	env = fakeEnv("HOME", home, "DDBSQL_HISTORY", filepath.Join(home, "h"))
	if path, err := PrepareHistory(env); err != nil || path != filepath.Join(home, "h") {
		t.Errorf("with DDBSQL_HISTORY: %q, %v", path, err)
	}
	if _, err := os.Stat(oldPath); err != nil {
		t.Errorf("old file moved despite DDBSQL_HISTORY: %v", err)
	}
}

// TestPrepareHistoryFailureKeepsOldFile checks that when the new place
// cannot be made (a file is in the way: permissions would not stop root),
// the old file stays in use and the error names both.
func TestPrepareHistoryFailureKeepsOldFile(t *testing.T) {
	home := t.TempDir()
	state := filepath.Join(home, "state")
	if err := os.WriteFile(state, []byte("not a directory"), 0o600); err != nil {
		t.Fatal(err)
	}
	oldPath := filepath.Join(home, ".ddbsql_history")
	if err := os.WriteFile(oldPath, []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	path, err := PrepareHistory(fakeEnv("HOME", home, "XDG_STATE_HOME", state))
	if path != oldPath || err == nil || !strings.Contains(err.Error(), oldPath) || !strings.Contains(err.Error(), "still using") {
		t.Fatalf("PrepareHistory = %q, %v; want the old path and an error", path, err)
	}
	if data, _ := os.ReadFile(oldPath); string(data) != "old\n" {
		t.Errorf("old file changed: %q", data)
	}
}

// TestHistoryCreatesPrivateDirectory checks that a history file written
// where no directory exists yet gets a 0700 directory and a 0600 file
// (umask aside: both are narrower than the usual 0755/0644).
func TestHistoryCreatesPrivateDirectory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "ddbsql", "history")
	h, err := loadHistory(path, 10)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Add("SELECT 1;"); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]os.FileMode{path: 0o600, filepath.Dir(path): 0o700} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got&^want != 0 {
			t.Errorf("%s: mode %v, want at most %v", p, got, want)
		}
	}
}
