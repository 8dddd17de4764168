package rawpage

import "fmt"

// PanicError is a panic a Reader caught on a goroutine of its own (one
// that reads a response body), returned as that read's error so the
// process survives it. exec reports it as the statement's internal error,
// with Stack as the panic's stack.
type PanicError struct {
	Value any
	Stack []byte
}

func (e *PanicError) Error() string { return fmt.Sprint("panic: ", e.Value) }
