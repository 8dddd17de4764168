package planner

import (
	"strings"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/value"
)

// An index hint (USE INDEX / FORCE INDEX) chooses among plans that return
// the same rows; it never changes them (MySQL's meaning). Every secondary
// index is sparse: an item without the index's key attributes is not in
// it. So a hinted read of an index is allowed only when the WHERE (with,
// in a join, the conditions on that table alone) requires those attributes
// to exist — when it holds a condition that is never true while one is
// missing (rejectsNull). Otherwise the statement fails before any request.
//
//   - Attributes of the table's own primary key are in every item.
//   - A Query by the index's own partition key (a GSI's, when it is not a
//     key of the table) requires it through its key condition. Its sort
//     key is taken as the automatic planner takes it: that planner reads a
//     GSI by its partition key alone, without a hint, trusting that items
//     written with one carry the other. So such a Query is allowed with or
//     without a sort-key condition.
//   - A Query whose partition key is the table's (an LSI, or a GSI keyed by
//     a table key attribute) needs a condition on the index's sort key: the
//     automatic planner reads the base table for that key condition and
//     only moves to the index for a sort-key condition, so without one the
//     hint would drop the items that lack the sort key.
//   - A Scan of the index needs conditions on each of its key attributes.
//
// FROM `t`.`i` names the index as the thing to read — only the items it
// holds — and is never checked. IGNORE INDEX only removes plans, all of
// which read every matching item.

// bindsResult reports whether the hint is one whose index reads must return
// every matching item: USE or FORCE INDEX, not FROM `t`.`i`.
func (h indexHint) bindsResult() bool { return h.kind == hintUse && !h.explicit }

// sparseAttrs lists the key attributes of index path p that an item of t
// may lack (those that are not keys of the table).
func sparseAttrs(t *TableDef, p path) []string {
	var out []string
	for _, a := range p.keyAttrs() {
		if !t.IsTableKey(a) {
			out = append(out, a)
		}
	}
	return out
}

// queryMisses lists the key attributes whose absence could keep a matching
// item out of a Query of index path p by its partition key (none: the
// Query reads every match).
func (r *reader) queryMisses(p path) []string {
	if p.index == nil || !r.from.table.IsTableKey(p.pk.Name) {
		return nil
	}
	return r.unrequired(sparseAttrs(r.from.table, p))
}

// scanMisses is queryMisses for a Scan of index path p.
func (r *reader) scanMisses(p path) []string {
	if p.index == nil {
		return nil
	}
	return r.unrequired(sparseAttrs(r.from.table, p))
}

// unrequired keeps the attributes that no conjunct requires to exist.
func (r *reader) unrequired(attrs []string) []string {
	var out []string
	for _, a := range attrs {
		required := false
		for _, c := range r.conjuncts {
			if rejectsNull(c, ofAttr(r.src, a)) {
				required = true
				break
			}
		}
		if !required {
			out = append(out, a)
		}
	}
	return out
}

// sparseHintError explains why the hinted index p cannot answer the
// statement: items without the missing attributes are not in it.
func (r *reader) sparseHintError(p path, missing []string) *diag.Error {
	t, h := r.from.table, r.from.hint
	names := make([]string, len(h.names))
	for i, n := range h.names {
		names[i] = n
		if n == "" {
			names[i] = "PRIMARY"
		}
	}
	kind := "local secondary index"
	if p.index.Global {
		kind = "global secondary index"
	}
	verb := "require them"
	if len(missing) == 1 {
		verb = "require it"
	}
	attrs := strings.Join(missing, " or ")
	e := errorf(diag.CodeSparseIndexHint, "%s (%s) would change the result: %s %s of table %s may not hold every matching item. It is sparse: items without %s are not in it, and this statement's conditions on %s do not %s to exist. An index hint only chooses among plans that return the same rows; it never changes them.",
		h.keyword, strings.Join(names, ", "), kind, p.index.Name, t.Name, attrs, r.from.alias, verb)
	return e.Hintf("to read the index itself (only the items it holds), write FROM `%s`.`%s`; otherwise drop the hint, or add a condition that is false when %s is missing (e.g. %s)",
		t.Name, p.index.Name, missing[0], exampleRequirement(p, missing[0]))
}

// exampleRequirement is a condition that requires attr: equality with a
// value for a partition key (which also makes the read a Query), else IS
// NOT NULL.
func exampleRequirement(p path, attr string) string {
	name := value.QuoteName(attr)
	if attr != p.pk.Name {
		return name + " IS NOT NULL"
	}
	switch p.pk.Type {
	case value.Number:
		return name + " = …"
	case value.Binary:
		return name + " = X'…'"
	}
	return name + " = '…'"
}
