package planner

import (
	"fmt"
	"strings"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/value"
)

// checkSelfJoin rejects a join whose sides read the same physical table,
// whatever the aliases or indexes. In a single-table layout related items
// share a partition key, so one Query of the item collection returns them
// together; a self-join would mean reading the table twice (or scanning it).
func checkSelfJoin(froms []fromItem) error {
	for i := range froms {
		for j := i + 1; j < len(froms); j++ {
			if froms[i].table.Name != froms[j].table.Name || froms[i].derived != nil || froms[j].derived != nil {
				continue
			}
			t := froms[i].table
			example := fmt.Sprintf("SELECT … FROM %s WHERE %s = '…'", t.Name, t.PK.Name)
			if t.PK.Type == value.Number {
				example = fmt.Sprintf("SELECT … FROM %s WHERE %s = …", t.Name, t.PK.Name)
			}
			switch {
			case t.SK != nil && t.SK.Type == value.String:
				example += fmt.Sprintf(" [AND begins_with(%s, '…')]", t.SK.Name)
			case t.SK != nil: // begins_with applies to strings only
				example += fmt.Sprintf(" [AND %s BETWEEN … AND …]", t.SK.Name)
			}
			e := errorf(diag.CodeSelfJoin, "self-join of table %s (as %s and %s) is not supported: both sides read the same table. In a single-table layout, items that belong together are related by sharing a partition key — they form one item collection — so a single Query returns them without a join",
				t.Name, froms[i].alias, froms[j].alias)
			return e.Hintf("query the item collection instead: %s%s", example, gsiNote(t))
		}
	}
	return nil
}

func gsiNote(t *TableDef) string {
	var gsis []string
	for _, ix := range t.Indexes {
		if ix.Global {
			gsis = append(gsis, ix.Name+" ("+ix.PK.Name+")")
		}
	}
	if len(gsis) == 0 {
		return ""
	}
	return "; to pivot to another access pattern, query a GSI: " + strings.Join(gsis, ", ")
}
