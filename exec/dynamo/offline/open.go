package offline

import (
	"context"
	"errors"
	"time"

	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/parser/diag"
)

// Options configure a Backend.
type Options struct {
	// Loading, when set, is called as a table starts loading, with the
	// Progress the load counts into; the function it returns is called
	// when the load ends.
	Loading func(table string, p *Progress) (done func())
	// Reword, when set, rewords a load error (met by a load or by a
	// streamed Scan) as the command line names its arguments.
	Reword func(error) error
	// AsOf, when set, shows each table that has incremental exports as
	// of the latest window boundary at or before it (see Boundaries).
	AsOf time.Time
}

// Open prepares sources in db for reading: the table of an export or of a
// file of items is created with its key schema (a --key without types
// takes them from the first item, which is read for that alone) and is
// streamed by Scans or loaded when first needed (see Backend); a Workbench
// model is loaded now. It is all or nothing, as Load, and freezes db.
func Open(ctx context.Context, db *memdb.DB, sources []Source, opts Options) (*Backend, error) {
	return open(ctx, db, osFS{}, sources, opts)
}

func open(ctx context.Context, db *memdb.DB, fsys fileSystem, sources []Source, opts Options) (_ *Backend, err error) {
	b := newBackend(db, fsys, opts)
	l := &loader{ctx: ctx, db: db, w: db.Loader(), fsys: fsys, data: fsys, claimed: map[string]string{}}
	defer func() {
		if err != nil {
			l.rollback()
		}
	}()
	rest, chains, err := l.chains(sources, opts.AsOf)
	if err != nil {
		return nil, b.reword(err)
	}
	for i, src := range rest {
		lt, err := l.prepare(src, chains[i])
		if err != nil {
			return nil, b.reword(err)
		}
		if lt != nil {
			b.lazy[lt.ps.spec.name] = lt
			if c := lt.ps.chain; c != nil {
				b.lazy[c.changes.name] = lt // loaded by the same pass
				b.boundaries = append(b.boundaries, c.boundary())
			}
		}
	}
	db.Freeze()
	return b, nil
}

// prepare creates the table of an export or a file of items, empty, and
// returns how to read it; a Workbench model it loads (nil, nil).
func (l *loader) prepare(src Source, c *chain) (*lazyTable, error) {
	if err := l.ctx.Err(); err != nil {
		return nil, err
	}
	keys, err := parseKeys(src.Keys)
	if err != nil {
		return nil, &diag.Error{Phase: diag.Load, Code: diag.CodeBadKeyFlag, Pos: diag.Pos{Source: src.Path}, Msg: "--key: " + err.Error()}
	}
	k, p, err := detect(l.fsys, src.Path)
	if err != nil {
		return nil, err
	}
	var ps *plannedSource
	switch k {
	case kindWorkbench:
		return nil, l.loadWorkbench(src, keys)
	case kindExport:
		ps, err = l.planExport(src, p, keys)
		if ps != nil {
			ps.chain = c
		}
	default:
		ps, err = l.planItems(src, k, keys)
	}
	if err != nil {
		return nil, err
	}
	if err := l.claim(ps.spec.name, src.Path); err != nil {
		return nil, err
	}
	s := l.sink(ps.spec)
	if !typesKnown(ps.spec.keys) {
		s.peek = true
		err := l.run(ps, s)
		s.peek = false
		switch {
		case errors.Is(err, errPeeked):
		case err != nil:
			return nil, err
		}
	}
	if err := s.finish(); err != nil { // creates the table; nothing is queued
		return nil, err
	}
	if c != nil {
		if err := l.createChanges(c); err != nil {
			return nil, err
		}
	}
	return &lazyTable{ps: ps, typeFrom: append([]pos(nil), s.typeFrom...)}, nil
}

func typesKnown(keys []keyAttr) bool {
	for _, k := range keys {
		if k.Type == "" {
			return false
		}
	}
	return true
}
