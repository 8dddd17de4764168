package exportgen

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSameOptionsSameBytes(t *testing.T) {
	o := Options{Items: 500, Files: 2, Seed: 7}
	a, b := t.TempDir(), t.TempDir()
	if _, err := Write(a, o); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(b, o); err != nil {
		t.Fatal(err)
	}
	fa, fb := tree(t, a), tree(t, b)
	if len(fa) != 4 { // two manifests, two data files
		t.Fatalf("wrote %d files: %v", len(fa), keys(fa))
	}
	for p, data := range fa {
		if !bytes.Equal(data, fb[p]) {
			t.Errorf("%s differs between two runs", p)
		}
	}
	// Another seed is another export.
	c := t.TempDir()
	if _, err := Write(c, Options{Items: 500, Files: 2, Seed: 8}); err != nil {
		t.Fatal(err)
	}
	if lines(t, a)[0] == lines(t, c)[0] {
		t.Error("seeds 7 and 8 wrote the same first item")
	}
}

// Items depend on their index only: splitting an export into more files
// moves lines, never changes them.
func TestItemsIndependentOfFiles(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	if _, err := Write(a, Options{Items: 300, Files: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(b, Options{Items: 300, Files: 4}); err != nil {
		t.Fatal(err)
	}
	la, lb := lines(t, a), lines(t, b)
	if len(la) != 300 || len(lb) != 300 {
		t.Fatalf("%d and %d lines", len(la), len(lb))
	}
	seen := map[string]bool{}
	for _, l := range la {
		seen[l] = true
	}
	for _, l := range lb {
		if !seen[l] {
			t.Fatalf("line only in the 4-file export: %s", l)
		}
	}
}

func TestItemShape(t *testing.T) {
	var sizes int
	keysSeen := map[string]bool{}
	notes := 0
	for i := 0; i < 2000; i++ {
		b, ord := appendItem(nil, 3, i, 2000)
		sizes += len(b)
		var line struct {
			Item map[string]map[string]json.RawMessage
		}
		if err := json.Unmarshal(b, &line); err != nil {
			t.Fatalf("item %d: %v\n%s", i, err, b)
		}
		it := line.Item
		key := string(it["PK"]["S"]) + string(it["SK"]["S"])
		if keysSeen[key] {
			t.Fatalf("item %d: duplicate key %s", i, key)
		}
		keysSeen[key] = true
		var total string
		if err := json.Unmarshal(it["total"]["N"], &total); err != nil || total != FormatCents(ord.cents) {
			t.Fatalf("item %d: total %s, generator counted %d cents", i, it["total"]["N"], ord.cents)
		}
		if string(it["status"]["S"]) != `"`+Statuses[ord.status]+`"` {
			t.Fatalf("item %d: status %s, generator counted %s", i, it["status"]["S"], Statuses[ord.status])
		}
		want := []string{"PK", "SK", "status", "currency", "created", "items", "qty", "total", "tags", "address", "flag"}
		if _, ok := it["note"]; ok {
			notes++
			want = append(want, "note")
		}
		if len(it) != len(want) {
			t.Fatalf("item %d has %d attributes, want %v", i, len(it), want)
		}
		for _, a := range want {
			if len(it[a]) != 1 {
				t.Fatalf("item %d: attribute %s is %v", i, a, it[a])
			}
		}
	}
	if notes < 400 || notes > 1000 {
		t.Errorf("%d of 2000 items have a note, want about one in three", notes)
	}
	if avg := sizes / 2000; avg < 350 || avg > 700 {
		t.Errorf("average line is %d bytes", avg)
	}
}

func TestFormatCents(t *testing.T) {
	for c, want := range map[int64]string{0: "0", 5: "0.05", 50: "0.5", 1200: "12", 1250: "12.5", 1234: "12.34", -1205: "-12.05"} {
		if got := FormatCents(c); got != want {
			t.Errorf("FormatCents(%d) = %q, want %q", c, got, want)
		}
	}
}

func TestBadOptions(t *testing.T) {
	for _, o := range []Options{{Items: -1, Files: 1}, {Items: 1, Files: 0}} {
		if _, err := Write(t.TempDir(), o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

// tree reads every file under dir, by path relative to dir.
func tree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[rel] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func keys(m map[string][]byte) []string {
	var k []string
	for p := range m {
		k = append(k, p)
	}
	return k
}

// lines are the data lines of the export under dir, file by file.
func lines(t *testing.T, dir string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "AWSDynamoDB", "*", "data", "*.json.gz"))
	var out []string
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")...)
	}
	return out
}
