package wire

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/exec/dynamo/rawpage"
	"github.com/ddbsql/ddbsql/exec/memtest"
	"github.com/ddbsql/ddbsql/exec/session"
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

// scanCaught reads a canned Scan page through Reader and returns its
// error. A panic that escapes Scan (the decoder's: it runs on the caller's
// goroutine, which in exec is one that reads pages under exec.Safely) is
// returned as a *rawpage.PanicError with the panic's stack.
func scanCaught(t *testing.T, body []byte, wrap func([]byte) (io.Reader, int64)) (err error) {
	t.Helper()
	client := bodyClient(200, body, wrap)
	defer func() {
		if v := recover(); v != nil {
			err = &rawpage.PanicError{Value: v, Stack: debug.Stack()}
		}
	}()
	page, err := New(client).Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String("t")}, memtest.Allocator(t), testKeys)
	if err == nil && page.Batch != nil {
		page.Batch.Release()
	}
	return err
}

// wantPanic checks that err is a panic caught while reading, with value
// msg and frame on its stack.
func wantPanic(t *testing.T, err error, msg, frame string) {
	t.Helper()
	var caught *rawpage.PanicError
	if !errors.As(err, &caught) || fmt.Sprint(caught.Value) != msg {
		t.Fatalf("error %T %v, want the panic %q", err, err, msg)
	}
	if stack := string(caught.Stack); !strings.Contains(stack, frame) {
		t.Errorf("%s is not on the panic's stack:\n%s", frame, stack)
	}
}

// TestPanicInDecoder checks that a panic in the decoder leaves Scan on the
// goroutine that called it (exec's page reader, which makes it the
// statement's internal error) with nothing left allocated, and that the
// decoder and buffers it leaves behind still decode the next body exactly.
func TestPanicInDecoder(t *testing.T) {
	body := newPageGen(7).body(50)
	whole := func(b []byte) (io.Reader, int64) { return bytes.NewReader(b), int64(len(b)) }
	unknownLength := func(b []byte) (io.Reader, int64) { return bytes.NewReader(b), -1 }
	for name, wrap := range map[string]func([]byte) (io.Reader, int64){"streamed": whole, "read whole": unknownLength} {
		t.Run(name, func(t *testing.T) {
			setItemHook(t, panicAfter(3))
			wantPanic(t, scanCaught(t, body, wrap), "injected fault in the decoder", "wire.(*decoder).item")
			itemHook.Store(nil)
			if err := scanCaught(t, body, wrap); err != nil {
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

// TestPanicInBodyReader checks that a panic while the body is read (the
// goroutine that fills the stream) comes back from Scan as its error (a
// *rawpage.PanicError, which exec reports as an internal error) instead of
// crashing the process, and that the decoder waiting for the rest of the
// body is released.
func TestPanicInBodyReader(t *testing.T) {
	body := newPageGen(11).body(200)
	err := scanCaught(t, body, func(b []byte) (io.Reader, int64) { return &panickingReader{b: b[:len(b)/2]}, int64(len(b)) })
	wantPanic(t, err, "injected fault in the body reader", "wire.(*stream).fill")
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
			cfg := session.DefaultConfig()
			cfg.Raw = New(client)
			cfg.Mem = memtest.Allocator(t)
			cfg.Format = "csv"
			cfg.Plan.AllowScan, cfg.Plan.Segments = true, tc.segments
			s := session.New(client, &out, io.Discard, cfg)
			err := s.RunScript(context.Background(), tc.sql)
			return out.String(), err
		}
		setItemHook(t, panicAfter(40))
		_, err := run()
		if want := "internal error: injected fault in the decoder (please report this statement)"; err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Fatalf("%s: error %v, want it to start with %q", tc.sql, err, want)
		}
		itemHook.Store(nil)
		out, err := run()
		if err != nil || strings.Count(out, "\n") < 40 {
			t.Fatalf("%s after the fault: %v, %d lines", tc.sql, err, strings.Count(out, "\n"))
		}
	}
}
