package planner_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"

	"github.com/ddbsql/ddbsql/parser"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
)

// TestDialects runs the golden files in testdata/dialects: each case is a
// SELECT in, its EXPLAIN ATHENA and EXPLAIN DUCKDB rewrites out (or the
// error's code and message), with a comment directly above saying what it
// proves. Tables are declared with create-table as in testdata/plans.
// Regenerate with go test ./planner -run TestDialects -rewrite and review
// the diff; exec/session's TestExplainDuckDBAgainstDuckDB runs rewrites
// like these in DuckDB.
//
// Commands: "rewrite" prints both dialects, "athena" or "duckdb" one.
// Arguments: source=json|ion|parquet, scale=N (DECIMAL(38, N)),
// partition=(a,b) (Parquet partition columns), located (a location for
// every table, as --export-location gives).
func TestDialects(t *testing.T) {
	files, err := filepath.Glob("testdata/dialects/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no dialect golden files: %v", err)
	}
	for _, file := range files {
		for _, c := range readDialectCases(t, file) {
			if !strings.HasPrefix(c.above, "# ") {
				t.Errorf("%s:%d: %s has no comment directly above it saying what it proves", file, c.line, c.command)
			}
		}
		cats := newGoldenCatalogs()
		datadriven.RunTest(t, file, func(t *testing.T, d *datadriven.TestData) string {
			if d.Cmd == "create-table" {
				out, err := cats.declare(d)
				if err != nil {
					t.Fatalf("%s: %v", d.Pos, err)
				}
				return out
			}
			opts := planner.DialectOptions{}
			for _, arg := range d.CmdArgs {
				switch arg.Key {
				case "source":
					opts.Source = arg.Vals[0]
				case "scale":
					d.ScanArgs(t, "scale", &opts.Scale)
					opts.ScaleSet = true
				case "partition":
					opts.PartitionBy = arg.Vals
				case "located":
					opts.DefaultLocation = "s3://exports/AWSDynamoDB/01700000000000-abcdef01/data/"
				}
			}
			cat := cats.forCase(d)
			switch d.Cmd {
			case "rewrite":
				return "-- athena\n" + dialectText(cat, d.Input, opts, parser.DialectAthena) +
					"-- duckdb\n" + dialectText(cat, d.Input, opts, parser.DialectDuckDB)
			case "athena", "duckdb":
				return dialectText(cat, d.Input, opts, d.Cmd)
			}
			t.Fatalf("%s: unknown command %q", d.Pos, d.Cmd)
			return ""
		})
	}
}

// dialectText parses sql and renders its rewrite, or the error.
func dialectText(cat planner.Catalog, sql string, opts planner.DialectOptions, dialect string) string {
	st, err := parser.ParseOne(sql)
	if err != nil {
		return "error parse: " + err.Error() + "\n"
	}
	sel, ok := st.(*parser.Select)
	if !ok {
		return fmt.Sprintf("error: not a SELECT: %T\n", st)
	}
	opts.Dialect = dialect
	// A fixed instant, so now() renders the same on every run.
	popts := planner.Options{Parallelism: goldenParallelism, Now: time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)}
	text, err := planner.ExplainDialect(context.Background(), cat, sel, popts, opts)
	if err != nil {
		var pe *diag.Error
		if errors.As(err, &pe) && pe.Phase == diag.Plan {
			return "error " + string(pe.Code) + ": " + pe.Error() + "\n"
		}
		return "error: " + err.Error() + "\n"
	}
	return text
}

// readDialectCases lists the directives of a dialect golden file. Unlike
// testdata/plans, outputs hold blank lines, so each is written between
// two "----" lines (datadriven's form for that) and ends at "----" twice.
func readDialectCases(t *testing.T, file string) []goldenCase {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var cases []goldenCase
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		c := goldenCase{line: i + 1, command: strings.Fields(line)[0]}
		if i > 0 {
			c.above = lines[i-1]
		}
		cases = append(cases, c)
		for i++; i < len(lines) && lines[i] != "----"; i++ {
		}
		if i+1 < len(lines) && lines[i+1] == "----" {
			for i += 2; i+1 < len(lines) && !(lines[i] == "----" && lines[i+1] == "----"); i++ {
			}
			i++
			continue
		}
		for i++; i < len(lines) && lines[i] != ""; i++ {
		}
	}
	return cases
}

// TestDialectsOverPlanCorpus rewrites every statement of the plan golden
// files (testdata/plans) for both engines: each gives a rewrite or a
// plan-phase error with a code, never a panic or another kind of error.
func TestDialectsOverPlanCorpus(t *testing.T) {
	n, rewritten := 0, 0
	for _, file := range goldenFiles(t) {
		cats := newGoldenCatalogs()
		datadriven.RunTest(t, file, func(t *testing.T, d *datadriven.TestData) string {
			if d.Cmd == "create-table" {
				if _, err := cats.declare(d); err != nil {
					t.Fatalf("%s: %v", d.Pos, err)
				}
				return d.Expected
			}
			for _, piece := range parser.Split(d.Input) {
				for _, dialect := range []string{parser.DialectAthena, parser.DialectDuckDB} {
					out := dialectText(cats.forCase(d), piece.Text, planner.DialectOptions{}, dialect)
					n++
					switch {
					case strings.HasPrefix(out, "error parse: "), strings.HasPrefix(out, "error: not a SELECT"):
					case strings.HasPrefix(out, "error: "):
						t.Errorf("%s: %s: %s", d.Pos, piece.Text, out)
					case !strings.HasPrefix(out, "error "):
						rewritten++
					default:
						if testing.Verbose() {
							t.Logf("refused: %s", strings.SplitN(out, "\n", 2)[0])
						}
					}
				}
			}
			return d.Expected
		})
	}
	if rewritten < n/3 {
		t.Errorf("only %d of %d rewrites succeeded", rewritten, n)
	}
	t.Logf("%d of %d statements rewritten", rewritten, n)
}
