package planner

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/value"
	"github.com/ddbsql/ddbsql/planner/expr"
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

type explainWriter struct {
	sb     strings.Builder
	actual Actuals
}

// node writes one operator: its title after prefix, its detail lines after
// childPrefix (its inputs follow, written by the walk).
func (w *explainWriter) node(n Node, prefix, childPrefix string) {
	title, details := describe(n)
	switch t := n.(type) {
	case *Access:
		details = append([]string{"estimate: " + t.Estimate.String()}, details...)
	case *Fetch:
		details = append([]string{"estimate: " + t.Estimate.String()}, details...)
	case *LookupJoin:
		details = append([]string{"estimate: " + t.Estimate.String()}, details...)
	}
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
	w.sb.WriteString(prefix + title + "\n")
	detailPrefix := childPrefix + "   "
	if len(n.Inputs()) > 0 {
		detailPrefix = childPrefix + "│  "
	}
	for _, d := range details {
		w.sb.WriteString(strings.TrimRight(detailPrefix+d, " ") + "\n")
	}
}

func describe(n Node) (string, []string) {
	switch t := n.(type) {
	case *Limit:
		if t.Count < 0 {
			return fmt.Sprintf("Limit (client): OFFSET %d", t.Offset), nil
		}
		if t.Offset > 0 {
			return fmt.Sprintf("Limit (client): %d OFFSET %d", t.Count, t.Offset), nil
		}
		return fmt.Sprintf("Limit (client): %d", t.Count), nil
	case *Sort:
		keys := make([]string, len(t.Keys))
		for i, k := range t.Keys {
			keys[i] = k.Expr.String() + map[bool]string{true: " DESC", false: " ASC"}[k.Desc]
		}
		title := "Sort (client): " + strings.Join(keys, ", ")
		if t.TopN > 0 {
			title += fmt.Sprintf(" (top %d)", t.TopN)
		}
		return title, nil
	case *Distinct:
		return "Distinct (client)", nil
	case *Project:
		if t.Star && len(t.StarAliases) > 0 {
			return "Project: " + strings.Join(t.StarAliases, ".*, ") + ".* (every attribute of " +
				strings.Join(t.StarAliases, "'s and ") + "'s items)", nil
		}
		if t.Star {
			return "Project: * (every attribute of each item)", nil
		}
		cols := make([]string, 0, len(t.Exprs))
		for i, e := range t.Exprs {
			name := t.Names[i]
			switch {
			case name == "":
				cols = append(cols, e.String()+" (for ORDER BY)")
			case name == e.String() || isRefNamed(e, name):
				cols = append(cols, name)
			default:
				cols = append(cols, e.String()+" AS "+name)
			}
		}
		return "Project: " + strings.Join(cols, ", "), nil
	case *Filter:
		if t.Having {
			return "Having (client): " + t.Pred.String(), nil
		}
		return "Filter (client): " + t.Pred.String(), nil
	case *Aggregate:
		parts := make([]string, 0, len(t.Aggs))
		for _, a := range t.Aggs {
			parts = append(parts, a.String())
		}
		title := "Aggregate (client): " + strings.Join(parts, ", ")
		if len(t.Groups) > 0 {
			groups := make([]string, len(t.Groups))
			for i, g := range t.Groups {
				groups[i] = g.String()
			}
			title += " GROUP BY " + strings.Join(groups, ", ")
		}
		return title, nil
	case *Fetch:
		d := []string{
			"reason: the index does not project every attribute the statement needs",
			"TableName: " + t.Table,
			"Keys: " + strings.Join(t.KeyAttrs, ", ") + " of each index row, at most 100 per request, UnprocessedKeys retried",
		}
		if t.Projection != nil {
			d = append(d, "ProjectionExpression: "+*t.Projection, "ExpressionAttributeNames: "+names(t.Names))
		}
		d = append(d, "ConsistentRead: "+strconv.FormatBool(t.Consistent), "ReturnConsumedCapacity: INDEXES")
		return "BatchGetItem " + t.Table + " (fetch full items, in input order)", d
	case *Access:
		return describeAccess(t)
	case *LookupJoin:
		return describeLookup(t)
	case *Union:
		return describeUnion(t)
	case *OneRow:
		return "One row (no FROM: nothing is read)", nil
	case *HashJoin:
		keys := make([]string, len(t.ProbeKeys))
		for i := range t.ProbeKeys {
			keys[i] = t.ProbeKeys[i].String() + " = " + t.BuildKeys[i].String()
		}
		d := []string{"strategy: hash join on the client; the first input streams, the second is read into a hash table",
			"why: " + t.Reason}
		if t.AsInner != nil {
			d = append(d, asInnerLine(t.AsInner))
		}
		if t.Residual != nil {
			d = append(d, "also checks (client): "+t.Residual.String())
		}
		return fmt.Sprintf("Hash Join (%s) on %s", t.Kind, strings.Join(keys, " AND ")), d
	}
	return fmt.Sprintf("%T", n), nil
}

func isRefNamed(e expr.Expr, name string) bool {
	r, ok := e.(expr.Ref)
	return ok && r.Name == name
}

func describeAccess(a *Access) (string, []string) {
	title := string(a.Op) + " " + a.Table
	if a.Index != "" {
		title += " INDEX " + a.Index
	}
	var d []string
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
				how = "results merged by " + a.Merge.Attr + map[bool]string{true: " DESC", false: " ASC"}[a.Merge.Desc]
			}
			d = append(d, fmt.Sprintf("%d Queries, one per partition key value, run concurrently; %s", len(a.Queries), how))
		}
	case OpScan:
		for _, s := range a.Scans {
			reqs = append(reqs, scanFields(s))
		}
		d = append(d, fmt.Sprintf("reads the whole %s (segments: %d)", map[bool]string{true: "index", false: "table"}[a.Index != ""], len(a.Scans)))
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
	return title, d
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
		f.add("RequestItems."+t+".Keys", plural(int64(len(ka.Keys)), "key"))
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

func describeLookup(t *LookupJoin) (string, []string) {
	title := fmt.Sprintf("Lookup Join (%s) %s by %s", t.Kind, t.Alias, t.Via)
	d := []string{"on: " + sqlList(t.Conditions), "lookup value: " + t.Probe.String() + " of each input row; NULLs and values that are not " + typeWord(t.KeyType) + "s never match"}
	if t.AsInner != nil {
		d = append(d, asInnerLine(t.AsInner))
	}
	if len(t.Filters) > 0 {
		d = append(d, "filter expression (SQL): "+sqlList(t.Filters))
	}
	if t.Residual != nil {
		d = append(d, "also checks (client): "+t.Residual.String())
	}
	if t.Op == OpBatchGetItem {
		d = append(d, "BatchGetItem "+t.Table+": distinct lookup values, at most 100 keys per request, UnprocessedKeys retried with backoff")
		f := fields{}
		f.str("ProjectionExpression", t.Batch.ProjectionExpression)
		f.names(t.Batch.ExpressionAttributeNames)
		f.add("ConsistentRead", strconv.FormatBool(t.Batch.ConsistentRead != nil && *t.Batch.ConsistentRead))
		if len(t.FixedKey) > 0 {
			keys := make([]string, 0, len(t.FixedKey))
			for k, v := range t.FixedKey {
				keys = append(keys, k+"="+string(value.AppendDynamoJSON(nil, v)))
			}
			sort.Strings(keys)
			f.add("Key (fixed part)", strings.Join(keys, ", "))
		}
		d = append(d, f...)
	} else {
		d = append(d, "Query per distinct lookup value, run concurrently; "+t.ValuePlaceholder+" takes each value")
		q := *t.Query
		q.ExpressionAttributeValues = map[string]types.AttributeValue{}
		for k, v := range t.Query.ExpressionAttributeValues {
			if k == t.ValuePlaceholder {
				v = &types.AttributeValueMemberS{Value: "\x00lookup"}
			}
			q.ExpressionAttributeValues[k] = v
		}
		for _, line := range queryFields(&q) {
			d = append(d, strings.Replace(line, `{"S":"\u0000lookup"}`, "<each lookup value>", 1))
		}
	}
	if t.Fetch != nil {
		d = append(d, "then BatchGetItem "+t.Fetch.Table+" for the full items (the index does not project every needed attribute)",
			"fetch estimate: "+t.Fetch.Estimate.String())
	}
	return title, d
}

// asInnerLine explains why a written outer join runs as an inner one.
func asInnerLine(cond expr.Expr) string {
	return "written as an outer join, runs as INNER: " + cond.String() + " is never true on a row without a match, so the NULL-extended rows would be dropped anyway"
}
