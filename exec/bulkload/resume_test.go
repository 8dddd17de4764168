package bulkload_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ddbsql/ddbsql/exec/bulkload"
	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/parser/diag"
)

// A kill leaves a checkpoint that lags the table (it is saved every
// second): whatever it says, resuming ends with the table an
// uninterrupted load makes, and a checkpoint of other files is refused.
func TestResumeFromAnyCheckpoint(t *testing.T) {
	ctx := context.Background()
	items := genItems(400)
	p := writeFile(t, t.TempDir(), "items.jsonl", strings.Join(items, "\n")+"\n")
	want := normalized(t, items)
	progressed := false
	for _, lag := range []int{0, 1, 24, 25, 26, 90, 1000} {
		var writes atomic.Int64
		failing := atomic.Bool{}
		failing.Store(true)
		db := memdb.New(memdb.WithRequestHook(func(_ context.Context, op string, _ any) error {
			if op == "BatchWriteItem" && failing.Load() && writes.Add(1) > 7 {
				return errors.New("the process was killed")
			}
			return nil
		}))
		opts := options(t)
		rep, err := bulkload.Load(ctx, db, bulkload.Source{Table: "killed", Path: p, Keys: pkSK}, opts)
		if err == nil {
			t.Fatal("the load went through a failing backend")
		}
		var cp map[string]any
		data, err := os.ReadFile(rep.Checkpoint)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &cp); err != nil {
			t.Fatal(err)
		}
		confirmed := int(cp["confirmed"].(float64))
		// Seven requests went through, but the first of the file's may
		// have been an eighth to be sent (three in flight), so a
		// checkpoint of 0 is right at times; one of these loads at least
		// must confirm some.
		if confirmed > 7*25 {
			t.Fatalf("checkpoint confirmed %d after 7 requests of 25", confirmed)
		}
		progressed = progressed || confirmed > 0
		cp["confirmed"] = max(0, confirmed-lag)
		data, _ = json.Marshal(cp)
		if err := os.WriteFile(rep.Checkpoint, data, 0o644); err != nil {
			t.Fatal(err)
		}
		failing.Store(false)
		rep, err = bulkload.Load(ctx, db, bulkload.Source{Table: "killed", Path: p, Keys: pkSK}, opts)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Resumed != int64(max(0, confirmed-lag)) || rep.Resumed+rep.Written != 400 {
			t.Fatalf("lag %d: report %+v", lag, rep)
		}
		same(t, dump(t, db, "killed"), want)
	}

	if !progressed {
		t.Fatal("no killed load confirmed any item in its checkpoint")
	}

	// A checkpoint for the file as it was is not used for the file as it is.
	db := newMem()
	opts := options(t)
	var writes atomic.Int64
	hooked := memdb.New(memdb.WithRequestHook(func(_ context.Context, op string, _ any) error {
		if op == "BatchWriteItem" && writes.Add(1) > 2 {
			return errors.New("killed")
		}
		return nil
	}))
	if _, err := bulkload.Load(ctx, hooked, bulkload.Source{Table: "changed", Path: p, Keys: pkSK}, opts); err == nil {
		t.Fatal("no failure")
	}
	if err := os.WriteFile(p, []byte(strings.Join(items[:10], "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := bulkload.Load(ctx, db, bulkload.Source{Table: "changed", Path: p, Keys: pkSK}, opts)
	if diag.CodeOf(err) != diag.CodeIO || !strings.Contains(err.Error(), "delete the checkpoint") {
		t.Fatalf("a checkpoint of other files: %v", err)
	}
}
