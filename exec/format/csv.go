package format

import (
	"encoding/csv"
	"io"
)

// csvSink writes RFC 4180 records through encoding/csv (LF line ends).
type csvSink struct {
	w   *csv.Writer
	out io.Writer // what w writes to
}

func newCSVWriter(w io.Writer, opt Options) impl {
	return newDelimited(csvSink{w: csv.NewWriter(w), out: w}, "CSV", opt)
}

// emptyRecord is a record of one empty field. encoding/csv writes it as a
// blank line, which CSV readers (encoding/csv, Python's csv, spreadsheets)
// skip, so a one-column result's NULL and empty-string rows would vanish; quoted, the
// line holds one empty field (what Python's csv module writes).
const emptyRecord = "\"\"\n"

func (s csvSink) write(fields []string) error {
	if len(fields) == 1 && fields[0] == "" {
		s.w.Flush()
		if err := s.w.Error(); err != nil {
			return err
		}
		_, err := io.WriteString(s.out, emptyRecord)
		return err
	}
	return s.w.Write(fields)
}

func (s csvSink) flush() error {
	s.w.Flush()
	return s.w.Error()
}
