package repl

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// DefaultHistorySize bounds the history kept in memory and on disk.
const DefaultHistorySize = 1000

// history is the list of entries recalled with Up/Down, persisted to a
// file (one entry per line, mode 0600). Entries are single lines: a
// multi-line statement is stored joined with spaces when that keeps its
// meaning (see historyEntries).
type history struct {
	path    string // "" keeps history in memory only
	max     int
	entries []string
}

// HistoryPath picks the history file: $DDBSQL_HISTORY when set (empty
// disables the file), else $XDG_CONFIG_HOME/ddbsql/history when
// XDG_CONFIG_HOME is set, else ~/.ddbsql_history.
func HistoryPath(getenv func(string) (string, bool)) string {
	if p, ok := getenv("DDBSQL_HISTORY"); ok {
		return p
	}
	if dir, ok := getenv("XDG_CONFIG_HOME"); ok && dir != "" {
		return filepath.Join(dir, "ddbsql", "history")
	}
	if home, ok := getenv("HOME"); ok && home != "" {
		return filepath.Join(home, ".ddbsql_history")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".ddbsql_history")
	}
	return ""
}

// loadHistory reads the file (a missing file is an empty history) and, when
// it has grown past the bound, rewrites it with the newest entries.
func loadHistory(path string, max int) (*history, error) {
	h := &history{path: path, max: max}
	if path == "" {
		return h, nil
	}
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return h, nil
	}
	if err != nil {
		return h, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	lines := 0
	for sc.Scan() {
		lines++
		h.push(sc.Text())
	}
	if err := sc.Err(); err != nil {
		return h, err
	}
	if lines > len(h.entries) {
		return h, h.rewrite()
	}
	return h, nil
}

// Entries returns the entries, oldest first (the caller must not modify).
func (h *history) Entries() []string { return h.entries }

// Add records an entry in memory and appends it to the file. Blank entries
// and an entry equal to the previous one are skipped.
func (h *history) Add(entry string) error {
	if !h.push(entry) || h.path == "" {
		return nil
	}
	if len(h.entries) == h.max {
		// Trim the file now and then (not on every entry).
		if lines, err := countLines(h.path); err == nil && lines >= 2*h.max {
			return h.rewrite()
		}
	}
	return h.appendFile(h.entries[len(h.entries)-1])
}

// push adds to memory; it reports whether the entry was kept.
func (h *history) push(entry string) bool {
	entry = strings.TrimRight(entry, " \t\r\n")
	if strings.TrimSpace(entry) == "" || strings.ContainsAny(entry, "\r\n") {
		return false
	}
	if n := len(h.entries); n > 0 && h.entries[n-1] == entry {
		return false
	}
	h.entries = append(h.entries, entry)
	if over := len(h.entries) - h.max; over > 0 {
		h.entries = append([]string(nil), h.entries[over:]...)
	}
	return true
}

func (h *history) appendFile(entry string) error {
	if err := os.MkdirAll(filepath.Dir(h.path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(h.path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	// A file created earlier with a wider mode is narrowed: history holds
	// table names and key values.
	_ = f.Chmod(0o600)
	_, err = fmt.Fprintln(f, entry)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// rewrite replaces the file with the in-memory entries (atomically).
func (h *history) rewrite() error {
	if err := os.MkdirAll(filepath.Dir(h.path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(h.path), ".history-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	w := bufio.NewWriter(tmp)
	for _, e := range h.entries {
		fmt.Fprintln(w, e)
	}
	if err := w.Flush(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), h.path)
}

func countLines(path string) (int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	return strings.Count(string(data), "\n"), nil
}

// historyEntries turns the source of a completed input into history
// entries. A multi-line statement becomes one line, its line breaks turned
// into spaces, unless a break is inside a quote or ends a -- or # comment:
// then each line is its own entry, as typed.
func historyEntries(source string) []string {
	source = strings.TrimSpace(source)
	if !strings.ContainsAny(source, "\r\n") {
		return []string{source}
	}
	if joinable(source) {
		var b strings.Builder
		for _, t := range lexSQL(source) {
			if t.kind == tSpace {
				b.WriteByte(' ')
				continue
			}
			b.WriteString(t.text)
		}
		return []string{b.String()}
	}
	var out []string
	for _, l := range strings.Split(source, "\n") {
		if l = strings.TrimRight(l, "\r"); strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// joinable reports whether every line break in s is in plain blank space.
func joinable(s string) bool {
	for _, t := range lexSQL(s) {
		if t.kind == tSpace {
			continue
		}
		if t.kind == tComment && t.text[0] != '/' {
			return false // a line comment would swallow the next line
		}
		if strings.ContainsAny(t.text, "\r\n") {
			return false
		}
	}
	return true
}
