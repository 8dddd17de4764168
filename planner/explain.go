package planner

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/plural"
	"github.com/ddbsql/ddbsql/planner/value"
)

// Explain renders the plan as an indented tree. Client-side operators say
// "(client)"; DynamoDB reads list every request field exec will send.
func Explain(p *Plan) string {
	return ExplainWith(p, nil)
}

// Actuals supplies measured figures per node for EXPLAIN ANALYZE; nil
// means plain EXPLAIN.
type Actuals func(n Node) (line string, ok bool)

// ExplainWith renders the plan, adding an "actual:" line under every node
// for which actual reports one, and the estimated total at the end.
func ExplainWith(p *Plan, actual Actuals) string {
	w := explainWriter{actual: actual}
	for _, n := range p.Notes {
		w.sb.WriteString("note: " + n + "\n")
	}
	// Each node's prefixes come from its parent: the tree lines before
	// its title, and before the lines and inputs under it.
	type prefixes struct{ title, under string }
	at := map[Node]prefixes{p.Root: {}}
	Walk(p.Root, func(n Node, _ int) bool {
		pre := at[n]
		w.node(n, pre.title, pre.under)
		inputs := n.Inputs()
		for i, in := range inputs {
			branch, cont := "├─ ", "│  "
			if i == len(inputs)-1 {
				branch, cont = "└─ ", "   "
			}
			at[in] = prefixes{pre.under + branch, pre.under + cont}
		}
		return true
	})
	w.sb.WriteString("estimated total: " + TotalEstimate(p).TotalString() + "\n")
	return w.sb.String()
}

// explainLine is how EXPLAIN shows one node, in text and in JSON; every
// node kind gives its own (describe, next to its struct).
type explainLine struct {
	kind    string   // JSON's "kind": the node's type, the operation of a read
	title   string   // the node's line in the text tree, JSON's "title"
	client  bool     // runs on the client: sends no request of its own
	details []string // the text lines under the title (JSON has fields instead)
}

type explainWriter struct {
	sb     strings.Builder
	actual Actuals
}

// node writes one operator: its title after prefix, its detail lines after
// childPrefix (its inputs follow, written by the walk).
func (w *explainWriter) node(n Node, prefix, childPrefix string) {
	desc := n.describe()
	details := desc.details
	if w.actual != nil {
		if line, ok := w.actual(n); ok {
			details = append([]string{"actual: " + line}, details...)
		}
		// A lookup's fetch is no node of the tree: its requests have a line
		// of their own, so the actual lines add up to the statement's.
		if lj, ok := n.(*LookupJoin); ok && lj.Fetch != nil {
			if line, ok := w.actual(lj.Fetch); ok {
				details = append(details, "fetch actual: "+line)
			}
		}
	}
	w.sb.WriteString(prefix + desc.title + "\n")
	detailPrefix := childPrefix + "   "
	if len(n.Inputs()) > 0 {
		detailPrefix = childPrefix + "│  "
	}
	for _, d := range details {
		w.sb.WriteString(strings.TrimRight(detailPrefix+d, " ") + "\n")
	}
}

func sqlList(es []expr.Expr) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.String()
	}
	return strings.Join(parts, " AND ")
}

func queryFields(q *dynamodb.QueryInput) []string {
	f := fields{}
	f.str("TableName", q.TableName)
	f.str("IndexName", q.IndexName)
	f.str("KeyConditionExpression", q.KeyConditionExpression)
	f.str("FilterExpression", q.FilterExpression)
	f.str("ProjectionExpression", q.ProjectionExpression)
	f.names(q.ExpressionAttributeNames)
	f.values(q.ExpressionAttributeValues)
	forward := q.ScanIndexForward == nil || *q.ScanIndexForward
	f.add("ScanIndexForward", strconv.FormatBool(forward))
	f.limit(q.Limit)
	f.sel(q.Select)
	f.add("ConsistentRead", strconv.FormatBool(q.ConsistentRead != nil && *q.ConsistentRead))
	f.add("ReturnConsumedCapacity", string(q.ReturnConsumedCapacity))
	return f
}

func scanFields(s *dynamodb.ScanInput) []string {
	f := fields{}
	f.str("TableName", s.TableName)
	f.str("IndexName", s.IndexName)
	f.str("FilterExpression", s.FilterExpression)
	f.str("ProjectionExpression", s.ProjectionExpression)
	f.names(s.ExpressionAttributeNames)
	f.values(s.ExpressionAttributeValues)
	f.limit(s.Limit)
	f.sel(s.Select)
	if s.TotalSegments != nil {
		f.add("Segment", fmt.Sprintf("%d of TotalSegments %d", *s.Segment, *s.TotalSegments))
	}
	f.add("ConsistentRead", strconv.FormatBool(s.ConsistentRead != nil && *s.ConsistentRead))
	f.add("ReturnConsumedCapacity", string(s.ReturnConsumedCapacity))
	return f
}

func getFields(g *dynamodb.GetItemInput) []string {
	f := fields{}
	f.str("TableName", g.TableName)
	f.add("Key", itemJSON(g.Key))
	f.str("ProjectionExpression", g.ProjectionExpression)
	f.names(g.ExpressionAttributeNames)
	f.add("ConsistentRead", strconv.FormatBool(g.ConsistentRead != nil && *g.ConsistentRead))
	f.add("ReturnConsumedCapacity", string(g.ReturnConsumedCapacity))
	return f
}

func batchFields(b *dynamodb.BatchGetItemInput) []string {
	f := fields{}
	tables := make([]string, 0, len(b.RequestItems))
	for t := range b.RequestItems {
		tables = append(tables, t)
	}
	sort.Strings(tables)
	for _, t := range tables {
		ka := b.RequestItems[t]
		f.add("RequestItems."+t+".Keys", plural.Of(len(ka.Keys), "key"))
		for _, k := range ka.Keys {
			f = append(f, "  "+itemJSON(k))
		}
		f.str("RequestItems."+t+".ProjectionExpression", ka.ProjectionExpression)
		if len(ka.ExpressionAttributeNames) > 0 {
			f.add("RequestItems."+t+".ExpressionAttributeNames", names(ka.ExpressionAttributeNames))
		}
		f.add("RequestItems."+t+".ConsistentRead", strconv.FormatBool(ka.ConsistentRead != nil && *ka.ConsistentRead))
	}
	f.add("ReturnConsumedCapacity", string(b.ReturnConsumedCapacity))
	return f
}

type fields []string

func (f *fields) add(k, v string) { *f = append(*f, k+": "+v) }

func (f *fields) str(k string, v *string) {
	if v != nil {
		f.add(k, *v)
	}
}

func (f *fields) limit(l *int32) {
	if l != nil {
		f.add("Limit", strconv.Itoa(int(*l)))
	}
}

func (f *fields) sel(s types.Select) {
	if s != "" {
		f.add("Select", string(s))
	}
}

func (f *fields) names(m map[string]string) {
	if len(m) > 0 {
		f.add("ExpressionAttributeNames", names(m))
	}
}

func (f *fields) values(m map[string]types.AttributeValue) {
	if len(m) == 0 {
		return
	}
	keys := sortedPlaceholders(m)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + attrJSON(m[k])
	}
	f.add("ExpressionAttributeValues", strings.Join(parts, ", "))
}

func names(m map[string]string) string {
	keys := sortedPlaceholders(m)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + m[k]
	}
	return strings.Join(parts, ", ")
}

// sortedPlaceholders orders #0, #1, … #10 numerically.
func sortedPlaceholders[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i] == "" || keys[j] == "" {
			return keys[i] < keys[j]
		}
		a, errA := strconv.Atoi(keys[i][1:])
		b, errB := strconv.Atoi(keys[j][1:])
		if errA == nil && errB == nil {
			return a < b
		}
		return keys[i] < keys[j]
	})
	return keys
}

func attrJSON(av types.AttributeValue) string {
	v, err := value.FromAttributeValue(av)
	if err != nil {
		return fmt.Sprintf("%v", av)
	}
	return string(value.AppendDynamoJSON(nil, v))
}

func itemJSON(m map[string]types.AttributeValue) string {
	v, err := value.FromItem(m)
	if err != nil {
		return fmt.Sprintf("%v", m)
	}
	return string(value.AppendItemJSON(nil, v))
}

// asInnerLine explains why a written outer join runs as an inner one.
func asInnerLine(cond expr.Expr) string {
	return "written as an outer join, runs as INNER: " + cond.String() + " is never true on a row without a match, so the NULL-extended rows would be dropped anyway"
}
