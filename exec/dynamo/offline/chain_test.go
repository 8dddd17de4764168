package offline_test

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/exec/dynamo/offline"
	"github.com/ddbsql/ddbsql/internal/exportgen"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/value"
)

// chainSources are --data full/ --data incr1/ … for ch.
func chainSources(ch *exportgen.Chain, keys ...string) []offline.Source {
	src := []offline.Source{{Path: ch.Full.Root, Keys: keys}}
	for _, w := range ch.Windows {
		src = append(src, offline.Source{Path: w.Root})
	}
	return src
}

// scanAll is every item of table, as canonical DynamoDB JSON, sorted.
func scanChain(t *testing.T, c interface {
	Scan(context.Context, *dynamodb.ScanInput, ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error)
}, table string) []string {
	t.Helper()
	var out []string
	var start map[string]types.AttributeValue
	for {
		page, err := c.Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String(table), ExclusiveStartKey: start})
		if err != nil {
			t.Fatalf("scan %s: %v", table, err)
		}
		for _, item := range page.Items {
			v, err := value.FromItem(item)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, string(value.AppendItemJSON(nil, v)))
		}
		if page.LastEvaluatedKey == nil {
			break
		}
		start = page.LastEvaluatedKey
	}
	sort.Strings(out)
	return out
}

func canonicalItems(t *testing.T, items []string) []string {
	t.Helper()
	out := make([]string, len(items))
	for i, it := range items {
		v, err := value.ParseItemJSON([]byte(it))
		if err != nil {
			t.Fatal(err)
		}
		out[i] = string(value.AppendItemJSON(nil, v))
	}
	sort.Strings(out)
	return out
}

// wantChanges is what $changes holds after the first `windows` windows,
// built from the generator's history.
func wantChanges(t *testing.T, ch *exportgen.Chain, windows int) []string {
	var rows []string
	for _, w := range ch.Windows[:windows] {
		for i, r := range w.Records {
			keys, _ := value.ParseItemJSON([]byte(r.Keys))
			var b strings.Builder
			fmt.Fprintf(&b, `{"export_id":{"S":%q},"seq":{"N":"%d"},"operation":{"S":%q},"write_time":{"S":%q},"write_micros":{"N":"%d"},"window_start":{"S":%q},"window_end":{"S":%q}`,
				w.ID, i+1, r.Op, time.UnixMicro(r.Micros).UTC().Format("2006-01-02T15:04:05.000000Z"), r.Micros,
				w.From.Format(time.RFC3339Nano), w.To.Format(time.RFC3339Nano))
			for _, k := range []string{"PK", "SK"} {
				fmt.Fprintf(&b, `,%q:%s`, k, value.AppendDynamoJSON(nil, keys.Attrs()[k]))
			}
			for prefix, img := range map[string]string{"new_": r.New, "old_": r.Old} {
				if img == "" {
					continue
				}
				v, err := value.ParseItemJSON([]byte(img))
				if err != nil {
					t.Fatal(err)
				}
				for name, a := range v.Attrs() {
					if name != "PK" && name != "SK" {
						fmt.Fprintf(&b, `,%q:%s`, prefix+name, value.AppendDynamoJSON(nil, a))
					}
				}
			}
			b.WriteString("}")
			rows = append(rows, b.String())
		}
	}
	return canonicalItems(t, rows)
}

func openChain(t *testing.T, sources []offline.Source, asOf time.Time) (*offline.Backend, error) {
	t.Helper()
	b, err := offline.Open(context.Background(), memdb.New(memdb.ReadOnly()), sources, offline.Options{AsOf: asOf})
	if err == nil {
		t.Cleanup(b.Close)
	}
	return b, err
}

// Every window boundary, and times between them, shows exactly the
// generator's state at the latest boundary not after it; $changes holds
// the records of the windows shown. Both view types, several files.
func TestChainAsOfEveryBoundary(t *testing.T) {
	ch, err := exportgen.WriteChain(t.TempDir(), exportgen.ChainOptions{Items: 80, Windows: 4, Changes: 40, Files: 3, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	boundaries := []time.Time{ch.Full.Time}
	for _, w := range ch.Windows {
		boundaries = append(boundaries, w.To)
	}
	type probe struct {
		asOf time.Time
		k    int
	}
	var probes []probe
	for k, at := range boundaries {
		probes = append(probes, probe{at, k}, probe{at.Add(30 * time.Minute), k}, probe{at.Add(time.Hour - time.Microsecond), k})
	}
	probes = append(probes, probe{time.Time{}, len(ch.Windows)}) // no --as-of: the last window
	for _, p := range probes {
		b, err := openChain(t, chainSources(ch, "PK", "SK"), p.asOf)
		if err != nil {
			t.Fatalf("as of %s: %v", p.asOf, err)
		}
		bs := b.Boundaries()
		if len(bs) != 1 || !bs[0].At.Equal(boundaries[p.k]) || bs[0].Windows != p.k || bs[0].Of != len(ch.Windows) {
			t.Fatalf("as of %s: boundaries %+v, want %s after %d windows", p.asOf, bs, boundaries[p.k], p.k)
		}
		got, want := scanChain(t, b, "accounts"), canonicalItems(t, ch.States[p.k])
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("as of %s (boundary %d): the table differs:\n got %d items\nwant %d items\n%s", p.asOf, p.k, len(got), len(want), firstDiff(got, want))
		}
		got, want = scanChain(t, b, "accounts$changes"), wantChanges(t, ch, p.k)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("as of %s: $changes differs (%d rows, want %d)\n%s", p.asOf, len(got), len(want), firstDiff(got, want))
		}
	}
}

func firstDiff(got, want []string) string {
	for i := range max(len(got), len(want)) {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			return fmt.Sprintf("first difference at %d:\n got %s\nwant %s", i, g, w)
		}
	}
	return ""
}

// Load (every window) gives the same table and changes as Open, in any
// order of the --data flags, and names both tables.
func TestChainLoad(t *testing.T) {
	ch, err := exportgen.WriteChain(t.TempDir(), exportgen.ChainOptions{Items: 30, Windows: 3, Changes: 15, Seed: 9, Views: []string{exportgen.NewImage, exportgen.NewImage, exportgen.NewAndOldImages}})
	if err != nil {
		t.Fatal(err)
	}
	src := chainSources(ch, "PK:S", "SK:S")
	src[1], src[3] = src[3], src[1] // windows in any order
	db := memdb.New(memdb.ReadOnly())
	tables, err := offline.Load(context.Background(), db, src)
	if err != nil {
		t.Fatal(err)
	}
	if len(tables) != 2 || tables[0].Name != "accounts$changes" || tables[1].Name != "accounts" || tables[1].Items != len(ch.States[3]) {
		t.Fatalf("loaded %+v", tables)
	}
	if got, want := scanChain(t, db, "accounts"), canonicalItems(t, ch.States[3]); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("table differs\n%s", firstDiff(got, want))
	}
	if got, want := scanChain(t, db, "accounts$changes"), wantChanges(t, ch, 3); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("$changes differs\n%s", firstDiff(got, want))
	}
}

func chainErr(t *testing.T, code diag.Code, sources []offline.Source, asOf time.Time) string {
	t.Helper()
	_, err := openChain(t, sources, asOf)
	de, ok := diag.As(err)
	if !ok || de.Code != code || de.Phase != diag.Load {
		t.Fatalf("got %v, want a load error %s", err, code)
	}
	return de.Error()
}

// A gap or an overlap between windows names the two exports; so does a
// gap after the full export. Incremental exports alone, or of another
// table, are errors with advice; --as-of before the full export too.
func TestChainErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    exportgen.ChainOptions
		kind string
		prev string // the export before the one that does not join
	}{
		{"gap", exportgen.ChainOptions{Windows: 3, Gap: 2}, "a gap", "incr1"},
		{"overlap", exportgen.ChainOptions{Windows: 3, Overlap: 3}, "an overlap", "incr2"},
		{"gap after the full export", exportgen.ChainOptions{Windows: 2, Gap: 1}, "a gap", "full"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.o.Items, tc.o.Changes = 10, 4
			dir := t.TempDir()
			ch, err := exportgen.WriteChain(dir, tc.o)
			if err != nil {
				t.Fatal(err)
			}
			msg := chainErr(t, diag.CodeExportChain, chainSources(ch, "PK", "SK"), time.Time{})
			bad := ch.Windows[max(tc.o.Gap, tc.o.Overlap)-1].Root
			for _, want := range []string{tc.kind, filepath.Join(dir, tc.prev), bad, "starts at"} {
				if !strings.Contains(msg, want) {
					t.Errorf("message lacks %q:\n%s", want, msg)
				}
			}
		})
	}

	dir := t.TempDir()
	ch, err := exportgen.WriteChain(dir, exportgen.ChainOptions{Items: 10, Windows: 2, Changes: 4})
	if err != nil {
		t.Fatal(err)
	}
	msg := chainErr(t, diag.CodeExportChain, chainSources(ch, "PK", "SK")[1:], time.Time{})
	if !strings.Contains(msg, "give the full export") || !strings.Contains(msg, "accounts") {
		t.Errorf("incrementals alone: %s", msg)
	}
	other := chainSources(ch, "PK", "SK")
	other[0].Table = "other"
	if msg := chainErr(t, diag.CodeExportChain, other, time.Time{}); !strings.Contains(msg, "give the full export") {
		t.Errorf("incrementals of another table: %s", msg)
	}
	msg = chainErr(t, diag.CodeAsOf, chainSources(ch, "PK", "SK"), ch.Full.Time.Add(-time.Second))
	if !strings.Contains(msg, "before the full export") || !strings.Contains(msg, ch.Full.Time.Format(time.RFC3339)) {
		t.Errorf("--as-of too early: %s", msg)
	}
}

// The history the boundary test checks holds every kind of change,
// including a key deleted in one window and inserted again in a later one.
func TestChainHistoryHasEveryKindOfChange(t *testing.T) {
	ch, err := exportgen.WriteChain(t.TempDir(), exportgen.ChainOptions{Items: 80, Windows: 4, Changes: 40, Files: 3, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	ops, removedIn, reinserted := map[string]int{}, map[string]int{}, false
	for k, w := range ch.Windows {
		for _, r := range w.Records {
			ops[r.Op]++
			if r.Op == "REMOVE" {
				removedIn[r.Keys] = k
			}
			if at, ok := removedIn[r.Keys]; ok && r.Op == "INSERT" && at < k {
				reinserted = true
			}
		}
	}
	if ops["INSERT"] == 0 || ops["MODIFY"] == 0 || ops["REMOVE"] == 0 || !reinserted {
		t.Fatalf("history %v, re-inserted across windows %v", ops, reinserted)
	}
}

// rewriteRecords replaces the lines of an incremental export's first data
// file (written uncompressed: the loader reads either).
func rewriteRecords(t *testing.T, w exportgen.Window, edit func(lines []string) []string) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(w.Dir, "data", "*.json.gz"))
	sort.Strings(files)
	data, err := readGzip(files[0])
	if err != nil {
		t.Fatal(err)
	}
	lines := edit(strings.Split(strings.TrimSuffix(data, "\n"), "\n"))
	if err := os.WriteFile(files[0], []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return files[0]
}

func readGzip(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return "", err
	}
	b, err := io.ReadAll(zr)
	return string(b), err
}

// A bad record fails the statement that reads the table, at its file and
// line: written outside its window, a NewImage of another key, a key of
// the wrong type, a missing WriteTimestampMicros, or a data file holding
// fewer records than its manifest says.
func TestChainBadRecords(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func([]string) []string
		code diag.Code
		want string
	}{
		{"outside the window", func(ls []string) []string {
			ls[0] = strings.Replace(ls[0], `"WriteTimestampMicros":{"N":"`, `"WriteTimestampMicros":{"N":"1`, 1)
			return ls
		}, diag.CodeBadItem, ":1: the change was written at "},
		{"another key", func(ls []string) []string {
			i := strings.Index(ls[0], `"NewImage":`)
			ls[0] = ls[0][:i] + strings.Replace(ls[0][i:], `"PK":{"S":"ACC#`, `"PK":{"S":"X`, 1)
			return ls
		}, diag.CodeBadItem, ":1: the NewImage's key is not the record's Keys"},
		{"key type", func(ls []string) []string {
			ls[1] = regexp.MustCompile(`"Keys":\{"PK":\{"S":"[^"]*"\}`).ReplaceAllString(ls[1], `"Keys":{"PK":{"N":"7"}`)
			return ls
		}, diag.CodeKeyType, ":2: key PK is N here"},
		{"no timestamp", func(ls []string) []string {
			ls[0] = strings.Replace(ls[0], `"Metadata":{"WriteTimestampMicros"`, `"Metadata":{"Other"`, 1)
			return ls
		}, diag.CodeBadItem, ":1: a change record without Metadata.WriteTimestampMicros"},
		{"count", func(ls []string) []string { return ls[1:] }, diag.CodeManifest, "says"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ch, err := exportgen.WriteChain(t.TempDir(), exportgen.ChainOptions{Items: 20, Windows: 2, Changes: 8, Seed: 2, Views: []string{exportgen.NewAndOldImages, exportgen.NewAndOldImages}})
			if err != nil {
				t.Fatal(err)
			}
			// Make the first two records of window 1 ones with a NewImage.
			file := rewriteRecords(t, ch.Windows[0], func(ls []string) []string {
				sort.SliceStable(ls, func(i, j int) bool {
					return strings.Contains(ls[i], "NewImage") && !strings.Contains(ls[j], "NewImage")
				})
				return tc.edit(ls)
			})
			b, err := openChain(t, chainSources(ch, "PK", "SK"), time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			_, err = b.Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String("accounts")})
			de, ok := diag.As(err)
			if !ok || de.Code != tc.code || !strings.Contains(de.Error(), file) || !strings.Contains(de.Error(), tc.want) {
				t.Fatalf("got %v, want %s with %q at %s", err, tc.code, tc.want, file)
			}
			// The $changes table fails the same way, and nothing is left half loaded.
			if _, err2 := b.Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String("accounts$changes")}); err2 == nil || err2.Error() != err.Error() {
				t.Errorf("$changes: %v", err2)
			}
		})
	}
}

// A full export taken at a time with milliseconds joins a first window
// that starts at that whole second (ExportFromTime is in seconds); a
// window starting a second earlier overlaps it.
func TestChainFullExportMilliseconds(t *testing.T) {
	for _, tc := range []struct {
		shift time.Duration
		ok    bool
	}{{500 * time.Millisecond, true}, {1500 * time.Millisecond, false}} {
		ch, err := exportgen.WriteChain(t.TempDir(), exportgen.ChainOptions{Items: 10, Windows: 1, Changes: 3})
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(ch.Full.Dir, "manifest-summary.json")
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		at := ch.Full.Time.Add(tc.shift).Format("2006-01-02T15:04:05.000Z")
		data = []byte(strings.Replace(string(data), `"exportTime":"`+ch.Full.Time.Format("2006-01-02T15:04:05.000Z")+`"`, `"exportTime":"`+at+`"`, 1))
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err = openChain(t, chainSources(ch, "PK", "SK"), time.Time{})
		if tc.ok && err != nil || !tc.ok && (err == nil || !strings.Contains(err.Error(), "an overlap")) {
			t.Errorf("exportTime %s: %v", at, err)
		}
	}
}

// A folder holding the full export and the incremental exports, as an
// S3 prefix copied whole (<prefix>/AWSDynamoDB/<id>/ each), is one --data.
func TestChainOneFolder(t *testing.T) {
	ch, err := exportgen.WriteChain(t.TempDir(), exportgen.ChainOptions{Items: 20, Windows: 2, Changes: 6, Seed: 8})
	if err != nil {
		t.Fatal(err)
	}
	prefix := t.TempDir()
	for _, e := range append([]exportgen.Export{ch.Full}, ch.Windows[0].Export, ch.Windows[1].Export) {
		if err := os.CopyFS(filepath.Join(prefix, "AWSDynamoDB", filepath.Base(e.Dir)), os.DirFS(e.Dir)); err != nil {
			t.Fatal(err)
		}
	}
	b, err := openChain(t, []offline.Source{{Path: prefix, Keys: []string{"PK", "SK"}}}, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := scanChain(t, b, "accounts"), canonicalItems(t, ch.States[2]); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("table differs\n%s", firstDiff(got, want))
	}
	if bs := b.Boundaries(); len(bs) != 1 || bs[0].Windows != 2 {
		t.Errorf("boundaries %+v", bs)
	}
}
