package ddbexpr_test

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/exec/eval"
	"github.com/ddbsql/ddbsql/planner/ddbexpr"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

var (
	ddbexprSeed  = flag.Uint64("ddbexpr.seed", 0, "seed for the generated items and predicates (0: from the clock)")
	ddbexprPreds = flag.Int("ddbexpr.preds", 400, "generated predicates per run of TestConditionAgainstDynalite")
)

// itemRow shows one item to the evaluator as FROM item 0.
type itemRow struct{ item value.Value }

func (r *itemRow) Attr(id expr.ColumnID) value.Value { return r.item.Attr(attrName(id)) }
func (r *itemRow) Item(int) (value.Value, bool)      { return r.item, true }
func (r *itemRow) Ref(int) value.Value               { return value.MissingValue() }

// The value pools are small so that equality, IN and BETWEEN hit often.
//
// They stay inside what dynalite models like DynamoDB (see the comment on
// TestConditionAgainstDynalite): ASCII strings (dynalite measures size() in
// UTF-16 units and orders strings by UTF-16), no empty strings (dynalite's
// IN, BETWEEN and attribute_type treat "" as absent), ASCII binaries
// (dynalite's contains decodes B as UTF-8).
var (
	sPool = []string{"apple", "apricot", "ap", "banana", "b", "ba", "APPLE", "a%b", "a_b", `x\y`, "10", "9", "apple pie", "zz", "a"}
	nPool = []string{"-1", "0", "1", "2", "3", "10", "1.5", "-2.25", "100", "0.001", "-0.001",
		"12345678901234567890123456789012345678", "-99999999999999999999999999999999999999", "1E-130", "9.99E125"}
	bPool    = []string{"ab", "abc", "b", "\x01", "\x01\x02", "apple"}
	mapKeys  = []string{"k", "n", "s", "a.b", "x-y", "#h", "l"}
	topNames = []string{"a", "b", "c", "n", "s", "flag", "doc", "lst", "tags", "nums", "bins", "a.b", "my-attr", "x#y", "status", "size"}
)

func num(s string) value.Value {
	v, err := value.Num(s)
	if err != nil {
		panic(err)
	}
	return v
}

type itemGen struct {
	r      *rand.Rand
	marker int
}

// unique returns a marker string no other document holds. Every list and
// map gets one: dynalite compares L and M values by object identity, so two
// equal documents would be unequal there, while DynamoDB and ddbsql compare
// them by value. With markers, distinct documents are never equal anywhere.
func (g *itemGen) unique(prefix string) value.Value {
	g.marker++
	return value.Str(prefix + strconv.Itoa(g.marker))
}

func (g *itemGen) scalar() value.Value {
	switch g.r.IntN(6) {
	case 0, 1:
		return value.Str(sPool[g.r.IntN(len(sPool))])
	case 2, 3:
		return num(nPool[g.r.IntN(len(nPool))])
	case 4:
		return value.Bin([]byte(bPool[g.r.IntN(len(bPool))]))
	}
	return value.BoolOf(g.r.IntN(2) == 0)
}

func (g *itemGen) set(kind value.Kind) value.Value {
	var members []value.Value
	for n := 1 + g.r.IntN(3); len(members) < n; {
		var m value.Value
		switch kind {
		case value.StringSet:
			m = value.Str(sPool[g.r.IntN(len(sPool))])
		case value.NumberSet:
			m = num(nPool[g.r.IntN(len(nPool))])
		default:
			m = value.Bin([]byte(bPool[g.r.IntN(len(bPool))]))
		}
		dup := false
		for _, x := range members {
			dup = dup || value.Equal(x, m)
		}
		if !dup {
			members = append(members, m)
		}
	}
	sort.Slice(members, func(i, j int) bool { return value.Order(members[i], members[j]) < 0 })
	return value.SetOf(kind, members)
}

func (g *itemGen) list(depth int) value.Value {
	var elems []value.Value
	for i, n := 0, g.r.IntN(4); i < n; i++ {
		elems = append(elems, g.value(depth-1, ""))
	}
	return value.ListOf(append(elems, g.unique("u")))
}

func (g *itemGen) doc(depth int) value.Value {
	attrs := map[string]value.Value{"id": g.unique("m")}
	for _, k := range mapKeys {
		if g.r.IntN(2) == 0 {
			attrs[k] = g.value(depth-1, k)
		}
	}
	return value.MapOf(attrs)
}

// value draws a value; the attribute name biases the type so that paths
// such as doc.k or lst[1] usually lead somewhere.
func (g *itemGen) value(depth int, name string) value.Value {
	if depth > 0 {
		switch {
		case (name == "doc" || name == "k") && g.r.IntN(4) > 0:
			return g.doc(depth)
		case (name == "lst" || name == "l") && g.r.IntN(4) > 0:
			return g.list(depth)
		case name == "tags" && g.r.IntN(4) > 0:
			return g.set(value.StringSet)
		case name == "nums" && g.r.IntN(4) > 0:
			return g.set(value.NumberSet)
		case name == "bins" && g.r.IntN(4) > 0:
			return g.set(value.BinarySet)
		}
	}
	switch k := g.r.IntN(20); {
	case k < 11:
		return g.scalar()
	case k < 13:
		return value.NullValue()
	case k < 14:
		return g.set(value.StringSet)
	case k < 15:
		return g.set(value.NumberSet)
	case k < 16:
		return g.set(value.BinarySet)
	case k < 18 && depth > 0:
		return g.list(depth)
	case depth > 0:
		return g.doc(depth)
	}
	return g.scalar()
}

func (g *itemGen) item(id int) value.Value {
	attrs := map[string]value.Value{"pk": value.Str("P"), "sk": num(strconv.Itoa(id))}
	for _, name := range topNames {
		if g.r.IntN(10) < 3 {
			continue // missing
		}
		attrs[name] = g.value(2, name)
	}
	return value.MapOf(attrs)
}

func col(names ...any) expr.Column {
	var p value.Path
	for _, n := range names {
		switch n := n.(type) {
		case string:
			p = append(p, value.PathElem{Name: n})
		case int:
			p = append(p, value.PathElem{Index: n, IsIndex: true})
		}
	}
	return expr.Column{Source: 0, Path: p, ID: attrID(p[0].Name)}
}

// attrIDs number the top-level attributes the generated conditions read,
// as the planner numbers a statement's columns; attrNames maps them back.
var (
	attrMu    sync.Mutex
	attrIDs   = map[string]expr.ColumnID{}
	attrNames = []string{""}
)

func attrID(name string) expr.ColumnID {
	attrMu.Lock()
	defer attrMu.Unlock()
	if id, ok := attrIDs[name]; ok {
		return id
	}
	id := expr.ColumnID(len(attrNames))
	attrIDs[name] = id
	attrNames = append(attrNames, name)
	return id
}

func attrName(id expr.ColumnID) string {
	attrMu.Lock()
	defer attrMu.Unlock()
	return attrNames[id]
}

var predPaths = func() []expr.Column {
	var out []expr.Column
	for _, n := range topNames {
		out = append(out, col(n))
	}
	return append(out,
		col("doc", "k"), col("doc", "n"), col("doc", "s"), col("doc", "a.b"), col("doc", "x-y"), col("doc", "#h"),
		col("doc", "l", 0), col("doc", "l", 1), col("doc", "k", "s"), col("doc", "id"), col("doc", "nope"),
		col("lst", 0), col("lst", 1), col("lst", 2), col("lst", 0, "k"), col("lst", 1, 0), col("a", "k"),
		col("nope"), col("tags", 0))
}()

type predGen struct{ r *rand.Rand }

func (g *predGen) path() expr.Column { return predPaths[g.r.IntN(len(predPaths))] }

func lit(v value.Value) expr.Literal { return expr.Literal{Value: v} }

// literal draws a constant of any kind; noFalse leaves out BOOL false.
func (g *predGen) literal(noFalse bool) expr.Expr {
	switch k := g.r.IntN(20); {
	case k < 6:
		return lit(value.Str(append(sPool, "zzz", "", "0")[g.r.IntN(len(sPool)+3)]))
	case k < 12:
		return lit(num(append(nPool, "5", "-3", "4")[g.r.IntN(len(nPool)+3)]))
	case k < 14:
		return lit(value.Bin([]byte(bPool[g.r.IntN(len(bPool))])))
	case k < 16:
		return lit(value.BoolOf(noFalse || g.r.IntN(2) == 0))
	case k < 17:
		return lit(value.NullValue())
	case k < 18:
		return lit(value.SetOf(value.StringSet, []value.Value{value.Str("apple"), value.Str("b")}))
	case k < 19:
		return lit(value.SetOf(value.NumberSet, []value.Value{num("1")}))
	}
	return lit(value.Str("ap"))
}

// ordered draws a literal of one of the orderable types.
func (g *predGen) ordered(kind value.Kind) value.Value {
	switch kind {
	case value.String:
		return value.Str(sPool[g.r.IntN(len(sPool))])
	case value.Number:
		return num(nPool[g.r.IntN(len(nPool))])
	}
	return value.Bin([]byte(bPool[g.r.IntN(len(bPool))]))
}

var cmpOps = []expr.Op{expr.OpEq, expr.OpNe, expr.OpLt, expr.OpLe, expr.OpGt, expr.OpGe}

func (g *predGen) pred(depth int) expr.Expr {
	if depth > 0 && g.r.IntN(5) < 2 {
		switch g.r.IntN(5) {
		case 0, 1:
			return expr.Binary{Op: expr.OpAnd, L: g.pred(depth - 1), R: g.pred(depth - 1)}
		case 2, 3:
			return expr.Binary{Op: expr.OpOr, L: g.pred(depth - 1), R: g.pred(depth - 1)}
		}
		return expr.Unary{Op: expr.OpNot, X: g.pred(depth - 1)}
	}
	return g.leaf()
}

func (g *predGen) leaf() expr.Expr {
	op := cmpOps[g.r.IntN(len(cmpOps))]
	switch g.r.IntN(15) {
	case 0, 1, 2: // column vs literal, either way round
		c, l := expr.Expr(g.path()), g.literal(false)
		if g.r.IntN(4) == 0 {
			c, l = l, c
		}
		return expr.Binary{Op: op, L: c, R: l}
	case 3, 4: // column vs column (now and then the same column)
		l, r := g.path(), g.path()
		if g.r.IntN(8) == 0 {
			r = l
		}
		return expr.Binary{Op: op, L: l, R: r}
	case 5: // size(x) against a number, a column or another size
		size := expr.Func{Name: "size", Args: []expr.Expr{g.path()}}
		var other expr.Expr = lit(num(strconv.Itoa(g.r.IntN(5))))
		switch g.r.IntN(5) {
		case 0:
			other = g.path()
		case 1:
			other = expr.Func{Name: "size", Args: []expr.Expr{g.path()}}
		case 2:
			other = g.literal(false)
		}
		if g.r.IntN(3) == 0 {
			return expr.Binary{Op: op, L: other, R: size}
		}
		return expr.Binary{Op: op, L: size, R: other}
	case 6: // IN
		list := make([]expr.Expr, 1+g.r.IntN(4))
		for i := range list {
			// No FALSE members: dynalite's IN never matches a false attribute.
			list[i] = g.literal(true)
		}
		return expr.In{X: g.path(), List: list, Not: g.r.IntN(4) == 0}
	case 7: // BETWEEN
		kind := []value.Kind{value.String, value.Number, value.Binary}[g.r.IntN(3)]
		lo, hi := g.ordered(kind), g.ordered(kind)
		if g.r.IntN(4) > 0 && value.CompareScalars(lo, hi) > 0 {
			lo, hi = hi, lo
		}
		var loE, hiE expr.Expr = lit(lo), lit(hi)
		if g.r.IntN(10) == 0 {
			hiE = g.literal(false)
		}
		return expr.Between{X: g.path(), Lo: loE, Hi: hiE, Not: g.r.IntN(4) == 0}
	case 8: // LIKE
		patterns := []string{"ap%", "apple", "%", "%%", `a\%b`, `a\_b`, "ap_le", "%le", "b%", "", "a%%", `x\\y`, `x\\%`, "a%b%", "APPLE", `\a%`}
		var p expr.Expr = lit(value.Str(patterns[g.r.IntN(len(patterns))]))
		if g.r.IntN(12) == 0 {
			p = g.literal(false)
		}
		return expr.Like{X: g.path(), Pattern: p, Not: g.r.IntN(4) == 0}
	case 9:
		return expr.IsNull{X: g.path(), Not: g.r.IntN(2) == 0}
	case 10:
		prefixes := []string{"ap", "a", "b", `x\`, "1", "apple", "APP"}
		var p expr.Expr = lit(value.Str(prefixes[g.r.IntN(len(prefixes))]))
		if g.r.IntN(8) == 0 {
			p = g.literal(false)
		}
		return expr.Func{Name: "begins_with", Args: []expr.Expr{g.path(), p}}
	case 11:
		return expr.Func{Name: "contains", Args: []expr.Expr{g.path(), g.literal(false)}}
	case 12:
		name := "attribute_exists"
		if g.r.IntN(2) == 0 {
			name = "attribute_not_exists"
		}
		return expr.Func{Name: name, Args: []expr.Expr{g.path()}}
	case 13:
		// Not BOOL: dynalite's attribute_type is false for a false BOOL.
		types := []string{"S", "N", "B", "NULL", "M", "L", "SS", "NS", "BS"}
		return expr.Func{Name: "attribute_type", Args: []expr.Expr{g.path(), lit(value.Str(types[g.r.IntN(len(types))]))}}
	}
	// A bare column or a literal as a predicate: never pushable.
	if g.r.IntN(2) == 0 {
		return g.path()
	}
	return lit(value.BoolOf(true))
}

// loadTable creates a table keyed (pk S, sk N) holding items.
func loadTable(t *testing.T, items []value.Value) (*dynamodb.Client, string) {
	t.Helper()
	client := dynalitetest.Client(t)
	prefix := dynalitetest.Prefix(t)
	tbl := &fixtures.Table{Name: "cond", Items: items, Create: &dynamodb.CreateTableInput{
		TableName:   aws.String("cond"),
		BillingMode: types.BillingModePayPerRequest,
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange},
		},
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeN},
		},
	}}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := fixtures.Load(ctx, client, prefix, tbl); err != nil {
		t.Fatal(err)
	}
	return client, tbl.Named(prefix)
}

// scanFilter returns the sk of every item the filter keeps.
func scanFilter(ctx context.Context, client *dynamodb.Client, table string, cond expression.ConditionBuilder) ([]int, expression.Expression, error) {
	e, err := expression.NewBuilder().WithFilter(cond).Build()
	if err != nil {
		return nil, e, fmt.Errorf("building the expression: %w", err)
	}
	in := &dynamodb.ScanInput{
		TableName:                 aws.String(table),
		FilterExpression:          e.Filter(),
		ExpressionAttributeNames:  e.Names(),
		ExpressionAttributeValues: e.Values(),
		ConsistentRead:            aws.Bool(true),
	}
	var got []int
	for {
		out, err := client.Scan(ctx, in)
		if err != nil {
			return nil, e, err
		}
		for _, it := range out.Items {
			n, ok := it["sk"].(*types.AttributeValueMemberN)
			if !ok {
				return nil, e, fmt.Errorf("item without sk: %v", it)
			}
			id, err := strconv.Atoi(n.Value)
			if err != nil {
				return nil, e, err
			}
			got = append(got, id)
		}
		if len(out.LastEvaluatedKey) == 0 {
			break
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
	sort.Ints(got)
	return got, e, nil
}

// expected returns the sk of every item for which pred is TRUE.
func expected(pred expr.Expr, items []value.Value) ([]int, error) {
	var want []int
	row := &itemRow{}
	for _, it := range items {
		row.item = it
		tr, err := eval.Test(pred, row)
		if err != nil {
			return nil, fmt.Errorf("item %s: %w", it.Attr("sk").Text(), err)
		}
		if tr == eval.True {
			id, _ := strconv.Atoi(it.Attr("sk").Text())
			want = append(want, id)
		}
	}
	sort.Ints(want)
	return want, nil
}

func diffIDs(got, want []int) (extra, missing []int) {
	g, w := map[int]bool{}, map[int]bool{}
	for _, id := range got {
		g[id] = true
	}
	for _, id := range want {
		w[id] = true
		if !g[id] {
			missing = append(missing, id)
		}
	}
	for _, id := range got {
		if !w[id] {
			extra = append(extra, id)
		}
	}
	return extra, missing
}

func describeExpression(e expression.Expression) string {
	var sb strings.Builder
	sb.WriteString(aws.ToString(e.Filter()))
	names := e.Names()
	keys := make([]string, 0, len(names))
	for k := range names {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&sb, "\n    %s = %q", k, names[k])
	}
	vals := e.Values()
	keys = keys[:0]
	for k := range vals {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v, _ := value.FromAttributeValue(vals[k])
		fmt.Fprintf(&sb, "\n    %s = %s", k, value.AppendDynamoJSON(nil, v))
	}
	return sb.String()
}

// TestConditionAgainstDynalite is the contract of Condition: for every
// generated predicate it accepts, DynamoDB (here dynalite) keeps exactly the
// items for which ddbsql's evaluator says TRUE.
//
// The data avoids four places where dynalite (4.0.0) differs from DynamoDB,
// so that a difference here is always a translation bug:
//   - L and M values are compared by object identity (equal documents are
//     unequal), so every generated document carries a unique marker;
//   - IN, BETWEEN and attribute_type test an attribute's value for
//     JavaScript truthiness, so a BOOL false is never IN (…, false, …) nor
//     attribute_type(x, 'BOOL'), and "" is treated as absent: no empty
//     strings in items, no FALSE in IN lists, no attribute_type(x, 'BOOL');
//   - size() of an S counts UTF-16 units and strings order by UTF-16: ASCII
//     strings only;
//   - contains on B decodes bytes as UTF-8: ASCII binaries only.
func TestConditionAgainstDynalite(t *testing.T) {
	seed := *ddbexprSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("reproduce with: go test ./planner/ddbexpr -run TestConditionAgainstDynalite -ddbexpr.seed=%d", seed)
		}
	})
	r := rand.New(rand.NewPCG(seed, 7))
	ig := &itemGen{r: r}
	items := make([]value.Value, 250)
	for i := range items {
		items[i] = ig.item(i)
	}
	client, table := loadTable(t, items)

	pg := &predGen{r: r}
	preds := make([]expr.Expr, *ddbexprPreds)
	for i := range preds {
		preds[i] = pg.pred(3)
	}

	type result struct {
		accepted, selective bool
		failure             string
	}
	results := make([]result, len(preds))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < 6; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = checkPredicate(ctx, client, table, preds[i], items)
			}
		}()
	}
	for i := range preds {
		next <- i
	}
	close(next)
	wg.Wait()

	accepted, selective, failures := 0, 0, 0
	for i, res := range results {
		if res.accepted {
			accepted++
		}
		if res.selective {
			selective++
		}
		if res.failure != "" {
			failures++
			if failures <= 15 {
				t.Errorf("predicate %d: %s", i, res.failure)
			}
		}
	}
	if failures > 15 {
		t.Errorf("… and %d more failing predicates", failures-15)
	}
	t.Logf("%d predicates: %d translated, %d of those kept some but not all items; %d mismatches", len(preds), accepted, selective, failures)
	// The generator must keep exercising the translation.
	if accepted < len(preds)/4 || selective < len(preds)/8 {
		t.Errorf("only %d of %d predicates translated (%d selective): the generator no longer exercises Condition", accepted, len(preds), selective)
	}
}

func checkPredicate(ctx context.Context, client *dynamodb.Client, table string, pred expr.Expr, items []value.Value) (res struct {
	accepted, selective bool
	failure             string
}) {
	cond, ok := ddbexpr.Condition(pred, 0)
	if !ok {
		return res
	}
	res.accepted = true
	want, err := expected(pred, items)
	if err != nil {
		res.failure = fmt.Sprintf("%s\n  Condition translated it, but the evaluator fails: %v", pred, err)
		return res
	}
	got, e, err := scanFilter(ctx, client, table, cond)
	if err != nil {
		res.failure = fmt.Sprintf("%s\n  filter %s\n  DynamoDB rejected it: %v", pred, describeExpression(e), err)
		return res
	}
	res.selective = len(want) > 0 && len(want) < len(items)
	extra, missing := diffIDs(got, want)
	if len(extra) == 0 && len(missing) == 0 {
		return res
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s\n  filter %s\n  DynamoDB kept %d items, the evaluator %d", pred, describeExpression(e), len(got), len(want))
	show := func(label string, ids []int) {
		for i, id := range ids {
			if i == 3 {
				fmt.Fprintf(&sb, "\n  … %d more %s", len(ids)-3, label)
				break
			}
			fmt.Fprintf(&sb, "\n  %s: %s", label, value.AppendItemJSON(nil, items[id]))
		}
	}
	show("kept only by DynamoDB", extra)
	show("kept only by the evaluator", missing)
	res.failure = sb.String()
	return res
}
