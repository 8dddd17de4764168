package planner

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/ddbsql/ddbsql/exec/value"
	"github.com/ddbsql/ddbsql/planner/expr"
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
