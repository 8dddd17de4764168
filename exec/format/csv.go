package format

import (
	"encoding/csv"
	"io"
)

// csvSink writes RFC 4180 records through encoding/csv (LF line ends).
type csvSink struct{ w *csv.Writer }

func newCSVWriter(w io.Writer, opt Options) impl {
	return newDelimited(csvSink{csv.NewWriter(w)}, "CSV", opt)
}

func (s csvSink) write(fields []string) error { return s.w.Write(fields) }

func (s csvSink) flush() error {
	s.w.Flush()
	return s.w.Error()
}
