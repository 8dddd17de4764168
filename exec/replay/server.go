package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/planner/ddblimits"
)

// Options describe the replayed table.
type Options struct {
	// Table is the table name ("t" when empty). Its key is pk (S, HASH)
	// and sk (S, RANGE).
	Table string
	// Items is the number of items (200,000 when 0).
	Items int
	// PartitionSize is the number of items per partition key value (2,000
	// when 0); Query reads one partition.
	PartitionSize int
	// PageBytes is the DynamoDB item size after which a page ends (1 MiB
	// when 0), as DynamoDB stops a Query or Scan page at 1 MB read.
	PageBytes int
	// Lazy builds each page when it is asked for and keeps nothing: memory
	// stays O(page) for tables too big to hold pre-serialized. Otherwise
	// every page is serialized once and then served from memory.
	Lazy bool
	// Keys, when > 0, switches to the narrow shape (narrow.go): items of
	// five attributes whose k takes Keys distinct values.
	Keys int
}

// Server is an in-process DynamoDB endpoint (net/http/httptest) serving
// DescribeTable, ListTables, Query and Scan over a generated table.
type Server struct {
	*httptest.Server
	opts  Options
	gens  sync.Pool
	mu    sync.Mutex
	pages map[pageKey]*page

	requests atomic.Int64
}

// page is one serialized response.
type page struct {
	once  sync.Once
	body  []byte
	crc   string
	items int
}

// pageKey names a page by the item range it covers: items from start
// until the page is full or end is reached.
type pageKey struct{ start, end int }

// New starts a server; Close stops it.
func New(opts Options) *Server {
	if opts.Table == "" {
		opts.Table = "t"
	}
	if opts.Items <= 0 {
		opts.Items = 200_000
	}
	if opts.PartitionSize <= 0 {
		opts.PartitionSize = 2_000
	}
	if opts.PageBytes <= 0 {
		opts.PageBytes = ddblimits.PageBytes
	}
	s := &Server{opts: opts, pages: map[pageKey]*page{}}
	s.gens.New = func() any { return &itemGen{partitionSize: opts.PartitionSize, keys: opts.Keys} }
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Options returns the server's effective options.
func (s *Server) Options() Options { return s.opts }

// Requests is the number of requests served so far.
func (s *Server) Requests() int64 { return s.requests.Load() }

// Connect returns an SDK client for the server, built the way ddbsql
// builds its own (dynamo.Connect; loopback endpoints get dummy credentials).
func (s *Server) Connect(ctx context.Context) (*dynamodb.Client, error) {
	conn, err := dynamo.Connect(ctx, dynamo.ConnectOptions{EndpointURL: s.URL, Region: "us-east-1"})
	if err != nil {
		return nil, err
	}
	return conn.Client, nil
}

// segmentRange is the item range of Scan segment seg of total.
func (s *Server) segmentRange(seg, total int) (int, int) {
	n := s.opts.Items
	return seg * n / total, (seg + 1) * n / total
}

// ScanPages returns the bodies of a Scan of segment seg of total, in
// order (building them if needed): the pages the benchmarks decode without
// HTTP to measure the decode floor.
func (s *Server) ScanPages(seg, total int) [][]byte {
	start, end := s.segmentRange(seg, total)
	var out [][]byte
	for start < end {
		p := s.page(start, end)
		out = append(out, p.body)
		start += p.items
	}
	return out
}

// Prepare serializes every Scan page for each segment count given, so
// that benchmarks do not time the generator.
func (s *Server) Prepare(totals ...int) {
	if s.opts.Lazy {
		return
	}
	for _, total := range totals {
		var wg sync.WaitGroup
		for seg := 0; seg < total; seg++ {
			wg.Add(1)
			go func(seg int) {
				defer wg.Done()
				s.ScanPages(seg, total)
			}(seg)
		}
		wg.Wait()
	}
}

// page returns the page starting at item start of a range ending at end.
func (s *Server) page(start, end int) *page {
	key := pageKey{start, end}
	if s.opts.Lazy {
		p := &page{}
		s.build(p, start, end, 0)
		return p
	}
	s.mu.Lock()
	p, ok := s.pages[key]
	if !ok {
		p = &page{}
		s.pages[key] = p
	}
	s.mu.Unlock()
	p.once.Do(func() { s.build(p, start, end, 0) })
	return p
}

// build serializes items from start until the page holds PageBytes of
// item data, or limit items when limit > 0, or end is reached.
func (s *Server) build(p *page, start, end, limit int) {
	g := s.gens.Get().(*itemGen)
	defer s.gens.Put(g)
	est := s.opts.PageBytes * 2
	if rest := (end - start) * 600; rest < est {
		est = rest + 256
	}
	body := make([]byte, 0, est)
	body = append(body, `{"Items":[`...)
	size, i := 0, start
	for i < end && size < s.opts.PageBytes && (limit <= 0 || i-start < limit) {
		if i > start {
			body = append(body, ',')
		}
		var n int
		body, n = g.item(body, i)
		size += n
		i++
	}
	p.items = i - start
	body = append(body, `],"Count":`...)
	body = strconv.AppendInt(body, int64(p.items), 10)
	body = append(body, `,"ScannedCount":`...)
	body = strconv.AppendInt(body, int64(p.items), 10)
	if i < end {
		body = append(body, `,"LastEvaluatedKey":{"pk":{"S":"`...)
		body = append(body, g.pk(i-1)...)
		body = append(body, `"},"sk":{"S":"`...)
		body = append(body, sk(i-1)...)
		body = append(body, `"}}`...)
	}
	// Eventually consistent reads: half a unit per 4 KB read.
	units := float64((size+ddblimits.ReadUnitBytes-1)/ddblimits.ReadUnitBytes) / 2
	cu := strconv.FormatFloat(units, 'f', -1, 64)
	body = append(body, `,"ConsumedCapacity":{"TableName":"`+s.opts.Table+`","CapacityUnits":`+cu+`,"Table":{"CapacityUnits":`+cu+`}}}`...)
	p.body = body
	p.crc = strconv.FormatUint(uint64(crc32.ChecksumIEEE(body)), 10)
}

// request is the part of a Query, Scan or DescribeTable request the
// server reads. FilterExpression, ProjectionExpression and
// ScanIndexForward are ignored: pages hold whole items in sk order.
type request struct {
	TableName                 string
	ExclusiveStartKey         map[string]map[string]any
	Segment, TotalSegments    *int
	Select                    string
	Limit                     int
	ExpressionAttributeValues map[string]map[string]any
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.requests.Add(1)
	target := r.Header.Get("X-Amz-Target")
	op := target[strings.LastIndexByte(target, '.')+1:]
	var req request
	raw, err := io.ReadAll(r.Body)
	if err == nil && len(raw) > 0 {
		err = json.Unmarshal(raw, &req)
	}
	if err != nil {
		s.fail(w, "SerializationException", "cannot read the request: "+err.Error())
		return
	}
	if op != "ListTables" && req.TableName != s.opts.Table {
		s.fail(w, "ResourceNotFoundException", "Requested resource not found: Table: "+req.TableName+" not found")
		return
	}
	switch op {
	case "DescribeTable":
		s.reply(w, []byte(s.describe()), "")
	case "ListTables":
		s.reply(w, []byte(`{"TableNames":["`+s.opts.Table+`"]}`), "")
	case "Scan":
		start, end := 0, s.opts.Items
		if req.TotalSegments != nil && req.Segment != nil {
			if *req.TotalSegments < 1 || *req.Segment < 0 || *req.Segment >= *req.TotalSegments {
				s.fail(w, "ValidationException", "invalid Segment/TotalSegments")
				return
			}
			start, end = s.segmentRange(*req.Segment, *req.TotalSegments)
		}
		s.read(w, &req, start, end)
	case "Query":
		part := -1
		for _, v := range req.ExpressionAttributeValues {
			if str, ok := v["S"].(string); ok && strings.HasPrefix(str, "TENANT#") {
				if n, err := strconv.Atoi(strings.TrimPrefix(str, "TENANT#")); err == nil {
					part = n
				}
			}
		}
		start, end := part*s.opts.PartitionSize, min((part+1)*s.opts.PartitionSize, s.opts.Items)
		if part < 0 || start >= s.opts.Items {
			start, end = 0, 0
		}
		s.read(w, &req, start, end)
	default:
		s.fail(w, "UnknownOperationException", "replay serves DescribeTable, ListTables, Query and Scan, not "+op)
	}
}

// read answers a Query or Scan over items [start, end).
func (s *Server) read(w http.ResponseWriter, req *request, start, end int) {
	if sk := req.ExclusiveStartKey["sk"]; sk != nil {
		text, _ := sk["S"].(string)
		n, err := strconv.Atoi(strings.TrimPrefix(text, "ORDER#"))
		if err != nil || !strings.HasPrefix(text, "ORDER#") {
			s.fail(w, "ValidationException", "The provided starting key is invalid")
			return
		}
		start = max(start, n+1)
	}
	if start >= end {
		s.reply(w, []byte(`{"Items":[],"Count":0,"ScannedCount":0}`), "")
		return
	}
	p := s.page(start, end)
	if req.Limit > 0 && req.Limit < p.items {
		// Limit ends the page early: built for this request only.
		p = &page{}
		s.build(p, start, end, req.Limit)
	}
	if req.Select == "COUNT" {
		body := p.body[bytes.Index(p.body, []byte(`],"Count":`))+2:]
		s.reply(w, append([]byte{'{'}, body...), "")
		return
	}
	s.reply(w, p.body, p.crc)
}

func (s *Server) reply(w http.ResponseWriter, body []byte, crc string) {
	h := w.Header()
	h.Set("Content-Type", "application/x-amz-json-1.0")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	if crc == "" {
		crc = strconv.FormatUint(uint64(crc32.ChecksumIEEE(body)), 10)
	}
	h.Set("X-Amz-Crc32", crc)
	h.Set("X-Amzn-Requestid", "replay")
	w.WriteHeader(http.StatusOK)
	w.Write(body)
}

func (s *Server) fail(w http.ResponseWriter, code, msg string) {
	body, _ := json.Marshal(map[string]string{"__type": "com.amazonaws.dynamodb.v20120810#" + code, "message": msg})
	h := w.Header()
	h.Set("Content-Type", "application/x-amz-json-1.0")
	h.Set("X-Amzn-Requestid", "replay")
	w.WriteHeader(http.StatusBadRequest)
	w.Write(body)
}

func (s *Server) describe() string {
	// About 290 bytes of item data per item (60 in the narrow shape).
	size := int64(s.opts.Items) * 290
	if s.opts.Keys > 0 {
		size = int64(s.opts.Items) * 60
	}
	return fmt.Sprintf(`{"Table":{"TableName":%q,"TableStatus":"ACTIVE",`+
		`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],`+
		`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"}],`+
		`"ItemCount":%d,"TableSizeBytes":%d,"TableArn":"arn:aws:dynamodb:us-east-1:000000000000:table/%s",`+
		`"BillingModeSummary":{"BillingMode":"PAY_PER_REQUEST"},"CreationDateTime":1.7E9}}`,
		s.opts.Table, s.opts.Items, size, s.opts.Table)
}
