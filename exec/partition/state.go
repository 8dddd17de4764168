package partition

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// StateFile is the name of the state file in the output directory. Its
// leading underscore makes Hive, Spark, Trino and Athena skip it, and it
// does not end in .parquet, so a glob of the data files misses it.
const StateFile = "_ddbsql_export.json"

// stateVersion is the layout of the state file this package writes.
const stateVersion = 1

// Command is what a partitioned export ran: two runs continue one another
// only when their commands are equal.
type Command struct {
	Statement string   `json:"statement"`
	Source    string   `json:"source"` // the --data paths, or the endpoint, region and profile
	Flags     []string `json:"flags"`  // the flags that shape the result or the layout
}

// fingerprint is the SHA-256 of the command's JSON.
func (c Command) fingerprint() string {
	b, _ := json.Marshal(c) // strings only: cannot fail
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// File is one finished data file of the layout.
type File struct {
	Path  string `json:"path"` // relative to the output directory, with /
	Rows  int64  `json:"rows"`
	Bytes int64  `json:"bytes"`
}

// State is the content of the state file: the command, and how far it
// got. It is rewritten (atomically: a temporary file renamed over it)
// after every unit of the result; Files are exactly the data files that
// hold the first Rows rows of the result, and RowsSHA256 is the SHA-256 of
// those rows as ndjson text, which a resumed run compares with the rows
// it reads again before it writes anything new.
type State struct {
	Version     int     `json:"version"`
	Fingerprint string  `json:"fingerprint"`
	Command     Command `json:"command"`
	Complete    bool    `json:"complete"`
	Units       int     `json:"units"`
	Rows        int64   `json:"rows"`
	RowsSHA256  string  `json:"rows_sha256"`
	Files       []File  `json:"files"`
}

// Prepare readies dir for a partitioned export of cmd and returns the
// state to continue from: a directory that does not exist is created, an
// empty one is used, one holding the state file of the same command is
// continued (every file the state does not list — the remains of a run
// that was stopped — is removed first); anything else is refused. The
// returned state is Complete when an earlier run finished.
func Prepare(dir string, cmd Command) (*State, error) {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(dir, 0o777); err != nil {
			return nil, ioError(dir, "cannot create the output directory", err)
		}
	case err != nil:
		return nil, ioError(dir, "cannot use the output directory", err)
	case !st.IsDir():
		return nil, &diag.Error{Phase: diag.Plan, Code: diag.CodeInvalid,
			Msg:  fmt.Sprintf("--output %s is a file, and a partitioned export (--partition-by) writes a directory", dir),
			Hint: "give --output a directory that does not exist yet (it is created) or an empty one"}
	}
	state, err := readState(dir)
	if err != nil {
		return nil, err
	}
	if state == nil {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, ioError(dir, "cannot read the output directory", err)
		}
		if len(entries) > 0 {
			return nil, &diag.Error{Phase: diag.Plan, Code: diag.CodeInvalid,
				Msg:  fmt.Sprintf("--output %s is not empty and holds no %s, so it is not an earlier run of a partitioned export; nothing was written", dir, StateFile),
				Hint: "give --output a new directory (it is created) or an empty one"}
		}
		state = &State{Version: stateVersion, Fingerprint: cmd.fingerprint(), Command: cmd}
		if err := writeState(dir, state); err != nil {
			return nil, err
		}
		return state, nil
	}
	if err := sameCommand(dir, state, cmd); err != nil {
		return nil, err
	}
	if err := removeUnlisted(dir, state); err != nil {
		return nil, err
	}
	return state, nil
}

func readState(dir string) (*State, error) {
	path := filepath.Join(dir, StateFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, ioError(path, "cannot read the export's state file", err)
	}
	var st State
	if err := json.Unmarshal(b, &st); err != nil || st.Version != stateVersion || st.Fingerprint == "" {
		return nil, &diag.Error{Phase: diag.Plan, Code: diag.CodeInvalid,
			Msg:  fmt.Sprintf("%s is not a state file this version of ddbsql wrote, so %s cannot be continued", path, dir),
			Hint: "give --output a new directory, or remove this one to export again"}
	}
	for _, f := range st.Files {
		if !localPath(f.Path) {
			return nil, &diag.Error{Phase: diag.Plan, Code: diag.CodeInvalid,
				Msg:  fmt.Sprintf("%s lists the file %q, which is not inside %s", path, f.Path, dir),
				Hint: "give --output a new directory, or remove this one to export again"}
		}
	}
	return &st, nil
}

// localPath reports whether a listed path stays inside the directory.
func localPath(p string) bool {
	return p != "" && filepath.IsLocal(filepath.FromSlash(p)) && !strings.Contains(p, `\`)
}

// sameCommand refuses to continue the export of another command: the
// files would mix two results.
func sameCommand(dir string, st *State, cmd Command) error {
	if st.Fingerprint == cmd.fingerprint() {
		return nil
	}
	var diffs []string
	if st.Command.Statement != cmd.Statement {
		diffs = append(diffs, fmt.Sprintf("the statement was %q", st.Command.Statement))
	}
	if st.Command.Source != cmd.Source {
		diffs = append(diffs, fmt.Sprintf("the source was %s", st.Command.Source))
	}
	if !slices.Equal(st.Command.Flags, cmd.Flags) {
		diffs = append(diffs, fmt.Sprintf("the flags were %s", strings.Join(st.Command.Flags, " ")))
	}
	if len(diffs) == 0 {
		diffs = append(diffs, "its fingerprint differs")
	}
	return &diag.Error{Phase: diag.Plan, Code: diag.CodeInvalid,
		Msg:  fmt.Sprintf("--output %s holds a partitioned export of another command (%s); nothing was written", dir, strings.Join(diffs, "; ")),
		Hint: "run the same command again to continue that export, or give --output a new directory"}
}

// removeUnlisted removes every file under dir that the state does not
// list (data files a stopped run finished after its last unit, temporary
// files it was writing), then the directories left empty.
func removeUnlisted(dir string, st *State) error {
	keep := map[string]bool{StateFile: true}
	for _, f := range st.Files {
		keep[filepath.FromSlash(f.Path)] = true
	}
	var dirs []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			if rel != "." {
				dirs = append(dirs, path)
			}
			return nil
		}
		if !keep[rel] {
			return os.Remove(path)
		}
		return nil
	})
	if err != nil {
		return ioError(dir, "cannot remove what an interrupted run left unfinished", err)
	}
	// Deepest first, so a directory's empty children go before it.
	for i := len(dirs) - 1; i >= 0; i-- {
		_ = os.Remove(dirs[i]) // fails, as it should, on a directory that is not empty
	}
	for _, f := range st.Files {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f.Path))); err != nil {
			return &diag.Error{Phase: diag.Plan, Code: diag.CodeInvalid,
				Msg:  fmt.Sprintf("%s lists %s, which is missing, so the export cannot be continued", filepath.Join(dir, StateFile), f.Path),
				Hint: "remove the directory and export again"}
		}
	}
	return nil
}

// writeState replaces the state file atomically: written and synced under
// a temporary name, then renamed over the old one, then the directory
// synced, so a stop at any moment leaves the old state or the new one.
func writeState(dir string, st *State) error {
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	path := filepath.Join(dir, StateFile)
	tmp := path + ".tmp"
	if err := writeSynced(tmp, append(b, '\n')); err != nil {
		os.Remove(tmp)
		return ioError(path, "cannot write the export's state file", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return ioError(path, "cannot write the export's state file", err)
	}
	syncDir(dir)
	return nil
}

func writeSynced(path string, b []byte) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// syncDir makes a rename in dir durable where the system allows it.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

func ioError(path, what string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &diag.Error{Phase: diag.Execute, Code: diag.CodeIO, Msg: fmt.Sprintf("%s %s: %v", what, path, err), Cause: err}
}
