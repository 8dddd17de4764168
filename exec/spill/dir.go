package spill

import (
	"fmt"
	"os"
	"sync"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// Dir is one statement's spill directory. It is made on the first Create
// (most statements never spill, and then nothing touches the disk) as a
// fresh directory under the base (--temp-dir, else os.TempDir()), and
// Close removes it with everything in it.
type Dir struct {
	base   string
	mu     sync.Mutex
	path   string
	closed bool
	files  int
	bytes  int64 // written to runs that finished
	parent *Dir  // a share's statement directory (share.go); nil for that one
}

// NewDir returns a spill directory under base ("" means os.TempDir()).
func NewDir(base string) *Dir {
	return &Dir{base: base}
}

// Create opens a new empty spill file whose name starts with prefix.
func (d *Dir) Create(prefix string) (*os.File, error) {
	if d.parent != nil {
		f, err := d.parent.Create(prefix)
		if err == nil {
			d.mu.Lock()
			d.files++
			d.mu.Unlock()
		}
		return f, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil, spillError("the statement's spill directory is already removed", nil)
	}
	if d.path == "" {
		base := d.base
		if base == "" {
			base = os.TempDir()
		}
		path, err := os.MkdirTemp(base, "ddbsql-spill-")
		if err != nil {
			return nil, spillError(fmt.Sprintf("cannot make a spill directory under %s", base), err)
		}
		d.path = path
		register(d)
	}
	d.files++
	f, err := os.CreateTemp(d.path, prefix+"-*.arrows")
	if err != nil {
		return nil, spillError(fmt.Sprintf("cannot create a spill file in %s", d.path), err)
	}
	return f, nil
}

// Path is the directory's path, "" until the first Create.
func (d *Dir) Path() string {
	if d.parent != nil {
		return d.parent.Path()
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.path
}

// Files is how many spill files were created: the statistics show it.
func (d *Dir) Files() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.files
}

// Bytes is how many bytes finished runs wrote: the statistics show it.
func (d *Dir) Bytes() int64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.bytes
}

func (d *Dir) addBytes(n int64) {
	if d.parent != nil {
		d.parent.addBytes(n)
	}
	d.mu.Lock()
	d.bytes += n
	d.mu.Unlock()
}

// Close removes the directory and every file in it. Files still open are
// removed too (on Unix an open file's name can go; its reader keeps the
// data until it closes). Close can be called more than once.
func (d *Dir) Close() error {
	if d.parent != nil {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil
	}
	d.closed = true
	if d.path == "" {
		return nil
	}
	unregister(d)
	if err := os.RemoveAll(d.path); err != nil {
		return spillError(fmt.Sprintf("cannot remove the spill directory %s", d.path), err)
	}
	return nil
}

func spillError(msg string, err error) error {
	e := &diag.Error{Phase: diag.Execute, Code: diag.CodeSpill, Msg: msg, Cause: err,
		Hint: "point --temp-dir at a writable directory with free space"}
	if err != nil {
		e.Msg += ": " + err.Error()
	}
	return e
}

// open holds every Dir that has a directory on disk and is not closed.
var open = struct {
	sync.Mutex
	dirs map[*Dir]struct{}
}{dirs: map[*Dir]struct{}{}}

func register(d *Dir) {
	open.Lock()
	open.dirs[d] = struct{}{}
	open.Unlock()
}

func unregister(d *Dir) {
	open.Lock()
	delete(open.dirs, d)
	open.Unlock()
}

// RemoveAll removes the directories of every Dir not yet closed. The
// command line calls it when a signal ends the process, so even a run
// stopped mid-spill leaves no files behind.
func RemoveAll() {
	open.Lock()
	dirs := make([]*Dir, 0, len(open.dirs))
	for d := range open.dirs {
		dirs = append(dirs, d)
	}
	open.Unlock()
	for _, d := range dirs {
		_ = d.Close()
	}
}
