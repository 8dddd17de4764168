package repl

import (
	"errors"
	"fmt"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// ScriptError is a failure located in a script, psql style: the file (or
// <stdin>) and the line where the failing statement or command starts. A
// syntax error is located at the error itself.
type ScriptError struct {
	Name string // as given: report.sql, <stdin>, -e #2
	Line int    // 1-based
	Err  error
}

func (e *ScriptError) Error() string { return fmt.Sprintf("%s:%d: %v", e.Name, e.Line, e.Err) }

func (e *ScriptError) Unwrap() error { return e.Err }

// locate wraps err with its place in the script name; one already located
// (in a file \i ran) keeps its place, and a script without a name leaves
// errors as they are. \q is not a failure and stays as it is.
func locate(err error, name string, line int) error {
	var located *ScriptError
	if name == "" || errors.As(err, &located) || errors.Is(err, errStopScript) {
		return err
	}
	return &ScriptError{Name: name, Line: line, Err: err}
}

// lineOfParseError is the line a syntax error points at.
func lineOfParseError(err error) int {
	var pe *diag.Error
	if errors.As(err, &pe) && pe.Phase == diag.Parse {
		return pe.Pos.Line
	}
	return 1
}
