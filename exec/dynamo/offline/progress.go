package offline

import (
	"io"
	"io/fs"
	"sync/atomic"
	"time"
)

// Progress counts what a Load has done, for a progress line: the items
// written and the bytes read from the files as stored (compressed bytes
// for gzipped files), against the total size of the sources, measured
// before loading starts. All methods are safe from any goroutine; a nil
// *Progress counts nothing.
type Progress struct {
	started     time.Time
	items, read atomic.Int64
	total       atomic.Int64
}

// NewProgress starts counting now.
func NewProgress() *Progress { return &Progress{started: time.Now()} }

// ProgressSnapshot is one reading of a Progress.
type ProgressSnapshot struct {
	Items      int64
	BytesRead  int64 // of the files as stored
	BytesTotal int64 // the sources' size on disk; 0 when unknown
	Elapsed    time.Duration
}

// Snapshot reads the counters.
func (p *Progress) Snapshot() ProgressSnapshot {
	if p == nil {
		return ProgressSnapshot{}
	}
	return ProgressSnapshot{Items: p.items.Load(), BytesRead: p.read.Load(), BytesTotal: p.total.Load(), Elapsed: time.Since(p.started)}
}

// ETA estimates the time left from the share of bytes read so far; false
// before anything is known.
func (s ProgressSnapshot) ETA() (time.Duration, bool) {
	if s.BytesTotal <= 0 || s.BytesRead <= 0 || s.Elapsed <= 0 {
		return 0, false
	}
	left := float64(max(s.BytesTotal-s.BytesRead, 0)) / float64(s.BytesRead)
	return time.Duration(left * float64(s.Elapsed)), true
}

func (p *Progress) addItems(n int) {
	if p != nil {
		p.items.Add(int64(n))
	}
}

// counted wraps a stored file's reader so that what it reads is counted.
func (p *Progress) counted(r io.Reader) io.Reader {
	if p == nil {
		return r
	}
	return &countingReader{r: r, n: &p.read}
}

type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n.Add(int64(n))
	return n, err
}

// measure adds the size of path (a file, or every file up to four levels
// below a directory) to the total; sizes it cannot read count as 0.
func (p *Progress) measure(fsys fileSystem, path string) {
	if p == nil {
		return
	}
	p.total.Add(treeSize(fsys, path, 4))
}

func treeSize(fsys fileSystem, path string, depth int) int64 {
	st, err := fsys.Stat(path)
	if err != nil {
		return 0
	}
	if !st.IsDir() {
		return st.Size()
	}
	if depth == 0 {
		return 0
	}
	entries, err := fsys.ReadDir(path)
	if err != nil {
		return 0
	}
	var n int64
	for _, e := range entries {
		n += treeSize(fsys, fsys.Join(path, e.Name()), depth-1)
	}
	return n
}

// countedFS is a fileSystem whose opened files count the bytes read from
// them into p: the loader opens data files through it, detection does not
// (its sniffing would count bytes twice).
type countedFS struct {
	fileSystem
	p *Progress
}

func (c countedFS) Open(name string) (fs.File, error) {
	f, err := c.fileSystem.Open(name)
	if err != nil || c.p == nil {
		return f, err
	}
	return countedFile{File: f, r: c.p.counted(f)}, nil
}

type countedFile struct {
	fs.File
	r io.Reader
}

func (f countedFile) Read(b []byte) (int, error) { return f.r.Read(b) }
