package planner

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/ddbsql/ddbsql/planner/expr"
)

// Op is a DynamoDB read operation, named exactly as the API names it.
type Op string

// The read operations the planner can choose.
const (
	OpGetItem      Op = "GetItem"
	OpBatchGetItem Op = "BatchGetItem"
	OpQuery        Op = "Query"
	OpScan         Op = "Scan"
)

// Access is a leaf that reads DynamoDB. Its requests are complete: exec adds
// only ExclusiveStartKey when paginating (and, for a Limit, asks each page
// for what remains of it: Limit is the request's total) and re-sends
// UnprocessedKeys.
type Access struct {
	Op    Op
	Table string
	Index string // "" for the base table
	// Source is the FROM item this access reads; its rows' columns are
	// that item's attributes, by name (see FromItems).
	Source  int
	Gets    []*dynamodb.GetItemInput
	Batches []*dynamodb.BatchGetItemInput
	Queries []*dynamodb.QueryInput // several: one per partition key value (IN)
	Scans   []*dynamodb.ScanInput  // several: one per parallel segment

	// Merge, when set, merges the Queries' results in sort-key order;
	// otherwise results follow the order of Queries.
	Merge *MergeOrder
	// Count reads with Select=COUNT and yields one row holding the count.
	Count bool
	// KeyAttrs are the table's key attributes (partition key first).
	KeyAttrs []string

	// For EXPLAIN: the SQL conditions DynamoDB evaluates.
	KeyConditions []expr.Expr
	Filters       []expr.Expr
	// Drives, on the read that starts a join, says why the join starts
	// from it (for EXPLAIN).
	Drives string
	// Estimate is the expected cost, from DescribeTable.
	Estimate Estimate
	// ReadAhead lets exec request the next page while the current one is
	// processed: set when every page will be read anyway (no LIMIT can stop
	// the read early), so it never sends a request the statement does not need.
	ReadAhead bool
	// singleItem: the key condition fixes the sort key, so each Query reads
	// at most one item.
	singleItem bool
}

// MergeOrder merges several sorted Query streams by one sort key attribute.
type MergeOrder struct {
	Attr string
	Desc bool
}

// Inputs implements Node.
func (*Access) Inputs() []Node { return nil }

func (a *Access) describe() explainLine {
	title := string(a.Op) + " " + a.Table
	if a.Index != "" {
		title += " INDEX " + a.Index
	}
	d := []string{"estimate: " + a.Estimate.String()}
	if a.Drives != "" {
		d = append(d, "drives the join: "+a.Drives)
	}
	if len(a.KeyConditions) > 0 {
		d = append(d, "key condition (SQL): "+sqlList(a.KeyConditions))
	}
	if len(a.Filters) > 0 {
		d = append(d, "filter expression (SQL): "+sqlList(a.Filters))
	}
	if a.Count {
		d = append(d, "counts items with Select=COUNT (no items are returned)")
	}
	var reqs [][]string
	switch a.Op {
	case OpGetItem:
		for _, g := range a.Gets {
			reqs = append(reqs, getFields(g))
		}
	case OpBatchGetItem:
		for _, b := range a.Batches {
			reqs = append(reqs, batchFields(b))
		}
	case OpQuery:
		for _, q := range a.Queries {
			reqs = append(reqs, queryFields(q))
		}
		if len(a.Queries) > 1 {
			how := "results concatenated in IN-list order"
			if a.Merge != nil {
				how = "results merged by " + a.Merge.Attr + " " + order(a.Merge.Desc)
			}
			d = append(d, fmt.Sprintf("%d Queries, one per partition key value, run concurrently; %s", len(a.Queries), how))
		}
	case OpScan:
		for _, s := range a.Scans {
			reqs = append(reqs, scanFields(s))
		}
		d = append(d, fmt.Sprintf("reads the whole %s (segments: %d)", indexOrTable(a.Index), len(a.Scans)))
	}
	for i, r := range reqs {
		if len(reqs) > 1 {
			d = append(d, fmt.Sprintf("request %d of %d:", i+1, len(reqs)))
			for _, line := range r {
				d = append(d, "  "+line)
			}
			continue
		}
		d = append(d, r...)
	}
	return explainLine{kind: string(a.Op), title: title, details: d}
}

func (a *Access) jsonFields(_ *jsonWriter, o *object) error {
	o.add("table", a.Table)
	o.add("index", a.Index)
	o.add("drives", a.Drives)
	if len(a.KeyConditions) > 0 {
		o.add("key_condition", sqlList(a.KeyConditions))
	}
	if len(a.Filters) > 0 {
		o.add("filter", sqlList(a.Filters))
	}
	if a.Count {
		o.add("select_count", true)
	}
	switch a.Op {
	case OpQuery:
		if len(a.Queries) > 1 {
			if a.Merge != nil {
				o.add("merge", object{{"attribute", a.Merge.Attr}, {"order", order(a.Merge.Desc)}})
			} else {
				o.add("merge", "concatenated in IN-list order")
			}
		}
	case OpScan:
		o.add("segments", len(a.Scans))
	}
	o.add("estimate", estimateJSON(a.Estimate, false))
	var inputs []any
	for _, g := range a.Gets {
		inputs = append(inputs, g)
	}
	for _, b := range a.Batches {
		inputs = append(inputs, b)
	}
	for _, q := range a.Queries {
		inputs = append(inputs, q)
	}
	for _, sc := range a.Scans {
		inputs = append(inputs, sc)
	}
	var reqs []any
	for _, in := range inputs {
		body, err := requestJSON(in)
		if err != nil {
			return err
		}
		reqs = append(reqs, object{{"operation", string(a.Op)}, {"input", body}})
	}
	o.add("requests", reqs)
	return nil
}
