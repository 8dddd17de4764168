package main

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
)

// writeReadme summarises the generated tables for people browsing
// exec/dynamo/offline/demodata.
func writeReadme(ts []*table) []byte {
	var b bytes.Buffer
	b.WriteString("# Demo data (generated)\n\n")
	b.WriteString("Written by `go run ./cmd/gendemo` — do not edit by hand. `ddbsql --demo` loads\n")
	b.WriteString("`" + modelFile + "`, a NoSQL Workbench data model, through the same loader as\n")
	b.WriteString("`ddbsql --data`. Queries to try: `go doc ./exec/dynamo/offline`.\n\n")
	b.WriteString("| table | primary key | indexes | items |\n|---|---|---|---:|\n")
	total := 0
	for _, t := range ts {
		total += len(t.Items)
		fmt.Fprintf(&b, "| `%s` | %s | %s | %d |\n", t.Name, keyText(t.PK, t.SK), indexText(t), len(t.Items))
	}
	fmt.Fprintf(&b, "| | | | **%d** |\n", total)
	for _, t := range ts {
		fmt.Fprintf(&b, "\n## %s\n\n%s.\n", t.Name, t.About)
		if counts := typeCounts(t); counts != "" {
			fmt.Fprintf(&b, "\nItems by `Type`: %s.\n", counts)
		}
	}
	return b.Bytes()
}

func keyText(pk, sk key) string {
	s := fmt.Sprintf("`%s` %s", pk.Name, pk.Type)
	if sk.Name != "" {
		s += fmt.Sprintf(", `%s` %s", sk.Name, sk.Type)
	}
	return s
}

func indexText(t *table) string {
	var parts []string
	for _, group := range []struct {
		kind string
		ixs  []index
	}{{"GSI", t.GSIs}, {"LSI", t.LSIs}} {
		for _, ix := range group.ixs {
			p := ix.Projection
			if len(ix.Include) > 0 {
				p += " " + strings.Join(ix.Include, ", ")
			}
			parts = append(parts, fmt.Sprintf("%s `%s` (%s; %s)", group.kind, ix.Name, keyText(ix.PK, ix.SK), p))
		}
	}
	if len(parts) == 0 {
		return "—"
	}
	return strings.Join(parts, "<br>")
}

func typeCounts(t *table) string {
	counts := map[string]int{}
	for _, it := range t.Items {
		if typ := it.Attr("Type").Text(); typ != "" {
			counts[typ]++
		}
	}
	names := make([]string, 0, len(counts))
	for n := range counts {
		names = append(names, n)
	}
	sort.Strings(names)
	var parts []string
	for _, n := range names {
		parts = append(parts, fmt.Sprintf("%s %d", n, counts[n]))
	}
	return strings.Join(parts, ", ")
}
