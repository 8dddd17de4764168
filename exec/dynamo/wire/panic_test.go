package wire

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbsql/ddbsql/exec"
	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/exec/memtest"
	"github.com/ddbsql/ddbsql/exec/session"
	"github.com/ddbsql/ddbsql/planner"
)

// setItemHook installs a decoder fault for the rest of the test.
func setItemHook(t *testing.T, h func()) {
	itemHook.Store(&h)
	t.Cleanup(func() { itemHook.Store(nil) })
}

// panicAfter panics once n items have been decoded.
func panicAfter(n int32) func() {
	var seen atomic.Int32
	return func() {
		if seen.Add(1) > n {
			panic("injected fault in the decoder")
		}
	}
}

// panickingReader hands out half the body, then panics, as a bug in a body
// wrapper would.
type panickingReader struct{ b []byte }

func (r *panickingReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		panic("injected fault in the body reader")
	}
	n := copy(p, r.b[:min(len(r.b), len(p))])
	r.b = r.b[n:]
	return n, nil
}

// readAhead reads a canned Scan page through exec with Raw set, on a
// read-ahead goroutine, and returns the error.
func readAhead(t *testing.T, body []byte, wrap func([]byte) (io.Reader, int64)) error {
	t.Helper()
	client := bodyClient(200, body, wrap)
	env := &exec.Env{Client: client, Mem: memtest.Allocator(t), Stats: exec.NewStats(), Raw: New(client)}
	a := &planner.Access{Op: planner.OpScan, Table: "t", Scans: []*dynamodb.ScanInput{{TableName: aws.String("t")}},
		KeyAttrs: testKeys, ReadAhead: true}
	op, err := exec.Build(env, a)
	if err != nil {
		t.Fatal(err)
	}
	defer op.Close()
	for {
		rec, err := op.Next(context.Background())
		if err != nil {
			return err
		}
		rec.Release()
	}
}

func wantInternal(t *testing.T, err error, msg, frame string) {
	t.Helper()
	var ee *exec.Error
	if !errors.As(err, &ee) || ee.Code != exec.CodeInternal || !strings.Contains(ee.Msg, msg) {
		t.Fatalf("error %T %v, want an internal error saying %q", err, err, msg)
	}
	if stack := string(exec.PanicStack(err)); !strings.Contains(stack, frame) {
		t.Errorf("%s is not on the panic's stack:\n%s", frame, stack)
	}
}

// TestPanicInDecoder checks that a panic in the decoder, on the goroutine
// that reads the pages, becomes the statement's internal error with nothing
// left allocated, and that the decoder and buffers it leaves behind still
// decode the next body exactly.
func TestPanicInDecoder(t *testing.T) {
	body := newPageGen(7).body(50)
	whole := func(b []byte) (io.Reader, int64) { return bytes.NewReader(b), int64(len(b)) }
	unknownLength := func(b []byte) (io.Reader, int64) { return bytes.NewReader(b), -1 }
	for name, wrap := range map[string]func([]byte) (io.Reader, int64){"streamed": whole, "read whole": unknownLength} {
		t.Run(name, func(t *testing.T) {
			setItemHook(t, panicAfter(3))
			wantInternal(t, readAhead(t, body, wrap), "internal error: injected fault in the decoder", "wire.(*decoder).item")
			itemHook.Store(nil)
			if err := readAheadEOF(readAhead(t, body, wrap)); err != nil {
				t.Fatalf("the next read failed: %v", err)
			}
			page, err := DecodePage(append([]byte(nil), body...), memtest.Allocator(t), testKeys)
			if err != nil {
				t.Fatal(err)
			}
			defer page.Release()
			if page.Batch.NumRows() != 50 {
				t.Fatalf("%d rows after the fault, want 50", page.Batch.NumRows())
			}
		})
	}
}

func readAheadEOF(err error) error {
	if err == io.EOF {
		return nil
	}
	return err
}

// TestPanicInBodyReader checks that a panic while the body is read (the
// goroutine that fills the stream) becomes the statement's internal error
// instead of crashing the process, and that the decoder waiting for the
// rest of the body is released.
func TestPanicInBodyReader(t *testing.T) {
	body := newPageGen(11).body(200)
	err := readAhead(t, body, func(b []byte) (io.Reader, int64) { return &panickingReader{b: b[:len(b)/2]}, int64(len(b)) })
	wantInternal(t, err, "internal error: injected fault in the body reader", "wire.(*stream).fill")
}

// TestPanicInDecoderDynalite runs statements through a session with Raw
// against dynalite while the decoder panics: parallel segments and a
// read-ahead Query fail with an internal error, with nothing left
// allocated, and the same statements then give their full results.
func TestPanicInDecoderDynalite(t *testing.T) {
	client := dynalitetest.Client(t)
	prefix := dynalitetest.Prefix(t)
	if err := fixtures.Load(context.Background(), client, prefix, fixtures.App()); err != nil {
		t.Fatal(err)
	}
	app := "`" + prefix + "app`"
	for _, tc := range []struct {
		sql      string
		segments int
	}{
		{"SELECT * FROM " + app, 3},
		{"SELECT PK, SK FROM " + app + " WHERE PK = 'WS#big'", 0},
	} {
		run := func() (string, error) {
			var out bytes.Buffer
			s := session.New(client, &out, io.Discard)
			s.Raw = New(client)
			s.Mem = memtest.Allocator(t)
			s.Format = "csv"
			s.Options.AllowScan, s.Options.Segments = true, tc.segments
			err := s.RunScript(context.Background(), tc.sql)
			return out.String(), err
		}
		setItemHook(t, panicAfter(40))
		_, err := run()
		wantInternal(t, err, "internal error: injected fault in the decoder", "wire.(*decoder).item")
		itemHook.Store(nil)
		out, err := run()
		if err != nil || strings.Count(out, "\n") < 40 {
			t.Fatalf("%s after the fault: %v, %d lines", tc.sql, err, strings.Count(out, "\n"))
		}
	}
}
