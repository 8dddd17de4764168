package planner

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// LookupJoin joins each driving row to the items of another table found by
// key: BatchGetItem by the table's partition key (tables without a sort
// key), or one Query per distinct value on the table or a GSI. Lookups are
// de-duplicated and batched; output keeps the driving order.
type LookupJoin struct {
	Input  Node
	Kind   JoinKind
	Source int    // FROM item looked up
	Alias  string // its alias, for EXPLAIN
	Table  string
	Index  string
	Op     Op // OpBatchGetItem or OpQuery
	// Via says which key the lookup uses, for EXPLAIN.
	Via string
	// Probe computes the lookup value from a driving row; Attr is the key
	// attribute it must equal, of type KeyType.
	Probe   expr.Expr
	Attr    string
	KeyType value.Kind
	// Batch is the BatchGetItem template (Keys filled per request).
	Batch *types.KeysAndAttributes
	// Query is the Query template; ValuePlaceholder is the
	// ExpressionAttributeValues entry that receives each lookup value.
	Query            *dynamodb.QueryInput
	ValuePlaceholder string
	// FixedKey holds other key attributes fixed by the WHERE (the table's
	// partition key when the lookup is by sort key): BatchGetItem keys need them.
	FixedKey map[string]value.Value
	KeyAttrs []string
	// Fetch, when set, reads the full items from the base table after a GSI
	// lookup whose projection lacks needed attributes.
	Fetch *Fetch
	// Estimate is the expected cost of the lookups (a lower bound: it
	// depends on the rows that reach the join); Fetch has its own.
	Estimate Estimate
	// Residual is evaluated on each joined row: ON conditions that are not
	// the lookup equality.
	Residual expr.Expr
	// For EXPLAIN.
	Conditions []expr.Expr
	Filters    []expr.Expr
	// AsInner is the condition that made a written LEFT join an inner one
	// (it is never true on a row extended with NULLs), for EXPLAIN.
	AsInner expr.Expr
}

// Inputs implements Node.
func (n *LookupJoin) Inputs() []Node { return []Node{n.Input} }

func (n *LookupJoin) describe() explainLine {
	title := fmt.Sprintf("Lookup Join (%s) %s by %s", n.Kind, n.Alias, n.Via)
	d := []string{"estimate: " + n.Estimate.String(), "on: " + sqlList(n.Conditions), "lookup value: " + n.Probe.String() + " of each input row; NULLs and values that are not " + typeWord(n.KeyType) + "s never match"}
	if n.AsInner != nil {
		d = append(d, asInnerLine(n.AsInner))
	}
	if len(n.Filters) > 0 {
		d = append(d, "filter expression (SQL): "+sqlList(n.Filters))
	}
	if n.Residual != nil {
		d = append(d, "also checks (client): "+n.Residual.String())
	}
	if n.Op == OpBatchGetItem {
		d = append(d, "BatchGetItem "+n.Table+": distinct lookup values, at most "+batchKeysText+" keys per request, UnprocessedKeys retried with backoff")
		f := fields{}
		f.str("ProjectionExpression", n.Batch.ProjectionExpression)
		f.names(n.Batch.ExpressionAttributeNames)
		f.add("ConsistentRead", strconv.FormatBool(n.Batch.ConsistentRead != nil && *n.Batch.ConsistentRead))
		if len(n.FixedKey) > 0 {
			keys := make([]string, 0, len(n.FixedKey))
			for k, v := range n.FixedKey {
				keys = append(keys, k+"="+string(value.AppendDynamoJSON(nil, v)))
			}
			sort.Strings(keys)
			f.add("Key (fixed part)", strings.Join(keys, ", "))
		}
		d = append(d, f...)
	} else {
		d = append(d, "Query per distinct lookup value, run concurrently; "+n.ValuePlaceholder+" takes each value")
		q := *n.Query
		q.ExpressionAttributeValues = map[string]types.AttributeValue{}
		for k, v := range n.Query.ExpressionAttributeValues {
			if k == n.ValuePlaceholder {
				v = &types.AttributeValueMemberS{Value: "\x00lookup"}
			}
			q.ExpressionAttributeValues[k] = v
		}
		for _, line := range queryFields(&q) {
			d = append(d, strings.Replace(line, `{"S":"\u0000lookup"}`, "<each lookup value>", 1))
		}
	}
	if n.Fetch != nil {
		d = append(d, "then BatchGetItem "+n.Fetch.Table+" for the full items (the index does not project every needed attribute)",
			"fetch estimate: "+n.Fetch.Estimate.String())
	}
	return explainLine{kind: "LookupJoin", title: title, details: d}
}

func (n *LookupJoin) jsonFields(w *jsonWriter, o *object) error {
	o.add("table", n.Table)
	o.add("index", n.Index)
	o.add("operation", string(n.Op))
	o.add("join", n.Kind.String())
	o.add("alias", n.Alias)
	o.add("via", n.Via)
	o.add("on", sqlList(n.Conditions))
	o.add("lookup_value", object{{"expr", n.Probe.String()}, {"attribute", n.Attr}, {"type", typeWord(n.KeyType)}})
	if n.AsInner != nil {
		o.add("runs_as_inner", asInnerLine(n.AsInner))
	}
	if len(n.Filters) > 0 {
		o.add("filter", sqlList(n.Filters))
	}
	if n.Residual != nil {
		o.add("residual", n.Residual.String())
	}
	o.add("estimate", estimateJSON(n.Estimate, false))
	var req object
	if n.Op == OpBatchGetItem {
		body, err := requestJSON(n.BatchRequest(nil))
		if err != nil {
			return err
		}
		with := n.Attr + " = each distinct lookup value"
		if len(n.FixedKey) > 0 {
			fixed, err := requestJSON(attributeMap(n.FixedKey))
			if err != nil {
				return err
			}
			with += ", with the fixed key part " + string(fixed)
		}
		req = object{{"operation", string(OpBatchGetItem)}, {"input", body},
			{"fill", object{{"field", "RequestItems." + n.Table + ".Keys"}, {"with", with + "; at most " + batchKeysText + " keys per request, UnprocessedKeys retried with backoff"}}}}
	} else {
		body, err := requestJSON(n.queryTemplate())
		if err != nil {
			return err
		}
		req = object{{"operation", string(OpQuery)}, {"input", body},
			{"fill", object{{"field", "ExpressionAttributeValues." + n.ValuePlaceholder}, {"with", "each distinct lookup value, one Query per value, run concurrently"}}}}
	}
	o.add("requests", []any{req})
	if n.Fetch != nil {
		freq, err := fetchRequest(n.Fetch)
		if err != nil {
			return err
		}
		fetch := object{{"table", n.Fetch.Table}, {"operation", string(OpBatchGetItem)},
			{"reason", fetchReason},
			{"estimate", estimateJSON(n.Fetch.Estimate, false)}, {"requests", []any{freq}}}
		if w.actual != nil {
			// The fetch is no node of the tree: its rows are the join's,
			// only its requests are its own.
			if a, ok := w.actual(n.Fetch); ok {
				fetch = append(fetch, field{"actual", requestsActualJSON(a)})
			}
		}
		o.add("fetch", fetch)
	}
	return nil
}
