package repl

import (
	"fmt"
	"io"
	"strings"

	"github.com/ddbsql/ddbsql/exec/format"
	"github.com/ddbsql/ddbsql/parser/diag"
)

// outputFile is where \o (or -o) sends results: a file, or nothing
// (stdout). It is a format.Destination, so that a parquet or arrow result
// is written whole, renamed into place once complete, and alone in its
// file.
type outputFile struct {
	d *format.Destination
}

// writer is the \o file, or nil when results go to stdout.
func (o *outputFile) writer() io.Writer {
	if o.d == nil {
		return nil
	}
	return o.d
}

// set closes the current file and opens name, created or emptied; ""
// goes back to stdout.
func (o *outputFile) set(name string) error {
	err := o.close()
	if name == "" {
		return err
	}
	if strings.HasPrefix(name, "|") {
		return fmt.Errorf(`\o %s: sending results to a command is not supported; write them to a file and run the command on it`, name)
	}
	d, ferr := format.CreateDestination(name)
	if ferr != nil {
		return fmt.Errorf(`\o %s: %v`, name, unwrapPathError(ferr))
	}
	o.d = d
	return err
}

// adopt takes a file opened by the command line (-o FILE) as the current
// output; nil leaves results on stdout.
func (o *outputFile) adopt(d *format.Destination) {
	if d != nil {
		o.d = d
	}
}

func (o *outputFile) close() error {
	if o.d == nil {
		return nil
	}
	err := o.d.Close()
	name := o.d.Name()
	o.d = nil
	if err != nil {
		return fmt.Errorf(`\o: writing %s: %v`, name, err)
	}
	return nil
}

// binaryToTerminal refuses a parquet or arrow result bound for the
// terminal: binary bytes would garble the screen.
func binaryToTerminal(formatName string) error {
	if !format.IsBinary(formatName) {
		return nil
	}
	return &diag.Error{Phase: diag.Command, Code: diag.CodeUnsupported,
		Msg:  fmt.Sprintf("the %s format writes a binary file, which is not shown on the terminal", formatName),
		Hint: `send results to a file with \o FILE (or -o FILE on the command line), or choose a text format with \format table`}
}
