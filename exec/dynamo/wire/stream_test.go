package wire

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/ddbsql/ddbsql/exec/memtest"
)

// tricklingReader hands out a body in small random pieces with pauses, as
// a slow network does, so the decoder keeps catching up with the reader.
type tricklingReader struct {
	b   []byte
	r   *rand.Rand
	err error // returned instead of the last part, when set
}

func (t *tricklingReader) Read(p []byte) (int, error) {
	if len(t.b) == 0 {
		return 0, io.EOF
	}
	if t.err != nil && len(t.b) < 1000 {
		return 0, t.err
	}
	n := min(len(p), len(t.b), 1+t.r.IntN(40_000))
	if t.err != nil {
		n = min(n, len(t.b)-999)
	}
	if t.r.IntN(4) == 0 {
		time.Sleep(time.Duration(t.r.IntN(200)) * time.Microsecond)
	}
	copy(p, t.b[:n])
	t.b = t.b[n:]
	return n, nil
}

// TestBodyDelivery runs generated pages through Reader with bodies that
// arrive in pieces, with no Content-Length (read whole, then decoded), and
// with an item bigger than the decoder's look-ahead (decoded again once
// whole): always the SDK path's batch.
func TestBodyDelivery(t *testing.T) {
	big := `{"Items":[{"pk":{"S":"a"},"doc":{"S":"` + strings.Repeat("x", 3*streamMargin) + `"}},{"pk":{"S":"b"}}],"Count":2}`
	for seed := 0; seed < 40; seed++ {
		g := newPageGen(uint64(7000 + seed))
		body := g.body(50 + g.r.IntN(400))
		if seed%10 == 0 {
			body = []byte(big)
		}
		wraps := map[string]func([]byte) (io.Reader, int64){
			"trickle": func(b []byte) (io.Reader, int64) {
				return &tricklingReader{b: b, r: rand.New(rand.NewPCG(uint64(seed), 1))}, int64(len(b))
			},
			"no length": func(b []byte) (io.Reader, int64) { return bytes.NewReader(b), -1 },
		}
		for name, wrap := range wraps {
			mem := memory.NewCheckedAllocator(memtest.Poisoning(memory.NewGoAllocator()))
			want, werr := readPage(t, cannedClient(200, body), nil, mem, testKeys)
			client := bodyClient(200, body, wrap)
			got, gerr := readPage(t, client, New(client), mem, testKeys)
			if werr != nil || gerr != nil {
				t.Fatalf("seed %d %s: %v / %v", seed, name, werr, gerr)
			}
			if err := diffBatches(want, got); err != nil {
				t.Fatalf("seed %d %s: %v", seed, name, err)
			}
			release(want, got)
			mem.AssertSize(t, 0)
		}
	}
}

// TestBodyReadError: a body that breaks off mid-way fails on both paths
// with the same error, and nothing leaks.
func TestBodyReadError(t *testing.T) {
	g := newPageGen(99)
	body := g.body(300)
	broken := errors.New("connection reset by peer")
	wrap := func(b []byte) (io.Reader, int64) {
		return &tricklingReader{b: b, r: rand.New(rand.NewPCG(1, 2)), err: broken}, int64(len(b))
	}
	mem := memory.NewCheckedAllocator(memtest.Poisoning(memory.NewGoAllocator()))
	sdk := bodyClient(200, body, wrap)
	_, werr := readPage(t, sdk, nil, mem, testKeys)
	fast := bodyClient(200, body, wrap)
	_, gerr := readPage(t, fast, New(fast), mem, testKeys)
	if werr == nil || gerr == nil || werr.Error() != gerr.Error() || errKind(werr) != errKind(gerr) {
		t.Fatalf("SDK path %v, fast path %v", werr, gerr)
	}
	if !strings.Contains(gerr.Error(), "connection reset") {
		t.Fatalf("the read error is lost: %v", gerr)
	}
	mem.AssertSize(t, 0)
}
