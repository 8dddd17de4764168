package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/ddbsql/ddbsql/exec/bulkload"
	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/dynamo/offline"
	"github.com/ddbsql/ddbsql/exec/engine"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/plural"
)

// loadFlags collects --load TABLE=PATH and the --key given after each.
type loadFlags struct {
	sources []bulkload.Source
	keyArgs []string
}

// loadFlag is the flag.Value of --load.
type loadFlag struct{ l *loadFlags }

func (f loadFlag) String() string {
	if f.l == nil {
		return ""
	}
	var s []string
	for _, src := range f.l.sources {
		s = append(s, src.Table+"="+src.Path)
	}
	return strings.Join(s, ", ")
}

// Set reads TABLE=PATH: unlike --data, the table is always named (it is
// written to).
func (f loadFlag) Set(v string) error {
	name, path, ok := strings.Cut(v, "=")
	if !ok || !offline.ValidTableName(name) {
		return fmt.Errorf("--load %s: write --load TABLE=PATH, TABLE being the table to write to (3 to 255 characters: letters, digits, _ - .)", shownValue(v))
	}
	if path == "" {
		return fmt.Errorf("--load %s: give the path after =, as in --load %s=items.jsonl", shownValue(v), name)
	}
	f.l.sources = append(f.l.sources, bulkload.Source{Table: name, Path: path})
	f.l.keyArgs = append(f.l.keyArgs, "")
	return nil
}

// setKey applies --key to the last --load.
func (f *loadFlags) setKey(v string, keys []string) error {
	n := len(f.sources) - 1
	if prev := f.keyArgs[n]; prev != "" {
		return fmt.Errorf("--key %s for --load %s: that --load already has --key %s; give one --key after each --load", shownValue(v), f.sources[n].Table, prev)
	}
	f.sources[n].Keys, f.keyArgs[n] = keys, v
	return nil
}

// checkLoad validates a command line with --load; the message is empty
// when it is fine. A --key before every --load applies to each.
func checkLoad(cfg *config) string {
	if len(cfg.load.sources) == 0 {
		if cfg.checkpoint != "" {
			return "--checkpoint is for --load; there is no --load"
		}
		return ""
	}
	switch {
	case cfg.demo || len(cfg.data.sources) > 0:
		return "--load writes to DynamoDB (--endpoint-url, --profile, --region); it cannot be combined with --demo or --data"
	case len(cfg.exprs)+len(cfg.files) > 0:
		return "--load loads and exits; run statements with a separate ddbsql -e or -f"
	case cfg.checkpoint != "" && len(cfg.load.sources) > 1:
		return "--checkpoint names the checkpoint of one --load; with several, leave it out (each gets its own)"
	}
	for i := range cfg.load.sources {
		if cfg.load.sources[i].Keys == nil {
			cfg.load.sources[i].Keys = cfg.data.defaultKey
		}
	}
	return ""
}

// runLoads runs each --load in turn and prints what it did.
func runLoads(ctx context.Context, cfg *config, st streams) (int, error) {
	client, target, err := loadClient(ctx, cfg, st)
	if err != nil {
		return exitError, err
	}
	for _, src := range cfg.load.sources {
		prog := &bulkload.Progress{}
		stop := startBulkProgress(st.progress, src.Table, prog)
		rep, err := bulkload.Load(ctx, client, src, bulkload.Options{
			Concurrency: cfg.concurrency, RateLimit: cfg.rateLimit, Checkpoint: cfg.checkpoint, Target: target, Progress: prog})
		stop()
		printLoadReport(st.out, rep, err == nil)
		if err != nil {
			if code, interrupted := signalExit(ctx); interrupted {
				return code, err
			}
			return exitError, err
		}
	}
	return exitOK, nil
}

// loadClient connects for writing; the target names the endpoint and
// region in checkpoints.
func loadClient(ctx context.Context, cfg *config, st streams) (bulkload.Client, string, error) {
	if st.client != nil {
		c, ok := st.client.(bulkload.Client)
		if !ok {
			return nil, "", &diag.Error{Phase: diag.Connect, Code: diag.CodeConfig, Msg: "this backend cannot be written to"}
		}
		return c, "test", nil
	}
	conn, err := dynamo.Connect(ctx, dynamo.ConnectOptions{EndpointURL: cfg.endpointURL, Region: cfg.region, Profile: cfg.profile,
		MetadataAttemptTimeout: metadataAttemptTimeout})
	if err != nil {
		return nil, "", engine.ConnectError(err)
	}
	target := conn.Endpoint
	if target == "" {
		target = "aws"
	}
	return conn.Client, target + " " + conn.Region, nil
}

// printLoadReport says what a load did: written, resumed, WCU, and the
// check (after a complete load).
func printLoadReport(w io.Writer, r bulkload.Report, ok bool) {
	if r.Created {
		fmt.Fprintf(w, "created table %s (on-demand capacity)\n", r.Table)
	}
	if r.Items == 0 && !ok {
		return
	}
	line := fmt.Sprintf("%s: %s from %s; %s written, %s WCU, %s",
		r.Table, plural.Of(r.Items, "item"), r.Path, plural.Of(r.Written, "item"), planner.FormatRCU(r.WCU), plural.Of(r.Requests, "BatchWriteItem request"))
	if r.Resumed > 0 {
		line += fmt.Sprintf("; %s already written by an earlier run (checkpoint)", plural.Of(r.Resumed, "item"))
	}
	fmt.Fprintln(w, line)
	if ok {
		fmt.Fprintf(w, "%s: checked: all %s are in the table (%s, consistent reads, %s RCU)\n",
			r.Table, plural.Of(r.Verified, "item"), plural.Of(r.VerifyRequests, "BatchGetItem request"), planner.FormatRCU(r.VerifyRCU))
	}
}

// bulkProgressDelay is how long a load runs before its progress line
// shows (a variable so that tests need not wait).
var bulkProgressDelay = time.Second

// startBulkProgress draws a self-erasing line on w (stderr, when it is a
// terminal; nil draws nothing) while a load runs. The returned function
// stops and erases it.
func startBulkProgress(w io.Writer, table string, p *bulkload.Progress) func() {
	if w == nil {
		return func() {}
	}
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		select {
		case <-done:
			return
		case <-time.After(bulkProgressDelay):
		}
		bar := progressbar.NewOptions(-1,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSpinnerType(14),
			progressbar.OptionSetSpinnerChangeInterval(0),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionSetElapsedTime(false),
		)
		tick := time.NewTicker(250 * time.Millisecond)
		defer tick.Stop()
		for {
			bar.Describe(bulkProgressLine(table, p.Snapshot()))
			_ = bar.Add(0)
			select {
			case <-done:
				_ = bar.Finish()
				_ = bar.Clear()
				return
			case <-tick.C:
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}

// bulkProgressLine is the line's text: "loading t · 12,000 items written ·
// 12000 WCU · 3,000 items/s", then "checking t · 5,000 of 12,000 items".
func bulkProgressLine(table string, s bulkload.ProgressSnapshot) string {
	if s.Checked > 0 {
		return fmt.Sprintf("checking %s · %d of %s", table, s.Checked, plural.Of(s.Read, "item"))
	}
	rate := 0.0
	if secs := s.Elapsed.Seconds(); secs > 0 {
		rate = float64(s.Written) / secs
	}
	line := fmt.Sprintf("loading %s · %s written · %s WCU · %.0f items/s", table, plural.Of(s.Written, "item"), planner.FormatRCU(s.WCU), rate)
	if s.Resumed > 0 {
		line += fmt.Sprintf(" · %d skipped (written before)", s.Resumed)
	}
	return line
}
