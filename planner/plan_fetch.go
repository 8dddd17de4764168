package planner

import (
	"strconv"
	"strings"
)

// Fetch reads, for each input row, the full item from the base table with
// BatchGetItem (at most 100 keys per request), because the index that was
// queried does not project every attribute the statement needs. Output
// order equals input order.
type Fetch struct {
	Input      Node
	Source     int
	Table      string
	KeyAttrs   []string
	Projection *string // nil: all attributes
	Names      map[string]string
	Consistent bool
	// Estimate is the expected cost of the BatchGetItem requests, from the
	// rows the read below returns.
	Estimate Estimate
}

// Inputs implements Node.
func (n *Fetch) Inputs() []Node { return []Node{n.Input} }

// fetchReason is why a Fetch reads the items again.
const fetchReason = "the index does not project every attribute the statement needs"

func (n *Fetch) describe() explainLine {
	d := []string{
		"estimate: " + n.Estimate.String(),
		"reason: " + fetchReason,
		"TableName: " + n.Table,
		"Keys: " + strings.Join(n.KeyAttrs, ", ") + " of each index row, at most " + batchKeysText + " per request, UnprocessedKeys retried",
	}
	if n.Projection != nil {
		d = append(d, "ProjectionExpression: "+*n.Projection, "ExpressionAttributeNames: "+names(n.Names))
	}
	d = append(d, "ConsistentRead: "+strconv.FormatBool(n.Consistent), "ReturnConsumedCapacity: INDEXES")
	return explainLine{kind: "Fetch", title: "BatchGetItem " + n.Table + " (fetch full items, in input order)", details: d}
}

func (n *Fetch) jsonFields(_ *jsonWriter, o *object) error {
	o.add("table", n.Table)
	o.add("operation", string(OpBatchGetItem))
	o.add("reason", fetchReason)
	o.add("key_attributes", n.KeyAttrs)
	o.add("estimate", estimateJSON(n.Estimate, false))
	req, err := fetchRequest(n)
	if err != nil {
		return err
	}
	o.add("requests", []any{req})
	return nil
}

// fetchRequest is a Fetch's BatchGetItem template: exec fills Keys.
func fetchRequest(f *Fetch) (object, error) {
	body, err := requestJSON(f.Request(nil))
	if err != nil {
		return nil, err
	}
	return object{{"operation", string(OpBatchGetItem)}, {"input", body},
		{"fill", object{{"field", "RequestItems." + f.Table + ".Keys"},
			{"with", strings.Join(f.KeyAttrs, ", ") + " of each distinct input row, at most " + batchKeysText + " keys per request, in input order; UnprocessedKeys retried with backoff"}}}}, nil
}
