package write

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/value"
)

// Journal records the old and new image of every item a write statement
// changes, one JSON line each, so that Undo can put the old images back.
// A file holds any number of statements, numbered from 1 in the order they
// were journaled (a file journaled to again continues the numbering).
//
// Lines: {"statement":N,"kind":"UPDATE","table":"t","text":"…","time":"…"}
// starts statement N; {"statement":N,"table":"t","old":{…},"new":{…}} is
// one item, in DynamoDB JSON, old null for an inserted item and new null
// for a deleted one.
type Journal struct {
	mu   sync.Mutex
	path string
	f    *os.File
	w    *bufio.Writer
	last int // the highest statement number in the file
	cur  int // the statement being journaled
}

type journalLine struct {
	Statement int             `json:"statement"`
	Kind      string          `json:"kind,omitempty"`
	Table     string          `json:"table"`
	Text      string          `json:"text,omitempty"`
	Time      string          `json:"time,omitempty"`
	Old       json.RawMessage `json:"old,omitempty"`
	New       json.RawMessage `json:"new,omitempty"`
}

// OpenJournal opens (or creates) a journal file for appending.
func OpenJournal(path string) (*Journal, error) {
	last := 0
	if lines, err := readJournal(path); err == nil {
		for _, l := range lines {
			last = max(last, l.Statement)
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, journalErr(path, err)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, journalErr(path, err)
	}
	return &Journal{path: path, f: f, w: bufio.NewWriter(f), last: last}, nil
}

// Path is the journal's file.
func (j *Journal) Path() string { return j.path }

// Close flushes and closes the file.
func (j *Journal) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	err := j.w.Flush()
	if cerr := j.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// begin starts a statement and returns its number.
func (j *Journal) begin(kind, table, text string) (int, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.last++
	j.cur = j.last
	return j.cur, j.writeLocked(journalLine{Statement: j.cur, Kind: kind, Table: table, Text: text, Time: time.Now().UTC().Format(time.RFC3339)})
}

// record writes one item's images (Missing for none).
func (j *Journal) record(table string, old, nv value.Value) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	l := journalLine{Statement: j.cur, Table: table}
	if old.Kind() == value.Map {
		l.Old = value.AppendItemJSON(nil, old)
	}
	if nv.Kind() == value.Map {
		l.New = value.AppendItemJSON(nil, nv)
	}
	return j.writeLocked(l)
}

// end makes the statement's lines durable.
func (j *Journal) end() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if err := j.w.Flush(); err != nil {
		return journalErr(j.path, err)
	}
	if err := j.f.Sync(); err != nil {
		return journalErr(j.path, err)
	}
	return nil
}

func (j *Journal) writeLocked(l journalLine) error {
	b, err := json.Marshal(l)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if _, err := j.w.Write(b); err != nil {
		return journalErr(j.path, err)
	}
	return nil
}

func journalErr(path string, err error) error {
	return &diag.Error{Phase: diag.Execute, Code: diag.CodeIO, Cause: err, Msg: fmt.Sprintf("journal %s: %v", path, err),
		Hint: "give --journal a file you can write"}
}

// readJournal reads every line of a journal file.
func readJournal(path string) ([]journalLine, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []journalLine
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 1<<26)
	for n := 1; sc.Scan(); n++ {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var l journalLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return nil, &diag.Error{Phase: diag.Execute, Code: diag.CodeBadJSON, Cause: err,
				Msg: fmt.Sprintf("journal %s, line %d: %v", path, n, err), Hint: "a journal is written by ddbsql --journal; a line cut short by a crash can be deleted"}
		}
		out = append(out, l)
	}
	if err := sc.Err(); err != nil {
		return nil, journalErr(path, err)
	}
	return out, nil
}
