package planner

import (
	"context"
	"fmt"
	"strings"

	"github.com/ddbsql/ddbsql/planner/value"
)

// Catalog answers the planner's questions about tables. Implementations call
// DescribeTable/ListTables and cache per session; the planner calls nothing else.
type Catalog interface {
	Table(ctx context.Context, name string) (*TableDef, error)
	Tables(ctx context.Context) ([]string, error)
}

// KeyAttr is one key attribute and its declared type (S, N or B).
type KeyAttr struct {
	Name string
	Type value.Kind
}

// Projection is what an index copies from the base table.
type Projection struct {
	Type   string   // ALL, KEYS_ONLY or INCLUDE
	NonKey []string // the INCLUDE list
}

// IndexDef is a GSI or LSI.
type IndexDef struct {
	Name       string
	Global     bool
	PK         KeyAttr
	SK         *KeyAttr
	Projection Projection
	ItemCount  int64
	SizeBytes  int64
}

// TableDef is what DescribeTable says about a table.
type TableDef struct {
	Name      string
	PK        KeyAttr
	SK        *KeyAttr
	Indexes   []IndexDef
	ItemCount int64
	SizeBytes int64
}

// Index finds an index by name (case-sensitive, as DynamoDB).
func (t *TableDef) Index(name string) *IndexDef {
	for i := range t.Indexes {
		if t.Indexes[i].Name == name {
			return &t.Indexes[i]
		}
	}
	return nil
}

// KeyNames lists the table's key attribute names, partition key first.
func (t *TableDef) KeyNames() []string {
	if t.SK == nil {
		return []string{t.PK.Name}
	}
	return []string{t.PK.Name, t.SK.Name}
}

// IsKeyAttr reports whether name is a key attribute of the table or of any index.
func (t *TableDef) IsKeyAttr(name string) bool {
	if name == t.PK.Name || (t.SK != nil && name == t.SK.Name) {
		return true
	}
	for _, ix := range t.Indexes {
		if name == ix.PK.Name || (ix.SK != nil && name == ix.SK.Name) {
			return true
		}
	}
	return false
}

// KeySummary describes the keys and indexes in one line, for error messages:
// "partition key PK (S), sort key SK (S); indexes: GSI1 (GSI: GSI1PK (S), GSI1SK (S))".
func (t *TableDef) KeySummary() string {
	var sb strings.Builder
	sb.WriteString(keyPhrase(t.PK, t.SK))
	if len(t.Indexes) == 0 {
		sb.WriteString("; no indexes")
		return sb.String()
	}
	sb.WriteString("; indexes: ")
	for i, ix := range t.Indexes {
		if i > 0 {
			sb.WriteString(", ")
		}
		kind := "LSI"
		if ix.Global {
			kind = "GSI"
		}
		fmt.Fprintf(&sb, "%s (%s: %s)", ix.Name, kind, shortKeys(ix.PK, ix.SK))
	}
	return sb.String()
}

func keyPhrase(pk KeyAttr, sk *KeyAttr) string {
	s := fmt.Sprintf("partition key %s (%s)", pk.Name, pk.Type)
	if sk != nil {
		s += fmt.Sprintf(", sort key %s (%s)", sk.Name, sk.Type)
	}
	return s
}

func shortKeys(pk KeyAttr, sk *KeyAttr) string {
	s := fmt.Sprintf("%s (%s)", pk.Name, pk.Type)
	if sk != nil {
		s += fmt.Sprintf(", %s (%s)", sk.Name, sk.Type)
	}
	return s
}
