package partition

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/ddbsql/ddbsql/exec/format"
	"github.com/ddbsql/ddbsql/parser/diag"
)

// Defaults of Options' zero values.
const (
	// DefaultMaxOpen bounds the partitions whose files are open at once:
	// each holds a spool file's descriptor and its 64 KiB buffer.
	DefaultMaxOpen = 128
	// DefaultUnitRows and DefaultUnitBytes end a unit of the result: after
	// this many rows, or this many bytes of Arrow data, whichever comes
	// first, every open file is finished and the state file records them.
	DefaultUnitRows  = 1 << 20
	DefaultUnitBytes = 1 << 30
)

// Options configure a partitioned writer.
type Options struct {
	// Dir is the output directory, readied by Prepare.
	Dir string
	// Columns are the partition columns, outermost directory first.
	Columns []string
	// State is what Prepare returned: where to continue from.
	State *State
	// Format are the options of the Parquet writer of each file.
	Format format.Options
	// MaxOpen, UnitRows, UnitBytes: zero means the defaults above.
	MaxOpen   int
	UnitRows  int64
	UnitBytes int64
	// Checkpointed, when set, is called after each unit's state is
	// written; an error it returns fails the export there, as a stop
	// would (tests use it to stop a run part-way).
	Checkpointed func(units int) error
}

// Writer writes a result as a Hive-style partitioned layout of Parquet
// files. It is a format.Writer: Begin, WriteBatch…, End, or Abort.
type Writer struct {
	opt    Options
	h      format.Header
	inner  format.Header // the files' header: without the partition columns
	fixed  []int         // fixed columns: result column of each partition column
	keep   []int         // fixed columns: result columns the files hold
	seen   []bool        // SELECT *: partition column met in some batch
	names  []string      // partition columns, escaped for paths
	digest hash.Hash     // SHA-256 of the result's rows as ndjson
	rowsW  format.Writer // writes those rows into digest
	skip   int64         // rows an earlier run wrote, still to read past
	rows   int64         // rows of the result read so far
	unit   struct{ rows, bytes int64 }
	files  []File // finished and recorded
	done   []File // finished since the last unit
	next   map[string]int
	open   []*part // least recently used first
	began  bool
	failed error
}

// New returns a writer for opt.
func New(opt Options) *Writer {
	if opt.MaxOpen <= 0 {
		opt.MaxOpen = DefaultMaxOpen
	}
	if opt.UnitRows <= 0 {
		opt.UnitRows = DefaultUnitRows
	}
	if opt.UnitBytes <= 0 {
		opt.UnitBytes = DefaultUnitBytes
	}
	w := &Writer{opt: opt, next: map[string]int{}}
	if st := opt.State; st != nil {
		w.files = slices.Clone(st.Files)
		w.skip = st.Rows
		for _, f := range st.Files {
			dir := f.Path[:max(strings.LastIndexByte(f.Path, '/'), 0)]
			w.next[dir]++
		}
	}
	for _, c := range opt.Columns {
		w.names = append(w.names, escapePathName(c))
	}
	return w
}

// Begin checks the partition columns against the result's columns.
func (w *Writer) Begin(h format.Header) error {
	if w.began {
		return w.fail(&diag.Error{Phase: diag.Execute, Code: diag.CodeUnsupported,
			Msg:  fmt.Sprintf("--output %s holds one partitioned result, and this is a second statement's; it was not written", w.opt.Dir),
			Hint: "export one SELECT per run"})
	}
	w.began = true
	w.h = h
	if h.Dynamic {
		w.seen = make([]bool, len(w.opt.Columns))
		w.inner = format.Header{Dynamic: true, KeyColumns: without(h.KeyColumns, w.opt.Columns)}
	} else {
		for _, c := range w.opt.Columns {
			i := slices.Index(h.Columns, c)
			if i < 0 {
				return w.fail(&diag.Error{Phase: diag.Plan, Code: diag.CodeUnknownColumn,
					Msg:  fmt.Sprintf("--partition-by %s: the result has no column %s (its columns: %s)", c, c, strings.Join(h.Columns, ", ")),
					Hint: "partition by a column of the SELECT list, by its name or its alias (AS)"})
			}
			w.fixed = append(w.fixed, i)
		}
		for i, c := range h.Columns {
			if !slices.Contains(w.fixed, i) {
				w.keep = append(w.keep, i)
				w.inner.Columns = append(w.inner.Columns, c)
			}
		}
		if len(w.keep) == 0 {
			return w.fail(&diag.Error{Phase: diag.Plan, Code: diag.CodeInvalid,
				Msg:  "--partition-by names every column of the result, and the files hold the other columns: they would hold none",
				Hint: "select at least one column besides the partition columns"})
		}
	}
	w.digest = sha256.New()
	rw, err := format.New("ndjson", w.digest, w.opt.Format)
	if err != nil {
		return w.fail(err)
	}
	w.rowsW = rw
	return w.fail(rw.Begin(h))
}

// without is names less those in drop.
func without(names, drop []string) []string {
	var out []string
	for _, n := range names {
		if !slices.Contains(drop, n) {
			out = append(out, n)
		}
	}
	return out
}

// fail makes an error sticky: the writer writes nothing after it.
func (w *Writer) fail(err error) error {
	if err != nil && w.failed == nil {
		w.failed = err
	}
	return err
}

// WriteBatch reads past the rows an earlier run wrote (checking them),
// then sends each row to its partition's file, ending a unit when it is
// full.
func (w *Writer) WriteBatch(rec arrow.RecordBatch) error {
	if w.failed != nil {
		return w.failed
	}
	if !w.began {
		return w.fail(fmt.Errorf("partition: WriteBatch before Begin"))
	}
	w.noteColumns(rec)
	n := rec.NumRows()
	off := int64(0)
	if w.skip > 0 {
		k := min(w.skip, n)
		if err := w.hashRows(rec, 0, k); err != nil {
			return w.fail(err)
		}
		w.skip -= k
		w.rows += k
		off = k
		if w.skip == 0 {
			if err := w.checkResumed(); err != nil {
				return w.fail(err)
			}
		}
	}
	for off < n {
		k := min(n-off, w.opt.UnitRows-w.unit.rows)
		if err := w.hashRows(rec, off, off+k); err != nil {
			return w.fail(err)
		}
		if err := w.route(rec, off, off+k); err != nil {
			return w.fail(err)
		}
		w.rows += k
		off += k
		if w.unit.rows >= w.opt.UnitRows || w.unit.bytes >= w.opt.UnitBytes {
			if err := w.checkpoint(false); err != nil {
				return w.fail(err)
			}
		}
	}
	return nil
}

// noteColumns records, for SELECT *, which partition attributes the
// result has at all.
func (w *Writer) noteColumns(rec arrow.RecordBatch) {
	for i, c := range w.opt.Columns {
		if w.seen != nil && !w.seen[i] && len(rec.Schema().FieldIndices(c)) > 0 {
			w.seen[i] = true
		}
	}
}

// hashRows adds rows [from, to) of rec to the digest.
func (w *Writer) hashRows(rec arrow.RecordBatch, from, to int64) error {
	if from == 0 && to == rec.NumRows() {
		return w.rowsW.WriteBatch(rec)
	}
	s := rec.NewSlice(from, to)
	defer s.Release()
	return w.rowsW.WriteBatch(s)
}

func (w *Writer) sum() string { return hex.EncodeToString(w.digest.Sum(nil)) }

// checkResumed compares the rows read past with those the earlier run
// wrote: a result that changed since (other data, or rows in another
// order) cannot be continued without mixing two results.
func (w *Writer) checkResumed() error {
	if w.sum() == w.opt.State.RowsSHA256 {
		return nil
	}
	return &diag.Error{Phase: diag.Execute, Code: diag.CodeInvalid,
		Msg: fmt.Sprintf("the first %d rows of the result differ from those an earlier run wrote to %s (the data changed, or the statement's rows come in another order each run), so the export cannot be continued; nothing more was written",
			w.opt.State.Rows, w.opt.Dir),
		Hint: "remove the directory (or give --output a new one) and export again; a Scan with several --segments returns rows in no fixed order"}
}

// End finishes every open file and records the export as complete.
func (w *Writer) End() error {
	if w.failed != nil {
		w.Abort()
		return w.failed
	}
	if !w.began {
		return w.fail(fmt.Errorf("partition: End before Begin"))
	}
	if w.skip > 0 {
		err := w.fail(&diag.Error{Phase: diag.Execute, Code: diag.CodeInvalid,
			Msg: fmt.Sprintf("the result has %d rows, fewer than the %d an earlier run wrote to %s (the data changed), so the export cannot be continued",
				w.rows, w.opt.State.Rows, w.opt.Dir),
			Hint: "remove the directory (or give --output a new one) and export again"})
		w.Abort()
		return err
	}
	for i, s := range w.seen {
		if !s {
			err := w.fail(&diag.Error{Phase: diag.Execute, Code: diag.CodeUnknownColumn,
				Msg:  fmt.Sprintf("--partition-by %s: no row of the result has the attribute %s, so every row went to %s=%s", w.opt.Columns[i], w.opt.Columns[i], w.names[i], DefaultPartition),
				Hint: "check the attribute's name (names are case-sensitive); the export is not marked complete"})
			w.Abort()
			return err
		}
	}
	if err := w.checkpoint(true); err != nil {
		w.fail(err)
		w.Abort()
		return err
	}
	w.rowsW.Abort()
	w.failed = errEnded
	return nil
}

var errEnded = fmt.Errorf("partition: writer already ended")

// Abort abandons the files being written and those finished since the
// last unit (a rerun writes them again); recorded files and the state
// stay, so the same command continues from them.
func (w *Writer) Abort() {
	for _, p := range w.open {
		p.abort()
	}
	w.open = nil
	for _, f := range w.done {
		removeFile(w.opt.Dir, f.Path)
	}
	w.done = nil
	if w.rowsW != nil {
		w.rowsW.Abort()
	}
	if w.failed == nil {
		w.failed = errEnded
	}
}

// checkpoint ends the unit: every open file is finished, and the state
// file records them with the rows read so far.
func (w *Writer) checkpoint(complete bool) error {
	for len(w.open) > 0 {
		p := w.open[0]
		w.open = w.open[1:]
		f, err := p.finish(w.opt.Dir)
		if err != nil {
			return err
		}
		w.done = append(w.done, f)
	}
	st := *w.opt.State
	st.Files = append(slices.Clone(w.files), w.done...)
	synced := w.done
	if complete {
		if err := w.harmonize(st.Files); err != nil {
			return err
		}
		synced = st.Files // harmonize may have rewritten any of them
	}
	paths := make([]string, len(synced))
	for i, f := range synced {
		paths[i] = filepath.Join(w.opt.Dir, filepath.FromSlash(f.Path))
	}
	if err := syncLayout(w.opt.Dir, paths); err != nil {
		return ioError(w.opt.Dir, "cannot make the export's files durable", err)
	}
	st.Rows = w.rows
	st.RowsSHA256 = w.sum()
	st.Units++
	st.Complete = complete
	if err := writeState(w.opt.Dir, &st); err != nil {
		return err
	}
	*w.opt.State = st
	w.files, w.done = st.Files, nil
	w.unit.rows, w.unit.bytes = 0, 0
	if w.opt.Checkpointed != nil {
		return w.opt.Checkpointed(st.Units)
	}
	return nil
}
