package wire

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"net/http"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/exec/dynamo/rawpage"
	"github.com/ddbsql/ddbsql/planner/value"
)

// doerFunc is an in-process HTTP client for the SDK.
type doerFunc func(*http.Request) (*http.Response, error)

func (f doerFunc) Do(r *http.Request) (*http.Response, error) { return f(r) }

// cannedClient is a real SDK client whose HTTP client answers a request
// with status and body (and DynamoDB's CRC32 header); a request that
// continues from an ExclusiveStartKey gets an empty last page.
func cannedClient(status int, first []byte) *dynamodb.Client {
	return bodyClient(status, first, func(b []byte) (io.Reader, int64) { return bytes.NewReader(b), int64(len(b)) })
}

// bodyClient is cannedClient with the response body (and its announced
// length, -1 for unknown) made by wrap.
func bodyClient(status int, first []byte, wrap func([]byte) (io.Reader, int64)) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region:           "us-east-1",
		BaseEndpoint:     aws.String("http://wire.test"),
		Credentials:      credentials.NewStaticCredentialsProvider("k", "s", ""),
		RetryMaxAttempts: 1,
		HTTPClient: doerFunc(func(r *http.Request) (*http.Response, error) {
			body := first
			if r.Body != nil {
				req, _ := io.ReadAll(r.Body)
				r.Body.Close()
				if bytes.Contains(req, []byte("ExclusiveStartKey")) {
					body = []byte(`{"Items":[],"Count":0,"ScannedCount":0}`)
				}
			}
			h := http.Header{}
			h.Set("Content-Type", "application/x-amz-json-1.0")
			h.Set("X-Amz-Crc32", strconv.FormatUint(uint64(crc32.ChecksumIEEE(body)), 10))
			if status != 200 {
				h.Set("X-Amzn-Errortype", "ValidationException")
			}
			rd, size := wrap(body)
			return &http.Response{StatusCode: status, Header: h, Body: io.NopCloser(rd),
				ContentLength: size, Request: r, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}, nil
		}),
	})
}

// readPage reads one Scan page of client: with raw nil the SDK's way
// (client.Scan, then rawpage.ItemsBatch, the conversion exec's read
// operators make of SDK items), with raw set through raw. It returns the
// batch (nil when the page is empty, as exec skips empty pages) and the
// error.
func readPage(t testing.TB, client *dynamodb.Client, raw rawpage.Reader, mem memory.Allocator, keys []string) (arrow.RecordBatch, error) {
	t.Helper()
	in := &dynamodb.ScanInput{TableName: aws.String("t")}
	if raw != nil {
		page, err := raw.Scan(context.Background(), in, mem, keys)
		if err != nil {
			return nil, err
		}
		return nonEmpty(page.Batch), nil
	}
	out, err := client.Scan(context.Background(), in)
	if err != nil {
		return nil, err
	}
	rec, err := rawpage.ItemsBatch(mem, out.Items, keys)
	if err != nil {
		return nil, err
	}
	return nonEmpty(rec), nil
}

// diffBatches reports the first difference between two batches: field
// names, types, encodings, row counts, then every value (compared by
// value.Order and by its exact encoding).
func diffBatches(want, got arrow.RecordBatch) error {
	if (want == nil) != (got == nil) {
		return fmt.Errorf("batch presence: want %v, got %v", want != nil, got != nil)
	}
	if want == nil {
		return nil
	}
	if want.NumRows() != got.NumRows() || want.NumCols() != got.NumCols() {
		return fmt.Errorf("shape: want %d rows × %d cols %v, got %d × %d %v", want.NumRows(), want.NumCols(), fieldNames(want), got.NumRows(), got.NumCols(), fieldNames(got))
	}
	for c := 0; c < int(want.NumCols()); c++ {
		wf, gf := want.Schema().Field(c), got.Schema().Field(c)
		if wf.Name != gf.Name || !arrow.TypeEqual(wf.Type, gf.Type) || !wf.Metadata.Equal(gf.Metadata) || wf.Nullable != gf.Nullable {
			return fmt.Errorf("field %d: want %v, got %v", c, wf, gf)
		}
		wc, gc := columnar.ColumnOf(want, c), columnar.ColumnOf(got, c)
		if wc.Encoding() != gc.Encoding() {
			return fmt.Errorf("column %q: encoding want %d, got %d", wf.Name, wc.Encoding(), gc.Encoding())
		}
		for r := 0; r < int(want.NumRows()); r++ {
			wv, gv := wc.Value(r), gc.Value(r)
			if wv.Kind() != gv.Kind() || value.Order(wv, gv) != 0 ||
				!bytes.Equal(value.AppendBinary(nil, wv), value.AppendBinary(nil, gv)) {
				return fmt.Errorf("column %q row %d: want %s %s, got %s %s", wf.Name, r, wv.Kind(), wv.JSON(), gv.Kind(), gv.JSON())
			}
		}
	}
	return nil
}

func fieldNames(rec arrow.RecordBatch) []string {
	var out []string
	for _, f := range rec.Schema().Fields() {
		out = append(out, f.Name)
	}
	return out
}

// errKind tells errors apart as exec.DynamoError does where the two paths
// could differ: an item neither can read, a panic caught while reading, an
// API error by its code, anything else.
func errKind(err error) string {
	var unreadable *rawpage.ItemError
	var caught *rawpage.PanicError
	var apiErr smithy.APIError
	switch {
	case err == nil:
		return ""
	case errors.As(err, &unreadable):
		return "decode"
	case errors.As(err, &caught):
		return "panic"
	case errors.As(err, &apiErr):
		return "api " + apiErr.ErrorCode()
	}
	return "other"
}

func release(recs ...arrow.RecordBatch) {
	for _, r := range recs {
		if r != nil {
			r.Release()
		}
	}
}
