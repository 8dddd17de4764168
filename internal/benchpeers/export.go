package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/ddbsql/ddbsql/internal/exportgen"
)

// export is a generated export on disk with what it holds.
type export struct {
	root    string // the --data folder
	dir     string // root/AWSDynamoDB/<export id>
	gzBytes int64  // the data files' size
	Totals  exportgen.Totals
	Version int // exportgen.Version that wrote it
}

// totalsFile, beside the export, records its totals and the
// exportgen.Version that wrote it, so a later run can reuse the export
// without reading it; it is written last, so a run that stopped while
// generating leaves no totals and the export is written again.
const totalsFile = "totals.json"

func ensureExport(root string, items, files int, w io.Writer) (*export, error) {
	e := &export{root: root}
	if data, err := os.ReadFile(filepath.Join(root, totalsFile)); err == nil && json.Unmarshal(data, e) == nil && e.Version == exportgen.Version && e.Totals.Items == int64(items) {
		fmt.Fprintf(w, "%d items: reusing %s\n", items, e.Totals.ExportDir)
	} else {
		fmt.Fprintf(w, "%d items: writing an export in %d files to %s …\n", items, files, root)
		if err := os.RemoveAll(root); err != nil {
			return nil, err
		}
		t, err := exportgen.Write(root, exportgen.Options{Items: items, Files: files, Seed: 1})
		if err != nil {
			return nil, err
		}
		e.Totals, e.Version = t, exportgen.Version
		data, err := json.MarshalIndent(e, "", "  ")
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(root, totalsFile), data, 0o644); err != nil {
			return nil, err
		}
	}
	e.dir = e.Totals.ExportDir
	matches, err := filepath.Glob(filepath.Join(e.dir, "data", "*.json.gz"))
	if err != nil || len(matches) != files {
		return nil, fmt.Errorf("%s: %d data files, want %d (remove %s to write it again)", e.dir, len(matches), files, root)
	}
	for _, m := range matches {
		st, err := os.Stat(m)
		if err != nil {
			return nil, err
		}
		e.gzBytes += st.Size()
	}
	return e, nil
}

// answer is what the generator says the GROUP BY must return.
func (e *export) answer() answer {
	a := answer{}
	for s, g := range e.Totals.ByStatus {
		if g.Count > 0 {
			a[s] = group{count: g.Count, sum: exportgen.FormatCents(g.Cents)}
		}
	}
	return a
}
