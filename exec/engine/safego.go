package engine

import (
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// A panic that escapes a goroutine ends the process with a stack trace,
// whichever goroutine it happens on, and no recover on the statement's own
// goroutine can catch it. So every goroutine the engine starts (read-ahead,
// scan segments, IN-list first pages, lookup and BatchGetItem workers, the
// response reader, the progress line, the REPL's background look-ups) runs
// its work under Safely, and hands the error it returns back the way it
// hands back any other error: a bug in a worker then fails its statement
// with diag.CodeInternal, the other workers are stopped and their pages
// released, like for a DynamoDB error.

// Safely calls fn and returns its error, or, when fn panics, the internal
// error the panic becomes (PanicError).
func Safely(fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = PanicError(r)
		}
	}()
	return fn()
}

// PanicError turns a recovered panic value into a statement's error. Call
// it from the deferred function that recovered, so that the stack it keeps
// (PanicStack) is the panic's.
func PanicError(r any) *diag.Error { return panicError(r, debug.Stack()) }

// panicError is the internal error of a panic with value r and stack.
func panicError(r any, stack []byte) *diag.Error {
	return &diag.Error{Phase: diag.Execute, Code: diag.CodeInternal, Msg: fmt.Sprintf("internal error: %v (please report this statement)", r),
		Cause: &panicked{value: r, stack: stack}}
}

// panicked is what a PanicError wraps: the value and where it came from.
type panicked struct {
	value any
	stack []byte
}

func (p *panicked) Error() string { return fmt.Sprint("panic: ", p.value) }

// PanicStack returns the stack of the panic behind err, or nil when err
// did not come from one. Users never see it; DDBSQL_DEBUG prints it.
func PanicStack(err error) []byte {
	var p *panicked
	if errors.As(err, &p) {
		return p.stack
	}
	return nil
}
