package planner_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
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
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
)

// fakeCatalog serves table definitions without a server: those a golden
// file declares, or the fixture tables' (newFakeCatalog).
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

// newFakeCatalog describes the fixture tables, for the tests that plan over
// them outside the golden files.
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

// staleCatalog reports some tables as DynamoDB does before it refreshes
// their figures (about every six hours): fresh tables with 0 items and 0
// bytes, and tables with their items counted but 0 bytes. Their indexes
// are reported the same way.
type staleCatalog struct {
	planner.Catalog
	fresh, noBytes []string
}

func (c staleCatalog) Table(ctx context.Context, name string) (*planner.TableDef, error) {
	t, err := c.Catalog.Table(ctx, name)
	if err != nil {
		return nil, err
	}
	fresh, noBytes := slices.Contains(c.fresh, name), slices.Contains(c.noBytes, name)
	if !fresh && !noBytes {
		return t, nil
	}
	def := *t
	def.Indexes = slices.Clone(t.Indexes)
	def.SizeBytes = 0
	if fresh {
		def.ItemCount = 0
	}
	for i := range def.Indexes {
		def.Indexes[i].SizeBytes = 0
		if fresh {
			def.Indexes[i].ItemCount = 0
		}
	}
	return &def, nil
}

// goldenParallelism is the fixed Options.Parallelism of every golden case:
// plans take the host's parallelism as an input, so the files read the same
// on any machine.
const goldenParallelism = 4

// TestPlans runs the golden files in testdata/plans, one per area (access
// paths, pushdown, joins, rejections, estimates, strict mode, disjunctions,
// hints, quoting, output names, EXPLAIN JSON): each case is SQL in, EXPLAIN
// text (or the error's code and message) out, with a comment directly above
// saying what it proves (goldencases_test.go checks that). Regenerate with
// go test ./planner -rewrite and review the diff.
//
// Each file declares the tables its cases read with create-table, one table
// per directive, as DescribeTable reports it:
//
//	create-table
//	app PK:S SK:S items=2556 bytes=1789200
//	gsi GSI1 GSI1PK:S GSI1SK:S ALL items=639 bytes=255600
//	lsi ByCreated PK:S createdAt:S KEYS_ONLY items=2556 bytes=127800
//
// (goldenschema_test.go defines the form); create-table demo declares a
// table of the demo data, which the cases with the argument demo read. The
// command "same" takes several statements separated by ';' that must all
// plan exactly alike (the same tree and requests, or the same error); its
// output is that one plan.
//
// Arguments of a case: allow-scan, consistent, segments=N (planner options);
// strict applies the --strict check; fresh=(t1,t2) reports those tables as
// DescribeTable does for a new or freshly loaded table (0 items, 0 bytes),
// no-bytes=(t) as one whose size is not yet counted (its items, 0 bytes).
func TestPlans(t *testing.T) {
	for _, file := range goldenFiles(t) {
		cats := newGoldenCatalogs()
		datadriven.RunTest(t, file, func(t *testing.T, d *datadriven.TestData) string {
			if d.Cmd == "create-table" {
				out, err := cats.declare(d)
				if err != nil {
					t.Fatalf("%s: %v", d.Pos, err)
				}
				return out
			}
			opts := planner.Options{AllowScan: d.HasArg("allow-scan"), Consistent: d.HasArg("consistent"), Parallelism: goldenParallelism}
			sc := staleCatalog{Catalog: cats.forCase(d)}
			for _, arg := range d.CmdArgs {
				switch arg.Key {
				case "fresh":
					sc.fresh = arg.Vals
				case "no-bytes":
					sc.noBytes = arg.Vals
				case "segments":
					d.ScanArgs(t, "segments", &opts.Segments)
				}
			}
			switch d.Cmd {
			case "plan", "error":
			case "same":
				return samePlanText(t, sc, d, opts)
			case "json":
				return planJSON(t, sc, d.Input, opts)
			default:
				t.Fatalf("unknown command %q", d.Cmd)
			}
			out := planText(sc, d.Input, opts, d.HasArg("strict"))
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

// goldenFiles lists the golden files.
func goldenFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("testdata/plans/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files found: %v", err)
	}
	return files
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
	p, err := planner.PlanStatement(context.Background(), cat, sel, opts)
	if err == nil && strict {
		err = planner.CheckStrict(p)
	}
	if err != nil {
		var pe *diag.Error
		if errors.As(err, &pe) && pe.Phase == diag.Plan {
			return "error " + string(pe.Code) + ": " + pe.Error() + "\n"
		}
		return "error: " + err.Error() + "\n"
	}
	if err := checkColumnIDs(p); err != nil {
		return "column IDs are wrong: " + err.Error() + "\n"
	}
	return planner.Explain(p)
}

// samePlanText plans each statement of a "same" case and fails unless all
// of them give the same text.
func samePlanText(t *testing.T, cat planner.Catalog, d *datadriven.TestData, opts planner.Options) string {
	strict := d.HasArg("strict")
	pieces := parser.Split(d.Input)
	if len(pieces) < 2 {
		t.Fatalf("%s: same needs at least two statements separated by ';'", d.Pos)
	}
	first := planText(cat, pieces[0].Text, opts, strict)
	for _, p := range pieces[1:] {
		if out := planText(cat, p.Text, opts, strict); out != first {
			t.Errorf("%s: these plan differently:\n%s\n%s\n----\n%s\n%s", d.Pos, pieces[0].Text, first, p.Text, out)
		}
	}
	return first
}
