package planner_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/cockroachdb/datadriven"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/parser"
	"github.com/ddbsql/ddbsql/planner"
)

// fakeCatalog serves the fixture tables' definitions without a server.
type fakeCatalog struct{ tables map[string]*planner.TableDef }

func (c *fakeCatalog) Table(_ context.Context, name string) (*planner.TableDef, error) {
	if t, ok := c.tables[name]; ok {
		return t, nil
	}
	return nil, fmt.Errorf("%s: %w", name, planner.ErrNotFound)
}

func (c *fakeCatalog) Tables(context.Context) ([]string, error) {
	var names []string
	for n := range c.tables {
		names = append(names, n)
	}
	sort.Strings(names)
	return names, nil
}

// describe turns a CreateTable request into what DescribeTable would answer,
// with made-up but stable sizes so Scan messages are deterministic.
func describe(in *dynamodb.CreateTableInput, items int) *types.TableDescription {
	td := &types.TableDescription{TableName: in.TableName, KeySchema: in.KeySchema, AttributeDefinitions: in.AttributeDefinitions,
		ItemCount: aws.Int64(int64(items)), TableSizeBytes: aws.Int64(int64(items) * 700)}
	for _, g := range in.GlobalSecondaryIndexes {
		td.GlobalSecondaryIndexes = append(td.GlobalSecondaryIndexes, types.GlobalSecondaryIndexDescription{
			IndexName: g.IndexName, KeySchema: g.KeySchema, Projection: g.Projection, ItemCount: aws.Int64(int64(items / 4)), IndexSizeBytes: aws.Int64(int64(items) * 100)})
	}
	for _, l := range in.LocalSecondaryIndexes {
		td.LocalSecondaryIndexes = append(td.LocalSecondaryIndexes, types.LocalSecondaryIndexDescription{
			IndexName: l.IndexName, KeySchema: l.KeySchema, Projection: l.Projection, ItemCount: aws.Int64(int64(items)), IndexSizeBytes: aws.Int64(int64(items) * 50)})
	}
	return td
}

func newFakeCatalog(t *testing.T) *fakeCatalog {
	c := &fakeCatalog{tables: map[string]*planner.TableDef{}}
	for _, ft := range fixtures.All() {
		def, err := dynamo.TableDefOf(describe(ft.Create, len(ft.Items)))
		if err != nil {
			t.Fatal(err)
		}
		c.tables[ft.Name] = def
	}
	return c
}

// TestPlans runs the golden files in testdata/plans: each case is SQL in,
// EXPLAIN text (or the error's code and message) out. Regenerate with
// go test ./planner -rewrite and review the diff.
func TestPlans(t *testing.T) {
	cat := newFakeCatalog(t)
	files, err := filepath.Glob("../testdata/plans/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files found: %v", err)
	}
	for _, file := range files {
		datadriven.RunTest(t, file, func(t *testing.T, d *datadriven.TestData) string {
			opts := planner.Options{AllowScan: d.HasArg("allow-scan"), Consistent: d.HasArg("consistent")}
			switch d.Cmd {
			case "plan", "error":
			default:
				t.Fatalf("unknown command %q", d.Cmd)
			}
			out := planText(cat, d.Input, opts, d.HasArg("strict"))
			isErr := strings.HasPrefix(out, "error ")
			if d.Cmd == "plan" && isErr {
				t.Errorf("%s: expected a plan, got %s", d.Pos, out)
			}
			if d.Cmd == "error" && !isErr {
				t.Errorf("%s: expected an error, got a plan", d.Pos)
			}
			return out
		})
	}
}

// planText plans sql and renders EXPLAIN; with strict it applies the
// --strict check to the plan as well.
func planText(cat planner.Catalog, sql string, opts planner.Options, strict bool) string {
	st, err := parser.ParseOne(sql)
	if err != nil {
		return "error parse: " + err.Error() + "\n"
	}
	var sel *parser.Select
	switch s := st.(type) {
	case *parser.Select:
		sel = s
	case *parser.Explain:
		sel = s.Stmt
	default:
		return fmt.Sprintf("error: not a SELECT: %T\n", st)
	}
	p, err := planner.PlanSelect(context.Background(), cat, planner.SelectInput{AST: sel.AST, Paths: sel.Paths}, opts)
	if err == nil && strict {
		err = planner.CheckStrict(p)
	}
	if err != nil {
		var pe *planner.Error
		if errors.As(err, &pe) {
			return "error " + pe.Code + ": " + pe.Error() + "\n"
		}
		return "error: " + err.Error() + "\n"
	}
	return planner.Explain(p)
}
