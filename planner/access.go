package planner

import (
	"sort"
	"strings"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// hintKind is how the statement named an index.
type hintKind uint8

const (
	hintNone   hintKind = iota
	hintUse             // USE INDEX (i) / FORCE INDEX (i) / FROM `t`.`i`: read only from these
	hintIgnore          // IGNORE INDEX (i): never read from these
)

type indexHint struct {
	kind  hintKind
	names []string // index names; "" or PRIMARY means the base table
	// explicit is FROM `t`.`i`: the index itself is what the statement reads.
	explicit bool
	// keyword is how the statement wrote the hint ("USE INDEX", "FORCE
	// INDEX"), for messages.
	keyword string
}

// path is one way to read a table: the base table or one index.
type path struct {
	index *IndexDef // nil for the base table
	pk    KeyAttr
	sk    *KeyAttr
}

func (p path) name() string {
	if p.index == nil {
		return ""
	}
	return p.index.Name
}

func (p path) global() bool { return p.index != nil && p.index.Global }

// indexOrTable names what a read of the given index (or of the table, for
// "") reads: "index" or "table".
func indexOrTable(index string) string {
	if index != "" {
		return "index"
	}
	return "table"
}

// keyAttrs are the key attributes of the path itself (what a Query's
// FilterExpression may not mention).
func (p path) keyAttrs() []string {
	if p.sk == nil {
		return []string{p.pk.Name}
	}
	return []string{p.pk.Name, p.sk.Name}
}

// projects reports whether items read through p carry attribute attr.
func (p path) projects(t *TableDef, attr string) bool {
	if p.index == nil || p.index.Projection.Type == "ALL" {
		return true
	}
	if t.IsTableKey(attr) || attr == p.pk.Name || (p.sk != nil && attr == p.sk.Name) {
		return true
	}
	if p.index.Projection.Type == "INCLUDE" {
		for _, a := range p.index.Projection.NonKey {
			if a == attr {
				return true
			}
		}
	}
	return false
}

// covers reports whether p projects every attribute the statement needs.
func (p path) covers(t *TableDef, need needs) bool {
	if p.index == nil || p.index.Projection.Type == "ALL" {
		return true
	}
	if need.star {
		return false
	}
	for _, np := range need.paths {
		if !p.projects(t, np.Attr()) {
			return false
		}
	}
	return true
}

// needs is what the statement reads from each item.
type needs struct {
	star  bool
	paths []value.Path // reduced: none covers another
}

// paths lists the ways to read t that the hint allows.
func (t *TableDef) paths(h indexHint) []path {
	var out []path
	allowed := func(name string) bool {
		switch h.kind {
		case hintUse:
			return contains(h.names, name)
		case hintIgnore:
			return !contains(h.names, name)
		}
		return true
	}
	if allowed("") {
		out = append(out, path{pk: t.PK, sk: t.SK})
	}
	for i := range t.Indexes {
		ix := &t.Indexes[i]
		if allowed(ix.Name) {
			out = append(out, path{index: ix, pk: ix.PK, sk: ix.SK})
		}
	}
	return out
}

// IsTableKey reports whether attr is the table's partition or sort key.
func (t *TableDef) IsTableKey(attr string) bool {
	return attr == t.PK.Name || (t.SK != nil && attr == t.SK.Name)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// queryChoice is a Query path with the key conditions it uses.
type queryChoice struct {
	path   path
	pkCond keyCond
	skCond *keyCond
	covers bool
}

// chooseQuery ranks the paths whose partition key has an equality (or IN):
// a sort-key condition first, then covering projection, then the base table,
// then index name, so the choice is deterministic.
func chooseQuery(t *TableDef, paths []path, conds []keyCond, need needs) []queryChoice {
	var out []queryChoice
	for _, p := range paths {
		var qc queryChoice
		found := false
		for _, kc := range conds {
			if kc.attr == p.pk.Name && (kc.op == keyEq || kc.op == keyIn) {
				qc.pkCond, found = kc, true
				break
			}
		}
		if !found {
			continue
		}
		qc.path = p
		qc.skCond = bestSortCond(p, conds)
		qc.covers = p.covers(t, need)
		out = append(out, qc)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if (a.skCond != nil) != (b.skCond != nil) {
			return a.skCond != nil
		}
		if a.covers != b.covers {
			return a.covers
		}
		if (a.path.index == nil) != (b.path.index == nil) {
			return a.path.index == nil
		}
		return a.path.name() < b.path.name()
	})
	return out
}

// bestSortCond picks the sort-key condition that narrows the read most:
// equality, then BETWEEN, then begins_with, then a one-sided range.
func bestSortCond(p path, conds []keyCond) *keyCond {
	if p.sk == nil {
		return nil
	}
	rank := map[keyOp]int{keyEq: 0, keyBetween: 1, keyBeginsWith: 2, keyLt: 3, keyLe: 3, keyGt: 3, keyGe: 3}
	var best *keyCond
	for i := range conds {
		kc := &conds[i]
		r, ok := rank[kc.op]
		if kc.attr != p.sk.Name || !ok {
			continue
		}
		if kc.op == keyBetween && value.CompareScalars(kc.values[0], kc.values[1]) > 0 {
			continue // DynamoDB rejects reversed bounds; SQL says no rows: client
		}
		if best == nil || r < rank[best.op] {
			best = kc
		}
	}
	return best
}

// getKeys returns the full primary keys when the WHERE fixes both key
// attributes of the base table by = or IN, for GetItem/BatchGetItem.
func getKeys(t *TableDef, conds []keyCond) (keys []map[string]value.Value, used []int, ok bool) {
	pk := firstKeyCond(conds, t.PK.Name)
	if pk == nil {
		return nil, nil, false
	}
	pkVals := distinct(pk.values)
	used = []int{pk.conjunct}
	if t.SK == nil {
		for _, v := range pkVals {
			keys = append(keys, map[string]value.Value{t.PK.Name: v})
		}
		return keys, used, true
	}
	sk := firstKeyCond(conds, t.SK.Name)
	if sk == nil {
		return nil, nil, false
	}
	used = append(used, sk.conjunct)
	for _, pv := range pkVals {
		for _, sv := range distinct(sk.values) {
			keys = append(keys, map[string]value.Value{t.PK.Name: pv, t.SK.Name: sv})
		}
	}
	return keys, used, true
}

func firstKeyCond(conds []keyCond, attr string) *keyCond {
	for i := range conds {
		if conds[i].attr == attr && (conds[i].op == keyEq || conds[i].op == keyIn) {
			return &conds[i]
		}
	}
	return nil
}

// distinct removes duplicate values, keeping first-seen order.
func distinct(vals []value.Value) []value.Value {
	var out []value.Value
	seen := map[string]bool{} // scalars by their encoding: key lists may be long
	for _, v := range vals {
		switch v.Kind() {
		case value.String, value.Binary, value.Number, value.Bool:
			// Numbers are canonical text, so equal numbers encode alike.
			k := string(value.AppendBinary(nil, v))
			if !seen[k] {
				seen[k] = true
				out = append(out, v)
			}
			continue
		}
		dup := false
		for _, o := range out {
			if value.Equal(o, v) {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, v)
		}
	}
	return out
}

// scanError explains why a statement would need a Scan and how to allow it.
func scanError(t *TableDef, p path) *diag.Error {
	return scanErrorBecause(t, p, "no WHERE condition fixes a partition key with = or IN", "")
}

// scanErrorBecause is scanError with a specific reason; where, when set,
// says where the hint's key condition should go.
func scanErrorBecause(t *TableDef, p path, why, where string) *diag.Error {
	target := "table " + t.Name
	if p.index != nil {
		target = "index " + p.index.Name + " of table " + t.Name
	}
	e := errorf(diag.CodeScanNotAllowed,
		"this statement needs a Scan of %s: %s. A Scan reads, and bills, the whole %s%s.\n%s: %s",
		target, why, indexOrTable(p.name()), sizeNote(t, p), t.Name, t.KeySummary())
	est := ScanEstimate{Table: t.Name, Index: p.name(), ItemCount: t.ItemCount, SizeBytes: t.SizeBytes}
	if p.index != nil {
		est.ItemCount, est.SizeBytes = p.index.ItemCount, p.index.SizeBytes
	}
	est.Unknown = stale(est.ItemCount, est.SizeBytes)
	e.Cause = &ScanNeeded{Estimate: est}
	if where != "" {
		where = " " + where
	}
	return e.Hintf("add = or IN on a partition key (%s)%s, or rerun with --allow-scan to read everything", strings.Join(partitionKeys(t), ", "), where)
}

func partitionKeys(t *TableDef) []string {
	out := []string{t.PK.Name}
	for _, ix := range t.Indexes {
		if !contains(out, ix.PK.Name) {
			out = append(out, ix.PK.Name)
		}
	}
	return out
}

func sizeNote(t *TableDef, p path) string {
	items, bytes := t.ItemCount, t.SizeBytes
	if p.index != nil {
		items, bytes = p.index.ItemCount, p.index.SizeBytes
	}
	switch why := stale(items, bytes); {
	case items <= 0:
		return " (its size is unknown: DescribeTable reports " + why + "; " + countsLag + ")"
	case why != "":
		return " (about " + humanCount(items) + " items; their size is unknown: DescribeTable reports " + why + "; " + countsLag + ")"
	}
	return " (about " + humanCount(items) + " items, " + humanBytes(bytes) + ")"
}

func conjunctUsesAny(e expr.Expr, src int, attrs []string) bool {
	for _, c := range expr.Columns(e) {
		if c.Source == src && contains(attrs, c.Path.Attr()) {
			return true
		}
	}
	return false
}

func conjunctProjected(e expr.Expr, src int, t *TableDef, p path) bool {
	for _, c := range expr.Columns(e) {
		if c.Source == src && !p.projects(t, c.Path.Attr()) {
			return false
		}
	}
	return true
}
