package planner

import (
	"slices"
	"strconv"
	"strings"

	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// ddlNode is what the statement reads of one attribute (or of a map
// member or list element inside one): the type-wrappers of a DynamoDB
// JSON export (S, N, M, …), or the one type of an Ion or Parquet value,
// and the members and element below it. The rewrite registers each read
// here as it renders a reference, so the DDL declares exactly what the
// statement uses.
type ddlNode struct {
	wrappers map[string]bool // JSON: S N B BOOL NULL SS NS
	leaf     leafType        // Ion, Parquet: the value's type
	hasLeaf  bool
	names    []string // members, in first-use order
	members  map[string]*ddlNode
	elem     *ddlNode // list element
}

func newDDLNode() *ddlNode {
	return &ddlNode{wrappers: map[string]bool{}, members: map[string]*ddlNode{}}
}

func (n *ddlNode) member(name string) *ddlNode {
	m, ok := n.members[name]
	if !ok {
		m = newDDLNode()
		n.members[name] = m
		n.names = append(n.names, name)
	}
	return m
}

func (n *ddlNode) element() *ddlNode {
	if n.elem == nil {
		n.elem = newDDLNode()
	}
	return n.elem
}

func (n *ddlNode) setLeaf(lt leafType) {
	if !n.hasLeaf {
		n.leaf, n.hasLeaf = lt, true
	}
}

// qualifier is the FROM item's alias before a column, when several are in
// scope.
func (r *rewriter) qualifier(source int) string {
	if !r.multi() {
		return ""
	}
	return r.quoteIdent(r.sp.froms[source].alias) + "."
}

// itemColumn is the one column of an export table: Item.
func (r *rewriter) itemColumn(source int) string {
	if r.athena() {
		return r.qualifier(source) + "item"
	}
	return r.qualifier(source) + "Item"
}

// elemAt reads a list element, NULL past the end (Trino's subscript fails
// there, element_at does not; DuckDB's subscript is NULL). SQL lists count
// from 1, DynamoDB's from 0.
func (r *dialectOut) elemAt(list string, index int) string {
	if r.athena() {
		return "element_at(" + list + ", " + strconv.Itoa(index+1) + ")"
	}
	return list + "[" + strconv.Itoa(index+1) + "]"
}

// valueOf is the SQL of the attribute value at c's path in a DynamoDB JSON
// export (the wrapper struct: {S, N, M, …}), with the nodes registered.
func (r *rewriter) valueOf(c expr.Column) string {
	node := r.node(c.Source).member(c.Path[0].Name)
	s := r.itemColumn(c.Source) + "." + r.quoteIdent(c.Path[0].Name)
	for _, e := range c.Path[1:] {
		if e.IsIndex {
			s = r.elemAt(s+".L", e.Index)
			node = node.element()
		} else {
			s += ".M." + r.quoteIdent(e.Name)
			node = node.member(e.Name)
		}
	}
	r.lastNode = node
	return s
}

// wrapper reads one type-wrapper of the value at c's path (JSON export).
func (r *rewriter) wrapper(c expr.Column, w string) string {
	s := r.valueOf(c)
	r.lastNode.wrappers[w] = true
	if w == "BOOL" || w == "NULL" {
		return s + `."` + w + `"`
	}
	return s + "." + w
}

// column renders a reference read as type lt.
func (r *rewriter) column(c expr.Column, lt leafType) string {
	if f := r.sp.froms[c.Source]; f.derived != nil {
		// A column of a WITH query or derived table: its query computed
		// the value already. One its query reads as text, which this
		// statement uses as a number, is cast (its N's digits).
		s := r.qualifier(c.Source) + r.quoteIdent(c.Path[0].Name)
		if q := r.queries[f.named]; q != nil && lt == leafN {
			if j := slices.Index(f.derived.columns, c.Path[0].Name); j >= 0 && j < len(q.types) && q.types[j] == leafText {
				return "TRY_CAST(" + s + " AS " + r.decimal() + ")"
			}
		}
		return s
	}
	switch r.d.Source {
	case SourceIon:
		return r.ionColumn(c, lt)
	case SourceParquet:
		return r.parquetColumn(c, lt)
	}
	switch lt {
	case leafS:
		return r.wrapper(c, "S")
	case leafB:
		return r.wrapper(c, "B")
	case leafBool:
		return r.wrapper(c, "BOOL")
	case leafN:
		return "CAST(" + r.wrapper(c, "N") + " AS " + r.decimal() + ")"
	}
	r.textNote(c)
	return "COALESCE(" + r.wrapper(c, "S") + ", " + r.wrapper(c, "N") + ", CAST(" + r.wrapper(c, "BOOL") + " AS VARCHAR))"
}

// textNote says which references the statement leaves untyped.
func (r *rewriter) textNote(c expr.Column) {
	how := "is read as text (S, else N's digits, else BOOL)"
	if r.d.Source != SourceJSON {
		how = "is declared a string"
	}
	r.note("%s %s: nothing in the statement says its type; CAST(%s AS DECIMAL) reads it as a number", c.Path.Plain(), how, c.Path.Plain())
}

// ionColumn reads an Ion export, whose values carry their types: the DDL
// declares the one the statement reads.
func (r *rewriter) ionColumn(c expr.Column, lt leafType) string {
	node := r.node(c.Source).member(c.Path[0].Name)
	s := r.itemColumn(c.Source) + "." + r.quoteIdent(c.Path[0].Name)
	for _, e := range c.Path[1:] {
		if e.IsIndex {
			s = r.elemAt(s, e.Index)
			node = node.element()
		} else {
			s += "." + r.quoteIdent(e.Name)
			node = node.member(e.Name)
		}
	}
	if lt == leafText {
		r.textNote(c)
	}
	node.setLeaf(lt)
	return s
}

// parquetColumn reads ddbsql's Parquet layout: one column per top-level
// attribute, documents (maps, lists, sets) as JSON text.
func (r *rewriter) parquetColumn(c expr.Column, lt leafType) string {
	node := r.node(c.Source).member(c.Path[0].Name)
	col := r.qualifier(c.Source) + r.quoteIdent(c.Path[0].Name)
	if len(c.Path) == 1 {
		if lt == leafText {
			r.textNote(c)
		}
		node.setLeaf(lt)
		if r.isPartition(c.Path[0].Name) && lt == leafN {
			return "CAST(" + col + " AS " + r.decimal() + ")"
		}
		return col
	}
	node.setLeaf(leafS) // the document's JSON text
	var jp strings.Builder
	jp.WriteString("$")
	for _, e := range c.Path[1:] {
		if e.IsIndex {
			jp.WriteString("[" + strconv.Itoa(e.Index) + "]")
		} else if r.athena() {
			jp.WriteString(`["` + strings.ReplaceAll(e.Name, `"`, `\"`) + `"]`)
		} else {
			// DuckDB's JSON paths quote a member in double quotes.
			jp.WriteString(`."` + strings.ReplaceAll(e.Name, `"`, `\"`) + `"`)
		}
	}
	fn := "json_extract_string"
	if r.athena() {
		fn = "json_extract_scalar"
	}
	s := fn + "(" + col + ", " + sqlString(jp.String()) + ")"
	switch lt {
	case leafN:
		return "CAST(" + s + " AS " + r.decimal() + ")"
	case leafBool:
		return "CAST(" + s + " AS BOOLEAN)"
	}
	return s
}

func (r *dialectOut) isPartition(name string) bool {
	for _, p := range r.d.PartitionBy {
		if p == name {
			return true
		}
	}
	return false
}

// keyPath is the path of a top-level attribute.
func keyPath(name string) value.Path { return value.Path{{Name: name}} }

// wrapped reports whether c reads a DynamoDB JSON export's type-wrappers
// (not a Parquet or Ion column, nor a named query's computed column).
func (r *rewriter) wrapped(c expr.Column) bool {
	return r.d.Source == SourceJSON && r.sp.froms[c.Source].derived == nil
}
