package main

import (
	"bytes"
	"encoding/json"
	"sort"

	"github.com/ddbsql/ddbsql/planner/value"
)

// The demo is stored as a NoSQL Workbench data model (the format of
// "Export data model"), so that `ddbsql --demo` goes through the same
// loader as `ddbsql --data model.json`. Items are in DynamoDB JSON, one per
// line, attributes sorted: the file is deterministic and diffable.
// LocalSecondaryIndexes is ddbsql's extension (same shape as
// GlobalSecondaryIndexes); the Workbench itself does not model LSIs.

type wbKey struct {
	AttributeName string
	AttributeType string
}

type wbKeys struct {
	PartitionKey wbKey
	SortKey      *wbKey `json:",omitempty"`
}

type wbProjection struct {
	ProjectionType   string
	NonKeyAttributes []string `json:",omitempty"`
}

type wbIndex struct {
	IndexName     string
	KeyAttributes wbKeys
	Projection    wbProjection
}

const modelIndent = "      " // a table's fields inside DataModel

// writeModel renders the tables as one Workbench model.
func writeModel(ts []*table) []byte {
	var b bytes.Buffer
	b.WriteString("{\n")
	field(&b, "  ", "ModelName", "ddbsql-demo")
	field(&b, "  ", "ModelMetadata", map[string]string{
		"Author":           "ddbsql (go run ./cmd/gendemo)",
		"DateCreated":      "May 15, 2026, 09:00 AM",
		"DateLastModified": "May 15, 2026, 09:00 AM",
		"Description":      "The built-in demo of ddbsql --demo: the seed articles' single-table designs and a small shop for cross-table joins.",
		"AWSService":       "Amazon DynamoDB",
		"Version":          "3.0",
	})
	b.WriteString("  \"DataModel\": [\n")
	for i, t := range ts {
		writeTable(&b, t)
		if i < len(ts)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("  ]\n}\n")
	return b.Bytes()
}

func writeTable(b *bytes.Buffer, t *table) {
	b.WriteString("    {\n")
	field(b, modelIndent, "TableName", t.Name)
	field(b, modelIndent, "KeyAttributes", keysOf(t.PK, t.SK))
	field(b, modelIndent, "NonKeyAttributes", nonKeyAttributes(t))
	if len(t.GSIs) > 0 {
		field(b, modelIndent, "GlobalSecondaryIndexes", indexesOf(t.GSIs))
	}
	if len(t.LSIs) > 0 {
		field(b, modelIndent, "LocalSecondaryIndexes", indexesOf(t.LSIs))
	}
	b.WriteString(modelIndent + "\"TableData\": [\n")
	for i, it := range t.Items {
		b.WriteString(modelIndent + "  ")
		b.Write(value.AppendItemJSON(nil, it))
		if i < len(t.Items)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString(modelIndent + "],\n")
	field(b, modelIndent, "DataAccess", map[string]any{"MySql": map[string]any{}})
	lastField(b, modelIndent, "BillingMode", "PAY_PER_REQUEST")
	b.WriteString("    }")
}

// field writes `"name": value` indented, followed by a comma: another
// field comes after it.
func field(b *bytes.Buffer, indent, name string, v any) { writeField(b, indent, name, v, ",\n") }

// lastField writes the object's last `"name": value`, with no comma.
func lastField(b *bytes.Buffer, indent, name string, v any) { writeField(b, indent, name, v, "\n") }

func writeField(b *bytes.Buffer, indent, name string, v any, end string) {
	data, err := json.MarshalIndent(v, indent, "  ")
	if err != nil {
		panic("gendemo: " + err.Error())
	}
	b.WriteString(indent + `"` + name + `": `)
	b.Write(data)
	b.WriteString(end)
}

func keysOf(pk, sk key) wbKeys {
	k := wbKeys{PartitionKey: wbKey{pk.Name, pk.Type}}
	if sk.Name != "" {
		k.SortKey = &wbKey{sk.Name, sk.Type}
	}
	return k
}

func indexesOf(ixs []index) []wbIndex {
	out := make([]wbIndex, len(ixs))
	for i, ix := range ixs {
		out[i] = wbIndex{IndexName: ix.Name, KeyAttributes: keysOf(ix.PK, ix.SK),
			Projection: wbProjection{ProjectionType: ix.Projection, NonKeyAttributes: ix.Include}}
	}
	return out
}

// nonKeyAttributes lists every other attribute with the type it has in
// the first item that holds it, sorted by name.
func nonKeyAttributes(t *table) []wbKey {
	seen := map[string]string{t.PK.Name: "", t.SK.Name: ""}
	var out []wbKey
	for _, it := range t.Items {
		for _, name := range it.SortedKeys() {
			if _, ok := seen[name]; ok {
				continue
			}
			typ := it.Attr(name).Kind().String()
			seen[name] = typ
			out = append(out, wbKey{AttributeName: name, AttributeType: typ})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].AttributeName < out[j].AttributeName })
	return out
}
