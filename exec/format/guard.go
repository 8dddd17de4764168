package format

import (
	"errors"

	"github.com/apache/arrow-go/v18/arrow"
)

// impl is one format's writer; guard enforces the call order around it, so
// an impl sees begin once, then batches, then end once.
type impl interface {
	begin(h Header) error
	batch(rec arrow.RecordBatch) error
	end() error
}

// aborter is an impl that holds something to release when a result is
// abandoned (Writer.Abort).
type aborter interface{ abort() }

type state uint8

const (
	stateNew state = iota
	stateOpen
	stateDone
)

// guard implements Writer's lifecycle: Begin once, WriteBatch only while
// open, End exactly once. A failed WriteBatch is sticky: later batches return
// the same error, and End still finishes the output.
type guard struct {
	impl  impl
	state state
	err   error
}

var (
	errNotBegun   = errors.New("format: WriteBatch or End before Begin")
	errTwiceBegun = errors.New("format: Begin called twice")
	errEnded      = errors.New("format: writer already ended")
	errNilBatch   = errors.New("format: nil record batch")
)

func (g *guard) Begin(h Header) error {
	switch g.state {
	case stateOpen:
		return errTwiceBegun
	case stateDone:
		return errEnded
	}
	g.state = stateOpen
	if !h.Dynamic {
		// Every format shows the same names, so a column is called the same
		// in a table, a CSV header and a JSON key: SK, SK_2, SK_3.
		h.Columns = uniqueNames(h.Columns)
	}
	if err := g.impl.begin(h); err != nil {
		g.err = err
		return err
	}
	return nil
}

func (g *guard) WriteBatch(rec arrow.RecordBatch) error {
	switch {
	case g.state == stateNew:
		return errNotBegun
	case g.state == stateDone:
		return errEnded
	case g.err != nil:
		return g.err
	case rec == nil:
		return errNilBatch
	}
	if err := g.impl.batch(rec); err != nil {
		g.err = err
		return err
	}
	return nil
}

func (g *guard) End() error {
	switch g.state {
	case stateNew:
		return errNotBegun
	case stateDone:
		return errEnded
	}
	g.state = stateDone
	return g.impl.end()
}

func (g *guard) Abort() {
	if g.state == stateOpen {
		if a, ok := g.impl.(aborter); ok {
			a.abort()
		}
	}
	g.state = stateDone
}
