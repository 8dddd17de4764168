package partition

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/ddbsql/ddbsql/exec/format"
)

// part is the file of one partition being written: its rows spool in
// the Parquet writer until finish writes the file, under a temporary name
// (.part-NNNNN.parquet.tmp, which no *.parquet glob matches and Hive
// readers skip for its leading dot) until finish renames it.
type part struct {
	key  string // the partition's directory, relative, with /
	rel  string // the final file, relative, with /
	tmp  string // the temporary file's path
	file *lazyFile
	w    format.Writer
	rows int64
}

// lazyFile creates its file at the first write: the Parquet writer
// writes only when its file is finished, so an open partition holds no
// descriptor but its spool's.
type lazyFile struct {
	path string
	f    *os.File
}

func (l *lazyFile) Write(p []byte) (int, error) {
	if l.f == nil {
		f, err := os.OpenFile(l.path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
		if err != nil {
			return 0, ioError(l.path, "cannot create a Parquet file", err)
		}
		l.f = f
	}
	return l.f.Write(p)
}

// partFor is the open file of a partition, opened (after finishing the
// least recently used one, if MaxOpen files are open) when it has none.
func (w *Writer) partFor(key string) (*part, error) {
	for i, p := range w.open {
		if p.key == key {
			copy(w.open[i:], w.open[i+1:])
			w.open[len(w.open)-1] = p
			return p, nil
		}
	}
	if len(w.open) >= w.opt.MaxOpen {
		lru := w.open[0]
		w.open = w.open[1:]
		f, err := lru.finish(w.opt.Dir)
		if err != nil {
			return nil, err
		}
		w.done = append(w.done, f)
	}
	p, err := openPart(w.opt.Dir, key, w.next[key], w.opt.Format, w.inner)
	if err != nil {
		return nil, err
	}
	w.next[key]++
	w.open = append(w.open, p)
	return p, nil
}

func openPart(dir, key string, n int, opt format.Options, h format.Header) (*part, error) {
	name := fmt.Sprintf("part-%05d.parquet", n)
	sub := filepath.Join(dir, filepath.FromSlash(key))
	if err := os.MkdirAll(sub, 0o777); err != nil {
		return nil, ioError(sub, "cannot create the partition directory", err)
	}
	p := &part{key: key, rel: key + "/" + name, tmp: filepath.Join(sub, "."+name+".tmp")}
	p.file = &lazyFile{path: p.tmp}
	pw, err := format.New("parquet", p.file, opt)
	if err == nil {
		p.w = pw
		err = pw.Begin(h)
	}
	if err != nil {
		p.abort()
		return nil, err
	}
	return p, nil
}

// finish writes the file and renames it into place.
func (p *part) finish(dir string) (File, error) {
	err := p.w.End()
	if err == nil && p.file.f == nil {
		_, err = p.file.Write(nil) // nothing written: still a file to rename
	}
	f := p.file.f
	var size int64
	if err == nil {
		var st os.FileInfo
		if st, err = f.Stat(); err == nil {
			size = st.Size()
		}
	}
	if err != nil {
		p.abort()
		return File{}, err
	}
	p.file.f = nil
	if err := f.Close(); err != nil {
		os.Remove(p.tmp)
		return File{}, ioError(p.tmp, "cannot write a Parquet file", err)
	}
	final := filepath.Join(dir, filepath.FromSlash(p.rel))
	if err := os.Rename(p.tmp, final); err != nil {
		os.Remove(p.tmp)
		return File{}, ioError(final, "cannot rename a Parquet file into place", err)
	}
	return File{Path: p.rel, Rows: p.rows, Bytes: size}, nil
}

// abort drops the file being written.
func (p *part) abort() {
	if p.w != nil {
		p.w.Abort()
	}
	if p.file != nil && p.file.f != nil {
		p.file.f.Close()
		p.file.f = nil
		os.Remove(p.tmp)
	}
}

// removeFile removes a finished file that the state does not list yet.
func removeFile(dir, rel string) {
	os.Remove(filepath.Join(dir, filepath.FromSlash(rel)))
}
