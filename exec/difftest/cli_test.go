package difftest

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	ddbtypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/value"
)

// The command line, end to end: TestCLIDifferential builds the ddbsql
// command and runs generated statements through it as a user would (one
// process per statement, -e SQL, --format json, ndjson or csv), on
// dynalite (--endpoint-url) and on the in-process backend (--data with a
// NoSQL Workbench model of the same table and indexes), and compares what
// it printed with SQLite. Exit status 0 only with the whole result on
// stdout and no error on stderr; a failure exits 1 with "error: …" on
// stderr, and one found before reading prints nothing on stdout.

const (
	envCLIQueries     = "DDBSQL_DIFFTEST_CLI_QUERIES" // per backend (default defaultCLIQueries)
	envCLIQuery       = "DDBSQL_DIFFTEST_CLI_QUERY"   // run only this one (replay)
	defaultCLIQueries = 40
	cliWorkers        = 2
)

var cliFormats = []string{"json", "ndjson", "csv"}

// cliBackend is one place the command reads from.
type cliBackend struct {
	name  string
	args  []string // connection flags
	table string   // the table's name there
	// session runs the same statements in-process on the same backend
	// (dynalite only), to tell a command-line difference from a known
	// dynalite one.
	session *ddbRunner
}

// cliResult is what one run of the command produced.
type cliResult struct {
	stdout, stderr string
	code           int
}

func TestCLIDifferential(t *testing.T) {
	seed := envInt(t, envSeed, defaultSeed)
	n := envInt(t, envCLIQueries, defaultCLIQueries)
	only, replay := uint64(0), os.Getenv(envCLIQuery) != ""
	if replay {
		only = envInt(t, envCLIQuery, 0)
	}
	bin := buildCLI(t)
	ds := genDataset(seed, rowsP, rowsQ)
	h := &harness{seed: seed, ds: ds, db: openLite(t, ds)}
	be := backend{name: "dynalite", client: dynalitetest.Client(t), prefix: dynalitetest.Prefix(t)}
	h.be, h.table = be, loadDynamo(t, be, ds)
	backends := []cliBackend{
		{name: "dynalite", args: []string{"--endpoint-url", dynalitetest.Endpoint(t)}, table: h.table, session: newDDBOn(t, be.client)},
		{name: "memdb", args: []string{"--data", writeModel(t, difftTable(ds))}, table: tableName},
	}
	t.Logf("seed %d (%s), %d statements per backend through %s", seed, envSeed, n, bin)
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			var mu sync.Mutex
			cov := map[string]int{}
			failures := 0
			jobs := make(chan uint64)
			var wg sync.WaitGroup
			for range cliWorkers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for k := range jobs {
						g := &gen{r: rand.New(rand.NewPCG(seed, k|2<<40)), ds: ds}
						q := g.genQuery()
						format := pick(g, cliFormats)
						if q.star && format == "csv" {
							format = "ndjson" // CSV's header is the union of the rows' attributes
						}
						diff, labels := h.checkCLI(bin, b, q, format)
						mu.Lock()
						for _, l := range labels {
							cov[l]++
						}
						if diff != "" {
							if failures++; failures <= 5 {
								t.Errorf("seed %d CLI statement %d on %s (replay: %s=%d %s=%d), --format %s: %s",
									seed, k, b.name, envSeed, seed, envCLIQuery, k, format, diff)
							}
						}
						mu.Unlock()
					}
				}()
			}
			for k := range n {
				if !replay || k == only {
					jobs <- k
				}
			}
			close(jobs)
			wg.Wait()
			if !replay {
				checkCLIFailures(t, bin, b)
			}
			if failures > 5 {
				t.Errorf("… and %d more failing statements", failures-5)
			}
			if !replay {
				for _, want := range []string{"format: json", "format: ndjson", "format: csv", "exit 0"} {
					if cov[want] == 0 {
						t.Errorf("coverage: no statement gave %q", want)
					}
				}
				t.Logf("%v", cov)
			}
		})
	}
}

// checkCLIFailures runs statements that must fail before reading, in
// every format: exit status 1, "error: …" on stderr, nothing on stdout (no
// empty JSON array or CSV header that looks like an answer).
func checkCLIFailures(t *testing.T, bin string, b cliBackend) {
	t.Helper()
	table := quoteName(b.table, styleDouble)
	for _, sql := range []string{
		"SELECT * FROM " + table,                                         // a Scan, not allowed
		"SELECT id FROM " + table + " WHERE value = 1",                   // likewise
		"SELECT id FROM " + table + " USE INDEX (ByRank) WHERE pk = 'P'", // may miss items
		"SELECT id FROM " + quoteName(b.table+"-nosuch", styleDouble) + " WHERE pk = 'P'",
		"SELECT id FROM " + table + " WHERE pk = 'P' AND",   // syntax
		"SELECT id + 'x' FROM " + table + " WHERE pk = 'P'", // a type error while reading
	} {
		for _, f := range cliFormats {
			args := append(append([]string{}, b.args...), "--format", f, "-e", sql)
			res := runCLI(bin, args...)
			if bad := res.misbehaved(); bad != "" || res.code != 1 || res.stdout != "" {
				t.Errorf("--format %s: want exit status 1 with an error and no output: %s\n%s", f, bad, res.show(sql))
			}
		}
	}
}

// checkCLI runs q through the command and compares its output with
// SQLite's; it returns the difference ("" when none) and coverage labels.
func (h *harness) checkCLI(bin string, b cliBackend, q *query, format string) (string, []string) {
	ctx := context.Background()
	ddbSQL := q.render(false, b.table)
	labels := []string{"format: " + format}
	args := append(append([]string{}, b.args...), "--format", format)
	if q.scan {
		args = append(args, "--allow-scan")
	}
	res := runCLI(bin, append(args, "-e", ddbSQL)...)
	if bad := res.misbehaved(); bad != "" {
		return bad + "\n" + res.show(ddbSQL), labels
	}
	if res.code == 1 {
		refusal := cliRefusal(res.stderr)
		switch {
		case refusal == diag.CodeScanNotAllowed && (q.mix || q.hint != "") && !q.scan:
			labels = append(labels, "exit 1 (refused, re-run with --allow-scan)")
			res = runCLI(bin, append(args, "--allow-scan", "-e", ddbSQL)...)
			if bad := res.misbehaved(); bad != "" {
				return bad + "\n" + res.show(ddbSQL), labels
			}
		case refusal == diag.CodeSparseIndexHint && q.hint != "" && !q.hintHonoured:
			return "", append(labels, "exit 1 (sparse index hint refused)")
		}
		if res.code != 0 {
			return "the statement failed\n" + res.show(ddbSQL), labels
		}
	}
	labels = append(labels, "exit 0")
	kinds := q.kinds()
	if q.star {
		kinds = starKinds()
	}
	var got [][]norm
	var err error
	switch format {
	case "csv":
		got, err = h.csvRows(res.stdout, q, kinds)
	default:
		got, err = h.jsonRows(res.stdout, format, q, kinds)
	}
	if err != nil {
		return err.Error() + "\n" + res.show(ddbSQL), labels
	}
	liteQ := q
	if q.subset() {
		liteQ = q.copy()
		liteQ.limit, liteQ.offset = -1, -1
	}
	liteSQL := liteQ.render(true, b.table)
	h.dbMu.Lock()
	lraw, err := runLite(ctx, h.db, liteSQL)
	h.dbMu.Unlock()
	if err != nil {
		return "SQLite: " + err.Error() + "\nSQLite: " + liteSQL, labels
	}
	var want [][]norm
	if format == "csv" {
		want = csvLiteRows(lraw, kinds)
	} else if want, err = normRows(lraw, kinds, normLite); err != nil {
		return "SQLite: " + err.Error(), labels
	}
	var diff string
	if q.subset() {
		diff = compareSubset(got, want, q.limit, q.offset)
	} else {
		diff = compareRows(got, want, q.ordered())
	}
	if diff == "" {
		return "", labels
	}
	if b.session != nil && h.knownInSession(ctx, b.session, q) {
		return "", append(labels, "known dynalite difference")
	}
	return fmt.Sprintf("%s\nSQLite: %s\nddbsql rows (%d):\n%sSQLite rows (%d):\n%s%s", diff, liteSQL,
		len(got), formatRows(got, 20), len(want), formatRows(want, 20), res.show(ddbSQL)), labels
}

// knownInSession reports whether the same statement run in-process also
// differs from SQLite, by a known dynalite difference (known_test.go).
func (h *harness) knownInSession(ctx context.Context, r *ddbRunner, q *query) bool {
	o := h.check(ctx, r, q)
	return o.diff != "" && h.knownDifference(ctx, r, q, o) != ""
}

// misbehaved checks the contract of the exit status: 0 with no error
// message, 1 with "error: …" on stderr (stdout may hold the rows printed
// before a failure), never a panic or another status.
func (r cliResult) misbehaved() string {
	switch {
	case strings.Contains(r.stderr, "panic") || strings.Contains(r.stderr, "goroutine "):
		return "the command panicked"
	case r.code == 0 && strings.Contains(r.stderr, "error:"):
		return "exit status 0 with an error on stderr"
	case r.code == 1 && !strings.HasPrefix(r.stderr, "error: ") && !strings.Contains(r.stderr, "\nerror: "):
		return "exit status 1 without an \"error: …\" line on stderr"
	case r.code != 0 && r.code != 1:
		return fmt.Sprintf("exit status %d", r.code)
	}
	return ""
}

func (r cliResult) show(sql string) string {
	out := r.stdout
	if len(out) > 2000 {
		out = out[:2000] + "…"
	}
	return fmt.Sprintf("ddbsql: %s\nexit status %d\nstderr: %s\nstdout: %s", sql, r.code, strings.TrimSpace(r.stderr), out)
}

// cliRefusal names the planner code an error message stands for ("" if
// none): the command prints messages, not codes.
func cliRefusal(stderr string) diag.Code {
	switch {
	case strings.Contains(stderr, "this statement needs a Scan of"):
		return diag.CodeScanNotAllowed
	case strings.Contains(stderr, "would change the result"):
		return diag.CodeSparseIndexHint
	}
	return ""
}

// jsonRows parses json (one array) or ndjson (one object a line) output,
// strictly: nothing else may be on stdout.
func (h *harness) jsonRows(stdout, format string, q *query, kinds []outKind) ([][]norm, error) {
	var raw [][]any
	var keys [][]string
	var err error
	if format == "ndjson" {
		for i, line := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n") {
			if line == "" && stdout == "" {
				break
			}
			if !strings.HasPrefix(line, "{") || !strings.HasSuffix(line, "}") {
				return nil, fmt.Errorf("ndjson line %d is not one object: %q", i+1, line)
			}
		}
		raw, keys, err = decodeNDJSON([]byte(stdout))
	} else {
		raw, keys, err = decodeJSONArray([]byte(stdout))
	}
	if err != nil {
		return nil, fmt.Errorf("%s output: %v", format, err)
	}
	if q.star {
		if raw, err = h.starRows(raw, keys, q.index != ""); err != nil {
			return nil, err
		}
	} else if d := checkHeaders(keys, q.headers()); d != "" {
		return nil, fmt.Errorf("%s", d)
	}
	return normRows(raw, kinds, normDDB)
}

// decodeJSONArray reads exactly one JSON array of objects.
func decodeJSONArray(b []byte) ([][]any, [][]string, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return nil, nil, fmt.Errorf("want a JSON array, got %v (%v)", tok, err)
	}
	var rows [][]any
	var keys [][]string
	for dec.More() {
		if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
			return nil, nil, fmt.Errorf("want an object, got %v (%v)", tok, err)
		}
		vals, ks, err := decodeObject(dec)
		if err != nil {
			return nil, nil, err
		}
		rows, keys = append(rows, vals), append(keys, ks)
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim(']') {
		return nil, nil, fmt.Errorf("want the array's end, got %v (%v)", tok, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, nil, fmt.Errorf("more after the array: %v", err)
	}
	return rows, keys, nil
}

// csvRows parses CSV output: a header of the output names (duplicates
// renamed as in JSON), then one record per row. CSV has no types: every cell
// is compared as text (NULL and ” are both empty), approximate numbers as
// numbers.
func (h *harness) csvRows(stdout string, q *query, kinds []outKind) ([][]norm, error) {
	recs, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("csv output: %v", err)
	}
	want := q.headers()
	if len(recs) == 0 || strings.Join(recs[0], "\x00") != strings.Join(want, "\x00") {
		var got []string
		if len(recs) > 0 {
			got = recs[0]
		}
		return nil, fmt.Errorf("csv header %q, want %q", got, want)
	}
	return csvRecords(recs[1:], kinds)
}

// csvRecords reads CSV records as text cells (approximate numbers as
// numbers).
func csvRecords(recs [][]string, kinds []outKind) ([][]norm, error) {
	out := make([][]norm, 0, len(recs))
	for i, rec := range recs {
		if len(rec) != len(kinds) {
			return nil, fmt.Errorf("csv record %d has %d fields, want %d", i+1, len(rec), len(kinds))
		}
		row := make([]norm, len(rec))
		for k, cell := range rec {
			switch {
			case kinds[k] != kApprox && kinds[k] != kApproxCents:
				row[k] = norm{str: cell, isStr: true}
			case cell == "":
				row[k] = norm{null: true}
			default:
				f, err := strconv.ParseFloat(cell, 64)
				if err != nil {
					return nil, fmt.Errorf("csv record %d field %d: %q is no number", i+1, k+1, cell)
				}
				row[k] = norm{f: f, approx: true}
			}
		}
		out = append(out, row)
	}
	return out, nil
}

// csvLiteRows renders SQLite's values as ddbsql writes them in CSV.
func csvLiteRows(rows [][]any, kinds []outKind) [][]norm {
	out := make([][]norm, len(rows))
	for i, r := range rows {
		out[i] = make([]norm, len(r))
		for k, v := range r {
			if kinds[k] == kApprox || kinds[k] == kApproxCents {
				out[i][k] = normLite(v, kinds[k])
				continue
			}
			// encoding/csv's reader turns \r\n inside a quoted field into \n
			// (ddbsql writes the value as it is).
			out[i][k] = norm{str: strings.ReplaceAll(csvText(v, kinds[k]), "\r\n", "\n"), isStr: true}
		}
	}
	return out
}

func csvText(v any, k outKind) string {
	switch x := v.(type) {
	case nil:
		return ""
	case []byte:
		return string(x)
	case string:
		return x
	case int64:
		switch k {
		case kCents:
			return centsText(x)
		case kBool:
			return strconv.FormatBool(x != 0)
		}
		return strconv.FormatInt(x, 10)
	}
	return fmt.Sprint(v)
}

// runCLI runs the command with args and no stdin.
func runCLI(bin string, args ...string) cliResult {
	cmd := exec.Command(bin, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	cmd.Stdin = strings.NewReader("")
	cmd.Env = cliEnv()
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		code = -1
		errOut.WriteString("could not run: " + err.Error())
	}
	return cliResult{stdout: out.String(), stderr: errOut.String(), code: code}
}

// cliEnv is the command's environment: no AWS configuration of this
// machine (profiles, credentials files, instance metadata).
func cliEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "AWS_") {
			env = append(env, kv)
		}
	}
	return append(env, "AWS_REGION="+dynalitetest.Region, "AWS_CONFIG_FILE="+os.DevNull,
		"AWS_SHARED_CREDENTIALS_FILE="+os.DevNull, "AWS_EC2_METADATA_DISABLED=true")
}

var (
	cliOnce sync.Once
	cliDir  string
	cliBin  string
	cliErr  error
)

// TestMain removes the command built for the command-line tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if cliDir != "" {
		os.RemoveAll(cliDir)
	}
	os.Exit(code)
}

// buildCLI builds the ddbsql command once per test process (TestMain
// removes it).
func buildCLI(t *testing.T) string {
	t.Helper()
	cliOnce.Do(func() {
		dir, err := os.MkdirTemp("", "ddbsql-cli-")
		if err != nil {
			cliErr = err
			return
		}
		cliDir = dir
		cliBin = filepath.Join(dir, "ddbsql")
		cmd := exec.Command("go", "build", "-o", cliBin, "github.com/ddbsql/ddbsql/cmd/ddbsql")
		if out, err := cmd.CombinedOutput(); err != nil {
			cliErr = fmt.Errorf("go build ./cmd/ddbsql: %v\n%s", err, out)
		}
	})
	if cliErr != nil {
		t.Fatal(cliErr)
	}
	return cliBin
}

// writeModel writes tables as a NoSQL Workbench model (keys, GSIs, LSIs
// and the items in DynamoDB JSON) for --data; the tables keep their
// unprefixed names.
func writeModel(t *testing.T, tables ...*fixtures.Table) string {
	t.Helper()
	var model []any
	for _, tb := range tables {
		model = append(model, modelTable(tb))
	}
	b, err := json.Marshal(map[string]any{"ModelName": "difftest", "DataModel": model})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "model.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func modelTable(tb *fixtures.Table) map[string]any {
	in := tb.Create
	types := map[string]string{}
	for _, d := range in.AttributeDefinitions {
		types[aws.ToString(d.AttributeName)] = string(d.AttributeType)
	}
	keys := func(ks []ddbtypes.KeySchemaElement) map[string]any {
		out := map[string]any{}
		for _, k := range ks {
			a := map[string]string{"AttributeName": aws.ToString(k.AttributeName), "AttributeType": types[aws.ToString(k.AttributeName)]}
			if k.KeyType == ddbtypes.KeyTypeHash {
				out["PartitionKey"] = a
			} else {
				out["SortKey"] = a
			}
		}
		return out
	}
	index := func(name *string, ks []ddbtypes.KeySchemaElement, p *ddbtypes.Projection) map[string]any {
		return map[string]any{"IndexName": aws.ToString(name), "KeyAttributes": keys(ks),
			"Projection": map[string]any{"ProjectionType": string(p.ProjectionType), "NonKeyAttributes": p.NonKeyAttributes}}
	}
	m := map[string]any{"TableName": tb.Name, "KeyAttributes": keys(in.KeySchema)}
	var gsis, lsis []any
	for _, g := range in.GlobalSecondaryIndexes {
		gsis = append(gsis, index(g.IndexName, g.KeySchema, g.Projection))
	}
	for _, l := range in.LocalSecondaryIndexes {
		lsis = append(lsis, index(l.IndexName, l.KeySchema, l.Projection))
	}
	if len(gsis) > 0 {
		m["GlobalSecondaryIndexes"] = gsis
	}
	if len(lsis) > 0 {
		m["LocalSecondaryIndexes"] = lsis
	}
	items := make([]json.RawMessage, len(tb.Items))
	for i, it := range tb.Items {
		// The item's attributes, each in DynamoDB JSON ({"S": …}).
		b := []byte{'{'}
		for k, name := range it.SortedKeys() {
			if k > 0 {
				b = append(b, ',')
			}
			key, _ := json.Marshal(name)
			b = append(append(b, key...), ':')
			b = value.AppendDynamoJSON(b, it.Attr(name))
		}
		items[i] = append(b, '}')
	}
	m["TableData"] = items
	return m
}
