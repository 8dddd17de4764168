package engine

import (
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/ddbsql/ddbsql/exec/dynamo/rawpage"
	"github.com/ddbsql/ddbsql/planner/value"
)

// itemsBatch builds one batch with a column per attribute present.
func itemsBatch(mem memory.Allocator, items []value.Value, keys []string) arrow.RecordBatch {
	return qualifiedItemsBatch(mem, items, keys, -1)
}

// qualifiedItemsBatch names columns by source (see QualifiedName) when
// source >= 0, as rows of joins need.
func qualifiedItemsBatch(mem memory.Allocator, items []value.Value, keys []string, source int) arrow.RecordBatch {
	names := rawpage.Columns(items, keys)
	colNames := names
	if source >= 0 {
		colNames = make([]string, len(names))
		for i, n := range names {
			colNames[i] = QualifiedName(source, n)
		}
	}
	return rawpage.Build(mem, items, names, colNames)
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// qualifierSep separates a FROM item number from an attribute name in the
// column names of joined rows; attribute names never contain it in practice,
// and a column name without it is an attribute of the only FROM item.
const qualifierSep = "\x00"

// QualifiedName names an attribute of FROM item source in joined rows.
func QualifiedName(source int, attr string) string {
	return strconv.Itoa(source) + qualifierSep + attr
}

// SplitQualified reverses QualifiedName; ok is false for a plain name.
func SplitQualified(name string) (source int, attr string, ok bool) {
	i := strings.Index(name, qualifierSep)
	if i < 0 {
		return 0, name, false
	}
	n, err := strconv.Atoi(name[:i])
	if err != nil {
		return 0, name, false
	}
	return n, name[i+len(qualifierSep):], true
}

// outputSource is the FROM item to qualify column names with, or -1.
func outputSource(qualify bool, source int) int {
	if qualify {
		return source
	}
	return -1
}

func arrowSchema(fields []arrow.Field) *arrow.Schema { return arrow.NewSchema(fields, nil) }
