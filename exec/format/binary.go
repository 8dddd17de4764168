package format

import (
	"io"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/ddbsql/ddbsql/exec/columnar"
)

// encoder writes the final file of a binary format: the schema, then the
// batches produce hands it, in order. columns are the decided types, one
// per field of schema.
type encoder func(out io.Writer, schema *arrow.Schema, columns []outColumn, mem memory.Allocator, produce func(write func(arrow.RecordBatch) error) error) error

// binaryWriter is Parquet and Arrow output. A column's type must hold every
// value of the result (a number column is decimal128 only if every number
// fits one scale), which a stream cannot know before its end, so the
// writer spools the batches to a temporary Arrow IPC file while it learns
// each column's facts, then writes the final file at End with the decided
// schema. It writes nothing to the destination before End.
type binaryWriter struct {
	out     io.Writer
	mem     memory.Allocator
	tempDir string // where the spool goes; "": os.TempDir()
	label   string // "Parquet" or "Arrow", for messages
	encode  encoder
	h       Header
	spool   *spool
	names   []string       // slot → output column name
	slotOf  map[string]int // Dynamic: output name → slot
	facts   []columnFacts  // slot → what its values are
	cv      *converter     // at End: converts the spooled batches
}

func newBinaryWriter(w io.Writer, opt Options, label string, enc encoder) *binaryWriter {
	mem := opt.Mem
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	return &binaryWriter{out: w, mem: mem, tempDir: opt.TempDir, label: label, encode: enc}
}

func (b *binaryWriter) begin(h Header) error {
	if d, ok := b.out.(*Destination); ok {
		if err := d.reserve(b.label); err != nil {
			return err
		}
	}
	b.h = h
	if h.Dynamic {
		b.slotOf = map[string]int{}
		for _, k := range h.KeyColumns {
			b.slot(k)
		}
	} else {
		b.names = h.Columns
		b.facts = make([]columnFacts, len(h.Columns))
	}
	s, err := newSpool(b.mem, b.tempDir)
	if err != nil {
		return err
	}
	b.spool = s
	return nil
}

func (b *binaryWriter) slot(name string) int {
	if s, ok := b.slotOf[name]; ok {
		return s
	}
	b.slotOf[name] = len(b.names)
	b.names = append(b.names, name)
	b.facts = append(b.facts, columnFacts{})
	return len(b.names) - 1
}

// slots maps a batch's columns to output slots (new attributes get one).
func (b *binaryWriter) slots(cols []columnar.Column, names []string) ([]int, error) {
	if !b.h.Dynamic {
		if len(cols) != len(b.names) {
			return nil, columnCountError(len(cols), len(b.names))
		}
		return identity(len(cols)), nil
	}
	out := make([]int, len(names))
	for c, n := range dynamicNames(names, b.h.KeyColumns) {
		out[c] = b.slot(n)
	}
	return out, nil
}

func (b *binaryWriter) batch(rec arrow.RecordBatch) error {
	cols, names, err := batchColumns(rec)
	if err != nil {
		return err
	}
	slots, err := b.slots(cols, names)
	if err != nil {
		return err
	}
	rows := int(rec.NumRows())
	for c, s := range slots {
		if err := b.facts[s].observe(cols[c], names[c], rows); err != nil {
			return err
		}
	}
	if rows == 0 {
		return nil
	}
	return b.spool.add(rec)
}

// layout is the output order of the slots: fixed columns as given; for
// SELECT * the key attributes, then the others in byte order of their
// names, as every format orders them.
func (b *binaryWriter) layout() []int {
	order := identity(len(b.names))
	if b.h.Dynamic {
		rest := order[min(len(b.h.KeyColumns), len(order)):]
		sort.Slice(rest, func(i, j int) bool { return b.names[rest[i]] < b.names[rest[j]] })
	}
	return order
}

func (b *binaryWriter) end() error {
	defer b.abort()
	order := b.layout()
	types := make([]outColumn, len(order))
	fields := make([]arrow.Field, len(order))
	for i, s := range order {
		types[i] = b.facts[s].decide()
		fields[i] = arrow.Field{Name: b.names[s], Type: types[i].arrowType(), Nullable: true}
	}
	schema := arrow.NewSchema(fields, nil)
	produce := func(write func(arrow.RecordBatch) error) error {
		return b.spool.each(func(rec arrow.RecordBatch) error {
			out, err := b.convert(rec, schema, order, types)
			if err != nil {
				return err
			}
			defer out.Release()
			return write(out)
		})
	}
	encode := func(w io.Writer) error { return b.encode(w, schema, types, b.mem, produce) }
	if d, ok := b.out.(*Destination); ok {
		return d.writeWhole(b.label, encode)
	}
	return encode(b.out)
}

// convert builds a spooled batch's record in the final schema.
func (b *binaryWriter) convert(rec arrow.RecordBatch, schema *arrow.Schema, order []int, types []outColumn) (arrow.RecordBatch, error) {
	cols, names, err := batchColumns(rec)
	if err != nil {
		return nil, err
	}
	slots, err := b.slots(cols, names)
	if err != nil {
		return nil, err
	}
	from := make([]int, len(b.names)) // slot → batch column, -1: absent
	for i := range from {
		from[i] = -1
	}
	for c, s := range slots {
		from[s] = c
	}
	rows := int(rec.NumRows())
	if b.cv == nil {
		b.cv = &converter{mem: b.mem}
	}
	cv := b.cv
	arrs := make([]arrow.Array, len(order))
	defer func() {
		for _, a := range arrs {
			if a != nil {
				a.Release()
			}
		}
	}()
	for i, s := range order {
		c := from[s]
		if c < 0 {
			arrs[i] = array.MakeArrayOfNull(b.mem, types[i].arrowType(), rows)
			continue
		}
		if arrs[i], err = cv.column(cols[c], names[c], i, types[i], rows); err != nil {
			return nil, err
		}
	}
	return array.NewRecordBatch(schema, arrs, int64(rows)), nil
}

// abort drops the spool; the destination has received nothing.
func (b *binaryWriter) abort() {
	if b.spool != nil {
		_ = b.spool.close()
		b.spool = nil
	}
}
