package memdb_test

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/planner/value"
)

// The parity suite loads every fixture table into dynalite and into memdb
// and sends both the same requests: Query, Scan, GetItem, BatchGetItem and
// DescribeTable, following pagination to the end. Responses are compared
// field by field (items, counts, LastEvaluatedKey, consumed capacity) and
// errors by code and message. Where dynalite computes capacity unlike
// DynamoDB (a page that reads nothing, an LSI's fetched items), parity
// leaves the figure out and capacity_test.go checks memdb against the rule. It needs dynalite (DDBSQL_TEST_DYNALITE, set
// by `make test`) and fails without it.

// parityCase sends requests to one backend and renders what came back, one
// line per response.
type parityCase struct {
	name string
	run  func(ctx context.Context, c dynamo.Client, p string) []string
}

func TestParityWithDynalite(t *testing.T) {
	ctx := context.Background()
	dl := dynalitetest.Client(t)
	prefix := dynalitetest.Prefix(t)
	if err := fixtures.Load(ctx, dl, prefix); err != nil {
		t.Fatal(err)
	}
	mem := memdb.New()
	if err := fixtures.Load(ctx, mem, prefix); err != nil {
		t.Fatal(err)
	}
	for _, c := range parityCases() {
		t.Run(c.name, func(t *testing.T) {
			want := c.run(ctx, dl, prefix)
			got := c.run(ctx, mem, prefix)
			if len(want) != len(got) {
				t.Errorf("dynalite gave %d responses, memdb %d", len(want), len(got))
			}
			for i := 0; i < len(want) || i < len(got); i++ {
				var w, g string
				if i < len(want) {
					w = want[i]
				}
				if i < len(got) {
					g = got[i]
				}
				if w != g {
					t.Errorf("response %d differs:\ndynalite: %s\nmemdb:    %s", i, clip(w), clip(g))
				}
			}
		})
	}
}

// --- request builders ---------------------------------------------------------

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func n(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }

type vals = map[string]types.AttributeValue
type names = map[string]string

// pagesQ runs a Query to the end (at most 60 pages), one line per page.
func pagesQ(in dynamodb.QueryInput) func(context.Context, dynamo.Client, string) []string {
	return func(ctx context.Context, c dynamo.Client, p string) []string {
		in := in
		in.TableName = aws.String(p + *in.TableName)
		var lines []string
		for i := 0; i < 60; i++ {
			out, err := c.Query(ctx, &in)
			if err != nil {
				return append(lines, renderErr(err))
			}
			lines = append(lines, renderPage(out.Items, out.Count, out.ScannedCount, out.LastEvaluatedKey, out.ConsumedCapacity, p))
			if out.LastEvaluatedKey == nil {
				break
			}
			in.ExclusiveStartKey = out.LastEvaluatedKey
		}
		return lines
	}
}

// pagesS runs a Scan to the end (at most 60 pages), one line per page.
func pagesS(in dynamodb.ScanInput) func(context.Context, dynamo.Client, string) []string {
	return func(ctx context.Context, c dynamo.Client, p string) []string {
		in := in
		in.TableName = aws.String(p + *in.TableName)
		var lines []string
		for i := 0; i < 60; i++ {
			out, err := c.Scan(ctx, &in)
			if err != nil {
				return append(lines, renderErr(err))
			}
			lines = append(lines, renderPage(out.Items, out.Count, out.ScannedCount, out.LastEvaluatedKey, out.ConsumedCapacity, p))
			if out.LastEvaluatedKey == nil {
				break
			}
			in.ExclusiveStartKey = out.LastEvaluatedKey
		}
		return lines
	}
}

// segments scans each of n segments to the end and checks they partition
// the table; the lines are per segment page.
func segments(table string, total int32, limit int32) func(context.Context, dynamo.Client, string) []string {
	return func(ctx context.Context, c dynamo.Client, p string) []string {
		var lines []string
		for seg := int32(0); seg < total; seg++ {
			in := dynamodb.ScanInput{TableName: aws.String(table), Segment: aws.Int32(seg), TotalSegments: aws.Int32(total),
				ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal}
			if limit > 0 {
				in.Limit = aws.Int32(limit)
			}
			lines = append(lines, pagesS(in)(ctx, c, p)...)
		}
		return lines
	}
}

func getItem(in dynamodb.GetItemInput) func(context.Context, dynamo.Client, string) []string {
	return func(ctx context.Context, c dynamo.Client, p string) []string {
		in := in
		in.TableName = aws.String(p + *in.TableName)
		out, err := c.GetItem(ctx, &in)
		if err != nil {
			return []string{renderErr(err)}
		}
		line := "item=" + renderItem(out.Item)
		if out.ConsumedCapacity != nil {
			line += " cc=" + renderCC(*out.ConsumedCapacity, p)
		}
		return []string{line}
	}
}

func batchGet(in dynamodb.BatchGetItemInput) func(context.Context, dynamo.Client, string) []string {
	return func(ctx context.Context, c dynamo.Client, p string) []string {
		req := map[string]types.KeysAndAttributes{}
		for k, v := range in.RequestItems {
			req[p+k] = v
		}
		in := in
		in.RequestItems = req
		out, err := c.BatchGetItem(ctx, &in)
		if err != nil {
			return []string{renderErr(err)}
		}
		var lines []string
		for _, tbl := range sortedKeys(out.Responses) {
			var items []string
			for _, it := range out.Responses[tbl] {
				items = append(items, renderItem(it))
			}
			sort.Strings(items) // dynalite shuffles
			lines = append(lines, strings.TrimPrefix(tbl, p)+": "+strings.Join(items, " "))
		}
		lines = append(lines, fmt.Sprintf("unprocessed=%d", len(out.UnprocessedKeys)))
		var ccs []string
		for _, cc := range out.ConsumedCapacity {
			ccs = append(ccs, renderCC(cc, p))
		}
		sort.Strings(ccs)
		return append(lines, "cc="+strings.Join(ccs, " "))
	}
}

func describe(table string) func(context.Context, dynamo.Client, string) []string {
	return func(ctx context.Context, c dynamo.Client, p string) []string {
		out, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(p + table)})
		if err != nil {
			return []string{renderErr(err)}
		}
		d := out.Table
		lines := []string{fmt.Sprintf("%s %s keys=%s", strings.TrimPrefix(aws.ToString(d.TableName), p), d.TableStatus, renderKeys(d.KeySchema))}
		var defs []string
		for _, a := range d.AttributeDefinitions {
			defs = append(defs, aws.ToString(a.AttributeName)+":"+string(a.AttributeType))
		}
		sort.Strings(defs)
		lines = append(lines, "defs="+strings.Join(defs, ","))
		for _, g := range d.GlobalSecondaryIndexes {
			lines = append(lines, fmt.Sprintf("gsi %s %s keys=%s proj=%s%v", aws.ToString(g.IndexName), g.IndexStatus, renderKeys(g.KeySchema), g.Projection.ProjectionType, g.Projection.NonKeyAttributes))
		}
		for _, l := range d.LocalSecondaryIndexes {
			lines = append(lines, fmt.Sprintf("lsi %s keys=%s proj=%s%v", aws.ToString(l.IndexName), renderKeys(l.KeySchema), l.Projection.ProjectionType, l.Projection.NonKeyAttributes))
		}
		return lines
	}
}

// --- rendering ------------------------------------------------------------------

func renderItem(item map[string]types.AttributeValue) string {
	if item == nil {
		return "<none>"
	}
	v, err := value.FromItem(item)
	if err != nil {
		return "<bad item: " + err.Error() + ">"
	}
	return string(value.AppendItemJSON(nil, v))
}

func renderPage(items []map[string]types.AttributeValue, count, scanned int32, lek map[string]types.AttributeValue, cc *types.ConsumedCapacity, p string) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "count=%d scanned=%d", count, scanned)
	if items != nil || count == 0 {
		sb.WriteString(" items=[")
		for i, it := range items {
			if i > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(renderItem(it))
		}
		sb.WriteString("]")
	}
	if lek != nil {
		sb.WriteString(" lek=" + renderItem(lek))
	}
	switch {
	case cc != nil && scanned == 0:
		// A page that reads nothing costs DynamoDB's minimum read unit;
		// dynalite charges nothing. capacity_test.go tests memdb against
		// the rule, so parity leaves this figure out.
		sb.WriteString(" cc=<page read nothing: not compared>")
	case cc != nil:
		sb.WriteString(" cc=" + renderCC(*cc, p))
	}
	return sb.String()
}

func renderCC(cc types.ConsumedCapacity, p string) string {
	f := func(x *float64) string {
		if x == nil {
			return "nil"
		}
		return strconv.FormatFloat(*x, 'f', -1, 64)
	}
	out := strings.TrimPrefix(aws.ToString(cc.TableName), p) + ":" + f(cc.CapacityUnits)
	if cc.Table != nil {
		out += " table=" + f(cc.Table.CapacityUnits)
	}
	for _, k := range sortedKeys(cc.GlobalSecondaryIndexes) {
		c := cc.GlobalSecondaryIndexes[k]
		out += " gsi." + k + "=" + f(c.CapacityUnits)
	}
	for _, k := range sortedKeys(cc.LocalSecondaryIndexes) {
		c := cc.LocalSecondaryIndexes[k]
		out += " lsi." + k + "=" + f(c.CapacityUnits)
	}
	return out
}

func renderKeys(ks []types.KeySchemaElement) string {
	var parts []string
	for _, k := range ks {
		parts = append(parts, aws.ToString(k.AttributeName)+"/"+string(k.KeyType))
	}
	return strings.Join(parts, ",")
}

// renderErr keeps an error's code and message; for syntax errors only the
// part before the token (parsers word the rest differently).
func renderErr(err error) string {
	var rnf *types.ResourceNotFoundException
	if errors.As(err, &rnf) {
		return "error ResourceNotFoundException: " + rnf.ErrorMessage()
	}
	var ae smithy.APIError
	if !errors.As(err, &ae) {
		return "error (not an API error): " + err.Error()
	}
	msg := ae.ErrorMessage()
	if i := strings.Index(msg, "Syntax error;"); i >= 0 {
		msg = msg[:i+len("Syntax error;")]
	}
	return "error " + ae.ErrorCode() + ": " + msg
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// clip shortens a long line around its first difference-prone part.
func clip(s string) string {
	if len(s) > 600 && !testing.Verbose() {
		return s[:300] + " … " + s[len(s)-300:]
	}
	return s
}
