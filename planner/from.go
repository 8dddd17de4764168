package planner

import (
	"context"
	"errors"
	"strings"

	"github.com/xwb1989/sqlparser"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// fromItem is a resolved FROM entry: the table, its alias and index hint.
// A named query (a WITH query or derived table, derived.go) has derived
// set and a table of its alias with no keys, which no lookup can use.
type fromItem struct {
	table   *TableDef
	alias   string
	hint    indexHint
	derived *derivedFrom
	named   string // the named query's name (synthetic for a derived table)
}

// ErrNotFound is returned (wrapped) by Catalog.Table for a table that does not exist.
var ErrNotFound = errors.New("table not found")

// resolveTable looks a FROM table up, turning "not found" into a helpful error.
func resolveTable(ctx context.Context, cat Catalog, name string) (*TableDef, error) {
	t, err := cat.Table(ctx, name)
	if err == nil {
		return t, nil
	}
	if !errors.Is(err, ErrNotFound) {
		return nil, err
	}
	e := errorf(diag.CodeUnknownTable, "table %q does not exist", name)
	if names, lerr := cat.Tables(ctx); lerr == nil {
		if len(names) == 0 {
			return nil, e.Hintf("there are no tables at this endpoint and region")
		}
		if close := closest(name, names); close != "" {
			return nil, e.Hintf("did you mean %s? SHOW TABLES lists them all", close)
		}
		return nil, e.Hintf("tables: %s", strings.Join(limitList(names, 20), ", "))
	}
	return nil, e
}

// fromTable resolves one AliasedTableExpr: FROM t [AS a] [USE|FORCE|IGNORE INDEX (i)]
// or FROM `t`.`i` (index i of table t).
func fromTable(ctx context.Context, cat Catalog, ate *sqlparser.AliasedTableExpr) (fromItem, error) {
	tn, ok := ate.Expr.(sqlparser.TableName)
	if !ok {
		return fromItem{}, errorf(diag.CodeUnsupported, "subqueries in FROM are not supported")
	}
	tableName, indexName := tn.Name.String(), ""
	if !tn.Qualifier.IsEmpty() {
		tableName, indexName = tn.Qualifier.String(), tn.Name.String()
	}
	t, err := resolveTable(ctx, cat, tableName)
	if err != nil {
		return fromItem{}, err
	}
	item := fromItem{table: t, alias: ate.As.String()}
	if item.alias == "" {
		item.alias = tableName
	}
	if indexName != "" {
		if err := checkIndex(t, indexName); err != nil {
			return fromItem{}, err
		}
		item.hint = indexHint{kind: hintUse, names: []string{indexName}, explicit: true}
	}
	if h := ate.Hints; h != nil {
		if indexName != "" {
			return fromItem{}, errorf(diag.CodeInvalid, "FROM %s.%s already names an index; drop the index hint", tableName, indexName)
		}
		names := make([]string, len(h.Indexes))
		for i, ix := range h.Indexes {
			names[i] = ix.String()
			if strings.EqualFold(names[i], "PRIMARY") {
				names[i] = ""
				continue
			}
			if err := checkIndex(t, names[i]); err != nil {
				return fromItem{}, err
			}
		}
		kind := hintUse
		if h.Type == sqlparser.IgnoreStr {
			kind = hintIgnore
		}
		item.hint = indexHint{kind: kind, names: names, keyword: strings.ToUpper(strings.TrimSpace(h.Type)) + " INDEX"}
	}
	return item, nil
}

func checkIndex(t *TableDef, name string) error {
	if t.Index(name) != nil {
		return nil
	}
	e := errorf(diag.CodeUnknownIndex, "table %s has no index %q", t.Name, name)
	if len(t.Indexes) == 0 {
		return e.Hintf("%s has no secondary indexes", t.Name)
	}
	names := make([]string, len(t.Indexes))
	for i, ix := range t.Indexes {
		names[i] = ix.Name
	}
	return e.Hintf("indexes of %s: %s", t.Name, strings.Join(names, ", "))
}

func limitList(names []string, n int) []string {
	if len(names) <= n {
		return names
	}
	return append(append([]string(nil), names[:n]...), "…")
}

// closest finds a table name within a small edit distance, case-insensitively.
func closest(name string, names []string) string {
	best, bestDist := "", 3
	for _, n := range names {
		d := editDistance(strings.ToLower(name), strings.ToLower(n))
		if d < bestDist {
			best, bestDist = n, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
