package bulkload_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbsql/ddbsql/exec/batchwrite"
	"github.com/ddbsql/ddbsql/exec/bulkload"
	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/exec/dynamo/faultproxy"
)

// faultClient is a dynamo.Connect client (the command's retries) to the
// proxy, its backoff between attempts capped so that tests are quick.
func faultClient(t *testing.T, endpoint string, attempts int) *dynamodb.Client {
	t.Helper()
	conn, err := dynamo.Connect(context.Background(), dynamo.ConnectOptions{EndpointURL: endpoint, MaxAttempts: attempts})
	if err != nil {
		t.Fatal(err)
	}
	o := conn.Client.Options()
	o.Retryer = retry.AddWithMaxBackoffDelay(o.Retryer, 20*time.Millisecond)
	return dynamodb.New(o)
}

// Retried faults (throttling, HTTP 500s, resets before and in the middle
// of answers) at a third of attempts: every item ends written exactly as
// in the file, and the check after the load reads each one back.
func TestLoadThroughFaults(t *testing.T) {
	endpoint := dynalitetest.Endpoint(t)
	prefix := dynalitetest.Prefix(t)
	items := genItems(300)
	p := writeFile(t, t.TempDir(), "items.jsonl", strings.Join(items, "\n")+"\n")
	injected := map[faultproxy.Fault]int{}
	for seed := uint64(1); seed <= 3; seed++ {
		// Throttling makes the SDK's adaptive retries slow the client
		// down for seconds: one seed has it, at a lower rate.
		kinds, rate := []faultproxy.Fault{faultproxy.ServerError, faultproxy.Reset, faultproxy.ResetMidBody}, 0.3
		if seed == 3 {
			kinds, rate = []faultproxy.Fault{faultproxy.Throttling, faultproxy.Provisioned, faultproxy.ServerError}, 0.15
		}
		proxy, srv := faultproxy.New(t, endpoint, prefix, seed, rate, kinds...)
		c := faultClient(t, srv.URL, 10)
		table := prefix + "faults" + string(rune('0'+seed))
		rep, err := bulkload.Load(context.Background(), c, bulkload.Source{Table: table, Path: p, Keys: pkSK}, options(t))
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if rep.Written != 300 || rep.Verified != 300 {
			t.Fatalf("seed %d: %+v", seed, rep)
		}
		same(t, dump(t, dynalitetest.Client(t), table), normalized(t, items))
		for k, v := range proxy.Counts() {
			injected[k] += v
		}
	}
	if injected[faultproxy.None] == 0 || len(injected) < 4 {
		t.Fatalf("faults injected: %v", injected)
	}
	t.Logf("faults injected: %v", injected)
}

// Faults that outlast the retries: the load fails naming keys not
// written, none of which is in the table; the table holds only the file's
// items, among them every item the checkpoint counts; and running the load
// again resumes from the checkpoint and ends with the whole file.
func TestLoadFailsNamingKeysThenResumes(t *testing.T) {
	endpoint := dynalitetest.Endpoint(t)
	prefix := dynalitetest.Prefix(t)
	items := genItems(300)
	p := writeFile(t, t.TempDir(), "items.jsonl", strings.Join(items, "\n")+"\n")
	want := normalized(t, items)
	inFile := map[string]bool{}
	for _, r := range want {
		inFile[r] = true
	}
	table := prefix + "resume"
	opts := options(t)
	var checkpoint string
	inTable := map[string]bool{} // the keys in the table after the last run
	for _, kind := range []faultproxy.Fault{faultproxy.ServerError, faultproxy.Reset, faultproxy.Throttling} {
		t.Run(kind.String(), func(t *testing.T) {
			proxy, srv := faultproxy.New(t, endpoint, prefix, 7, 1, kind)
			proxy.Healthy = 2 // two requests get through, then every attempt fails
			// An earlier run may have written items past its checkpoint;
			// this run names the keys it did not write, so only those not
			// in the table before it must still be missing.
			before := inTable
			rep, err := bulkload.Load(context.Background(), faultClient(t, srv.URL, 2), bulkload.Source{Table: table, Path: p, Keys: pkSK}, opts)
			var ue *batchwrite.UnwrittenError
			if !errors.As(err, &ue) || len(ue.Keys) == 0 {
				t.Fatalf("error %v is not an UnwrittenError naming keys", err)
			}
			if !strings.Contains(err.Error(), "run the same command again to resume") || !strings.Contains(err.Error(), ue.Keys[0].String()) {
				t.Errorf("error does not name the keys and say how to resume: %v", err)
			}
			got := dump(t, dynalitetest.Client(t), table)
			present := map[string]bool{}
			for _, r := range got {
				if !inFile[r] {
					t.Fatalf("the table holds an item that is not in the file: %s", r)
				}
				present[keyOfRendered(t, r)] = true
			}
			for _, k := range ue.Keys {
				if present[k.String()] && !before[k.String()] {
					t.Fatalf("%s is named unwritten but is in the table", k)
				}
			}
			inTable = present
			confirmed := checkpointConfirmed(t, rep.Checkpoint)
			checkpoint = rep.Checkpoint
			for _, it := range normalizedInOrder(t, items[:confirmed]) {
				if !present[keyOfRendered(t, it)] {
					t.Fatalf("the checkpoint counts %d items, but %s is not in the table", confirmed, it)
				}
			}
			t.Logf("%v: %d in the table, checkpoint %d, %d named: %.200s", kind, len(got), confirmed, len(ue.Keys), err)
		})
	}
	// Which requests the healthy two were is up to the scheduler, so the
	// checkpoint may confirm none; the load resumes from what it says.
	confirmed := checkpointConfirmed(t, checkpoint)
	rep, err := bulkload.Load(context.Background(), dynalitetest.Client(t), bulkload.Source{Table: table, Path: p, Keys: pkSK}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Resumed != int64(confirmed) || rep.Resumed+rep.Written != 300 || rep.Verified != 300 {
		t.Fatalf("resumed load: %+v", rep)
	}
	same(t, dump(t, dynalitetest.Client(t), table), want)
}

func keyOfRendered(t *testing.T, r string) string {
	var m struct{ M map[string]map[string]any }
	if err := json.Unmarshal([]byte(r), &m); err != nil {
		t.Fatal(err)
	}
	it := m.M
	return `PK="` + it["PK"]["S"].(string) + `", SK=` + it["SK"]["N"].(string)
}

func checkpointConfirmed(t *testing.T, path string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no checkpoint after a failed load: %v", err)
	}
	var cp struct{ Confirmed int }
	if err := json.Unmarshal(data, &cp); err != nil {
		t.Fatal(err)
	}
	return cp.Confirmed
}

func normalizedInOrder(t *testing.T, lines []string) []string {
	var out []string
	for _, l := range lines {
		out = append(out, normalized(t, []string{l})[0])
	}
	return out
}
