package planner

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/xwb1989/sqlparser"

	"github.com/ddbsql/ddbsql/parser"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// WriteKind is what a write statement does to each item.
type WriteKind uint8

// The write statements.
const (
	// WriteInsert puts new items: PutItem conditional on the key not
	// existing.
	WriteInsert WriteKind = iota
	// WriteReplace puts items whether or not their key exists
	// (BatchWriteItem).
	WriteReplace
	// WriteUpdate changes the items the WHERE matches (UpdateItem).
	WriteUpdate
	// WriteDelete deletes the items the WHERE matches (DeleteItem).
	WriteDelete
)

func (k WriteKind) String() string {
	return [...]string{"INSERT", "REPLACE", "UPDATE", "DELETE"}[k]
}

// WritePlan is a planned INSERT, REPLACE, UPDATE or DELETE: the read that
// finds the items (planned exactly like a SELECT) and what is written for
// each of them. exec runs Read to the end, computes every new image on the
// client, then sends one conditional request per item.
type WritePlan struct {
	Kind  WriteKind
	Table *TableDef
	// Read is SELECT * FROM t WHERE … (UPDATE, DELETE) or the query of
	// INSERT … SELECT; nil for VALUES.
	Read *Plan
	// Sets are UPDATE's assignments, in the order written.
	Sets []SetAction
	// Columns are the attributes an INSERT names, in order (the values'
	// or the query's columns); nil for INSERT … SELECT * (whole items).
	Columns []string
	// Values are the rows of INSERT … VALUES, one expression per column.
	Values [][]expr.Expr
	// Refs are the top-level attributes the statement reads (WHERE and
	// SET expressions) or changes: each write is conditional on the ones
	// an item lacked still being absent, besides the ones it had still
	// holding the values read.
	Refs []string
	// Names maps the column IDs of the SET and VALUES expressions to the
	// top-level attribute each one reads.
	Names map[expr.ColumnID]string
	// Where is the WHERE of UPDATE and DELETE bound for the client: exec
	// re-checks it on an item that changed between the read and the write.
	// nil when there is no WHERE, or when it holds a subquery (Opaque).
	Where expr.Expr
	// Opaque says the WHERE cannot be re-checked on one item (it has a
	// subquery): an item that changed is reported, not re-evaluated.
	Opaque bool
	// Notes are remarks EXPLAIN and a run show (an index key changed).
	Notes []string
}

// SetAction is one assignment of UPDATE.
type SetAction struct {
	// Path is the attribute or document path assigned.
	Path value.Path
	// Expr is the new value, computed on the client from the item read;
	// nil for SET x = NULL, which removes the attribute (REMOVE).
	Expr expr.Expr
	// Text is the assignment as written, for EXPLAIN.
	Text string
}

// PlanWrite plans an INSERT, REPLACE, UPDATE or DELETE. The WHERE of
// UPDATE and DELETE, and the query of INSERT … SELECT, are planned by
// PlanStatement with the same options as any SELECT (--allow-scan, the
// index choice, --strict is the caller's check on Read).
func PlanWrite(ctx context.Context, cat Catalog, st parser.Statement, opts Options) (*WritePlan, error) {
	switch s := st.(type) {
	case *parser.Update:
		return planUpdate(ctx, cat, s, opts)
	case *parser.Delete:
		return planDelete(ctx, cat, s, opts)
	case *parser.Insert:
		return planInsert(ctx, cat, s, opts)
	}
	return nil, errorf(diag.CodeInternal, "not a write statement: %T", st)
}

func planDelete(ctx context.Context, cat Catalog, d *parser.Delete, opts Options) (*WritePlan, error) {
	read, def, err := planWriteRead(ctx, cat, d.Read, d.Table, opts)
	if err != nil {
		return nil, err
	}
	wp := &WritePlan{Kind: WriteDelete, Table: def, Read: read}
	wp.Refs = referenced(d.Read, d.Table, d.Alias)
	b := writeBinder(d.Read, d.Table, d.Alias, def, opts)
	if err := bindWhere(wp, b, d.Read); err != nil {
		return nil, err
	}
	wp.Names = columnNames(b.columns)
	return wp, nil
}

func planUpdate(ctx context.Context, cat Catalog, u *parser.Update, opts Options) (*WritePlan, error) {
	read, def, err := planWriteRead(ctx, cat, u.Read, u.Table, opts)
	if err != nil {
		return nil, err
	}
	b := writeBinder(u.Read, u.Table, u.Alias, def, opts)
	wp := &WritePlan{Kind: WriteUpdate, Table: def, Read: read}
	if err := bindWhere(wp, b, u.Read); err != nil {
		return nil, err
	}
	b.clause = "SET"
	refs := referenced(u.Read, u.Table, u.Alias)
	for _, it := range u.Sets {
		target, err := b.column(it.Target)
		if err != nil {
			return nil, err
		}
		col, ok := target.(expr.Column)
		if !ok {
			return nil, errorf(diag.CodeInvalid, "cannot assign %s: SET takes an attribute or a document path", sqlparser.String(it.Target))
		}
		p := col.Path
		if err := checkKeyChange(def, p[0].Name); err != nil {
			return nil, err
		}
		for _, prev := range wp.Sets {
			if prev.Path.Covers(p) || p.Covers(prev.Path) {
				return nil, hinted(errorf(diag.CodeInvalid, "SET assigns %s and %s, which overlap", prev.Path, p), "assign each attribute or path once")
			}
		}
		if ix := indexKeyOf(def, p[0].Name); ix != "" {
			wp.Notes = appendOnce(wp.Notes, fmt.Sprintf("%s is a key of index %s: DynamoDB moves the changed items in the index (or out of it, when the attribute is removed)", p[0].Name, ix))
		}
		act := SetAction{Path: p, Text: p.String() + " = " + exprText(it.Expr)}
		if !isNullLiteral(it.Expr) {
			if err := noSubquery(it.Expr, "SET"); err != nil {
				return nil, err
			}
			e, err := b.bind(it.Expr)
			if err != nil {
				return nil, err
			}
			act.Expr = e
		}
		wp.Sets = append(wp.Sets, act)
		refs = appendOnce(refs, p[0].Name)
	}
	wp.Names = columnNames(b.columns)
	for _, n := range wp.Names {
		refs = appendOnce(refs, n)
	}
	wp.Refs = refs
	return wp, nil
}

func planInsert(ctx context.Context, cat Catalog, ins *parser.Insert, opts Options) (*WritePlan, error) {
	def, err := cat.Table(ctx, ins.Table)
	if err != nil {
		return nil, err
	}
	kind := WriteInsert
	if ins.Replace {
		kind = WriteReplace
	}
	wp := &WritePlan{Kind: kind, Table: def, Columns: ins.Columns, Names: map[expr.ColumnID]string{}}
	if ins.Query != nil {
		read, err := PlanStatement(ctx, cat, ins.Query, opts)
		if err != nil {
			return nil, err
		}
		wp.Read = read
		switch {
		case read.Star && ins.Columns != nil:
			return nil, hinted(errorf(diag.CodeInvalid, "%s INTO %s (…) SELECT * cannot match the attribute list with the items' attributes", kind, ins.Table),
				"list the attributes in the SELECT, or leave out the list to copy whole items")
		case read.Star:
		case ins.Columns != nil && len(ins.Columns) != len(read.Columns):
			return nil, hinted(errorf(diag.CodeInvalid, "%s names %d attributes but the SELECT returns %d columns", kind, len(ins.Columns), len(read.Columns)),
				"give one SELECT column per listed attribute")
		case ins.Columns == nil:
			wp.Columns = read.Columns
		}
		if wp.Columns != nil {
			if err := checkInsertKeys(def, wp.Columns, kind); err != nil {
				return nil, err
			}
		}
		return wp, nil
	}
	if err := checkInsertKeys(def, ins.Columns, kind); err != nil {
		return nil, err
	}
	b := &binder{paths: documentPaths(ins.Paths), columns: &columnIDs{}, now: opts.Now, clause: "VALUES"}
	for _, row := range ins.Values {
		out := make([]expr.Expr, len(row))
		for i, v := range row {
			if isNullLiteral(v) {
				continue // NULL: the attribute is left out
			}
			if err := noSubquery(v, "VALUES"); err != nil {
				return nil, err
			}
			e, err := b.bind(v)
			if err != nil {
				return nil, err
			}
			out[i] = e
		}
		wp.Values = append(wp.Values, out)
	}
	return wp, nil
}

// writeBinder binds expressions over the one table a write changes.
func writeBinder(read *parser.Select, table, alias string, def *TableDef, opts Options) *binder {
	if alias == "" {
		alias = table
	}
	return &binder{paths: documentPaths(read.Paths), columns: &columnIDs{}, now: opts.Now,
		sources: []source{{alias: alias, table: def}}}
}

// bindWhere binds the WHERE for exec's re-check of a changed item.
func bindWhere(wp *WritePlan, b *binder, read *parser.Select) error {
	if read.AST.Where == nil {
		return nil
	}
	if noSubquery(read.AST.Where.Expr, "WHERE") != nil {
		wp.Opaque = true
		return nil
	}
	b.clause = "WHERE"
	w, err := b.bind(read.AST.Where.Expr)
	if err != nil {
		return err
	}
	wp.Where = w
	return nil
}

// planWriteRead plans the SELECT * that finds an UPDATE's or DELETE's items.
func planWriteRead(ctx context.Context, cat Catalog, read *parser.Select, table string, opts Options) (*Plan, *TableDef, error) {
	p, err := PlanStatement(ctx, cat, read, opts)
	if err != nil {
		return nil, nil, err
	}
	def, err := cat.Table(ctx, table)
	if err != nil {
		return nil, nil, err
	}
	return p, def, nil
}

// checkKeyChange refuses to assign a primary-key attribute of the table.
// An index's key is an ordinary attribute of the table and may change.
func checkKeyChange(def *TableDef, attr string) error {
	if !slices.Contains(def.KeyNames(), attr) {
		return nil
	}
	return &diag.Error{Phase: diag.Plan, Code: diag.CodeKeyChange,
		Msg:  fmt.Sprintf("UPDATE cannot change %s: it is part of the primary key of table %s, and DynamoDB identifies an item by its key, so an item's key cannot change", attr, def.Name),
		Hint: fmt.Sprintf("write the item under its new key and delete the old one: INSERT INTO %s SELECT … (with the new key) and DELETE FROM %s WHERE …", def.Name, def.Name)}
}

// checkInsertKeys requires an INSERT's attributes to include the table's key.
func checkInsertKeys(def *TableDef, cols []string, kind WriteKind) error {
	for _, k := range def.KeyNames() {
		if !slices.Contains(cols, k) {
			return hinted(errorf(diag.CodeInvalid, "%s INTO %s must give the key attribute %s", kind, def.Name, k),
				"list every key attribute ("+strings.Join(def.KeyNames(), ", ")+") with its value")
		}
	}
	return nil
}

// indexKeyOf names an index whose key attr is, or "".
func indexKeyOf(def *TableDef, attr string) string {
	for _, ix := range def.Indexes {
		if ix.PK.Name == attr || ix.SK != nil && ix.SK.Name == attr {
			return ix.Name
		}
	}
	return ""
}

func isNullLiteral(e sqlparser.Expr) bool {
	for {
		p, ok := e.(*sqlparser.ParenExpr)
		if !ok {
			break
		}
		e = p.Expr
	}
	_, ok := e.(*sqlparser.NullVal)
	return ok
}

// noSubquery refuses a subquery where the write computes values per item.
func noSubquery(e sqlparser.Expr, clause string) error {
	var found bool
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if _, ok := n.(*sqlparser.Subquery); ok {
			found = true
			return false, nil
		}
		return true, nil
	}, e)
	if found {
		return hinted(errorf(diag.CodeUnsupported, "a subquery in %s is not supported", clause),
			"compute the value first (SELECT …), then write it as a literal")
	}
	return nil
}

// referenced lists the top-level attributes a SELECT's WHERE names, read
// syntactically: a name that is not an attribute (a function's unit) only
// makes a write's condition stricter, never looser.
func referenced(read *parser.Select, table, alias string) []string {
	var out []string
	if read.AST == nil || read.AST.Where == nil {
		return nil
	}
	isQualifier := func(q string) bool { return q == table || q == alias && alias != "" }
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		c, ok := n.(*sqlparser.ColName)
		if !ok {
			return true, nil
		}
		if p, ok := read.Path(c); ok {
			dp := documentPath(p)
			if len(dp) > 1 && isQualifier(dp[0].Name) {
				dp = dp[1:]
			}
			out = appendOnce(out, dp[0].Name)
			return true, nil
		}
		q := c.Qualifier.Name.String()
		switch {
		case q == "":
			out = appendOnce(out, c.Name.String())
		case isQualifier(q) && c.Qualifier.Qualifier.IsEmpty():
			out = appendOnce(out, c.Name.String())
		case isQualifier(c.Qualifier.Qualifier.String()):
			out = appendOnce(out, q)
		default:
			out = appendOnce(out, firstNonEmpty(c.Qualifier.Qualifier.String(), q))
		}
		return true, nil
	}, read.AST.Where)
	return out
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func appendOnce(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// columnNames maps the IDs a binder gave to the attributes they read.
func columnNames(c *columnIDs) map[expr.ColumnID]string {
	out := map[expr.ColumnID]string{}
	for k, id := range c.ids {
		out[id] = k.attr
	}
	return out
}

// hinted is errorf with a hint.
func hinted(err *diag.Error, hint string) *diag.Error {
	err.Hint = hint
	return err
}

func exprText(e sqlparser.Expr) string { return sqlparser.String(e) }
