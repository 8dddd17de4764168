package write

import (
	"context"
	"errors"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/batchwrite"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/value"
)

// replaceAll writes REPLACE's items with BatchWriteItem (25 a request,
// UnprocessedItems re-sent until written or named). A put applied twice
// leaves what one leaves, so its retries need no condition.
func replaceAll(ctx context.Context, env *Env, wp *planner.WritePlan, targets []*target, res *Result) error {
	bc, ok := env.Client.(batchwrite.Client)
	if !ok {
		return &diag.Error{Phase: diag.Execute, Code: diag.CodeUnsupported, Msg: "this connection cannot send BatchWriteItem, which REPLACE INTO uses"}
	}
	opts := batchwrite.Options{Keys: wp.Table.KeyNames(), Concurrency: max(env.Engine.Concurrency, 1)}
	if env.Engine.Limiter != nil {
		opts.Pacer = env.Engine.Limiter
	}
	w := batchwrite.New(bc, wp.Table.Name, opts)
	var putErr error
	for _, t := range targets {
		item := map[string]types.AttributeValue{}
		for n, v := range t.new.Attrs() {
			item[n] = v.AttributeValue()
		}
		if putErr = w.Put(ctx, item); putErr != nil {
			break
		}
	}
	out, err := w.Flush(ctx)
	if err == nil {
		err = putErr
	}
	res.Requests += out.Requests
	res.WCU += out.WCU
	if out.TableWCU > 0 || len(out.Indexes) == 0 {
		res.WCUBy[wp.Table.Name] += out.TableWCU
		if out.TableWCU == 0 {
			res.WCUBy[wp.Table.Name] += out.WCU
		}
	}
	for ix, u := range out.Indexes {
		res.WCUBy[wp.Table.Name+"."+ix] += u
	}
	unwritten := map[string]bool{}
	for _, k := range out.Unwritten {
		_, text, kerr := keyOf(wp.Table, itemValue(k))
		if kerr == nil {
			unwritten[text] = true
		}
	}
	if err != nil && len(out.Unwritten) == 0 {
		// Nothing named: the failure came before any request ended.
		for _, t := range targets {
			unwritten[t.keyText] = true
		}
	}
	for _, t := range targets {
		if unwritten[t.keyText] {
			res.NotWritten = append(res.NotWritten, t.keyText)
		} else {
			res.Written = append(res.Written, t.keyText)
		}
	}
	if err == nil {
		return nil
	}
	var de *diag.Error
	if errors.As(err, &de) && len(res.Written) > 0 {
		out := *de
		out.Code = diag.CodePartialWrite
		out.Cause = err
		return &out
	}
	return err
}

// itemValue reads a key the writer returned; a value ddbsql cannot read
// gives an empty map, whose key text matches no target.
func itemValue(k batchwrite.Key) value.Value {
	v, err := value.FromItem(k)
	if err != nil {
		return value.MapOf(nil)
	}
	return v
}
