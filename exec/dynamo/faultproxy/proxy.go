package faultproxy

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Fault is one way an attempt fails.
type Fault int

// The faults, None for an attempt forwarded as it is.
const (
	None Fault = iota
	Throttling
	Provisioned
	ServerError
	Reset
	ResetMidBody
	Stall
)

var names = map[Fault]string{None: "none", Throttling: "ThrottlingException",
	Provisioned: "ProvisionedThroughputExceededException", ServerError: "HTTP 500",
	Reset: "connection reset", ResetMidBody: "reset mid-body", Stall: "stall"}

func (f Fault) String() string { return names[f] }

// Proxy forwards requests to dynalite and fails some attempts. Set its
// exported fields before the first request.
type Proxy struct {
	t      testing.TB
	target string
	prefix string // the tables' name prefix, left out of the hash
	client *http.Client
	seed   uint64
	rate   float64 // share of attempts that fail
	kinds  []Fault

	// Stall is how long a stalled attempt waits before it is forwarded
	// (3 s unless set).
	Stall time.Duration
	// Healthy lets this many requests through before faults start.
	Healthy int64
	// Faulted, when set, says which operations (the X-Amz-Target header,
	// e.g. "DynamoDB_20120810.BatchWriteItem") may be failed; by default
	// item operations, Query and Scan.
	Faulted func(target string) bool

	seen atomic.Int64
	mu   sync.Mutex
	hits map[Fault]int
}

// New starts a proxy to target (closed when the test ends) that fails a
// share rate of attempts with one of kinds.
func New(t testing.TB, target, prefix string, seed uint64, rate float64, kinds ...Fault) (*Proxy, *httptest.Server) {
	p := &Proxy{t: t, target: target, prefix: prefix, client: &http.Client{Timeout: time.Minute}, seed: seed, rate: rate, kinds: kinds,
		Stall: 3 * time.Second, hits: map[Fault]int{}}
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	return p, srv
}

// DataOps is the default Faulted: item operations, Query and Scan.
func DataOps(target string) bool {
	return strings.HasSuffix(target, "Item") || strings.Contains(target, "Query") || strings.Contains(target, "Scan")
}

func (p *Proxy) choose(r *http.Request, body []byte) Fault {
	if p.seen.Add(1) <= p.Healthy || p.rate == 0 || len(p.kinds) == 0 {
		return None
	}
	h := fnv.New64a()
	// amz-sdk-request is "attempt=N; max=M" (plus a ttl= on retries).
	attempt := attemptRE.FindString(r.Header.Get("Amz-Sdk-Request"))
	fmt.Fprintf(h, "%d|%s|%s|", p.seed, r.Header.Get("X-Amz-Target"), attempt)
	h.Write(bytes.ReplaceAll(canonicalJSON(body), []byte(p.prefix), nil))
	sum := h.Sum64()
	if float64(sum%1_000_000)/1_000_000 >= p.rate {
		return None
	}
	return p.kinds[(sum/1_000_000)%uint64(len(p.kinds))]
}

// Counts says how many attempts got each fault (None: forwarded).
func (p *Proxy) Counts() map[Fault]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := map[Fault]int{}
	for k, v := range p.hits {
		out[k] = v
	}
	return out
}

// ServeHTTP answers one attempt.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	f := None
	faulted := p.Faulted
	if faulted == nil {
		faulted = DataOps
	}
	if faulted(r.Header.Get("X-Amz-Target")) {
		f = p.choose(r, body)
	}
	p.mu.Lock()
	p.hits[f]++
	p.mu.Unlock()
	switch f {
	case None:
		p.forward(w, r, body)
	case Throttling:
		dynamoError(w, http.StatusBadRequest, "ThrottlingException", "Rate of requests exceeds the allowed throughput.")
	case Provisioned:
		dynamoError(w, http.StatusBadRequest, "ProvisionedThroughputExceededException",
			"The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.")
	case ServerError:
		dynamoError(w, http.StatusInternalServerError, "InternalServerError", "Internal server error")
	case Reset:
		resetConn(w, nil)
	case ResetMidBody:
		rec := httptest.NewRecorder()
		p.forward(rec, r, body)
		var head bytes.Buffer
		resp := rec.Result()
		fmt.Fprintf(&head, "HTTP/1.1 %d %s\r\n", resp.StatusCode, http.StatusText(resp.StatusCode))
		_ = resp.Header.Write(&head)
		fmt.Fprintf(&head, "\r\n")
		b := rec.Body.Bytes()
		head.Write(b[:len(b)/2])
		resetConn(w, head.Bytes())
	case Stall:
		select {
		case <-time.After(p.Stall):
			p.forward(w, r, body)
		case <-r.Context().Done():
		}
	}
}

// forward sends the request on to dynalite and copies the answer back. The
// upstream request is not tied to the client's: a client that gives up (a
// timeout, a cancelled segment) must not abort a request dynalite is still
// answering, which makes the shared dynalite process exit.
func (p *Proxy) forward(w http.ResponseWriter, r *http.Request, body []byte) {
	req, err := http.NewRequestWithContext(context.Background(), r.Method, p.target+r.URL.RequestURI(), bytes.NewReader(body))
	if err != nil {
		panic(err)
	}
	req.Header = r.Header.Clone()
	resp, err := p.client.Do(req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(resp.StatusCode)
	_, _ = io.Copy(w, resp.Body)
}

var attemptRE = regexp.MustCompile(`attempt=\d+`)

// canonicalJSON re-encodes a request body with sorted object keys: the SDK
// writes map members in Go's random map order.
func canonicalJSON(body []byte) []byte {
	var v any
	if json.Unmarshal(body, &v) != nil {
		return body
	}
	out, err := json.Marshal(v)
	if err != nil {
		return body
	}
	return out
}

// dynamoError answers as DynamoDB does: a JSON body with __type.
func dynamoError(w http.ResponseWriter, status int, typ, msg string) {
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	w.Header().Set("X-Amzn-Requestid", "FAULTPROXY")
	w.WriteHeader(status)
	fmt.Fprintf(w, `{"__type":"com.amazonaws.dynamodb.v20120810#%s","message":%q}`, typ, msg)
}

// resetConn writes prefix (when any) and closes the connection with a TCP
// reset.
func resetConn(w http.ResponseWriter, prefix []byte) {
	conn, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(err)
	}
	if len(prefix) > 0 {
		_, _ = buf.Write(prefix)
		_ = buf.Flush()
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
}
