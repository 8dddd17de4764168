package bulkload

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbsql/ddbsql/exec/batchwrite"
	"github.com/ddbsql/ddbsql/exec/read"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/plural"
)

// Client is what a load calls.
type Client interface {
	batchwrite.Client
	DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error)
	CreateTable(ctx context.Context, in *dynamodb.CreateTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error)
	BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error)
}

// Source is one --load t=PATH.
type Source struct {
	Table string
	Path  string
	// Keys is --key (offline.ParseKeyFlag's form): checked against the
	// table's key schema, or, typed, the schema of a table to create.
	Keys []string
}

// Options configure a load.
type Options struct {
	// Concurrency bounds the BatchWriteItem requests in flight (default 4).
	Concurrency int
	// RateLimit paces writes to this many WCU per second, and the check
	// after them to as many RCU per second (0: no limit).
	RateLimit float64
	// Checkpoint is the checkpoint file ("": one per table, target and
	// source in CheckpointDir).
	Checkpoint string
	// Target names the endpoint and region, recorded in the checkpoint
	// (a load into another endpoint's table of the same name is another
	// load).
	Target string
	// Progress, when set, is kept up to date for a progress line.
	Progress *Progress
	// CheckpointEvery is how often the checkpoint is written while the
	// load runs (default 1 s).
	CheckpointEvery time.Duration
}

// Report is what a load did.
type Report struct {
	Table, Path string
	Created     bool  // the table was created
	Items       int64 // items in the source
	Resumed     int64 // items a checkpoint said were written, not written again
	Written     int64 // items this run wrote
	WCU         float64
	Requests    int
	// Verified items were read back by key; VerifyRCU and VerifyRequests
	// are what that cost.
	Verified       int64
	VerifyRCU      float64
	VerifyRequests int
	Checkpoint     string
}

// Progress is a load's progress, safe to read while it runs.
type Progress struct {
	mu      sync.Mutex
	w       *batchwrite.Writer
	read    atomic.Int64
	resumed atomic.Int64
	checked atomic.Int64
	started time.Time
}

// ProgressSnapshot is a Progress at one moment.
type ProgressSnapshot struct {
	Read, Resumed, Written, Checked int64
	WCU                             float64
	Elapsed                         time.Duration
}

// Snapshot returns the progress so far.
func (p *Progress) Snapshot() ProgressSnapshot {
	p.mu.Lock()
	w, started := p.w, p.started
	p.mu.Unlock()
	s := ProgressSnapshot{Read: p.read.Load(), Resumed: p.resumed.Load(), Checked: p.checked.Load()}
	if w != nil {
		ws := w.Snapshot()
		s.Written, s.WCU = ws.Written, ws.WCU
	}
	if !started.IsZero() {
		s.Elapsed = time.Since(started)
	}
	return s
}

func (p *Progress) start(w *batchwrite.Writer) {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.w, p.started = w, time.Now()
	p.mu.Unlock()
}

// Load writes every item of src into its table; see the package
// documentation.
func Load(ctx context.Context, c Client, src Source, opts Options) (Report, error) {
	rep := Report{Table: src.Table, Path: src.Path}
	abs, err := filepath.Abs(src.Path)
	if err != nil {
		return rep, err
	}
	if _, err := os.Stat(abs); err != nil {
		return rep, &diag.Error{Phase: diag.Load, Code: diag.CodeIO, Pos: diag.Pos{Source: src.Path}, Msg: "cannot read it: " + unwrapPath(err).Error(), Cause: err}
	}
	cpPath := opts.Checkpoint
	if cpPath == "" {
		if cpPath, err = defaultCheckpoint(src.Table, opts.Target, abs); err != nil {
			return rep, checkpointError("", "no folder for the checkpoint: "+err.Error()+"; give one with --checkpoint FILE", err)
		}
	}
	rep.Checkpoint = cpPath
	fp, err := fingerprint(abs)
	if err != nil {
		return rep, &diag.Error{Phase: diag.Load, Code: diag.CodeIO, Pos: diag.Pos{Source: src.Path}, Msg: "cannot read it: " + unwrapPath(err).Error(), Cause: err}
	}
	cp := checkpoint{Table: src.Table, Target: opts.Target, Source: abs, Fingerprint: fp}
	prev, resuming, err := readCheckpoint(cpPath)
	if err != nil {
		return rep, err
	}
	if resuming {
		if prev.Table != cp.Table || prev.Target != cp.Target || prev.Source != cp.Source || prev.Fingerprint != cp.Fingerprint {
			e := checkpointError(cpPath, fmt.Sprintf("the checkpoint is for loading %s into %s at %s as that source was then, and the files or the target differ", prev.Source, prev.Table, prev.Target), nil)
			e.Hint = "delete the checkpoint to load from the start (puts are idempotent: items already written are written again, unchanged)"
			return rep, e
		}
		cp = prev
	}
	keys, created, err := tableKeys(ctx, c, src)
	if err != nil {
		return rep, err
	}
	rep.Created = created
	var pacer batchwrite.Pacer
	var checkPacer batchwrite.Pacer
	if opts.RateLimit > 0 {
		pacer, checkPacer = read.NewRateLimiter(opts.RateLimit), read.NewRateLimiter(opts.RateLimit)
	}
	w := batchwrite.New(c, src.Table, batchwrite.Options{Keys: keyNames(keys), Concurrency: opts.Concurrency, Pacer: pacer})
	opts.Progress.start(w)
	resume := cp.Confirmed
	save := func() error {
		s := w.Snapshot()
		now := cp
		now.Confirmed = resume + s.Confirmed
		now.Written, now.WCU = cp.Written+s.Written, cp.WCU+s.WCU
		return writeCheckpoint(cpPath, now)
	}
	if err := save(); err != nil {
		return rep, err
	}
	stopSaving := saveEvery(opts.CheckpointEvery, save)
	var n int64
	readErr := readSource(ctx, src.Path, src.Table, keys, func(it item) error {
		i := n
		n++
		if opts.Progress != nil {
			opts.Progress.read.Add(1)
		}
		if i < resume {
			if opts.Progress != nil {
				opts.Progress.resumed.Add(1)
			}
			return nil
		}
		if err := w.Put(ctx, it.Attrs); err != nil {
			var de *diag.Error
			if errors.As(err, &de) && de.Code != diag.CodeThrottled && de.Code != diag.CodeCancelled && !errors.As(err, new(*batchwrite.UnwrittenError)) && de.Cause == nil {
				// The item itself (over 400 KB): say where it is.
				return &diag.Error{Phase: diag.Load, Code: de.Code, Pos: diag.Pos{Source: it.Path, Line: it.Line}, Msg: de.Msg, Hint: de.Hint}
			}
			return err
		}
		return nil
	})
	res, flushErr := w.Flush(ctx)
	stopSaving()
	saveErr := save()
	rep.Items, rep.Resumed = n, min(resume, n)
	rep.Written, rep.WCU, rep.Requests = res.Written, res.WCU, res.Requests
	if err := errors.Join(flushErr, readErr); err != nil {
		return rep, failed(err, flushErr, readErr, rep, cpPath)
	}
	if saveErr != nil {
		return rep, saveErr
	}
	if resume > n {
		return rep, checkpointError(cpPath, fmt.Sprintf("the checkpoint says %s were written, but the source has %s", plural.Of(int(resume), "item"), plural.Of(int(n), "item")), nil)
	}
	// Every item is written: the checkpoint has done its work.
	if err := os.Remove(cpPath); err != nil && !errors.Is(err, os.ErrNotExist) {
		return rep, checkpointError(cpPath, "cannot remove the checkpoint: "+unwrapPath(err).Error(), err)
	}
	return verify(ctx, c, src, keys, checkPacer, opts.Progress, rep)
}

// failed is the error of a load that stopped: the writer's (which names
// every key not written) or the source's (file:line), and how to resume.
func failed(err, flushErr, readErr error, rep Report, cpPath string) error {
	var first error
	if de, ok := diag.As(readErr); ok && de.Phase == diag.Load {
		first = readErr // a bad item in the source, at file:line
	} else if flushErr != nil {
		first = flushErr // the reader stopped on the writer's failure, or with it: the writer names the keys
	} else {
		first = read.DynamoError("BatchWriteItem", readErr) // cancelled, timed out
	}
	de, ok := diag.As(first)
	if !ok {
		de = &diag.Error{Phase: diag.Execute, Code: diag.CodeDynamo, Msg: first.Error(), Cause: first}
	}
	out := *de
	out.Hint = fmt.Sprintf("this run wrote %s (and %s had been written before it); the checkpoint %s records how far the load got: run the same command again to resume",
		plural.Of(int(rep.Written), "item"), plural.Of(int(rep.Resumed), "item"), cpPath)
	if de.Hint != "" {
		out.Hint = de.Hint + "\n" + out.Hint
	}
	out.Cause = err
	return &out
}

// saveEvery calls save every interval until the returned stop is called.
func saveEvery(every time.Duration, save func() error) (stop func()) {
	if every <= 0 {
		every = time.Second
	}
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				_ = save() // the final save reports errors
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}

// verify reads every key of the source back and fails when one is
// missing.
func verify(ctx context.Context, c Client, src Source, keys []keyAttr, pacer batchwrite.Pacer, p *Progress, rep Report) (Report, error) {
	v := newVerifier(c, src.Table, keys, pacer)
	err := readSource(ctx, src.Path, src.Table, keys, func(it item) error {
		if err := v.add(ctx, it.Attrs); err != nil {
			return err
		}
		if p != nil {
			p.checked.Store(v.checked)
		}
		return nil
	})
	if err == nil {
		err = v.flush(ctx)
	}
	if p != nil {
		p.checked.Store(v.checked)
	}
	rep.Verified, rep.VerifyRCU, rep.VerifyRequests = v.checked, v.rcu, v.requests
	if err != nil {
		return rep, err
	}
	if len(v.missing) > 0 {
		ue := &batchwrite.UnwrittenError{Table: src.Table, Written: rep.Items - int64(len(v.missing)), Puts: rep.Items, Keys: v.missing,
			Err: errors.New("DynamoDB confirmed these writes, but reading them back found no item (deleted since, or by a TTL?)")}
		return rep, &diag.Error{Phase: diag.Execute, Code: diag.CodeDynamo, Msg: "check after loading: " + ue.Error(), Cause: ue,
			Hint: "run the same command again to write every item once more"}
	}
	return rep, nil
}
