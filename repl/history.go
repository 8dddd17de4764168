package repl

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
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
// disables the file), else $XDG_STATE_HOME/ddbsql/history, where
// XDG_STATE_HOME defaults to ~/.local/state (the XDG base directory
// specification puts history in the state directory, not with settings).
func HistoryPath(getenv func(string) (string, bool)) string {
	if p, ok := getenv("DDBSQL_HISTORY"); ok {
		return p
	}
	if dir, ok := getenv("XDG_STATE_HOME"); ok && filepath.IsAbs(dir) {
		return filepath.Join(dir, "ddbsql", "history")
	}
	if home := homeDir(getenv); home != "" {
		return filepath.Join(home, ".local", "state", "ddbsql", "history")
	}
	return ""
}

// JournalPath is the REPL's default --journal: a file per session under
// $XDG_STATE_HOME/ddbsql/journal/ (~/.local/state when unset), named by
// the session's start; "" when there is no home.
func JournalPath(getenv func(string) (string, bool), start time.Time) string {
	name := start.UTC().Format("20060102T150405Z") + "-" + strconv.Itoa(os.Getpid()) + ".jsonl"
	if dir, ok := getenv("XDG_STATE_HOME"); ok && filepath.IsAbs(dir) {
		return filepath.Join(dir, "ddbsql", "journal", name)
	}
	if home := homeDir(getenv); home != "" {
		return filepath.Join(home, ".local", "state", "ddbsql", "journal", name)
	}
	return ""
}

// oldHistoryPaths are where earlier versions kept the history file:
// $XDG_CONFIG_HOME/ddbsql/history when XDG_CONFIG_HOME was set, else
// ~/.ddbsql_history.
func oldHistoryPaths(getenv func(string) (string, bool)) []string {
	var paths []string
	if dir, ok := getenv("XDG_CONFIG_HOME"); ok && dir != "" {
		paths = append(paths, filepath.Join(dir, "ddbsql", "history"))
	}
	if home := homeDir(getenv); home != "" {
		paths = append(paths, filepath.Join(home, ".ddbsql_history"))
	}
	return paths
}

func homeDir(getenv func(string) (string, bool)) string {
	if home, ok := getenv("HOME"); ok && home != "" {
		return home
	}
	if home, err := os.UserHomeDir(); err == nil {
		return home
	}
	return ""
}

// PrepareHistory returns the history file to use, first moving the file of
// an earlier version (see oldHistoryPaths) to HistoryPath when only the old
// one exists. That happens silently; when it fails the old file stays in
// use for this run and the error says why.
func PrepareHistory(getenv func(string) (string, bool)) (string, error) {
	path := HistoryPath(getenv)
	if _, set := getenv("DDBSQL_HISTORY"); set || path == "" {
		return path, nil
	}
	if _, err := os.Lstat(path); err == nil {
		return path, nil
	}
	for _, old := range oldHistoryPaths(getenv) {
		if fi, err := os.Stat(old); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if err := moveFile(old, path); err != nil {
			return old, fmt.Errorf("cannot move the history file %s to %s (%v); still using %s", old, path, err, old)
		}
		return path, nil
	}
	return path, nil
}

// moveFile moves a history file into a private directory (0700), as a
// file of mode 0600. A rename does it when both are on one file system;
// otherwise the file is copied and the old one removed.
func moveFile(from, to string) error {
	if err := os.MkdirAll(filepath.Dir(to), 0o700); err != nil {
		return err
	}
	if err := os.Rename(from, to); err == nil {
		return os.Chmod(to, 0o600)
	}
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(to)
		return err
	}
	return os.Remove(from)
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
