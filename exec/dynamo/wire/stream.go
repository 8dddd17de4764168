package wire

import (
	"io"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/ddbsql/ddbsql/exec/dynamo/rawpage"
)

// streamMargin is how far ahead of the decoder the body must have arrived
// before it decodes the next item (or top-level member). An item larger
// than that may meet the end of what has arrived: the decode then fails
// and is redone once the whole body is there.
const streamMargin = 128 << 10

// stream is a response body being read into buf by one goroutine (fill)
// while the decoder reads the part that has arrived, so that the transfer
// (kernel copies, the SDK's CRC32) overlaps decoding instead of preceding
// it.
type stream struct {
	buf  []byte
	n    atomic.Int64 // bytes of buf filled
	mu   sync.Mutex
	cond sync.Cond
	done bool
	err  error
	rest []byte // bytes beyond len(buf), if the body was longer than announced
}

func newStream(buf []byte) *stream {
	s := &stream{buf: buf}
	s.cond.L = &s.mu
	return s
}

// fill reads r to its end into buf; run it on its own goroutine. A panic
// while reading (in the SDK's body wrappers) ends the body with a
// *rawpage.PanicError, as a read error would (exec reports it as an
// internal error).
func (s *stream) fill(r io.Reader) {
	err := s.readCaught(r)
	s.mu.Lock()
	s.done, s.err = true, err
	s.cond.Broadcast()
	s.mu.Unlock()
}

// readCaught is read with a panic turned into its error.
func (s *stream) readCaught(r io.Reader) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &rawpage.PanicError{Value: v, Stack: debug.Stack()}
		}
	}()
	return s.read(r)
}

func (s *stream) read(r io.Reader) error {
	n := 0
	var err error
	for n < len(s.buf) && err == nil {
		var k int
		k, err = r.Read(s.buf[n:])
		n += k
		s.mu.Lock()
		s.n.Store(int64(n))
		s.cond.Broadcast()
		s.mu.Unlock()
	}
	if err == nil {
		// Expect EOF: a body longer than Content-Length is kept whole.
		var extra []byte
		extra, err = readBody(nil, r, 0)
		s.rest = extra
	}
	if err == io.EOF {
		err = nil
	}
	if err == nil && n < len(s.buf) {
		err = io.ErrUnexpectedEOF
	}
	return err
}

// wait returns the arrived prefix once it holds at least want bytes or the
// body is complete.
func (s *stream) wait(want int) []byte {
	if n := int(s.n.Load()); n >= want || n == len(s.buf) {
		return s.buf[:n]
	}
	s.mu.Lock()
	for !s.done && int(s.n.Load()) < want {
		s.cond.Wait()
	}
	n := s.n.Load()
	s.mu.Unlock()
	return s.buf[:n]
}

// all waits for the whole body and returns what arrived and the read error.
func (s *stream) all() ([]byte, error) {
	s.mu.Lock()
	for !s.done {
		s.cond.Wait()
	}
	s.mu.Unlock()
	body := s.buf[:s.n.Load()]
	if len(s.rest) > 0 {
		body = append(body, s.rest...)
	}
	return body, s.err
}

// more makes sure the decoder sees at least want bytes when the body is
// still arriving.
func (d *decoder) more(want int) {
	if d.src != nil && len(d.b) < want {
		d.b = d.src.wait(want)
	}
}

// decodeStream decodes a body while fill is still reading it. A decode
// that failed on a prefix is redone on the whole body; a read error is
// returned as such (the caller passes it to the SDK).
func decodeStream(s *stream, mem memory.Allocator, keys []string) (Page, error) {
	d := getDecoder()
	p, err := d.decodeStream(s, mem, keys)
	// Not deferred: a decoder a panic left halfway is not reused.
	putDecoder(d)
	return p, err
}

func (d *decoder) decodeStream(s *stream, mem memory.Allocator, keys []string) (Page, error) {
	d.src = s
	p, err := d.decode(s.wait(streamMargin), mem, keys)
	d.src = nil
	full, rerr := s.all()
	if rerr != nil {
		p.Release()
		return Page{}, rerr
	}
	if (err != nil && len(d.b) < len(full)) || (err == nil && len(s.rest) > 0) {
		// A decode that met the end of what had arrived, or (never with
		// HTTP/1.1 framing) a body longer than announced: decode it whole.
		p.Release()
		return d.decode(full, mem, keys)
	}
	return p, err
}
