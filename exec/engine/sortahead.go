package engine

import (
	"io"

	"github.com/apache/arrow-go/v18/arrow"
)

// A full sort that did not spill gathers its next output batch on a
// goroutine of its own while the caller works on the batch just returned
// (formats it, filters it, writes it): gathering copies every cell of the
// result, and on two cores that copy then costs no wall time beside the
// output. Only the gathering goroutine touches the entries, the position
// and the inputs while it runs; Next and Close wait for it first.

// gathered is a batch gathered ahead, or why it could not be.
type gathered struct {
	rec arrow.RecordBatch
	err error
}

// nextAhead returns the next sorted batch and starts gathering the one
// after it.
func (op *sortOp) nextAhead() (arrow.RecordBatch, error) {
	var g gathered
	if op.ahead != nil {
		g = <-op.ahead
		op.ahead = nil
	} else {
		if op.pos >= len(op.entries) {
			op.releaseInputs()
			return nil, io.EOF
		}
		g.rec, g.err = op.nextInMemory()
	}
	if g.err != nil {
		return nil, g.err
	}
	if op.pos < len(op.entries) {
		ch := make(chan gathered, 1)
		op.ahead = ch
		go func() {
			var next gathered
			next.err = Safely(func() error {
				var err error
				next.rec, err = op.nextInMemory()
				return err
			})
			ch <- next
		}()
	}
	return g.rec, nil
}

// stopAhead waits for a batch being gathered ahead and drops it.
func (op *sortOp) stopAhead() {
	if op.ahead == nil {
		return
	}
	if g := <-op.ahead; g.rec != nil {
		g.rec.Release()
	}
	op.ahead = nil
}
