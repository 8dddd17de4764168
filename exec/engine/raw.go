package engine

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// qualifyBatch renames a batch's columns to QualifiedName(source, attr) for
// joined rows; with source < 0 it returns the batch unchanged.
func qualifyBatch(rec arrow.RecordBatch, source int) arrow.RecordBatch {
	if source < 0 {
		return rec
	}
	fields := rec.Schema().Fields()
	for i := range fields {
		fields[i].Name = QualifiedName(source, fields[i].Name)
	}
	out := array.NewRecordBatch(arrow.NewSchema(fields, nil), rec.Columns(), rec.NumRows())
	rec.Release()
	return out
}
