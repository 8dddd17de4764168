package offline

import (
	"context"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/value"
)

// The <table>$changes table holds one row per change record of the
// windows that apply, keyed by export_id (S) and seq (N, 1, 2, … in
// write-time order within the export), with
//
//	operation     S  INSERT, MODIFY or REMOVE
//	write_time    S  ISO 8601 UTC with microseconds (string order is time order)
//	write_micros  N  Metadata.WriteTimestampMicros
//	window_start  S  the export's exportFromTime
//	window_end    S  the export's exportToTime
//	<key>         the table's key attributes, under their own names (key_<name>
//	              for a key named like one of the columns above)
//	new_<attr>    each attribute of the item after the change (none for REMOVE)
//	old_<attr>    each attribute of the item before it (none for INSERT)
//
// (key attributes are not repeated as new_/old_). The operation is
// decided by replaying the records in order on the full export: REMOVE
// when the record has no NewImage; INSERT when the key held no item just
// before; MODIFY otherwise. The old image is the record's OldImage when
// it has one (NEW_AND_OLD_IMAGES), else the replayed item before the
// change, which is the same item when the windows join.
type changeRows struct {
	c    *chain
	keys []keyAttr
	seq  []int // per window, the last seq given
	rows [][]memdb.NamedValue
	at   []pos
}

func newChangeRows(c *chain, keys []keyAttr) *changeRows {
	return &changeRows{c: c, keys: keys, seq: make([]int, len(c.incr))}
}

func (r *changeRows) add(ch *change, prior []memdb.NamedValue, existed bool) error {
	ie := r.c.incr[ch.window]
	op := "MODIFY"
	switch {
	case ch.newImage == nil:
		op = "REMOVE"
	case !existed:
		op = "INSERT"
	}
	old := ch.oldImage
	if !ch.hasOld && existed {
		old = prior
	}
	r.seq[ch.window]++
	t := time.UnixMicro(ch.micros).UTC()
	row := []memdb.NamedValue{
		{Name: "export_id", Value: value.Str(ie.id)},
		{Name: "seq", Value: value.NumTrusted(strconv.Itoa(r.seq[ch.window]))},
		{Name: "operation", Value: value.Str(op)},
		{Name: "write_time", Value: value.Str(t.Format(microStamp))},
		{Name: "write_micros", Value: value.NumTrusted(strconv.FormatInt(ch.micros, 10))},
		{Name: "window_start", Value: value.Str(stampOf(ie.from))},
		{Name: "window_end", Value: value.Str(stampOf(ie.to))},
	}
	for _, k := range r.keys {
		name := k.Name
		if changeColumns[name] {
			name = "key_" + name // a key named like a column of this table
		}
		row = append(row, memdb.NamedValue{Name: name, Value: attrOf(ch.keys, k.Name)})
	}
	row = r.image(row, "new_", ch.newImage)
	row = r.image(row, "old_", old)
	r.rows = append(r.rows, row)
	r.at = append(r.at, ch.at)
	return nil
}

// changeColumns are the columns every change row has.
var changeColumns = map[string]bool{"export_id": true, "seq": true, "operation": true, "write_time": true,
	"write_micros": true, "window_start": true, "window_end": true}

// image appends an image's attributes other than the keys, prefixed.
func (r *changeRows) image(row []memdb.NamedValue, prefix string, item []memdb.NamedValue) []memdb.NamedValue {
	for _, nv := range item {
		if hasKey(r.keys, nv.Name) {
			continue
		}
		row = append(row, memdb.NamedValue{Name: prefix + nv.Name, Value: nv.Value})
	}
	return row
}

// storeChanges stores the change rows in the chain's $changes table,
// which prepare created (Open) or which this creates (Load).
func (l *loader) storeChanges(c *chain, rows *changeRows) error {
	spec := *c.changes
	spec.keys = append([]keyAttr(nil), c.changes.keys...)
	cs := l.sink(&spec)
	if c.changesMade {
		cs.prepared(nil)
	}
	for i, row := range rows.rows {
		if err := cs.add(row, rows.at[i]); err != nil {
			return err
		}
	}
	if err := cs.finish(); err != nil {
		return err
	}
	if !c.changesMade {
		l.loaded = append(l.loaded, LoadedTable{Name: spec.name, Items: cs.count, From: spec.from})
	}
	return nil
}

// claimChanges reserves the $changes table's name (claim's checks, less
// the name's characters: '$' is what makes it a derived table).
func (l *loader) claimChanges(c *chain) error {
	name := c.changes.name
	if prev, ok := l.claimed[name]; ok {
		return &diag.Error{Phase: diag.Load, Code: diag.CodeTableExists, Pos: diag.Pos{Source: c.fullPath}, Msg: "table " + name + " is also loaded from " + prev + "; name one of them with name=PATH"}
	}
	if _, err := l.db.DescribeTable(l.ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)}); err == nil {
		return &diag.Error{Phase: diag.Load, Code: diag.CodeTableExists, Pos: diag.Pos{Source: c.fullPath}, Msg: "table " + name + " already exists; name this one with name=PATH"}
	}
	l.claimed[name] = c.fullPath
	return nil
}

// createChanges creates the chain's $changes table, empty, now.
func (l *loader) createChanges(c *chain) error {
	if err := l.claimChanges(c); err != nil {
		return err
	}
	cs := l.sink(c.changes)
	if err := cs.finish(); err != nil {
		return err
	}
	c.changesMade = true
	return nil
}

// emptyChanges drops what a failed load stored in the $changes table.
func emptyChanges(w *memdb.Loader, c *chain) {
	ctx := context.Background()
	_, _ = w.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(c.changes.name)})
	if in, err := c.changes.createInput(); err == nil {
		_, _ = w.CreateTable(ctx, in)
	}
}
