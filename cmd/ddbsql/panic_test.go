package main

import (
	"bytes"
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/exec/dynamo/offline"
)

// TestPanicsReachTheUserAsErrors runs statements whose requests panic, on
// worker goroutines and on the statement's own, through the command line:
// each exits 1 with "error: internal error: …" and no stack trace.
func TestPanicsReachTheUserAsErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		op   string
		args []string
	}{
		{"parallel Scan segment", "Scan", []string{"--allow-scan", "--segments", "4", "-e", "SELECT * FROM app"}},
		{"IN-list Query", "Query", []string{"-e", "SELECT * FROM app WHERE PK IN ('WS#acme', 'WS#hooli')"}},
		{"lookup join BatchGetItem", "BatchGetItem", []string{"-e",
			"SELECT o.SK, c.name FROM orders o JOIN customers c ON o.customer_id = c.id WHERE o.PK = 'USER#u_001'"}},
		{"planning", "DescribeTable", []string{"-e", "SELECT * FROM app WHERE PK = 'WS#acme'"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var armed atomic.Bool // not while the demo loads
			db := memdb.New(memdb.WithRequestHook(func(_ context.Context, op string, in any) error {
				if armed.Load() && op == tc.op {
					if s, ok := in.(*dynamodb.ScanInput); ok && s.Segment != nil && *s.Segment != 1 {
						return nil
					}
					panic("injected fault in " + op)
				}
				return nil
			}))
			if _, err := offline.LoadDemo(context.Background(), db); err != nil {
				t.Fatal(err)
			}
			armed.Store(true)
			var out, errOut bytes.Buffer
			code := run(context.Background(), tc.args, streams{in: strings.NewReader(""), out: &out, err: &errOut, client: db})
			stderr := errOut.String()
			if code != exitError {
				t.Errorf("exit %d, want %d", code, exitError)
			}
			want := "error: internal error: injected fault in " + tc.op
			if !strings.HasPrefix(stderr, want) || !strings.Contains(stderr, "(please report this statement)") {
				t.Errorf("stderr %q, want it to start with %q", stderr, want)
			}
			for _, stack := range []string{"goroutine ", "panic(", ".go:", "runtime."} {
				if strings.Contains(stderr, stack) {
					t.Errorf("a stack trace on stderr:\n%s", stderr)
				}
			}
			if out.Len() > 0 {
				t.Errorf("rows printed for a failed statement:\n%s", out.String())
			}
		})
	}
}
