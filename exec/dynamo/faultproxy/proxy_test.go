package faultproxy_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/exec/dynamo/faultproxy"
)

// send posts body as the operation op, attempt n, and returns the status
// (0 when the connection was reset).
func send(t *testing.T, url, op, body string, n int) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+op)
	req.Header.Set("Amz-Sdk-Request", "attempt="+string(rune('0'+n))+"; max=9")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode
}

// The same request and attempt meet the same fault under the same seed;
// control-plane calls and the healthy requests pass; the counts add up.
func TestChoiceIsDeterministic(t *testing.T) {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, `{}`) }))
	t.Cleanup(upstream.Close)
	outcomes := func() []int {
		_, srv := faultproxy.New(t, upstream.URL, "pfx.", 42, 0.5, faultproxy.ServerError, faultproxy.Reset)
		var out []int
		for i := range 40 {
			out = append(out, send(t, srv.URL, "BatchWriteItem", `{"RequestItems":{"pfx.t":[{"n":`+string(rune('a'+i%26))+`}]}}`, 1+i%3))
		}
		return out
	}
	a, b := outcomes(), outcomes()
	failed := 0
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("request %d: %d, then %d under the same seed", i, a[i], b[i])
		}
		if a[i] != http.StatusOK {
			failed++
		}
	}
	if failed == 0 || failed == len(a) {
		t.Fatalf("%d of %d requests failed at a rate of 0.5", failed, len(a))
	}

	p, srv := faultproxy.New(t, upstream.URL, "", 1, 1, faultproxy.ServerError)
	p.Healthy = 2
	got := []int{send(t, srv.URL, "Scan", "{}", 1), send(t, srv.URL, "Scan", "{}", 1), send(t, srv.URL, "Scan", "{}", 1), send(t, srv.URL, "DescribeTable", "{}", 1)}
	if got[0] != 200 || got[1] != 200 || got[2] != 500 || got[3] != 200 {
		t.Fatalf("statuses %v; want two healthy, a 500, and DescribeTable passed", got)
	}
	if c := p.Counts(); c[faultproxy.None] != 3 || c[faultproxy.ServerError] != 1 {
		t.Fatalf("counts %v", c)
	}
}
