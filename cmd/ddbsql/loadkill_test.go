//go:build unix

package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/planner/value"
)

// TestLoadKilledAndResumed kills a ddbsql --load (SIGKILL: nothing saved
// on the way out) while its writes hang, then runs the same command again:
// it resumes from the checkpoint the killed process saved and ends with
// exactly the table an uninterrupted load makes.
func TestLoadKilledAndResumed(t *testing.T) {
	bin := buildDDBSQL(t)
	endpoint := dynalitetest.Endpoint(t)
	prefix := dynalitetest.Prefix(t)
	t.Setenv("XDG_STATE_HOME", t.TempDir()) // the subprocess inherits it
	p := writeTemp(t, "items.jsonl", genLines(600))

	ref := prefix + "uninterrupted"
	if r := invoke([]string{"--endpoint-url", endpoint, "--key", "PK:S,SK:N", "--load", ref + "=" + p}, ""); r.code != 0 {
		t.Fatalf("uninterrupted load: exit %d: %s", r.code, r.err)
	}

	u, _ := url.Parse(endpoint)
	forward := httputil.NewSingleHostReverseProxy(u)
	var hold atomic.Bool
	var writes atomic.Int64
	held := make(chan struct{})
	var once sync.Once
	hold.Store(true)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.Header.Get("X-Amz-Target"), ".BatchWriteItem") && hold.Load() && writes.Add(1) > 6 {
			_, _ = io.Copy(io.Discard, r.Body)
			once.Do(func() { close(held) })
			<-r.Context().Done() // until the process is killed
			return
		}
		forward.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)

	killed := prefix + "killed"
	args := []string{"--endpoint-url", srv.URL, "--key", "PK:S,SK:N", "--load", killed + "=" + p, "--concurrency", "2"}
	proc := startProcess(t, bin, nil, args...)
	waitHeld(t, held, proc)
	time.Sleep(1500 * time.Millisecond) // the checkpoint is saved every second
	if err := proc.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-proc.done

	files, _ := filepath.Glob(filepath.Join(os.Getenv("XDG_STATE_HOME"), "ddbsql", "load", "*.json"))
	if len(files) != 1 {
		t.Fatalf("checkpoints after the kill: %v", files)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	var cp struct{ Confirmed int }
	if err := json.Unmarshal(data, &cp); err != nil || cp.Confirmed < 25 || cp.Confirmed > 150 {
		t.Fatalf("checkpoint %s: %v", data, err)
	}

	hold.Store(false)
	r := invoke(args, "")
	if r.code != 0 || !strings.Contains(r.out, "already written by an earlier run") || !strings.Contains(r.out, "checked: all 600 items are in the table") {
		t.Fatalf("resumed load: exit %d\nstdout: %s\nstderr: %s", r.code, r.out, r.err)
	}
	if _, err := os.Stat(files[0]); !os.IsNotExist(err) {
		t.Fatalf("the checkpoint is still there after the load completed: %v", err)
	}
	got, want := scanAll(t, killed), scanAll(t, ref)
	if len(got) != 600 || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the resumed table has %d items and differs from the uninterrupted one (%d items)", len(got), len(want))
	}
}

// scanAll renders every item of a dynalite table as DynamoDB JSON, sorted.
func scanAll(t *testing.T, table string) []string {
	t.Helper()
	c := dynalitetest.Client(t)
	var rows []string
	in := &dynamodb.ScanInput{TableName: aws.String(table)}
	for {
		out, err := c.Scan(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range out.Items {
			v, err := value.FromItem(it)
			if err != nil {
				t.Fatal(err)
			}
			rows = append(rows, string(value.AppendDynamoJSON(nil, v)))
		}
		if out.LastEvaluatedKey == nil {
			break
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
	sort.Strings(rows)
	return rows
}
