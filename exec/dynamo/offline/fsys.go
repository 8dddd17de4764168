package offline

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"

	// About twice as fast as compress/gzip at inflating exports, which
	// otherwise takes a third of a streamed scan's time.
	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// fileSystem is where sources are read from: the operating system for
// Load, an fs.FS (the embedded demo) for LoadDemo.
type fileSystem interface {
	Open(name string) (fs.File, error)
	Stat(name string) (fs.FileInfo, error)
	ReadDir(name string) ([]fs.DirEntry, error)
	Join(elem ...string) string
	Base(name string) string
	Dir(name string) string
}

// osFS reads OS paths as given (absolute or relative to the working
// directory).
type osFS struct{}

func (osFS) Open(name string) (fs.File, error)          { return os.Open(name) }
func (osFS) Stat(name string) (fs.FileInfo, error)      { return os.Stat(name) }
func (osFS) ReadDir(name string) ([]fs.DirEntry, error) { return os.ReadDir(name) }
func (osFS) Join(elem ...string) string                 { return filepath.Join(elem...) }
func (osFS) Base(name string) string                    { return filepath.Base(name) }
func (osFS) Dir(name string) string                     { return filepath.Dir(name) }

// ioFS reads an fs.FS (slash-separated paths).
type ioFS struct{ fsys fs.FS }

func (f ioFS) Open(name string) (fs.File, error)          { return f.fsys.Open(name) }
func (f ioFS) Stat(name string) (fs.FileInfo, error)      { return fs.Stat(f.fsys, name) }
func (f ioFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(f.fsys, name) }
func (ioFS) Join(elem ...string) string                   { return path.Join(elem...) }
func (ioFS) Base(name string) string                      { return path.Base(name) }
func (ioFS) Dir(name string) string                       { return path.Dir(name) }

// gzipMagic starts every gzip stream.
var gzipMagic = []byte{0x1f, 0x8b}

// dataFile is an open source file, un-gzipped when it starts with the
// gzip magic bytes (whatever its name). A zero-length file reads as empty:
// an export writes one for an empty partition.
type dataFile struct {
	io.Reader
	path   string
	gzip   bool
	closer io.Closer
}

func (d *dataFile) Close() error { return d.closer.Close() }

// openData opens path for reading its (decompressed) content.
func openData(fsys fileSystem, p string) (*dataFile, error) {
	f, err := fsys.Open(p)
	if err != nil {
		return nil, &diag.Error{Phase: diag.Load, Code: diag.CodeIO, Pos: diag.Pos{Source: p}, Msg: "cannot open: " + ioReason(err), Cause: err}
	}
	br := bufio.NewReaderSize(f, 1<<20)
	head, err := br.Peek(2)
	if err != nil && err != io.EOF {
		f.Close()
		return nil, &diag.Error{Phase: diag.Load, Code: diag.CodeIO, Pos: diag.Pos{Source: p}, Msg: "cannot read: " + err.Error(), Cause: err}
	}
	d := &dataFile{Reader: br, path: p, closer: f}
	if bytes.Equal(head, gzipMagic) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			f.Close()
			return nil, gzipError(p, 0, err)
		}
		d.Reader, d.gzip = zr, true
	}
	return d, nil
}

// readAll reads a whole (decompressed) file.
func readAll(fsys fileSystem, p string) ([]byte, error) {
	d, err := openData(fsys, p)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	data, err := io.ReadAll(d)
	if err != nil {
		return nil, d.readError(0, err)
	}
	return data, nil
}

// readError explains a failure to read d after line (0: unknown).
func (d *dataFile) readError(line int, err error) error {
	if d.gzip && isGzipError(err) {
		return gzipError(d.path, line, err)
	}
	return &diag.Error{Phase: diag.Load, Code: diag.CodeIO, Pos: diag.Pos{Source: d.path}, Msg: "read failed: " + err.Error(), Cause: err}
}

func isGzipError(err error) bool {
	var ce flate.CorruptInputError
	return errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, gzip.ErrChecksum) ||
		errors.Is(err, gzip.ErrHeader) || errors.As(err, &ce)
}

// gzipError reports truncated or corrupt gzip data; line is the last
// complete line read (0: none or unknown).
func gzipError(p string, line int, err error) error {
	where := ""
	if line > 0 {
		where = " after line " + strconv.Itoa(line)
	}
	msg := "corrupt gzip data" + where + ": " + err.Error()
	if errors.Is(err, io.ErrUnexpectedEOF) {
		msg = "truncated gzip data" + where + " (the file ends before the end of the compressed stream; was it copied completely?)"
	}
	return &diag.Error{Phase: diag.Load, Code: diag.CodeTruncated, Pos: diag.Pos{Source: p}, Msg: msg, Cause: err}
}

func ioReason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
