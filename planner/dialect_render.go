package planner

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/ddbsql/ddbsql/planner/expr"
)

// assemble writes the DDL of every table the statement reads, the notes,
// then the statement.
func (o *dialectOut) assemble(query string) string {
	var ddl strings.Builder
	for _, t := range o.tables {
		ddl.WriteString(o.ddl(t))
		ddl.WriteString("\n")
	}
	var sb strings.Builder
	sb.WriteString(ddl.String())
	for _, n := range o.notes {
		sb.WriteString("-- " + n + "\n")
	}
	sb.WriteString(query)
	sb.WriteString(";\n")
	return sb.String()
}

// selectText binds one SELECT and renders it; it returns its output
// column names too.
func (o *dialectOut) selectText(ctx context.Context, cat Catalog, in SelectInput, opts Options) (string, []string, error) {
	sp, err := bindOnly(ctx, cat, in, opts)
	if err != nil {
		return "", nil, err
	}
	r := &rewriter{dialectOut: o, sp: sp}
	if o.untypedOut == nil {
		o.untypedOut = map[int]bool{}
	}
	if err := r.check(); err != nil {
		return "", nil, err
	}
	r.inferTypes()
	r.declareKeys()
	text, err := r.query()
	if err != nil {
		return "", nil, err
	}
	names := make([]string, len(sp.items))
	o.lastTypes = make([]leafType, len(sp.items))
	for i, it := range sp.items {
		names[i] = it.name
		o.lastTypes[i] = r.types.typeOf(it.expr)
		if c, ok := it.expr.(expr.Column); ok && r.types.column(c) == leafText && o.d.Source == SourceJSON {
			// Read as text: a compound's ORDER BY would sort it as text,
			// not in ddbsql's order of values.
			o.untypedOut[i] = true
		}
	}
	return text, names, nil
}

// check refuses what the rewrite does not translate in a bound SELECT.
func (r *rewriter) check() error {
	sp := r.sp
	switch {
	case sp.star:
		return r.d.refuse("SELECT *: an export's items have no fixed columns").
			Hintf("list the attributes the result needs, e.g. SELECT PK, status, total")
	case len(sp.unnests) > 0:
		return r.d.refuse("UNNEST")
	}
	for _, f := range sp.froms {
		if f.hint.explicit && len(f.hint.names) == 1 && f.hint.names[0] != "" {
			// FROM t.i reads the index: its items are those with the
			// index's keys, which the export does not mark.
			return r.d.refuse("FROM %s.%s (a read of an index)", f.table.Name, f.hint.names[0]).
				Hintf("read the table and add WHERE conditions that the index keys exist, e.g. attribute_exists(%s)", f.table.Index(f.hint.names[0]).PK.Name)
		}
	}
	return nil
}

// node is the DDL node of FROM item i's table.
func (r *rewriter) node(i int) *ddlNode { return r.table(r.sp.froms[i].table) }

// query renders the SELECT itself.
func (r *rewriter) query() (string, error) {
	sp := r.sp
	var sb strings.Builder
	sb.WriteString("SELECT ")
	if sp.distinct {
		sb.WriteString("DISTINCT ")
	}
	for i, it := range sp.items {
		if i > 0 {
			sb.WriteString(",\n       ")
		}
		s, err := r.expr(it.expr)
		if err != nil {
			return "", err
		}
		sb.WriteString(bare(s) + " AS " + r.quoteIdent(it.name))
	}
	if !sp.noTable {
		sb.WriteString("\nFROM ")
		sb.WriteString(r.tableRef(0))
		for k, st := range sp.steps {
			kw := "JOIN"
			if st.kind == JoinLeft {
				kw = "LEFT JOIN"
			}
			sb.WriteString("\n" + kw + " " + r.tableRef(st.item))
			on, err := r.conjunction(sp.ons[k])
			if err != nil {
				return "", err
			}
			if on == "" {
				on = "TRUE"
			}
			sb.WriteString(" ON " + on)
		}
	}
	where, err := r.conjunction(sp.conjuncts)
	if err != nil {
		return "", err
	}
	if where != "" {
		sb.WriteString("\nWHERE " + where)
	}
	if len(sp.groups) > 0 {
		parts, err := r.exprs(sp.groups)
		if err != nil {
			return "", err
		}
		sb.WriteString("\nGROUP BY " + strings.Join(parts, ", "))
	}
	if sp.having != nil {
		h, err := r.expr(sp.having)
		if err != nil {
			return "", err
		}
		sb.WriteString("\nHAVING " + bare(h))
	}
	if len(sp.order) > 0 {
		var keys []string
		for _, k := range sp.order {
			// ddbsql sorts NULL and missing values first, as MySQL does.
			ks, err := r.sortKeys(k)
			if err != nil {
				return "", err
			}
			keys = append(keys, ks...)
		}
		sb.WriteString("\nORDER BY " + strings.Join(keys, ", "))
	}
	r.limit(&sb)
	return sb.String(), nil
}

// limit writes OFFSET and LIMIT in the dialect's order (Trino takes
// OFFSET first).
func (r *rewriter) limit(sb *strings.Builder) {
	sp := r.sp
	off := ""
	if sp.offset > 0 {
		off = "\nOFFSET " + strconv.FormatInt(sp.offset, 10)
	}
	lim := ""
	if sp.count >= 0 {
		lim = "\nLIMIT " + strconv.FormatInt(sp.count, 10)
	}
	if r.athena() {
		sb.WriteString(off + lim)
	} else {
		sb.WriteString(lim + off)
	}
}

func (r *rewriter) conjunction(es []expr.Expr) (string, error) {
	parts, err := r.exprs(es)
	if err != nil {
		return "", err
	}
	if len(parts) == 1 {
		return bare(parts[0]), nil
	}
	// Each part is atomic or parenthesized (an OR keeps its parentheses
	// here), and AND binds looser than what renders unparenthesized:
	// BETWEEN, IN, LIKE, NOT, IS NULL.
	return strings.Join(parts, "\n  AND "), nil
}

// bare drops the parentheses around a whole expression that stands alone
// (a select item, a sort key, the only condition of a WHERE or ON).
func bare(s string) string {
	if len(s) < 2 || s[0] != '(' || s[len(s)-1] != ')' {
		return s
	}
	depth, quoted := 0, byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quoted != 0:
			if c == quoted {
				quoted = 0
			}
		case c == '\'' || c == '"':
			quoted = c
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 && i < len(s)-1 {
				return s // the first parenthesis closes before the end
			}
		}
	}
	inner := s[1 : len(s)-1]
	if strings.HasPrefix(inner, "SELECT ") || strings.HasPrefix(inner, "WITH ") {
		return s // a subquery keeps its parentheses
	}
	return inner
}

func (r *rewriter) exprs(es []expr.Expr) ([]string, error) {
	out := make([]string, len(es))
	for i, e := range es {
		s, err := r.expr(e)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

// tableRef is FROM item i as the rewritten FROM names it.
func (r *rewriter) tableRef(i int) string {
	f := r.sp.froms[i]
	if f.derived != nil {
		return r.namedRef(f)
	}
	name := r.tableName(f.table.Name)
	if r.multi() || f.alias != f.table.Name {
		return name + " AS " + r.quoteIdent(f.alias)
	}
	return name
}

// multi reports whether column references need their FROM item's alias.
func (r *rewriter) multi() bool { return len(r.sp.froms) > 1 }

// tableName is the table's name in the engine. Athena's (Glue's) table
// names hold only lower-case letters, digits and underscores.
func (r *dialectOut) tableName(name string) string {
	if !r.athena() {
		return r.quoteIdent(name)
	}
	var sb strings.Builder
	for _, c := range strings.ToLower(name) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' {
			sb.WriteRune(c)
		} else {
			sb.WriteByte('_')
		}
	}
	return sb.String()
}

// quoteIdent writes a name for a query: plain when it is a lower-case
// identifier no engine reserves, else in double quotes.
func (r *dialectOut) quoteIdent(name string) string {
	if isSafeIdent(name) {
		return name
	}
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

func isSafeIdent(name string) bool {
	if name == "" || reservedSQL[strings.ToLower(name)] {
		return false
	}
	for i, c := range name {
		switch {
		case c >= 'a' && c <= 'z', c == '_':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// reservedSQL are words Trino or DuckDB reserve that attribute names often
// are; any other lower-case identifier is written plain.
var reservedSQL = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`all alter and any array as asc at between both by case cast check
		collate column constraint create cross cube current current_date current_time current_timestamp
		current_user date deallocate default delete desc describe distinct do drop else end escape except
		execute exists extract false fetch filter for foreign from full function grant group grouping having
		in inner insert intersect interval into is join key keys last lateral leading left like limit
		localtime localtimestamp map natural normalize not null nulls of offset on only or order outer over
		partition placing primary recursive references returning right rollup row rows select session_user
		set some struct symmetric table tablesample then time timestamp to trailing true uescape union unique
		unnest user using values varchar when where window with year month day hour minute second`) {
		m[w] = true
	}
	return m
}()

// sqlString is a string literal.
func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// note adds a remark printed above the statement, once.
func (r *dialectOut) note(format string, args ...any) {
	n := fmt.Sprintf(format, args...)
	for _, m := range r.notes {
		if m == n {
			return
		}
	}
	r.notes = append(r.notes, n)
}

// declareKeys puts each table's key attributes first in its DDL, with
// their declared types, so every table declares at least one column.
func (r *rewriter) declareKeys() {
	for i, f := range r.sp.froms {
		if f.derived != nil {
			continue
		}
		for _, k := range f.table.KeyNames() {
			c := expr.Column{Source: i, Path: keyPath(k)}
			lt := r.types.column(c)
			switch r.d.Source {
			case SourceJSON:
				w := map[leafType]string{leafS: "S", leafN: "N", leafB: "B"}[lt]
				r.valueOf(c)
				r.lastNode.wrappers[w] = true
			default:
				r.node(i).member(k).setLeaf(lt)
			}
		}
	}
}
