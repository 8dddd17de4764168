package planner

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/value"
	"github.com/ddbsql/ddbsql/planner/expr"
)

// Plan is a compiled SELECT.
type Plan struct {
	Root Node
	// Columns are the output column names in select-list order; empty with Star.
	Columns []string
	// Star is SELECT *: each output row is the whole item (its attributes vary).
	Star bool
	// KeyColumns are the table's key attributes, listed first for SELECT *.
	KeyColumns []string
	// Notes are remarks on how the statement was read that the user should
	// see even though it runs (a double-quoted name that may have been meant
	// as a string); EXPLAIN prints them above the plan, a run on stderr.
	Notes []string
}

// Node is one operator of the plan tree.
type Node interface{ Inputs() []Node }

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

// Fetch reads, for each input row, the full item from the base table with
// BatchGetItem (at most 100 keys per request), because the index that was
// queried does not project every attribute the statement needs. Output
// order equals input order.
type Fetch struct {
	Input      Node
	Source     int
	Qualify    bool
	Table      string
	KeyAttrs   []string
	Projection *string // nil: all attributes
	Names      map[string]string
	Consistent bool
	// Estimate is the expected cost of the BatchGetItem requests, from the
	// rows the read below returns.
	Estimate Estimate
}

// Filter keeps the rows for which Pred is true, evaluated on the client.
type Filter struct {
	Input Node
	Pred  expr.Expr
	// Having marks a filter over aggregated rows (for EXPLAIN).
	Having bool
}

// Aggregate groups its input by Groups and computes Aggs; its output columns
// are the group values followed by the aggregate values (addressed by Ref).
type Aggregate struct {
	Input  Node
	Groups []expr.Expr
	Aggs   []expr.Aggregate
}

// Project computes output columns. With Star it passes the items through.
type Project struct {
	Input Node
	Exprs []expr.Expr
	Names []string
	Star  bool
	// StarSources restricts a join's SELECT alias.* to the attributes of
	// those FROM items (their indexes, aliases in StarAliases); nil keeps
	// every item's.
	StarSources []int
	StarAliases []string
}

// Distinct removes duplicate rows (over all columns).
type Distinct struct {
	Input Node
}

// SortKey is one ORDER BY key.
type SortKey struct {
	Expr expr.Expr
	Desc bool
}

// Sort orders rows on the client. TopN > 0 means only the first TopN rows are
// needed (ORDER BY … LIMIT), so it keeps a bounded heap instead of sorting all.
type Sort struct {
	Input Node
	Keys  []SortKey
	TopN  int64
}

// Limit skips Offset rows and then passes at most Count rows (Count < 0: all).
type Limit struct {
	Input  Node
	Offset int64
	Count  int64
}

// Inputs implementations.
func (*Access) Inputs() []Node      { return nil }
func (n *Fetch) Inputs() []Node     { return []Node{n.Input} }
func (n *Filter) Inputs() []Node    { return []Node{n.Input} }
func (n *Aggregate) Inputs() []Node { return []Node{n.Input} }
func (n *Project) Inputs() []Node   { return []Node{n.Input} }
func (n *Distinct) Inputs() []Node  { return []Node{n.Input} }
func (n *Sort) Inputs() []Node      { return []Node{n.Input} }
func (n *Limit) Inputs() []Node     { return []Node{n.Input} }

// CountColumn is the name of the single column an Access with Count yields.
const CountColumn = "count"

// keyValue is a literal compared with a key attribute.
type keyValue = value.Value

// NeedsScan reports whether any read of the plan is a Scan.
func NeedsScan(p *Plan) bool {
	return Find(p.Root, func(n Node) bool {
		a, ok := n.(*Access)
		return ok && a.Op == OpScan
	}) != nil
}

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

// HashJoin reads Build completely into a hash table on BuildKeys and streams
// Probe through it (Probe is the preserved side of a LEFT join).
type HashJoin struct {
	Probe, Build         Node
	Kind                 JoinKind
	ProbeKeys, BuildKeys []expr.Expr
	Residual             expr.Expr
	Reason               string
	AsInner              expr.Expr // as in LookupJoin
}

func (n *LookupJoin) Inputs() []Node { return []Node{n.Input} }
func (n *HashJoin) Inputs() []Node   { return []Node{n.Probe, n.Build} }

// OneRow yields a single row without columns: the input of SELECT without FROM.
type OneRow struct{}

// Inputs implements Node.
func (*OneRow) Inputs() []Node { return nil }
