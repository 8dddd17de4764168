package format

import (
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/jedib0t/go-pretty/v6/table"
	"github.com/jedib0t/go-pretty/v6/text"
)

// gridWriter buffers every row (column widths need them all) and renders the
// whole result at End: table, expanded table, or markdown.
type gridWriter struct {
	out    io.Writer
	opt    Options
	grid   *grid
	render func(g *grid, opt Options) string
}

func newTableWriter(w io.Writer, opt Options) impl {
	if opt.Expanded {
		return &gridWriter{out: w, opt: opt, render: renderExpanded}
	}
	return &gridWriter{out: w, opt: opt, render: renderTable}
}

func newMarkdownWriter(w io.Writer, opt Options) impl {
	return &gridWriter{out: w, opt: opt, render: renderMarkdown}
}

func (t *gridWriter) begin(h Header) error {
	t.grid = newGrid(h)
	return nil
}

func (t *gridWriter) batch(rec arrow.RecordBatch) error { return t.grid.add(rec) }

func (t *gridWriter) end() error {
	s := t.render(t.grid, t.opt)
	if s == "" {
		return nil
	}
	_, err := io.WriteString(t.out, s+"\n")
	return err
}

// prettyTable loads the grid into a go-pretty table: header as written
// (no upper-casing), NULL as opt.NullText, all-number columns right-aligned.
func prettyTable(g *grid, opt Options) table.Writer {
	l := g.layout()
	t := table.NewWriter()
	style := table.StyleDefault
	style.Format.Header = text.FormatDefault
	style.Format.Footer = text.FormatDefault
	t.SetStyle(style)

	header := make(table.Row, len(l.names))
	for i, n := range l.names {
		header[i] = displayText(n)
	}
	t.AppendHeader(header)

	configs := make([]table.ColumnConfig, len(l.names))
	for i, num := range g.numeric(l) {
		align := text.AlignLeft
		if num {
			align = text.AlignRight
		}
		configs[i] = table.ColumnConfig{Number: i + 1, Align: align, AlignHeader: align}
	}
	t.SetColumnConfigs(configs)

	for _, row := range g.rows {
		cells := l.dense(row)
		r := make(table.Row, len(cells))
		for i, c := range cells {
			r[i] = cellDisplay(c, opt)
		}
		t.AppendRow(r)
	}
	return t
}

func cellDisplay(c gridCell, opt Options) string {
	if c.null() {
		return opt.NullText
	}
	return displayText(c.text)
}

func renderTable(g *grid, opt Options) string { return prettyTable(g, opt).Render() }
