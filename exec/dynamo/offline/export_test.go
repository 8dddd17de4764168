package offline

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/parser/diag"
)

const exportID = "01747000000000-a1b2c3d4"

type dataFileSpec struct {
	name  string   // under data/
	items []string // DynamoDB-JSON items, written as {"Item": …} lines
	count int      // itemCount in manifest-files.json; -1: len(items)
	empty bool     // a zero-length file (an empty partition)
}

// makeExport lays out an ExportTableToPointInTime result the way it sits
// in S3 under <root>/AWSDynamoDB/<export id>/ and returns that directory.
func makeExport(t *testing.T, root, table string, files []dataFileSpec, summary map[string]any) string {
	t.Helper()
	rel := "AWSDynamoDB/" + exportID
	dir := filepath.Join(root, filepath.FromSlash(rel))
	var manifest strings.Builder
	total := 0
	for i, f := range files {
		p := filepath.Join(dir, "data", f.name)
		if f.empty {
			write(t, dir, "data/"+f.name, "")
			if err := os.Truncate(p, 0); err != nil {
				t.Fatal(err)
			}
		} else {
			var ls []string
			for _, it := range f.items {
				ls = append(ls, `{"Item":`+it+`}`)
			}
			write(t, dir, "data/"+f.name, lines(ls...))
		}
		count := f.count
		if count < 0 {
			count = len(f.items)
		}
		total += len(f.items)
		fmt.Fprintf(&manifest, `{"itemCount":%d,"md5Checksum":"sQMSpEILNgoQmarvDFonG%d==","etag":"af83d6f217c19b8b0fff8023d8ca471%d-1","dataFileS3Key":"exports/%s/data/%s"}`+"\n",
			count, i, i, rel, f.name)
	}
	write(t, dir, "manifest-files.json", manifest.String())
	write(t, dir, "manifest-files.checksum", "0123456789abcdef")
	write(t, dir, "_started", "")
	if summary == nil {
		return dir
	}
	s := fmt.Sprintf(`{"version":"2020-06-30","exportArn":"arn:aws:dynamodb:us-east-1:123456789012:table/%[1]s/export/%[2]s",`+
		`"startTime":"2026-05-14T07:28:34.028Z","endTime":"2026-05-14T07:33:43.897Z",`+
		`"tableArn":"arn:aws:dynamodb:us-east-1:123456789012:table/%[1]s","tableId":"12345a12-abcd-123a-ab12-1234abc12345",`+
		`"exportTime":"2026-05-14T07:28:34.028Z","s3Bucket":"ddb-exports","s3Prefix":"exports","s3SseAlgorithm":"AES256","s3SseKmsKeyId":null,`+
		`"manifestFilesS3Key":"exports/%[3]s/manifest-files.json","billedSizeBytes":0,"itemCount":%[4]d,"outputFormat":"DYNAMODB_JSON"`,
		table, exportID, rel, total)
	for k, v := range summary {
		b := fmt.Sprintf("%q", v)
		if n, ok := v.(int); ok {
			b = fmt.Sprint(n)
		}
		s += fmt.Sprintf(`,%q:%s`, k, b)
	}
	// Pretty-printed, as the S3 console shows it.
	write(t, dir, "manifest-summary.json", strings.ReplaceAll(s, `,"`, ",\n   \"")+"\n}\n")
	write(t, dir, "manifest-summary.checksum", "0123456789abcdef")
	return dir
}

func userItem(user, sk, extra string) string {
	return `{"PK":{"S":"USER#` + user + `"},"SK":{"S":"` + sk + `"}` + extra + `}`
}

var usersExport = []dataFileSpec{
	{name: "bafybeiczss3yxay3o4abnabbb.json.gz", count: -1, items: []string{
		userItem("u_001", "PROFILE", `,"name":{"S":"Alice"},"email":{"S":"alice@example.com"}`),
		userItem("u_001", "ORDER#2026-04-25", `,"total":{"N":"12.5"},"status":{"S":"shipped"}`),
		userItem("u_001", "ORDER#2026-04-30", `,"total":{"N":"7.25"},"status":{"S":"placed"}`),
	}},
	{name: "gkes5o3lnrhoznhnkyax3hxvya.json.gz", empty: true},
	{name: "nv3i3gsvmu3zfmfsjcqyhdx4yq.json.gz", count: -1, items: []string{
		userItem("u_002", "PROFILE", `,"name":{"S":"Bob"},"tags":{"SS":["a","b"]},"addr":{"M":{"city":{"S":"Tokyo"}}}`),
		`{"PK":{"S":"EMAIL#alice@example.com"},"SK":{"S":"EMAIL#alice@example.com"},"userId":{"S":"u_001"}}`,
	}},
}

func TestLoadExportFolder(t *testing.T) {
	root := t.TempDir()
	makeExport(t, root, "Users", usersExport, map[string]any{})
	db := newDB()
	// The folder above AWSDynamoDB/<export id>/ is found too.
	got := mustLoad(t, db, Source{Path: root, Keys: pkSK})
	if len(got) != 1 || got[0].Name != "Users" || got[0].Items != 5 {
		t.Fatalf("loaded %+v, want table Users (from tableArn) with 5 items", got)
	}
	items := query(t, db, eq("Users", "", "PK", S("USER#u_001")))
	if len(items) != 3 || sOf(items[0], "SK") != "ORDER#2026-04-25" || sOf(items[2], "name") != "Alice" {
		t.Fatalf("USER#u_001: %v", items)
	}
}

func TestLoadExportByManifestPath(t *testing.T) {
	root := t.TempDir()
	dir := makeExport(t, root, "Users", usersExport, map[string]any{})
	for _, p := range []string{filepath.Join(dir, "manifest-summary.json"), filepath.Join(dir, "manifest-files.json"), dir} {
		db := newDB()
		got := mustLoad(t, db, Source{Path: p, Table: "people", Keys: pkSK})
		if got[0].Name != "people" || got[0].Items != 5 || itemCount(t, db, "people") != 5 {
			t.Fatalf("%s: loaded %+v", p, got)
		}
	}
}

func TestLoadExportWithoutSummary(t *testing.T) {
	root := t.TempDir()
	dir := makeExport(t, root, "Users", usersExport, nil)
	e := loadErr(t, newDB(), diag.CodeManifest, Source{Path: dir, Keys: pkSK})
	if got, want := strings.ReplaceAll(e.Error(), root, "ROOT"), "ROOT/AWSDynamoDB/"+exportID+"/manifest-files.json: no table name: the export names no table (tableArn); pass name=PATH"; got != want {
		t.Errorf("error\n got: %s\nwant: %s", got, want)
	}
	db := newDB()
	mustLoad(t, db, Source{Path: dir, Table: "users", Keys: pkSK})
	if n := itemCount(t, db, "users"); n != 5 {
		t.Errorf("%d items", n)
	}
}

func TestExportErrors(t *testing.T) {
	dupFiles := []dataFileSpec{usersExport[0], {name: "zz.json.gz", count: -1, items: []string{
		userItem("u_003", "PROFILE", ""), userItem("u_001", "ORDER#2026-04-30", `,"total":{"N":"1"}`)}}}
	shortFiles := []dataFileSpec{usersExport[0], {name: "short.json.gz", count: 3, items: []string{userItem("u_003", "PROFILE", "")}}}
	for _, tc := range []struct {
		name    string
		files   []dataFileSpec
		summary map[string]any
		keys    []string
		edit    func(dir string)
		code    diag.Code
		msg     string
	}{
		{"no key schema", usersExport, map[string]any{}, nil, nil, diag.CodeNoKeySchema,
			"EXP/manifest-summary.json: no key schema in manifest-summary.json: a DynamoDB export does not record the table's key attributes; pass --key PK[,SK]"},
		{"duplicate across data files", dupFiles, map[string]any{}, pkSK, nil, diag.CodeDuplicateKey,
			`EXP/data/zz.json.gz:2: duplicate key PK="USER#u_001", SK="ORDER#2026-04-30": the same key is at EXP/data/bafybeiczss3yxay3o4abnabbb.json.gz:3`},
		{"item count of a file", shortFiles, map[string]any{}, pkSK, nil, diag.CodeManifest,
			"EXP/data/short.json.gz: has 1 item, but manifest-files.json line 2 says 3 (was the file copied completely?)"},
		{"item count of the export", usersExport, map[string]any{"itemCount": 9}, pkSK, nil, diag.CodeManifest,
			"EXP/manifest-summary.json: the export has 5 items, but itemCount says 9 (is a data file missing from manifest-files.json?)"},
		{"missing data file", usersExport, map[string]any{}, pkSK, func(dir string) {
			os.Remove(filepath.Join(dir, "data", "nv3i3gsvmu3zfmfsjcqyhdx4yq.json.gz"))
		}, diag.CodeManifest, `EXP/manifest-files.json:3: data file "exports/AWSDynamoDB/` + exportID + `/data/nv3i3gsvmu3zfmfsjcqyhdx4yq.json.gz" is not in EXP/data (copy the export's data/ folder next to its manifests)`},
		{"truncated data file", usersExport, map[string]any{}, pkSK, func(dir string) {
			p := filepath.Join(dir, "data", "nv3i3gsvmu3zfmfsjcqyhdx4yq.json.gz")
			data, _ := os.ReadFile(p)
			os.WriteFile(p, data[:len(data)-12], 0o644)
		}, diag.CodeTruncated, "EXP/data/nv3i3gsvmu3zfmfsjcqyhdx4yq.json.gz: truncated gzip data after line 2 (the file ends before the end of the compressed stream; was it copied completely?)"},
		{"Ion export", usersExport, map[string]any{"outputFormat": "ION"}, pkSK, nil, diag.CodeUnknownFormat,
			"EXP/manifest-summary.json: an export in Amazon Ion format; ddbsql reads exports in DYNAMODB_JSON format"},
		{"incremental export", usersExport, map[string]any{"exportType": "INCREMENTAL_EXPORT"}, pkSK, nil, diag.CodeExportChain,
			"EXP: an incremental export of table Users holds only the changes of its window: give the full export it follows too, before it: --data Users=FULL_EXPORT/ --data Users=EXP (export one with ExportTableToPointInTime, ExportType FULL_EXPORT; a name= must be the same on the full export and each incremental export)"},
		{"bad manifest line", usersExport, map[string]any{}, pkSK, func(dir string) {
			p := filepath.Join(dir, "manifest-files.json")
			data, _ := os.ReadFile(p)
			os.WriteFile(p, append(data, `{"itemCount":"2","dataFileS3Key":"x"}`+"\n"...), 0o644)
		}, diag.CodeManifest, "EXP/manifest-files.json:4: itemCount is a JSON string, expected a number"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			dir := makeExport(t, root, "Users", tc.files, tc.summary)
			if tc.edit != nil {
				tc.edit(dir)
			}
			db := newDB()
			e := loadErr(t, db, tc.code, Source{Path: dir, Keys: tc.keys})
			if got := strings.ReplaceAll(e.Error(), dir, "EXP"); got != tc.msg {
				t.Errorf("error\n got: %s\nwant: %s", got, tc.msg)
			}
			if names := tableNames(t, db); len(names) != 0 {
				t.Errorf("tables %v left after a failed load", names)
			}
			sameErrorStreamed(t, e, Source{Path: dir, Keys: tc.keys})
		})
	}
}

func TestExportDirectoryErrors(t *testing.T) {
	root := t.TempDir()
	write(t, root, "data/part.json.gz", lines(`{"Item":`+lineA+`}`))
	e := loadErr(t, newDB(), diag.CodeUnknownFormat, Source{Path: root, Keys: pkSK})
	if got := strings.ReplaceAll(e.Error(), root, "ROOT"); !strings.HasPrefix(got, "ROOT: unknown format: a directory without manifest-summary.json or manifest-files.json;") ||
		!strings.HasSuffix(got, "(to load an export's data files without their manifests, pass each file with --data and give --key)") {
		t.Errorf("error %s", got)
	}
	// The data file alone loads as DynamoDB-JSON lines.
	db := newDB()
	mustLoad(t, db, Source{Path: filepath.Join(root, "data", "part.json.gz"), Keys: pkSK})
	if n := itemCount(t, db, "part"); n != 1 {
		t.Errorf("%d items", n)
	}

	two := t.TempDir()
	write(t, two, "a/manifest-files.json", "")
	write(t, two, "b/manifest-files.json", "")
	e = loadErr(t, newDB(), diag.CodeUnknownFormat, Source{Path: two, Keys: pkSK})
	if got, want := strings.ReplaceAll(e.Error(), two, "T"), "T: the directory holds 2 exports (T/a, T/b); pass one of them"; got != want {
		t.Errorf("error %s, want %s", got, want)
	}
}
