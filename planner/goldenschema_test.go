package planner_test

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/cockroachdb/datadriven"

	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/value"
)

// A golden file declares the tables its cases read with the directive
// create-table, one table per directive, in this compact form (what
// DescribeTable would say of it):
//
//	create-table
//	app PK:S SK:S items=2556 bytes=1789200
//	gsi GSI1 GSI1PK:S GSI1SK:S ALL items=639 bytes=255600
//	gsi ByOwner owner:S updatedAt:S INCLUDE(title) items=639 bytes=255600
//	lsi ByCreated PK:S createdAt:S KEYS_ONLY items=2556 bytes=127800
//	----
//
// The first line is the table: its name, its partition key and optionally
// its sort key, each as name:type (S, N or B), then its ItemCount and
// TableSizeBytes. Each further line is an index: gsi or lsi, its name and
// keys, its projection (ALL, KEYS_ONLY or INCLUDE(a,b,…)), its ItemCount
// and IndexSizeBytes. A missing items= or bytes= is 0 (a table DynamoDB has
// not counted yet). The output is the table as the catalog holds it, in the
// same form, its indexes in DescribeTable's order (by name), so the
// expected output shows how the declaration was read.
//
// With the argument demo the table goes to the file's second catalog, the
// one the cases with the argument demo read (declared as ddbsql --demo
// loads it); without it, to the catalog every other case reads. A file
// starts with both catalogs empty.

// goldenCatalogs holds the tables one golden file has declared.
type goldenCatalogs struct {
	plain, demo *fakeCatalog
}

func newGoldenCatalogs() *goldenCatalogs {
	return &goldenCatalogs{
		plain: &fakeCatalog{tables: map[string]*planner.TableDef{}},
		demo:  &fakeCatalog{tables: map[string]*planner.TableDef{}},
	}
}

// forCase is the catalog a case reads.
func (g *goldenCatalogs) forCase(d *datadriven.TestData) *fakeCatalog {
	if d.HasArg("demo") {
		return g.demo
	}
	return g.plain
}

// declare runs a create-table directive: it adds the table to the case's
// catalog and returns the table in canonical form.
func (g *goldenCatalogs) declare(d *datadriven.TestData) (string, error) {
	def, err := parseTableDecl(d.Input)
	if err != nil {
		return "", err
	}
	cat := g.forCase(d)
	if _, dup := cat.tables[def.Name]; dup {
		return "", fmt.Errorf("table %s is declared twice", def.Name)
	}
	cat.tables[def.Name] = def
	return tableDecl(def), nil
}

// parseTableDecl reads one table in the create-table form.
func parseTableDecl(text string) (*planner.TableDef, error) {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	fields := strings.Fields(lines[0])
	if len(fields) < 2 {
		return nil, fmt.Errorf("create-table: want a table name and its partition key, got %q", lines[0])
	}
	def := &planner.TableDef{Name: fields[0]}
	pk, sk, rest, err := parseKeys(fields[1:])
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", def.Name, err)
	}
	def.PK, def.SK = pk, sk
	if def.ItemCount, def.SizeBytes, err = parseCounts(rest); err != nil {
		return nil, fmt.Errorf("table %s: %w", def.Name, err)
	}
	for _, line := range lines[1:] {
		ix, err := parseIndexDecl(strings.Fields(line))
		if err != nil {
			return nil, fmt.Errorf("table %s: %w", def.Name, err)
		}
		if !ix.Global && ix.PK != def.PK {
			return nil, fmt.Errorf("table %s: LSI %s must share the partition key %s", def.Name, ix.Name, def.PK.Name)
		}
		if def.Index(ix.Name) != nil {
			return nil, fmt.Errorf("table %s: index %s is declared twice", def.Name, ix.Name)
		}
		def.Indexes = append(def.Indexes, ix)
	}
	sort.SliceStable(def.Indexes, func(i, j int) bool { return def.Indexes[i].Name < def.Indexes[j].Name })
	return def, nil
}

// parseIndexDecl reads "gsi|lsi name pk:T [sk:T] projection [items=N] [bytes=N]".
func parseIndexDecl(fields []string) (planner.IndexDef, error) {
	var ix planner.IndexDef
	if len(fields) < 4 || (fields[0] != "gsi" && fields[0] != "lsi") {
		return ix, fmt.Errorf("want gsi|lsi name pk:T [sk:T] projection [items=N] [bytes=N], got %q", strings.Join(fields, " "))
	}
	ix.Name, ix.Global = fields[1], fields[0] == "gsi"
	pk, sk, rest, err := parseKeys(fields[2:])
	if err != nil {
		return ix, fmt.Errorf("index %s: %w", ix.Name, err)
	}
	ix.PK, ix.SK = pk, sk
	if len(rest) == 0 {
		return ix, fmt.Errorf("index %s: no projection", ix.Name)
	}
	if ix.Projection, err = parseProjection(rest[0]); err != nil {
		return ix, fmt.Errorf("index %s: %w", ix.Name, err)
	}
	if ix.ItemCount, ix.SizeBytes, err = parseCounts(rest[1:]); err != nil {
		return ix, fmt.Errorf("index %s: %w", ix.Name, err)
	}
	return ix, nil
}

// parseKeys reads the partition key and an optional sort key, each
// name:type, and returns the fields after them.
func parseKeys(fields []string) (pk planner.KeyAttr, sk *planner.KeyAttr, rest []string, err error) {
	pk, ok, err := parseKeyAttr(fields[0])
	if err != nil || !ok {
		return pk, nil, nil, fmt.Errorf("want a partition key name:type, got %q (%v)", fields[0], err)
	}
	rest = fields[1:]
	if len(rest) > 0 {
		k, ok, err := parseKeyAttr(rest[0])
		if err != nil {
			return pk, nil, nil, err
		}
		if ok {
			sk, rest = &k, rest[1:]
		}
	}
	return pk, sk, rest, nil
}

// parseKeyAttr reads name:type; ok is false when the field is no key.
func parseKeyAttr(field string) (planner.KeyAttr, bool, error) {
	i := strings.LastIndexByte(field, ':')
	if i <= 0 || strings.Contains(field, "=") || strings.Contains(field, "(") {
		return planner.KeyAttr{}, false, nil
	}
	kinds := map[string]value.Kind{"S": value.String, "N": value.Number, "B": value.Binary}
	kind, ok := kinds[field[i+1:]]
	if !ok {
		return planner.KeyAttr{}, false, fmt.Errorf("key %s: type %q is not S, N or B", field[:i], field[i+1:])
	}
	return planner.KeyAttr{Name: field[:i], Type: kind}, true, nil
}

// parseProjection reads ALL, KEYS_ONLY or INCLUDE(a,b,…).
func parseProjection(field string) (planner.Projection, error) {
	switch {
	case field == "ALL" || field == "KEYS_ONLY":
		return planner.Projection{Type: field}, nil
	case strings.HasPrefix(field, "INCLUDE(") && strings.HasSuffix(field, ")"):
		names := strings.Split(strings.TrimSuffix(strings.TrimPrefix(field, "INCLUDE("), ")"), ",")
		return planner.Projection{Type: "INCLUDE", NonKey: names}, nil
	}
	return planner.Projection{}, fmt.Errorf("projection %q is not ALL, KEYS_ONLY or INCLUDE(a,b,…)", field)
}

// parseCounts reads items=N and bytes=N, each optional.
func parseCounts(fields []string) (items, bytes int64, err error) {
	for _, f := range fields {
		key, val, ok := strings.Cut(f, "=")
		n, perr := strconv.ParseInt(val, 10, 64)
		if !ok || perr != nil || n < 0 {
			return 0, 0, fmt.Errorf("want items=N or bytes=N, got %q", f)
		}
		switch key {
		case "items":
			items = n
		case "bytes":
			bytes = n
		default:
			return 0, 0, fmt.Errorf("unknown setting %q", f)
		}
	}
	return items, bytes, nil
}

// tableDecl renders a table in the create-table form.
func tableDecl(t *planner.TableDef) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s %s items=%d bytes=%d\n", t.Name, keysDecl(t.PK, t.SK), t.ItemCount, t.SizeBytes)
	for _, ix := range t.Indexes {
		kind := "lsi"
		if ix.Global {
			kind = "gsi"
		}
		proj := ix.Projection.Type
		if proj == "INCLUDE" {
			proj = "INCLUDE(" + strings.Join(ix.Projection.NonKey, ",") + ")"
		}
		fmt.Fprintf(&sb, "%s %s %s %s items=%d bytes=%d\n", kind, ix.Name, keysDecl(ix.PK, ix.SK), proj, ix.ItemCount, ix.SizeBytes)
	}
	return sb.String()
}

func keysDecl(pk planner.KeyAttr, sk *planner.KeyAttr) string {
	s := pk.Name + ":" + pk.Type.String()
	if sk != nil {
		s += " " + sk.Name + ":" + sk.Type.String()
	}
	return s
}
