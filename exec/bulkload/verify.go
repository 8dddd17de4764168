package bulkload

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/batchwrite"
	"github.com/ddbsql/ddbsql/exec/read"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/ddblimits"
)

// Verification reads every key of the source back with BatchGetItem
// (strongly consistent, so a write just confirmed is seen): the check
// costs what reading the items costs, 1 RCU per 4 KB of each item, about
// as many requests as the load sent divided by four (100 keys a request).
// A COUNT Scan would cost the whole table and prove nothing when the
// table held other items; DescribeTable's ItemCount is refreshed only
// about every six hours.

// verifier checks keys in chunks of 100.
type verifier struct {
	c        Client
	table    string
	keys     []keyAttr
	pacer    batchwrite.Pacer
	proj     *string
	names    map[string]string
	pending  []map[string]types.AttributeValue
	checked  int64
	missing  []batchwrite.Key
	rcu      float64
	requests int
}

func newVerifier(c Client, table string, keys []keyAttr, pacer batchwrite.Pacer) *verifier {
	v := &verifier{c: c, table: table, keys: keys, pacer: pacer}
	plain := true
	var names []expression.NameBuilder
	for _, k := range keys {
		plain = plain && !strings.ContainsAny(k.Name, ".[]")
		names = append(names, expression.Name(k.Name))
	}
	if plain {
		// The builder reads dots as document paths: names with them are
		// fetched whole rather than projected.
		if e, err := expression.NewBuilder().WithProjection(expression.NamesList(names[0], names[1:]...)).Build(); err == nil {
			v.proj, v.names = e.Projection(), e.Names()
		}
	}
	return v
}

// add queues one item's key for checking.
func (v *verifier) add(ctx context.Context, attrs map[string]types.AttributeValue) error {
	key := make(map[string]types.AttributeValue, len(v.keys))
	for _, k := range v.keys {
		key[k.Name] = attrs[k.Name]
	}
	v.pending = append(v.pending, key)
	if len(v.pending) == ddblimits.BatchGetKeys {
		return v.flush(ctx)
	}
	return nil
}

// flush checks the queued keys, re-sending UnprocessedKeys with backoff.
func (v *verifier) flush(ctx context.Context) error {
	if len(v.pending) == 0 {
		return nil
	}
	want := len(v.pending)
	found := map[string]bool{}
	req := &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{v.table: {
		Keys: v.pending, ConsistentRead: aws.Bool(true), ProjectionExpression: v.proj, ExpressionAttributeNames: v.names}},
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal}
	for round := 0; ; round++ {
		if v.pacer != nil {
			if err := v.pacer.Wait(ctx); err != nil {
				return read.DynamoError("BatchGetItem", err)
			}
		}
		out, err := v.c.BatchGetItem(ctx, req)
		v.requests++
		if err != nil {
			return read.DynamoError("BatchGetItem", err)
		}
		var units float64
		for _, c := range out.ConsumedCapacity {
			units += aws.ToFloat64(c.CapacityUnits)
		}
		v.rcu += units
		if v.pacer != nil {
			v.pacer.Book(units)
		}
		for _, it := range out.Responses[v.table] {
			if _, id, err := batchwrite.Identity(keyNames(v.keys), it); err == nil {
				found[id] = true
			}
		}
		left := out.UnprocessedKeys[v.table]
		if len(left.Keys) == 0 {
			break
		}
		if round >= 20 {
			return &diag.Error{Phase: diag.Execute, Code: diag.CodeThrottled, Msg: fmt.Sprintf("checking the loaded items: %d keys still unprocessed after %d BatchGetItem attempts", len(left.Keys), round+1),
				Hint: "every item was written; the check could not read them back: lower --rate-limit or retry the check later"}
		}
		d := time.Duration(rand.Int64N(int64(min(50*time.Millisecond<<min(round, 7), 5*time.Second)))) + 1
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return read.DynamoError("BatchGetItem", ctx.Err())
		case <-t.C:
		}
		r := *req
		r.RequestItems = map[string]types.KeysAndAttributes{v.table: left}
		req = &r
	}
	for _, k := range v.pending {
		if key, id, err := batchwrite.Identity(keyNames(v.keys), k); err == nil && !found[id] {
			v.missing = append(v.missing, key)
		}
	}
	v.checked += int64(want)
	v.pending = nil
	return nil
}
