package planner

import (
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
// only ExclusiveStartKey when paginating and re-sends UnprocessedKeys.
type Access struct {
	Op     Op
	Table  string
	Index  string // "" for the base table
	Source int    // FROM item this access reads
	// Qualify names output columns by Source (joins); otherwise columns
	// are the attribute names.
	Qualify bool

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
