package format

import (
	"fmt"
	"strings"

	"github.com/jedib0t/go-pretty/v6/text"
)

// renderExpanded prints one block per row, like psql's \x:
//
//	-[ RECORD 1 ]-------
//	PK    | user#1
//	count | 3
//
// Names are padded to the widest name in the result; a multi-line value
// continues under its first line. With fixed columns every column is shown
// (NULL as opt.NullText); in Dynamic mode a block shows the item's own
// attributes, keys first.
func renderExpanded(g *grid, opt Options) string {
	if len(g.rows) == 0 {
		return "(0 rows)"
	}
	l := g.layout()
	names := make([]string, len(l.names))
	nameW, valW := 0, 0
	for i, n := range l.names {
		names[i] = displayText(n)
		nameW = max(nameW, text.StringWidthWithoutEscSequences(names[i]))
	}
	rows := make([][]gridCell, len(g.rows))
	for i, row := range g.rows {
		rows[i] = l.sparse(row)
		for j, c := range rows[i] {
			rows[i][j].text = cellDisplay(c, opt)
			valW = max(valW, text.LongestLineLen(rows[i][j].text))
		}
	}
	var b strings.Builder
	for i, row := range rows {
		if i > 0 {
			b.WriteByte('\n')
		}
		title := fmt.Sprintf("-[ RECORD %d ]", i+1)
		b.WriteString(title)
		b.WriteString(strings.Repeat("-", max(1, nameW+3+valW-len(title))))
		for _, c := range row {
			name := names[l.pos[c.slot]]
			for k, line := range strings.Split(c.text, "\n") {
				if k > 0 {
					name = ""
				}
				b.WriteByte('\n')
				b.WriteString(text.Pad(name, nameW, ' '))
				b.WriteString(" | ")
				b.WriteString(line)
			}
		}
	}
	return b.String()
}
