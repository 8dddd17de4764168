package write

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/engine"
	"github.com/ddbsql/ddbsql/exec/eval"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/plural"
	"github.com/ddbsql/ddbsql/planner/value"
)

// MaxConflictRetries bounds how often one item is re-read and written
// again because someone else changed it in between.
const MaxConflictRetries = 5

// maxAttempts bounds the rounds of one request on throttling and transient
// failures the SDK's own retries gave up on (or that a client without
// them, the in-process backend, returns).
const maxAttempts = 4

// SampleKeys is how many keys a dry run and a partial failure list.
const SampleKeys = 20

// Env is what a write statement runs with.
type Env struct {
	// Engine runs the read (and carries the statement's statistics).
	Engine *engine.Env
	Client dynamo.ItemWriter
	// DryRun reads and computes, and writes nothing.
	DryRun bool
	// MaxWCU, when positive, refuses a statement whose computed cost
	// exceeds it and stops one whose consumed WCU passes it.
	MaxWCU float64
	// Journal, when set, records every item written (--journal); Text is
	// the statement's text for it.
	Journal *Journal
	Text    string
	// Confirm, when set, is asked before a statement that changes more than
	// one item is written (the REPL asks the user); false writes nothing.
	Confirm func(ctx context.Context, c Confirmation) bool
	// BeforeWrite, when set, is called before each item's first request
	// (tests change the item there, as a concurrent writer would).
	BeforeWrite func(ctx context.Context, key map[string]types.AttributeValue)
}

// Confirmation is what Env.Confirm is asked about: a statement about to
// write Items items for about WCU capacity units.
type Confirmation struct {
	Kind  planner.WriteKind
	Table string
	Items int
	WCU   float64
	// Keys are the first SampleKeys items' keys.
	Keys []string
}

// Result is what a write statement did.
type Result struct {
	Kind  planner.WriteKind
	Table string
	// Keys are the items the statement matched (to insert, change or
	// delete), in the order they were read; Written, Skipped and
	// NotWritten partition them once the statement ends (a dry run writes
	// none).
	Keys       []string
	Written    []string
	Skipped    []string // changed by someone else so that the WHERE no longer holds, or gone
	NotWritten []string
	// EstimatedWCU is the computed cost: per item the larger of the old
	// and new image, in 1 KB units.
	EstimatedWCU float64
	// WCU is what DynamoDB reported consumed, in total and by table and
	// index ("table" or "table.index").
	WCU        float64
	WCUBy      map[string]float64
	RereadRCU  float64
	Requests   int
	Conditions int // ConditionalCheckFailed responses
	DryRun     bool
}

// Run executes a write plan.
func Run(ctx context.Context, env *Env, wp *planner.WritePlan) (*Result, error) {
	res := &Result{Kind: wp.Kind, Table: wp.Table.Name, WCUBy: map[string]float64{}, DryRun: env.DryRun}
	targets, err := collect(ctx, env.Engine, wp)
	if err != nil {
		return res, err
	}
	for _, t := range targets {
		res.Keys = append(res.Keys, t.keyText)
		res.EstimatedWCU += t.units()
	}
	if env.MaxWCU > 0 && res.EstimatedWCU > env.MaxWCU {
		return res, &diag.Error{Phase: diag.Execute, Code: diag.CodeBudget,
			Msg:  fmt.Sprintf("this %s would consume %s WCU (%s), more than the --max-wcu budget of %s; nothing was written", wp.Kind, planner.FormatRCU(res.EstimatedWCU), plural.Of(len(targets), "item"), planner.FormatRCU(env.MaxWCU)),
			Hint: "--dry-run lists the items; narrow the WHERE or raise --max-wcu"}
	}
	if env.DryRun {
		res.NotWritten = res.Keys
		return res, nil
	}
	if env.Confirm != nil && len(targets) > 1 {
		c := Confirmation{Kind: wp.Kind, Table: wp.Table.Name, Items: len(targets), WCU: res.EstimatedWCU, Keys: res.Keys[:min(len(res.Keys), SampleKeys)]}
		if !env.Confirm(ctx, c) {
			res.NotWritten = res.Keys
			return res, &diag.Error{Phase: diag.Execute, Code: diag.CodeCancelled,
				Msg: fmt.Sprintf("%s of %s not confirmed; nothing was written", wp.Kind, plural.Of(len(targets), "item"))}
		}
	}
	if wp.Kind == planner.WriteReplace {
		if env.Journal != nil {
			return res, &diag.Error{Phase: diag.Execute, Code: diag.CodeUnsupported,
				Msg:  "REPLACE INTO cannot be journaled: BatchWriteItem does not return the items it replaces; nothing was written",
				Hint: "write new items with INSERT and change existing ones with UPDATE, which are journaled, or run REPLACE without --journal"}
		}
		return res, replaceAll(ctx, env, wp, targets, res)
	}
	if env.Journal != nil {
		if _, err := env.Journal.begin(wp.Kind.String(), wp.Table.Name, env.Text); err != nil {
			return res, err
		}
		err := writeAll(ctx, env, wp, targets, res)
		if jerr := env.Journal.end(); err == nil {
			err = jerr
		}
		return res, err
	}
	return res, writeAll(ctx, env, wp, targets, res)
}

// Item outcomes in writeAll.
const (
	pending = iota
	written
	skipped
	failed
)

// writeAll writes the targets with at most Concurrency requests in
// flight. The first failure (or --max-wcu passed) stops it: nothing more
// is started, the writes in flight end, and the error lists every item
// not written.
func writeAll(ctx context.Context, env *Env, wp *planner.WritePlan, targets []*target, res *Result) error {
	workers := min(max(env.Engine.Concurrency, 1), len(targets))
	state := make([]int, len(targets))
	var (
		mu       sync.Mutex
		firstErr error
		// overBudget: firstErr is --max-wcu's; it fails the statement
		// only if items were left unwritten.
		overBudget bool
		stop       atomic.Bool
		wg         sync.WaitGroup
	)
	fail := func(err error) {
		if firstErr == nil {
			firstErr = err
		}
		stop.Store(true)
	}
	jobs := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				if stop.Load() {
					continue
				}
				t := targets[i]
				tally := &Result{WCUBy: map[string]float64{}}
				var done bool
				err := ctx.Err()
				if err == nil && env.Engine.Limiter != nil {
					err = env.Engine.Limiter.Wait(ctx)
				}
				if err != nil {
					err = engine.DynamoError(opName(wp.Kind), err)
				} else {
					if env.BeforeWrite != nil {
						env.BeforeWrite(ctx, t.key)
					}
					done, err = writeOne(ctx, env, wp, t, tally)
				}
				mu.Lock()
				merge(res, tally)
				switch {
				case err != nil:
					state[i] = failed
					fail(err)
				case done:
					state[i] = written
				default:
					state[i] = skipped
				}
				if env.MaxWCU > 0 && res.WCU > env.MaxWCU && firstErr == nil {
					overBudget = true
					fail(&diag.Error{Phase: diag.Execute, Code: diag.CodeBudget,
						Msg: fmt.Sprintf("the statement consumed %s WCU, more than the --max-wcu budget of %s", planner.FormatRCU(res.WCU), planner.FormatRCU(env.MaxWCU))})
				}
				mu.Unlock()
			}
		}()
	}
	for i := range targets {
		if stop.Load() {
			break
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	var notWritten []*target
	for i, t := range targets {
		switch state[i] {
		case written:
			res.Written = append(res.Written, t.keyText)
		case skipped:
			res.Skipped = append(res.Skipped, t.keyText)
		default:
			notWritten = append(notWritten, t)
		}
	}
	if overBudget && len(notWritten) == 0 {
		firstErr = nil
	}
	if firstErr == nil && len(notWritten) > 0 {
		firstErr = engine.DynamoError(opName(wp.Kind), context.Cause(ctx))
	}
	if firstErr == nil {
		return nil
	}
	return partial(res, notWritten, firstErr)
}

// merge adds one item's figures to the statement's.
func merge(res, tally *Result) {
	res.Requests += tally.Requests
	res.Conditions += tally.Conditions
	res.WCU += tally.WCU
	res.RereadRCU += tally.RereadRCU
	for k, v := range tally.WCUBy {
		res.WCUBy[k] += v
	}
}

// writeOne writes one item, re-reading and retrying on conflicts. It
// reports false when the item no longer matches (or no longer exists).
func writeOne(ctx context.Context, env *Env, wp *planner.WritePlan, t *target, res *Result) (bool, error) {
	for round := 0; ; round++ {
		ambiguous, err := send(ctx, env, wp, t, res)
		if err == nil {
			return true, env.journal(wp, t, t.sentOld)
		}
		var ccf *types.ConditionalCheckFailedException
		if !errors.As(err, &ccf) {
			return false, engine.DynamoError(opName(wp.Kind), err)
		}
		res.Conditions++
		cur, err := reread(ctx, env, wp, t.key, res)
		if err != nil {
			return false, err
		}
		if ambiguous && isApplied(wp, t, cur) {
			// An earlier attempt was applied; the replay found its result.
			return true, env.journal(wp, t, t.old)
		}
		if wp.Kind == planner.WriteInsert {
			return false, &diag.Error{Phase: diag.Execute, Code: diag.CodeItemExists,
				Msg:  fmt.Sprintf("INSERT INTO %s: an item with the key %s already exists", wp.Table.Name, t.keyText),
				Hint: "REPLACE INTO overwrites existing items; UPDATE changes them"}
		}
		if cur.Kind() != value.Map {
			return false, nil // deleted by someone else since it was read
		}
		if wp.Opaque {
			return false, nil
		}
		if wp.Where != nil {
			tr, err := eval.Test(wp.Where, itemRow{item: cur, names: wp.Names})
			if err != nil {
				return false, evalErr(err, "the item "+t.keyText)
			}
			if tr != eval.True {
				return false, nil
			}
		}
		if round >= MaxConflictRetries {
			return false, &diag.Error{Phase: diag.Execute, Code: diag.CodeDynamo,
				Msg:  fmt.Sprintf("the item %s kept changing while %s wrote it (%d tries); it was not written", t.keyText, wp.Kind, round+1),
				Hint: "run the statement again when the item is quiet"}
		}
		t.old = cur
		if wp.Kind == planner.WriteUpdate {
			nv, err := applySets(wp, cur)
			if err != nil {
				return false, evalErr(err, "the item "+t.keyText)
			}
			t.new = nv
		}
	}
}

// imageOf reads a ReturnValues image (Missing when there is none).
func imageOf(attrs map[string]types.AttributeValue) value.Value {
	if attrs == nil {
		return value.MissingValue()
	}
	v, err := value.FromItem(attrs)
	if err != nil {
		return value.MissingValue()
	}
	return v
}

// journal records a written item's images: old is the item before the
// write as DynamoDB returned it (or as read and checked), the new image is
// old with the statement's changes.
func (env *Env) journal(wp *planner.WritePlan, t *target, old value.Value) error {
	if env.Journal == nil || t.unchanged {
		return nil
	}
	switch wp.Kind {
	case planner.WriteInsert:
		return env.Journal.record(wp.Table.Name, value.MissingValue(), t.new)
	case planner.WriteDelete:
		if old.Kind() != value.Map {
			old = t.old
		}
		return env.Journal.record(wp.Table.Name, old, value.MissingValue())
	}
	if old.Kind() != value.Map {
		old = t.old
	}
	set, remove := changes(t.old, t.new)
	attrs := map[string]value.Value{}
	for n, v := range old.Attrs() {
		attrs[n] = v
	}
	for _, n := range set {
		attrs[n] = t.new.Attr(n)
	}
	for _, n := range remove {
		delete(attrs, n)
	}
	return env.Journal.record(wp.Table.Name, old, value.MapOf(attrs))
}

// isApplied says whether cur is the image t's write makes.
func isApplied(wp *planner.WritePlan, t *target, cur value.Value) bool {
	if wp.Kind == planner.WriteDelete {
		return cur.Kind() != value.Map
	}
	return cur.Kind() == value.Map && sameItem(cur, t.new)
}

func sameItem(a, b value.Value) bool {
	set, remove := changes(a, b)
	return len(set) == 0 && len(remove) == 0
}

func opName(k planner.WriteKind) string {
	switch k {
	case planner.WriteUpdate:
		return "UpdateItem"
	case planner.WriteDelete:
		return "DeleteItem"
	}
	return "PutItem"
}

// watchRetries keeps the SDK's retries for one write (its backoff, its
// retry mode, its attempt header) and notes when it retries an attempt that
// failed without a clear answer (anything but throttling): that attempt may
// have been applied, so a later failed condition may be its doing.
func watchRetries(ambiguous *atomic.Bool) func(*dynamodb.Options) {
	return func(o *dynamodb.Options) {
		if o.Retryer != nil {
			o.Retryer = noticingRetryer{Retryer: o.Retryer, ambiguous: ambiguous}
		}
	}
}

type noticingRetryer struct {
	aws.Retryer
	ambiguous *atomic.Bool
}

func (r noticingRetryer) IsErrorRetryable(err error) bool {
	ok := r.Retryer.IsErrorRetryable(err)
	if ok && throttle.IsErrorThrottle(err) != aws.TrueTernary {
		r.ambiguous.Store(true)
	}
	return ok
}

var (
	retryable = retry.IsErrorRetryables(retry.DefaultRetryables)
	throttle  = retry.IsErrorThrottles(retry.DefaultThrottles)
)

// send sends t's request until it gets an answer, retrying throttling
// and transient failures with backoff. ambiguous reports that an attempt
// failed without saying whether it was applied (a reset connection, a
// server error): a later failed condition may be that attempt's doing.
func send(ctx context.Context, env *Env, wp *planner.WritePlan, t *target, res *Result) (ambiguous bool, err error) {
	var seen atomic.Bool
	watch := watchRetries(&seen)
	defer func() { ambiguous = ambiguous || seen.Load() }()
	for attempt := 1; ; attempt++ {
		var cc []types.ConsumedCapacity
		var one *types.ConsumedCapacity
		res.Requests++
		switch wp.Kind {
		case planner.WriteInsert, planner.WriteReplace:
			in, berr := putInput(wp, t)
			if berr != nil {
				return ambiguous, berr
			}
			var out *dynamodb.PutItemOutput
			if out, err = env.Client.PutItem(ctx, in, watch); err == nil {
				one = out.ConsumedCapacity
			}
		case planner.WriteUpdate:
			in, berr := updateInput(wp, t)
			if berr != nil {
				return ambiguous, berr
			}
			if in == nil {
				res.Requests--
				t.unchanged = true
				return ambiguous, nil // the new image is the old one
			}
			in.ReturnValues = types.ReturnValueAllOld
			var out *dynamodb.UpdateItemOutput
			if out, err = env.Client.UpdateItem(ctx, in, watch); err == nil {
				one = out.ConsumedCapacity
				t.sentOld = imageOf(out.Attributes)
			}
		case planner.WriteDelete:
			in, berr := deleteInput(wp, t)
			if berr != nil {
				return ambiguous, berr
			}
			in.ReturnValues = types.ReturnValueAllOld
			var out *dynamodb.DeleteItemOutput
			if out, err = env.Client.DeleteItem(ctx, in, watch); err == nil {
				one = out.ConsumedCapacity
				t.sentOld = imageOf(out.Attributes)
			}
		}
		if one != nil {
			cc = append(cc, *one)
		}
		record(env, res, cc)
		if err == nil {
			return ambiguous, nil
		}
		var ccf *types.ConditionalCheckFailedException
		if errors.As(err, &ccf) || ctx.Err() != nil || attempt >= maxAttempts {
			return ambiguous, err
		}
		isThrottle := throttle.IsErrorThrottle(err) == aws.TrueTernary
		if !isThrottle && retryable.IsErrorRetryable(err) != aws.TrueTernary {
			return ambiguous, err
		}
		if !isThrottle {
			ambiguous = true
		}
		d := time.Duration(25<<min(attempt, 7)) * time.Millisecond
		select {
		case <-ctx.Done():
			return ambiguous, err
		case <-time.After(d):
		}
	}
}

// record adds a response's consumed capacity to the result and books it
// with the rate limiter.
func record(env *Env, res *Result, cc []types.ConsumedCapacity) {
	for _, c := range cc {
		table := aws.ToString(c.TableName)
		units := aws.ToFloat64(c.CapacityUnits)
		res.WCU += units
		if env.Engine.Limiter != nil {
			env.Engine.Limiter.Book(units)
		}
		if c.Table != nil {
			res.WCUBy[table] += aws.ToFloat64(c.Table.CapacityUnits)
		} else if c.GlobalSecondaryIndexes == nil && c.LocalSecondaryIndexes == nil {
			res.WCUBy[table] += units
		}
		for name, ix := range c.GlobalSecondaryIndexes {
			res.WCUBy[table+"."+name] += aws.ToFloat64(ix.CapacityUnits)
		}
		for name, ix := range c.LocalSecondaryIndexes {
			res.WCUBy[table+"."+name] += aws.ToFloat64(ix.CapacityUnits)
		}
	}
}

// reread reads an item again, strongly consistent, after its condition
// failed.
func reread(ctx context.Context, env *Env, wp *planner.WritePlan, key map[string]types.AttributeValue, res *Result) (value.Value, error) {
	out, err := env.Client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(wp.Table.Name), Key: key,
		ConsistentRead: aws.Bool(true), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
	if err != nil {
		return value.Value{}, engine.DynamoError("GetItem", err)
	}
	if out.ConsumedCapacity != nil {
		res.RereadRCU += aws.ToFloat64(out.ConsumedCapacity.CapacityUnits)
	}
	if out.Item == nil {
		return value.MissingValue(), nil
	}
	v, err := value.FromItem(out.Item)
	if err != nil {
		return value.Value{}, engine.DynamoError("GetItem", err)
	}
	return v, nil
}

// partial turns a failure part-way into an error that says which items
// were written and which were not (the first SampleKeys of each; Result
// has them all).
func partial(res *Result, rest []*target, cause error) error {
	for _, t := range rest {
		res.NotWritten = append(res.NotWritten, t.keyText)
	}
	if len(res.Written) == 0 && len(res.Skipped) == 0 {
		return cause // nothing was written: the cause says it all
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s of %s stopped: %v. It is not atomic: %d of %d items were written", res.Kind, res.Table, short(cause), len(res.Written), len(res.Keys))
	if len(res.Written) > 0 {
		fmt.Fprintf(&sb, " (%s)", sample(res.Written))
	}
	fmt.Fprintf(&sb, "; %d were not (%s)", len(res.NotWritten), sample(res.NotWritten))
	if len(res.Skipped) > 0 {
		fmt.Fprintf(&sb, "; %d no longer matched and were left as they are (%s)", len(res.Skipped), sample(res.Skipped))
	}
	return &diag.Error{Phase: diag.Execute, Code: diag.CodePartialWrite, Msg: sb.String(), Cause: cause,
		Hint: "--stats json lists every key written and not written; rerunning the statement writes only the items that still match"}
}

func short(err error) string {
	var de *diag.Error
	if errors.As(err, &de) {
		return de.Msg
	}
	return err.Error()
}

func sample(keys []string) string {
	n := min(len(keys), SampleKeys)
	s := strings.Join(keys[:n], "; ")
	if len(keys) > n {
		s += fmt.Sprintf("; and %d more", len(keys)-n)
	}
	return s
}
