package offline

import (
	"context"
	"embed"
	"io/fs"
	"sort"
	"strings"

	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/parser/diag"
)

// demoFS holds demodata: the built-in demo tables that `ddbsql --demo`
// loads, written by `go run ./cmd/gendemo`.
//
//go:embed demodata
var demoFS embed.FS

// demoDir is the directory of the demo files inside demoFS.
const demoDir = "demodata"

// DemoSource is what LoadedTable.From says for the demo tables.
const DemoSource = "built-in demo"

// LoadDemo loads the built-in demo tables (demoFS, every data file in
// demodata) into db through the same loaders as Load, then freezes
// it.
func LoadDemo(ctx context.Context, db *memdb.DB) ([]LoadedTable, error) {
	return loadFS(ctx, db, demoFS, demoDir)
}

func loadFS(ctx context.Context, db *memdb.DB, fsys fs.FS, dir string) ([]LoadedTable, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, &diag.Error{Phase: diag.Load, Code: diag.CodeIO, Pos: diag.Pos{Source: dir}, Msg: "cannot read the demo data: " + err.Error(), Cause: err}
	}
	var sources []Source
	for _, e := range entries {
		if e.IsDir() || strings.HasSuffix(e.Name(), ".md") {
			continue
		}
		sources = append(sources, Source{Path: dir + "/" + e.Name()})
	}
	sort.Slice(sources, func(i, j int) bool { return sources[i].Path < sources[j].Path })
	tables, err := load(ctx, db, ioFS{fsys}, sources, nil)
	for i := range tables {
		tables[i].From = DemoSource
	}
	return tables, err
}
