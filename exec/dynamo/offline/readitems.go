package offline

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/parser/diag"
)

// Item is one item ReadItems read: its attributes and where it is.
type Item struct {
	Attrs map[string]types.AttributeValue
	Path  string // the file it is in (an export's data file)
	Line  int    // the line it starts on
}

// ReadItems reads the items of one file of items or export folder, as
// Load detects and decodes them, in file order (an export's files in
// manifest order), with every check Load makes — JSON, key attributes and
// their types, duplicate keys, what DynamoDB would reject (memdb's
// PutItem checks), an export's item counts — and stores nothing: each
// batch of checked items goes to fn, which may keep them. The first
// failure ends it, after the batches before it; errors are Load's
// (phase load, located at file:line). src.Table names the table in
// messages, and src.Keys must give every key attribute its type (the
// table the items are for has one). A NoSQL Workbench model, which holds
// tables rather than items, is refused.
func ReadItems(ctx context.Context, src Source, fn func([]Item) error) error {
	return readItems(ctx, osFS{}, src, fn)
}

func readItems(ctx context.Context, fsys fileSystem, src Source, fn func([]Item) error) error {
	keys, err := parseKeys(src.Keys)
	if err != nil || len(keys) == 0 {
		why := "the key schema is needed"
		if err != nil {
			why = err.Error()
		}
		return &diag.Error{Phase: diag.Load, Code: diag.CodeBadKeyFlag, Pos: diag.Pos{Source: src.Path}, Msg: "--key: " + why}
	}
	for _, k := range keys {
		if k.Type == "" {
			return &diag.Error{Phase: diag.Load, Code: diag.CodeBadKeyFlag, Pos: diag.Pos{Source: src.Path}, Msg: "--key: key " + k.Name + " has no type (S, N or B)"}
		}
	}
	scratch := memdb.New()
	l := &loader{ctx: ctx, db: scratch, w: scratch.Loader(), fsys: fsys, data: fsys, claimed: map[string]string{}}
	k, p, err := detect(fsys, src.Path)
	if err != nil {
		return err
	}
	var ps *plannedSource
	switch k {
	case kindWorkbench:
		return &diag.Error{Phase: diag.Load, Code: diag.CodeUnknownFormat, Pos: diag.Pos{Source: src.Path},
			Msg: "a NoSQL Workbench model describes tables; give a file of DynamoDB-JSON items, an export folder or a CSV file"}
	case kindExport:
		ps, err = l.planExport(src, p, keys)
	default:
		ps, err = l.planItems(src, k, keys)
	}
	if err != nil {
		return err
	}
	if src.Table != "" {
		ps.spec.name = src.Table
	}
	// memdb checks each item as PutItem would, against a scratch table
	// with the same keys (items are checked, never stored).
	spec := *ps.spec
	spec.name, spec.gsis, spec.lsis = "scratch", nil, nil
	in, err := spec.createInput()
	if err == nil {
		_, err = scratch.CreateTable(ctx, in)
	}
	if err != nil {
		return &diag.Error{Phase: diag.Load, Code: diag.CodeBadKeyFlag, Pos: diag.Pos{Source: src.Path}, Msg: "--key: " + apiMessage(err), Cause: err}
	}
	check, err := scratch.Loader().Checker("scratch")
	if err != nil {
		return err
	}
	s := l.sink(ps.spec).prepared(make([]pos, len(keys)))
	s.out = func(batch [][]memdb.NamedValue, at []pos) error {
		items := make([]Item, len(batch))
		for i, nv := range batch {
			if _, err := check(nv, memdb.Skipped{}); err != nil {
				return rejectedItem(at[i], err)
			}
			attrs := make(map[string]types.AttributeValue, len(nv))
			for _, a := range nv {
				attrs[a.Name] = a.Value.AttributeValue()
			}
			items[i] = Item{Attrs: attrs, Path: at[i].path, Line: at[i].line}
		}
		return fn(items)
	}
	if err := l.run(ps, s); err != nil {
		return err
	}
	return s.flush()
}
