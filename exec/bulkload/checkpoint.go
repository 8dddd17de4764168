package bulkload

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// checkpoint is what the checkpoint file holds (JSON): which load it is
// for and how far it got.
type checkpoint struct {
	Version int    `json:"version"`
	Table   string `json:"table"`
	Target  string `json:"target"` // the endpoint and region loaded into
	Source  string `json:"source"` // the absolute path of the source
	// Fingerprint is a hash of the size and modification time of every
	// file of the source: a checkpoint is used only for the files it
	// was written for.
	Fingerprint string `json:"fingerprint"`
	// Confirmed: the first Confirmed items of the source, in file order,
	// are written; a resumed load starts with item Confirmed.
	Confirmed int64     `json:"confirmed"`
	Written   int64     `json:"written"` // items written by all runs
	WCU       float64   `json:"wcu"`     // what they consumed
	Updated   time.Time `json:"updated"`
}

const checkpointVersion = 1

// CheckpointDir is where checkpoints live by default:
// $XDG_STATE_HOME/ddbsql/load, else ~/.local/state/ddbsql/load.
func CheckpointDir() (string, error) {
	base := os.Getenv("XDG_STATE_HOME")
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		base = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(base, "ddbsql", "load"), nil
}

// defaultCheckpoint names the checkpoint of loading source into table at
// target: <table>-<hash of target and source>.json in CheckpointDir.
func defaultCheckpoint(table, target, source string) (string, error) {
	dir, err := CheckpointDir()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(target + "\x00" + source))
	return filepath.Join(dir, table+"-"+hex.EncodeToString(sum[:6])+".json"), nil
}

// fingerprint hashes the names, sizes and modification times of path's
// files (path itself, or every file under a folder).
func fingerprint(path string) (string, error) {
	var lines []string
	err := filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(path, p)
		lines = append(lines, fmt.Sprintf("%s\x00%d\x00%d", rel, info.Size(), info.ModTime().UnixNano()))
		return nil
	})
	if err != nil {
		return "", err
	}
	sort.Strings(lines)
	h := sha256.New()
	for _, l := range lines {
		h.Write([]byte(l + "\n"))
	}
	return hex.EncodeToString(h.Sum(nil)[:16]), nil
}

// readCheckpoint reads the checkpoint at path; ok is false when there is
// none.
func readCheckpoint(path string) (cp checkpoint, ok bool, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return cp, false, nil
	}
	if err != nil {
		return cp, false, checkpointError(path, "cannot read the checkpoint: "+unwrapPath(err).Error(), err)
	}
	if err := json.Unmarshal(data, &cp); err != nil || cp.Version != checkpointVersion {
		return cp, false, checkpointError(path, "this is not a ddbsql load checkpoint (or one of another version); delete it to load from the start", err)
	}
	return cp, true, nil
}

// writeCheckpoint replaces the checkpoint at path atomically (a new file
// renamed over it), so a kill leaves the old one or the new one.
func writeCheckpoint(path string, cp checkpoint) error {
	cp.Version, cp.Updated = checkpointVersion, time.Now().UTC()
	data, err := json.MarshalIndent(cp, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return checkpointError(path, "cannot create the checkpoint's folder: "+unwrapPath(err).Error(), err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".ddbsql-checkpoint-*")
	if err != nil {
		return checkpointError(path, "cannot write the checkpoint: "+unwrapPath(err).Error(), err)
	}
	_, werr := tmp.Write(append(data, '\n'))
	if serr := tmp.Sync(); werr == nil {
		werr = serr
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return checkpointError(path, "cannot write the checkpoint: "+unwrapPath(werr).Error(), werr)
	}
	return nil
}

func checkpointError(path, msg string, cause error) *diag.Error {
	return &diag.Error{Phase: diag.Load, Code: diag.CodeIO, Pos: diag.Pos{Source: path}, Msg: msg, Cause: cause}
}
