package repl

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// outputFile is where \o sends results: a file, or nothing (stdout).
type outputFile struct {
	f    *os.File
	name string
}

// writer is the \o file, or nil when results go to stdout.
func (o *outputFile) writer() io.Writer {
	if o.f == nil {
		return nil
	}
	return o.f
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
	f, ferr := os.Create(name)
	if ferr != nil {
		return fmt.Errorf(`\o %s: %v`, name, unwrapPathError(ferr))
	}
	o.f, o.name = f, name
	return err
}

func (o *outputFile) close() error {
	if o.f == nil {
		return nil
	}
	err := o.f.Close()
	name := o.name
	o.f, o.name = nil, ""
	if err != nil {
		return fmt.Errorf(`\o: writing %s: %v`, name, err)
	}
	return nil
}
