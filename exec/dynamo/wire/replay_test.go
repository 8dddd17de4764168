package wire

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/ddbsql/ddbsql/exec/replay"
	"github.com/ddbsql/ddbsql/exec/session"
)

// TestEndToEndReplay runs statements over the replay server's generated
// table (multi-page Scans in 1 and 3 segments, a Query, GROUP BY, ORDER BY)
// through a session with and without Raw and requires identical output.
func TestEndToEndReplay(t *testing.T) {
	srv := replay.New(replay.Options{Items: 20_000, PartitionSize: 3_000, PageBytes: 256 << 10})
	defer srv.Close()
	ctx := context.Background()
	client, err := srv.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	before := fallbacks.Load()
	for _, st := range []struct {
		sql       string
		segments  int
		unordered bool
	}{
		{"SELECT status, COUNT(*), SUM(x) FROM t GROUP BY status ORDER BY status", 1, false},
		{"SELECT status, COUNT(*), SUM(x), SUM(amount) FROM t GROUP BY status ORDER BY status", 3, false},
		{"SELECT * FROM t", 1, false},
		{"SELECT * FROM t", 3, true},
		{"SELECT sk, amount, address, tags FROM t WHERE pk = 'TENANT#00002' ORDER BY sk DESC LIMIT 50", 0, false},
		{"SELECT type, MIN(amount), MAX(amount), COUNT(reason) FROM t GROUP BY type ORDER BY type", 2, false},
	} {
		var outs [2]string
		for i, raw := range []bool{false, true} {
			var out bytes.Buffer
			cfg := session.DefaultConfig()
			cfg.Format = "json"
			cfg.Plan.AllowScan = true
			cfg.Plan.Segments = st.segments
			if raw {
				cfg.Raw = New(client)
			}
			s := session.New(client, &out, io.Discard, cfg)
			if err := s.RunScript(ctx, st.sql); err != nil {
				t.Fatalf("%s (raw %v): %v", st.sql, raw, err)
			}
			outs[i] = out.String()
			if st.unordered {
				outs[i] = sortedLines(outs[i])
			}
		}
		if outs[0] != outs[1] {
			t.Fatalf("%s: output differs\nSDK path:\n%s\nfast path:\n%s", st.sql, clipText(outs[0]), clipText(outs[1]))
		}
	}
	if n := fallbacks.Load() - before; n != 0 {
		t.Fatalf("%d replay pages were left to the SDK's deserializer", n)
	}
}
