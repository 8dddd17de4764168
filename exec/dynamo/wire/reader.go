package wire

import (
	"bytes"
	"context"
	"errors"
	"io"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/ddbsql/ddbsql/exec/dynamo/rawpage"
)

// Reader is a rawpage.Reader over the AWS SDK client: the SDK builds, signs,
// sends and retries every request, resolves endpoints and turns error
// responses into its typed errors; only the body of a successful Query or
// Scan response is decoded here, straight into Arrow.
type Reader struct {
	client *dynamodb.Client
}

var _ rawpage.Reader = (*Reader)(nil)

// New returns a fast reader over client.
func New(client *dynamodb.Client) *Reader { return &Reader{client: client} }

// Query sends a Query and decodes its page.
func (r *Reader) Query(ctx context.Context, in *dynamodb.QueryInput, mem memory.Allocator, keys []string) (*rawpage.Page, error) {
	call := newCall(mem, keys)
	defer call.done()
	out, err := r.client.Query(ctx, in, call.option)
	if err != nil {
		return nil, err
	}
	return call.page(out.Items, out.LastEvaluatedKey, out.Count, out.ScannedCount, out.ConsumedCapacity)
}

// Scan sends a Scan and decodes its page.
func (r *Reader) Scan(ctx context.Context, in *dynamodb.ScanInput, mem memory.Allocator, keys []string) (*rawpage.Page, error) {
	call := newCall(mem, keys)
	defer call.done()
	out, err := r.client.Scan(ctx, in, call.option)
	if err != nil {
		return nil, err
	}
	return call.page(out.Items, out.LastEvaluatedKey, out.Count, out.ScannedCount, out.ConsumedCapacity)
}

// call is the state of one request: the middleware leaves the decoded
// batch here (each attempt replaces the previous one's).
type call struct {
	mem     memory.Allocator
	keys    []string
	body    *[]byte // pooled response body buffer
	decoded bool    // the last attempt's body was decoded here
	batch   arrow.RecordBatch
}

var bodies = sync.Pool{New: func() any { b := make([]byte, 0, 1<<20); return &b }}

func newCall(mem memory.Allocator, keys []string) *call {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	return &call{mem: mem, keys: keys}
}

// option installs the middleware on this request's stack.
func (c *call) option(o *dynamodb.Options) {
	o.APIOptions = append(o.APIOptions, c.install)
}

func (c *call) install(stack *middleware.Stack) error {
	return stack.Deserialize.Insert(&decodeMiddleware{call: c}, "OperationDeserializer", middleware.After)
}

// set keeps an attempt's decoded page, releasing an earlier attempt's.
func (c *call) set(p Page, decoded bool) {
	old := Page{Batch: c.batch}
	old.Release()
	c.batch, c.decoded = p.Batch, decoded
}

// done releases what the caller did not take.
func (c *call) done() {
	c.set(Page{}, false)
	if c.body != nil {
		if cap(*c.body) <= 8<<20 {
			*c.body = (*c.body)[:0]
			bodies.Put(c.body)
		}
		c.body = nil
	}
}

// page assembles the result. When the middleware decoded the body, the SDK
// read the stripped body and items is empty; otherwise (a body the decoder
// left to the SDK) the SDK's items are converted as exec's SDK path does.
func (c *call) page(items []map[string]types.AttributeValue, lek map[string]types.AttributeValue, count, scanned int32, cc *types.ConsumedCapacity) (*rawpage.Page, error) {
	p := &rawpage.Page{LastEvaluatedKey: lek, Count: count, ScannedCount: scanned, ConsumedCapacity: cc}
	if c.decoded && len(items) == 0 {
		p.Batch, c.batch = c.batch, nil
		return p, nil
	}
	rec, err := rawpage.ItemsBatch(c.mem, items, c.keys)
	if err != nil {
		return nil, err
	}
	p.Batch = rec
	return p, nil
}

// fallbacks counts bodies left to the SDK's deserializer (tests check that
// real servers' responses never need it).
var fallbacks atomic.Int64

// decodeMiddleware sits right after the SDK's OperationDeserializer in the
// deserialize step, so it sees the response after the transport and the
// SDK's body wrappers (CRC32 check) and before the SDK unmarshals it. A
// successful response's items are decoded here and the body the SDK reads
// is the same JSON with them taken out (see Strip); error responses, and
// bodies the decoder declines, pass through untouched.
type decodeMiddleware struct{ call *call }

func (*decodeMiddleware) ID() string { return "ddbsql:WireDecode" }

func (m *decodeMiddleware) HandleDeserialize(ctx context.Context, in middleware.DeserializeInput, next middleware.DeserializeHandler) (middleware.DeserializeOutput, middleware.Metadata, error) {
	out, md, err := next.HandleDeserialize(ctx, in)
	if err != nil {
		return out, md, err
	}
	resp, ok := out.RawResponse.(*smithyhttp.Response)
	if !ok || resp.StatusCode < 200 || resp.StatusCode >= 300 || resp.Body == nil {
		return out, md, err
	}
	c := m.call
	c.set(Page{}, false)
	if c.body == nil {
		c.body = bodies.Get().(*[]byte)
	}
	var (
		body       []byte
		page       Page
		rerr, derr error
	)
	if size := resp.ContentLength; size > 0 && size <= maxStreamBody {
		// Decode while the body arrives: a goroutine reads it (and the
		// SDK's CRC32 wrapper hashes it) on the other core.
		if int64(cap(*c.body)) < size {
			*c.body = make([]byte, 0, size)
		}
		st := newStream((*c.body)[:size])
		go st.fill(resp.Body)
		// Should the decoder panic, the reader must be done writing into
		// the pooled buffer before the panic unwinds to where it is reused.
		defer st.all()
		page, derr = decodeStream(st, c.mem, c.keys)
		body, rerr = st.all()
	} else {
		body, rerr = readBody((*c.body)[:0], resp.Body, resp.ContentLength)
		*c.body = body
		if rerr == nil {
			d := getDecoder()
			page, derr = d.decode(body, c.mem, c.keys)
			putDecoder(d)
		}
	}
	if rerr != nil {
		// Let the SDK meet the same read error.
		resp.Body = &replacedBody{Reader: io.MultiReader(bytes.NewReader(body), errReader{rerr}), closer: resp.Body}
		return out, md, err
	}
	if derr != nil {
		// Not something the decoder handles: the SDK decodes the body and
		// Reader converts its items (or reports its error).
		fallbacks.Add(1)
		resp.Body = &replacedBody{Reader: bytes.NewReader(body), closer: resp.Body}
		return out, md, err
	}
	c.set(page, true)
	resp.Body = &replacedBody{Reader: bytes.NewReader(Strip(body, page)), closer: resp.Body}
	return out, md, err
}

// maxStreamBody bounds the bodies decoded while they arrive (a Query or
// Scan page is at most a few MB).
const maxStreamBody = 64 << 20

// readBody reads all of r into buf.
func readBody(buf []byte, r io.Reader, size int64) ([]byte, error) {
	if size > 0 && size < 1<<30 && int64(cap(buf)) < size+1 {
		buf = make([]byte, 0, size+1)
	}
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

type replacedBody struct {
	io.Reader
	closer io.Closer
}

func (b *replacedBody) Close() error { return b.closer.Close() }

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// IsUnsupported reports whether err is the decoder declining well-formed
// input that the SDK path handles.
func IsUnsupported(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Unsupported
}
