package format

import (
	"bufio"
	"io"
	"strings"
)

// tsvSink writes tab-separated records, escaping like MySQL's batch mode:
// backslash, tab, newline, carriage return and NUL become \\ \t \n \r \0.
type tsvSink struct{ w *bufio.Writer }

func newTSVWriter(w io.Writer, opt Options) impl {
	return newDelimited(tsvSink{bufio.NewWriter(w)}, "TSV", opt)
}

var tsvEscaper = strings.NewReplacer(`\`, `\\`, "\t", `\t`, "\n", `\n`, "\r", `\r`, "\x00", `\0`)

func (s tsvSink) write(fields []string) error {
	for i, f := range fields {
		if i > 0 {
			_ = s.w.WriteByte('\t')
		}
		_, _ = tsvEscaper.WriteString(s.w, f)
	}
	return s.w.WriteByte('\n')
}

func (s tsvSink) flush() error { return s.w.Flush() }
