package format

import (
	"sort"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/ddbsql/ddbsql/planner/value"
)

// gridCell is one buffered cell: its column slot, its DynamoDB kind (Missing
// and Null are SQL NULL) and its value.Display text, owned by the grid.
type gridCell struct {
	slot int
	kind value.Kind
	text string
}

func (c gridCell) null() bool { return c.kind == value.Missing || c.kind == value.Null }

// grid buffers rendered rows for the formats that need every row (or many
// rows) before they can print: table, markdown, and csv/tsv while they learn
// a SELECT * header. With fixed columns each row holds one cell per column;
// in Dynamic mode a row holds only the attributes its item has, and slots
// grow as new attribute names appear.
type grid struct {
	dynamic bool
	keys    []string
	names   []string       // slot → column name
	slotOf  map[string]int // Dynamic: name → slot
	rows    [][]gridCell
}

func newGrid(h Header) *grid {
	if !h.Dynamic {
		return &grid{names: h.Columns}
	}
	g := &grid{dynamic: true, keys: h.KeyColumns, slotOf: map[string]int{}}
	for _, k := range h.KeyColumns {
		g.slot(k)
	}
	return g
}

func (g *grid) slot(name string) int {
	if s, ok := g.slotOf[name]; ok {
		return s
	}
	g.slotOf[name] = len(g.names)
	g.names = append(g.names, name)
	return len(g.names) - 1
}

// add copies a batch's rows into the grid. A batch either goes in whole or,
// on error, not at all.
func (g *grid) add(rec arrow.RecordBatch) error {
	cols, names, err := batchColumns(rec)
	if err != nil {
		return err
	}
	if !g.dynamic && len(cols) != len(g.names) {
		return columnCountError(len(cols), len(g.names))
	}
	// The text of every cell goes into one buffer, turned into a single
	// string at the end that the cells slice: the grid owns its text
	// without a string per cell, and no value.Value is built.
	var text []byte
	var ends []int // per cell kept, where its text ends in text
	rows := make([][]gridCell, 0, rec.NumRows())
	for row := 0; row < int(rec.NumRows()); row++ {
		cells := make([]gridCell, 0, len(cols))
		for c := range cols {
			kind, err := cellKind(cols[c], names[c], row)
			if err != nil {
				return err
			}
			if g.dynamic && kind == value.Missing {
				continue
			}
			if text, err = appendDisplayCell(text, cols[c], names[c], row); err != nil {
				return err
			}
			ends = append(ends, len(text))
			cells = append(cells, gridCell{slot: c, kind: kind})
		}
		rows = append(rows, cells)
	}
	owned, i, start := string(text), 0, 0
	for _, cells := range rows {
		for k := range cells {
			cells[k].text = owned[start:ends[i]]
			start = ends[i]
			i++
		}
	}
	if g.dynamic {
		slots := make([]int, len(names))
		for c, n := range dynamicNames(names, g.keys) {
			slots[c] = g.slot(n)
		}
		for _, cells := range rows {
			for i := range cells {
				cells[i].slot = slots[cells[i].slot]
			}
		}
	}
	g.rows = append(g.rows, rows...)
	return nil
}

// layout is the grid's output column order: slots in order, the position of
// each slot (-1 when not shown), and the column names.
type layout struct {
	order []int
	pos   []int
	names []string
}

// layout fixes the output order: fixed columns as given; in Dynamic mode the
// key attributes, then the rest by name in byte order.
func (g *grid) layout() layout {
	order := identity(len(g.names))
	if g.dynamic {
		nk := min(len(g.keys), len(g.names))
		rest := order[nk:]
		sort.Slice(rest, func(a, b int) bool { return g.names[rest[a]] < g.names[rest[b]] })
	}
	l := layout{order: order, pos: make([]int, len(g.names)), names: make([]string, len(order))}
	for i := range l.pos {
		l.pos[i] = -1
	}
	for i, s := range order {
		l.pos[s] = i
		l.names[i] = g.names[s]
	}
	return l
}

// dense lays a row out in output order; absent attributes become Missing.
func (l layout) dense(row []gridCell) []gridCell {
	out := make([]gridCell, len(l.order))
	for i, s := range l.order {
		out[i] = gridCell{slot: s}
	}
	for _, c := range row {
		if p := l.pos[c.slot]; p >= 0 {
			out[p] = c
		}
	}
	return out
}

// sparse lays a row out in output order keeping only the cells it has (all
// of them for fixed columns, the item's attributes in Dynamic mode).
func (l layout) sparse(row []gridCell) []gridCell {
	out := append([]gridCell(nil), row...)
	sort.SliceStable(out, func(a, b int) bool { return l.pos[out[a].slot] < l.pos[out[b].slot] })
	return out
}

// numeric reports, per output column, whether every non-NULL cell is a
// number (and at least one is): such columns are right-aligned.
func (g *grid) numeric(l layout) []bool {
	seen := make([]bool, len(l.order))
	other := make([]bool, len(l.order))
	for _, row := range g.rows {
		for _, c := range row {
			p := l.pos[c.slot]
			switch {
			case p < 0 || c.null():
			case c.kind == value.Number:
				seen[p] = true
			default:
				other[p] = true
			}
		}
	}
	out := make([]bool, len(l.order))
	for i := range out {
		out[i] = seen[i] && !other[i]
	}
	return out
}
