package parser

import (
	"strconv"
	"strings"

	"github.com/xwb1989/sqlparser"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// The statements that change data. UPDATE, DELETE and INSERT … VALUES go
// through the SELECT path's rewrite (parseSQL), so names, "…" quoting,
// keyword names and document paths follow the same rules and positions
// stay exact; INSERT … SELECT parses its query as any other query.

// Insert is INSERT INTO t [(cols)] VALUES (…), … or INSERT INTO t [(cols)]
// SELECT …; REPLACE INTO is the same with Replace set.
type Insert struct {
	// Replace is REPLACE INTO: items are written whether or not their key
	// exists.
	Replace bool
	Table   string
	// Columns are the attribute names listed after the table; nil when
	// none were (VALUES then needs them; a query names its own columns).
	Columns []string
	// Values are the rows of VALUES, each as long as Columns; nil for a
	// query.
	Values [][]sqlparser.Expr
	// Paths are the synthetic names of document paths in Values.
	Paths map[string]Path
	// Query is the SELECT of INSERT … SELECT.
	Query *Select
	Text  string
	Loc   Span
}

// SetItem is one assignment of UPDATE's SET list.
type SetItem struct {
	// Target is the attribute or document path assigned, as sqlparser
	// read it (a synthetic name stands for a path of Update.Read.Paths;
	// a.b is an alias's attribute or a map's member, for the planner).
	Target *sqlparser.ColName
	Expr   sqlparser.Expr
}

// Update is UPDATE t [AS a] SET x = expr, … [WHERE …].
type Update struct {
	Table, Alias string
	Sets         []SetItem
	// Read is SELECT * FROM t WHERE … of the same text: the items the
	// statement changes, planned like any SELECT. Its Paths cover the SET
	// list too.
	Read *Select
	Text string
	Loc  Span
}

// Delete is DELETE FROM t [WHERE …].
type Delete struct {
	Table, Alias string
	// Read is SELECT * FROM t WHERE … of the same text.
	Read *Select
	Text string
	Loc  Span
}

// Span implements Statement.
func (s *Insert) Span() Span { return s.Loc }

// Span implements Statement.
func (s *Update) Span() Span { return s.Loc }

// Span implements Statement.
func (s *Delete) Span() Span { return s.Loc }

// IsWrite reports whether a statement changes data (INSERT, REPLACE,
// UPDATE, DELETE, or EXPLAIN of one does not: it only shows the plan).
func IsWrite(st Statement) bool {
	switch st.(type) {
	case *Insert, *Update, *Delete:
		return true
	}
	return false
}

// writeVerbs start the statements of this file.
var writeVerbs = setOf("insert", "replace", "update", "delete")

// write parses the write statement whose verb is at significant token i.
func (s *stmt) write(i int) (Statement, *diag.Error) {
	switch s.word(i) {
	case "insert", "replace":
		return s.insert(i)
	case "update":
		return s.update(i)
	}
	return s.delete(i)
}

func (s *stmt) insert(i int) (Statement, *diag.Error) {
	verb := strings.ToUpper(s.word(i))
	ins := &Insert{Replace: verb == "REPLACE", Loc: s.span(i)}
	ins.Text = s.src[ins.Loc.Start:ins.Loc.End]
	j := i + 1
	if s.word(j) != "into" {
		if j >= len(s.sig) {
			return nil, s.missing(verb + " needs INTO and a table name")
		}
		return nil, s.unexpected(j, "write "+verb+" INTO t (…) VALUES (…)")
	}
	j++
	name, ok := s.tableName(j)
	if !ok {
		if j >= len(s.sig) {
			return nil, s.missing(verb + " INTO needs a table name")
		}
		return nil, s.unexpected(j, "write the table name, in double quotes or backticks if it contains '-' or '.'")
	}
	ins.Table = name
	j++
	if s.isPunct(j, ".") {
		return nil, errAt(diag.CodeUnsupported, s.sig[j].start, "an index cannot be written to", "write to the table; DynamoDB keeps its indexes up to date")
	}
	if s.isPunct(j, "(") && !isSelectStart(s, j+1) {
		cols, next, err := s.columnList(j)
		if err != nil {
			return nil, err
		}
		ins.Columns, j = cols, next
	}
	if j >= len(s.sig) {
		return nil, s.missing(verb + " needs VALUES (…) or a SELECT")
	}
	if isSelectStart(s, j) {
		q, err := parseQuery(s.src, s.from(j))
		if err != nil {
			return nil, err
		}
		ins.Query = q
		return ins, nil
	}
	if w := s.word(j); w != "values" && w != "value" {
		return nil, s.unexpected(j, verb+" takes VALUES (…), (…) or a SELECT")
	}
	if ins.Columns == nil {
		return nil, errAt(diag.CodeSyntax, s.sig[j].start, verb+" … VALUES needs the list of attributes",
			"name them after the table: "+verb+" INTO t (pk, sk, a) VALUES (…)")
	}
	for k := j; k+1 < len(s.sig); k++ {
		if s.word(k) == "on" && s.word(k+1) == "duplicate" {
			return nil, errAt(diag.CodeUnsupported, s.sig[k].start, "ON DUPLICATE KEY UPDATE is not supported",
				"INSERT fails on an existing key; REPLACE INTO overwrites it; UPDATE changes it")
		}
	}
	ast, rw, sig, err := parseSQL(s.src, s.from(i))
	if err != nil {
		return nil, err
	}
	in, ok := ast.(*sqlparser.Insert)
	if !ok {
		return nil, errAt(diag.CodeSyntax, sig[0].start, "could not read this "+verb+" statement", "")
	}
	if len(in.OnDup) > 0 {
		return nil, errAt(diag.CodeUnsupported, sig[0].start, "ON DUPLICATE KEY UPDATE is not supported",
			"INSERT fails on an existing key; REPLACE INTO overwrites it; UPDATE changes it")
	}
	rows, ok := in.Rows.(sqlparser.Values)
	if !ok {
		return nil, errAt(diag.CodeSyntax, s.sig[j].start, "could not read the VALUES of this statement", "")
	}
	for r, row := range rows {
		if len(row) != len(ins.Columns) {
			return nil, errAt(diag.CodeInvalid, s.sig[j].start, "row "+strconv.Itoa(r+1)+" of VALUES has "+strconv.Itoa(len(row))+" values for "+strconv.Itoa(len(ins.Columns))+" attributes",
				"give every row one value per attribute listed after the table")
		}
		ins.Values = append(ins.Values, []sqlparser.Expr(row))
	}
	if len(rw.windows) > 0 {
		return nil, errAt(diag.CodeUnsupported, sig[0].start, "window functions are not allowed in VALUES", "")
	}
	ins.Paths = rw.paths
	return ins, nil
}

// columnList reads (a, b, …) at significant token open: plain or quoted
// top-level attribute names. It returns them and the token after ')'.
func (s *stmt) columnList(open int) ([]string, int, *diag.Error) {
	var cols []string
	seen := map[string]bool{}
	j := open + 1
	for {
		if j >= len(s.sig) {
			return nil, 0, s.missing("the attribute list needs a closing )")
		}
		t := s.sig[j]
		var name string
		switch {
		case t.kind == tkQuoted:
			name = unquoteName(s.text(j))
		case t.kind == tkIdent && !hardKeywords[lower(s.text(j))]:
			name = s.text(j)
		default:
			return nil, 0, s.unexpected(j, "list the attribute names, in double quotes or backticks if they contain '-', '.' or '#'")
		}
		if s.isPunct(j+1, ".") || s.isPunct(j+1, "[") {
			return nil, 0, errAt(diag.CodeUnsupported, t.start, "INSERT names top-level attributes, not document paths",
				"give the whole attribute's value (a map or list literal), or UPDATE the path afterwards")
		}
		if seen[name] {
			return nil, 0, errAt(diag.CodeInvalid, t.start, "attribute "+quoteSnippet(name)+" is listed twice", "list each attribute once")
		}
		seen[name] = true
		cols = append(cols, name)
		j++
		switch {
		case s.isPunct(j, ","):
			j++
		case s.isPunct(j, ")"):
			return cols, j + 1, nil
		case j >= len(s.sig):
			return nil, 0, s.missing("the attribute list needs a closing )")
		default:
			return nil, 0, s.unexpected(j, "separate the attribute names with commas")
		}
	}
}

func (s *stmt) update(i int) (Statement, *diag.Error) {
	ast, rw, sig, err := parseSQL(s.src, s.from(i))
	if err != nil {
		return nil, err
	}
	up, ok := ast.(*sqlparser.Update)
	if !ok {
		return nil, errAt(diag.CodeSyntax, sig[0].start, "could not read this UPDATE statement", "")
	}
	at := sig[0].start
	if len(up.OrderBy) > 0 || up.Limit != nil {
		return nil, errAt(diag.CodeUnsupported, at, "UPDATE … ORDER BY / LIMIT is not supported",
			"narrow the WHERE instead; --dry-run shows which items a statement changes")
	}
	table, alias, err := writeTable(up.TableExprs, at, "UPDATE")
	if err != nil {
		return nil, err
	}
	if len(rw.windows) > 0 {
		return nil, errAt(diag.CodeUnsupported, at, "window functions are not allowed in UPDATE", "")
	}
	u := &Update{Table: table, Alias: alias, Loc: Span{sig[0].start, sig[len(sig)-1].end}}
	u.Text = s.src[u.Loc.Start:u.Loc.End]
	for _, e := range up.Exprs {
		u.Sets = append(u.Sets, SetItem{Target: e.Name, Expr: e.Expr})
	}
	u.Read = readOf(up.TableExprs, up.Where, rw, u.Text, u.Loc)
	return u, nil
}

func (s *stmt) delete(i int) (Statement, *diag.Error) {
	ast, rw, sig, err := parseSQL(s.src, s.from(i))
	if err != nil {
		return nil, err
	}
	del, ok := ast.(*sqlparser.Delete)
	if !ok {
		return nil, errAt(diag.CodeSyntax, sig[0].start, "could not read this DELETE statement", "")
	}
	at := sig[0].start
	if len(del.Targets) > 0 {
		return nil, errAt(diag.CodeUnsupported, at, "DELETE of several tables is not supported", "delete from one table per statement")
	}
	if len(del.OrderBy) > 0 || del.Limit != nil {
		return nil, errAt(diag.CodeUnsupported, at, "DELETE … ORDER BY / LIMIT is not supported",
			"narrow the WHERE instead; --dry-run shows which items a statement deletes")
	}
	table, alias, err := writeTable(del.TableExprs, at, "DELETE")
	if err != nil {
		return nil, err
	}
	d := &Delete{Table: table, Alias: alias, Loc: Span{sig[0].start, sig[len(sig)-1].end}}
	d.Text = s.src[d.Loc.Start:d.Loc.End]
	d.Read = readOf(del.TableExprs, del.Where, rw, d.Text, d.Loc)
	return d, nil
}

// writeTable reads the one table an UPDATE or DELETE changes.
func writeTable(te sqlparser.TableExprs, at int, verb string) (table, alias string, err *diag.Error) {
	if len(te) != 1 {
		return "", "", errAt(diag.CodeUnsupported, at, verb+" of several tables is not supported", "change one table per statement")
	}
	ate, ok := te[0].(*sqlparser.AliasedTableExpr)
	if !ok {
		return "", "", errAt(diag.CodeUnsupported, at, verb+" with a join is not supported", "change one table per statement; a SELECT can find the keys first")
	}
	tn, ok := ate.Expr.(sqlparser.TableName)
	if !ok {
		return "", "", errAt(diag.CodeUnsupported, at, verb+" of a subquery is not supported", "name the table")
	}
	t, index := TableRef(tn)
	if index != "" {
		return "", "", errAt(diag.CodeUnsupported, at, "an index cannot be changed directly",
			verb+" the table "+t+"; DynamoDB keeps its indexes up to date")
	}
	return t, ate.As.String(), nil
}

// readOf is SELECT * FROM <te> WHERE <where>: the read that finds the
// items an UPDATE or DELETE changes.
func readOf(te sqlparser.TableExprs, where *sqlparser.Where, rw *nameRewriter, text string, loc Span) *Select {
	ast := &sqlparser.Select{SelectExprs: sqlparser.SelectExprs{&sqlparser.StarExpr{}}, From: te, Where: where}
	return &Select{AST: ast, Paths: rw.paths, QuotedValues: quotedValues(ast, rw.loneQuoted), Text: text, Loc: loc}
}

// StatementText is a write statement's text as written.
func StatementText(st Statement) string {
	switch s := st.(type) {
	case *Insert:
		return s.Text
	case *Update:
		return s.Text
	case *Delete:
		return s.Text
	}
	return ""
}
