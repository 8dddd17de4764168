package format

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// Destination is where results go: standard output (NewDestination) or a
// file (CreateDestination, for -o FILE and \o FILE). Text formats write
// through it as they would to the writer itself. A Parquet or Arrow result
// is a file of its own, so a destination takes one only while it holds
// nothing else, and nothing after it: a second result, or text after it,
// is a *DestinationFullError instead of a corrupt file.
//
// For a file, the binary result is written to a temporary file beside it
// (FILE.*.tmp) and renamed over it only once complete: a statement that
// fails, is interrupted or dies leaves FILE as it was opened (empty),
// never a file that passes for a complete one.
type Destination struct {
	w    io.Writer
	name string   // what errors call it: the file's name, "standard output"
	file *os.File // set for a file destination
	path string
	text bool // text has been written
	full bool // holds a binary result
}

// NewDestination wraps a writer that is not a file ddbsql opened itself
// (standard output); name is what messages call it.
func NewDestination(w io.Writer, name string) *Destination {
	return &Destination{w: w, name: name}
}

// CreateDestination creates or truncates the file at path.
func CreateDestination(path string) (*Destination, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &Destination{w: f, name: path, file: f, path: path}, nil
}

// Name is the file's path, or the name given to NewDestination.
func (d *Destination) Name() string { return d.name }

// Write writes text output.
func (d *Destination) Write(p []byte) (int, error) {
	if d.full {
		return 0, d.fullError("")
	}
	if len(p) > 0 {
		d.text = true
	}
	return d.w.Write(p)
}

// Close closes a file destination (nothing for standard output).
func (d *Destination) Close() error {
	if d.file == nil {
		return nil
	}
	err := d.file.Close()
	d.file = nil
	return err
}

// reserve is called when a binary result begins: it fails, before
// anything is read, when the destination holds output already.
func (d *Destination) reserve(format string) error {
	if d.full || d.text {
		return d.fullError(format)
	}
	return nil
}

// writeWhole writes one binary result through encode: straight to
// standard output, or to a temporary file renamed over the destination
// file when encode succeeds.
func (d *Destination) writeWhole(format string, encode func(io.Writer) error) error {
	if err := d.reserve(format); err != nil {
		return err
	}
	d.full = true
	if d.path == "" {
		return encode(d.w)
	}
	return replaceFile(d.path, encode)
}

// replaceFile writes path's new content to a temporary file in the same
// directory and renames it over path, so path is either as it was or
// complete. The temporary file is removed on every failure.
func replaceFile(path string, encode func(io.Writer) error) (err error) {
	mode := os.FileMode(0o666)
	if st, serr := os.Stat(path); serr == nil {
		mode = st.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	buf := bufio.NewWriterSize(tmp, 1<<16)
	if err = encode(buf); err != nil {
		return err
	}
	if err = buf.Flush(); err != nil {
		return err
	}
	if err = tmp.Chmod(mode); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// fullError is the failure of a write the destination cannot take: a
// diag.Error (for the message and its hint) whose cause is the
// *DestinationFullError.
func (d *Destination) fullError(format string) error {
	e := &DestinationFullError{Destination: d.name, Format: format, HoldsResult: d.full}
	return &diag.Error{Phase: diag.Execute, Code: diag.CodeUnsupported, Msg: e.Error(), Hint: e.Hint(), Cause: e}
}

// DestinationFullError is a Parquet or Arrow result that cannot be
// written because its destination holds other output, or output that
// would follow one: such a file holds exactly one result.
type DestinationFullError struct {
	Destination string
	Format      string // the format of the refused result; "" for text
	HoldsResult bool   // the destination holds a binary result already
}

func (e *DestinationFullError) Error() string {
	switch {
	case e.Format == "":
		return fmt.Sprintf("%s holds a Parquet or Arrow result, which must stay a file of its own; nothing more is written to it", e.Destination)
	case e.HoldsResult:
		return fmt.Sprintf("%s holds a result already, and a %s file holds one result; this result was not written", e.Destination, e.Format)
	}
	return fmt.Sprintf("%s holds other output already, and a %s file must be a file of its own; this result was not written", e.Destination, e.Format)
}

// Hint says how to write several results.
func (e *DestinationFullError) Hint() string {
	return "write each result to its own file: one statement per run with -o FILE, or \\o FILE before each statement in the REPL"
}
