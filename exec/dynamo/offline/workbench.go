package offline

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// A NoSQL Workbench data model (Export data model in the Workbench):
// tables with key attributes, GSIs and sample data in DynamoDB JSON.
// LocalSecondaryIndexes (same shape as GlobalSecondaryIndexes) are read
// too, although the Workbench does not write them.
type wbModel struct {
	ModelName string
	DataModel []wbTable
}

type wbTable struct {
	TableName              string
	KeyAttributes          *wbKeys
	GlobalSecondaryIndexes []wbIndex
	LocalSecondaryIndexes  []wbIndex
	TableData              []json.RawMessage
	TableFacets            []struct{ TableData []json.RawMessage }
}

type wbKeys struct {
	PartitionKey *wbAttr
	SortKey      *wbAttr
}

type wbAttr struct {
	AttributeName string
	AttributeType string
}

type wbIndex struct {
	IndexName     string
	KeyAttributes *wbKeys
	Projection    *struct {
		ProjectionType   string
		NonKeyAttributes []string
	}
}

// loadWorkbench loads every table of a Workbench model.
func (l *loader) loadWorkbench(src Source, keys []keyAttr) error {
	data, err := readAll(l.data, src.Path)
	if err != nil {
		return err
	}
	var m wbModel
	if err := json.Unmarshal(data, &m); err != nil {
		return jsonError(diag.CodeBadModel, src.Path, data, err)
	}
	if len(m.DataModel) == 0 {
		return &diag.Error{Phase: diag.Load, Code: diag.CodeBadModel, Pos: diag.Pos{Source: src.Path}, Msg: "the model has no tables (DataModel is empty)"}
	}
	if src.Table != "" && len(m.DataModel) > 1 {
		return &diag.Error{Phase: diag.Load, Code: diag.CodeBadModel, Pos: diag.Pos{Source: src.Path}, Msg: fmt.Sprintf("name=%s names one table, but the model has %d tables", src.Table, len(m.DataModel))}
	}
	lc := newLineCounter(data)
	cursor := 0
	for i := range m.DataModel {
		t := &m.DataModel[i]
		spec, err := wbSpec(src, t)
		if err != nil {
			return err
		}
		if len(keys) > 0 && !sameKeys(keys, spec.keys) {
			return &diag.Error{Phase: diag.Load, Code: diag.CodeKeyMismatch, Pos: diag.Pos{Source: src.Path}, Msg: fmt.Sprintf("--key %s disagrees with table %s's key in the model (%s)", keyNames(keys), spec.name, keyNames(spec.keys))}
		}
		if err := l.claim(spec.name, src.Path); err != nil {
			return err
		}
		items := t.TableData
		if len(items) == 0 {
			for _, f := range t.TableFacets {
				items = append(items, f.TableData...)
			}
		}
		raws := make([]rawItem, len(items))
		for j, it := range items {
			raws[j] = rawItem{data: it}
			// Items keep their bytes verbatim and appear in file order:
			// find each after the previous one for its line number.
			if k := bytes.Index(data[cursor:], it); k >= 0 {
				raws[j].line, raws[j].col = lc.at(cursor + k)
				cursor += k + len(it)
			}
		}
		s := l.sink(spec)
		if _, err := pump(l.ctx, src.Path, s, itemParser{}, produceRaw(raws)); err != nil {
			return err
		}
		if err := l.done(s); err != nil {
			return err
		}
	}
	return nil
}

func produceRaw(raws []rawItem) produceFunc {
	return func(_ context.Context, emit func(rawItem) error) error {
		for _, r := range raws {
			if err := emit(r); err != nil {
				return err
			}
		}
		return nil
	}
}

// wbSpec is the table spec of a model table.
func wbSpec(src Source, t *wbTable) (*tableSpec, error) {
	name := t.TableName
	if src.Table != "" {
		name = src.Table
	}
	bad := func(format string, args ...any) error {
		return &diag.Error{Phase: diag.Load, Code: diag.CodeBadModel, Pos: diag.Pos{Source: src.Path}, Msg: "table " + quote(t.TableName) + ": " + fmt.Sprintf(format, args...)}
	}
	keys, err := wbKeyAttrs(t.KeyAttributes)
	if err != nil {
		return nil, bad("KeyAttributes: %v", err)
	}
	spec := &tableSpec{name: name, from: src.Path, keys: keys, keysFrom: "the model"}
	for _, group := range []struct {
		ixs  []wbIndex
		dest *[]indexSpec
	}{{t.GlobalSecondaryIndexes, &spec.gsis}, {t.LocalSecondaryIndexes, &spec.lsis}} {
		for _, ix := range group.ixs {
			is, err := wbIndexSpec(ix)
			if err != nil {
				return nil, bad("index %s: %v", quote(ix.IndexName), err)
			}
			*group.dest = append(*group.dest, is)
		}
	}
	return spec, nil
}

func wbKeyAttrs(k *wbKeys) ([]keyAttr, error) {
	if k == nil || k.PartitionKey == nil || k.PartitionKey.AttributeName == "" {
		return nil, fmt.Errorf("no PartitionKey")
	}
	attrs := []*wbAttr{k.PartitionKey}
	if k.SortKey != nil && k.SortKey.AttributeName != "" {
		attrs = append(attrs, k.SortKey)
	}
	out := make([]keyAttr, len(attrs))
	for i, a := range attrs {
		t, ok := scalarType(strings.ToUpper(a.AttributeType))
		if !ok {
			return nil, fmt.Errorf("%s has type %s; key attributes are S, N or B", a.AttributeName, quote(a.AttributeType))
		}
		out[i] = keyAttr{Name: a.AttributeName, Type: t}
	}
	return out, nil
}

func wbIndexSpec(ix wbIndex) (indexSpec, error) {
	if ix.IndexName == "" {
		return indexSpec{}, fmt.Errorf("no IndexName")
	}
	keys, err := wbKeyAttrs(ix.KeyAttributes)
	if err != nil {
		return indexSpec{}, fmt.Errorf("KeyAttributes: %v", err)
	}
	proj := types.Projection{ProjectionType: types.ProjectionTypeAll}
	if p := ix.Projection; p != nil && p.ProjectionType != "" {
		switch pt := types.ProjectionType(strings.ToUpper(p.ProjectionType)); pt {
		case types.ProjectionTypeAll, types.ProjectionTypeKeysOnly:
			proj.ProjectionType = pt
		case types.ProjectionTypeInclude:
			proj.ProjectionType, proj.NonKeyAttributes = pt, p.NonKeyAttributes
		default:
			return indexSpec{}, fmt.Errorf("ProjectionType %s is not ALL, KEYS_ONLY or INCLUDE", quote(p.ProjectionType))
		}
	}
	return indexSpec{name: ix.IndexName, keys: keys, projection: proj}, nil
}

// sameKeys reports whether --key names (and, where given, types) match
// a declared key schema.
func sameKeys(flag, declared []keyAttr) bool {
	if len(flag) != len(declared) {
		return false
	}
	for i := range flag {
		if flag[i].Name != declared[i].Name || (flag[i].Type != "" && flag[i].Type != declared[i].Type) {
			return false
		}
	}
	return true
}
