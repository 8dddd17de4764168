package offline

import (
	"context"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/parser/diag"
)

// Load reads every source into db, creating one table per source (one per
// table of a Workbench model), and then freezes db (read-only). It is all
// or nothing: when any source fails it deletes the tables it created,
// returns no tables and leaves db as it was (not frozen).
func Load(ctx context.Context, db *memdb.DB, sources []Source) ([]LoadedTable, error) {
	return load(ctx, db, osFS{}, sources, nil)
}

// LoadProgress is Load counting its progress into p (see Progress), for a
// progress line drawn while it runs.
func LoadProgress(ctx context.Context, db *memdb.DB, sources []Source, p *Progress) ([]LoadedTable, error) {
	return load(ctx, db, osFS{}, sources, p)
}

// loader is one Load call: the tables it claimed and created.
type loader struct {
	ctx     context.Context
	db      *memdb.DB
	w       *memdb.Loader
	fsys    fileSystem
	data    fileSystem        // fsys, counting the bytes of the data files read
	prog    *Progress         // nil: not counted
	claimed map[string]string // table name -> source path
	created []string
	loaded  []LoadedTable
	// need, for a streamed Scan, names the only attributes to decode
	// (nil: all); see itemParser.
	need map[string]bool
}

func load(ctx context.Context, db *memdb.DB, fsys fileSystem, sources []Source, prog *Progress) (_ []LoadedTable, err error) {
	l := &loader{ctx: ctx, db: db, w: db.Loader(), fsys: fsys, data: fsys, prog: prog, claimed: map[string]string{}}
	if prog != nil {
		l.data = countedFS{fileSystem: fsys, p: prog}
		for _, src := range sources {
			prog.measure(fsys, src.Path)
		}
	}
	defer func() {
		if err != nil {
			l.rollback()
		}
	}()
	rest, chains, err := l.chains(sources, time.Time{})
	if err != nil {
		return nil, err
	}
	for i, src := range rest {
		if err := l.source(src, chains[i]); err != nil {
			return nil, err
		}
	}
	db.Freeze()
	return l.loaded, nil
}

func (l *loader) source(src Source, c *chain) error {
	if err := l.ctx.Err(); err != nil {
		return err
	}
	keys, err := parseKeys(src.Keys)
	if err != nil {
		return &diag.Error{Phase: diag.Load, Code: diag.CodeBadKeyFlag, Pos: diag.Pos{Source: src.Path}, Msg: "--key: " + err.Error()}
	}
	k, p, err := detect(l.fsys, src.Path)
	if err != nil {
		return err
	}
	switch k {
	case kindExport:
		return l.loadExport(src, p, keys, c)
	case kindWorkbench:
		return l.loadWorkbench(src, keys)
	}
	return l.loadItems(src, k, keys)
}

// claim reserves a table name for a source.
func (l *loader) claim(name, from string) error {
	if !ValidTableName(name) {
		return &diag.Error{Phase: diag.Load, Code: diag.CodeBadName, Pos: diag.Pos{Source: from}, Msg: "cannot use " + quote(name) + " as a table name (3-255 of a-z A-Z 0-9 _ - .); name the table with name=PATH"}
	}
	if prev, ok := l.claimed[name]; ok {
		return &diag.Error{Phase: diag.Load, Code: diag.CodeTableExists, Pos: diag.Pos{Source: from}, Msg: "table " + name + " is also loaded from " + prev + "; name one of them with name=PATH"}
	}
	if _, err := l.db.DescribeTable(l.ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)}); err == nil {
		return &diag.Error{Phase: diag.Load, Code: diag.CodeTableExists, Pos: diag.Pos{Source: from}, Msg: "table " + name + " already exists; name this one with name=PATH"}
	}
	l.claimed[name] = from
	return nil
}

func (l *loader) sink(spec *tableSpec) *sink {
	s := newSink(l.ctx, l.w, spec, func(name string) { l.created = append(l.created, name) })
	s.prog = l.prog
	return s
}

// done records a loaded table.
func (l *loader) done(s *sink) error {
	if err := s.finish(); err != nil {
		return err
	}
	l.loaded = append(l.loaded, LoadedTable{Name: s.spec.name, Items: s.count, From: s.spec.from})
	return nil
}

// rollback deletes the tables this Load created.
func (l *loader) rollback() {
	ctx := context.WithoutCancel(l.ctx)
	for _, name := range l.created {
		_, _ = l.w.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(name)})
	}
	l.created, l.loaded = nil, nil
}

// loadItems loads a file of items (lines, array or pretty-printed stream):
// one table named by name= or the file name, keyed by --key.
func (l *loader) loadItems(src Source, k kind, keys []keyAttr) error {
	ps, err := l.planItems(src, k, keys)
	if err != nil {
		return err
	}
	if err := l.claim(ps.spec.name, src.Path); err != nil {
		return err
	}
	s := l.sink(ps.spec)
	if err := l.run(ps, s); err != nil {
		return err
	}
	return l.done(s)
}

// planItems names a file of items' table and takes its key schema from
// --key, reading no item.
func (l *loader) planItems(src Source, k kind, keys []keyAttr) (*plannedSource, error) {
	name := src.Table
	if name == "" {
		name = tableNameFromFile(l.fsys.Base(src.Path))
	}
	if len(keys) == 0 {
		return nil, &diag.Error{Phase: diag.Load, Code: diag.CodeNoKeySchema, Pos: diag.Pos{Source: src.Path}, Msg: "no key schema in " + l.fsys.Base(src.Path) + ": a file of items does not say which attributes are the table's keys; pass --key PK[,SK]"}
	}
	return &plannedSource{src: src, kind: k, spec: &tableSpec{name: name, from: src.Path, keys: keys, keysFrom: "--key"}}, nil
}

// runItems adds a file of items' items to s.
func (l *loader) runItems(ps *plannedSource, s *sink) error {
	src := ps.src
	parser := itemParser{unwrap: !hasKey(ps.spec.keys, "Item"), need: l.need}
	if ps.kind == kindLines {
		d, err := openData(l.data, src.Path)
		if err != nil {
			return err
		}
		defer d.Close()
		_, err = pump(l.ctx, src.Path, s, parser, produceLines(d))
		return err
	}
	data, err := readAll(l.data, src.Path)
	if err != nil {
		return err
	}
	_, err = pump(l.ctx, src.Path, s, parser, produceJSON(src.Path, data, ps.kind == kindArray))
	return err
}

func hasKey(keys []keyAttr, name string) bool {
	for _, k := range keys {
		if k.Name == name {
			return true
		}
	}
	return false
}

// tableNameFromFile is a file's name without its data extensions:
// "orders.jsonl.gz" -> "orders".
func tableNameFromFile(base string) string {
	for {
		trimmed := base
		for _, ext := range []string{".gz", ".json", ".jsonl", ".ndjson", ".txt"} {
			trimmed = strings.TrimSuffix(trimmed, ext)
		}
		if trimmed == base || trimmed == "" {
			return base
		}
		base = trimmed
	}
}

func quote(s string) string { return "\"" + s + "\"" }
