package exportgen

import (
	"bytes"
	"compress/gzip"
	"crypto/md5"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
)

// Version changes whenever the same Options would write different
// bytes, so an export kept from an earlier version is known to be stale.
const Version = 1

// Options say what to write. The zero Seed is a seed like any other.
type Options struct {
	Items int    // items in the export, ≥ 0
	Files int    // data files, ≥ 1 (AWS writes several per export)
	Seed  uint64 // same Options, same bytes
	Table string // table name in the ARNs; "" is "orders"
}

// Group is one status's share of an export.
type Group struct {
	Count int64
	Cents int64 // the sum of total, × 100
}

// Totals is what an export holds, as a query would answer it.
type Totals struct {
	Items     int64
	ByStatus  map[string]Group // every status of Statuses, with Count 0 when absent
	ExportDir string           // DIR/AWSDynamoDB/<export id>
}

// Write writes the export under dir (created if missing) and returns its
// totals. The export id comes from the Options, so writing again replaces
// the same files.
func Write(dir string, o Options) (Totals, error) {
	if o.Items < 0 {
		return Totals{}, fmt.Errorf("items must be ≥ 0, not %d", o.Items)
	}
	if o.Files < 1 {
		return Totals{}, fmt.Errorf("files must be ≥ 1, not %d", o.Files)
	}
	if o.Table == "" {
		o.Table = "orders"
	}
	id := exportID(o)
	exp := filepath.Join(dir, "AWSDynamoDB", id)
	if err := os.MkdirAll(filepath.Join(exp, "data"), 0o755); err != nil {
		return Totals{}, err
	}
	files := make([]dataFile, o.Files)
	errs := make([]error, o.Files)
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for f := range files {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			files[f], errs[f] = writeDataFile(exp, id, o, f)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return Totals{}, err
	}
	t := Totals{ByStatus: map[string]Group{}, ExportDir: exp}
	for _, s := range Statuses {
		t.ByStatus[s] = Group{}
	}
	for _, f := range files {
		t.Items += f.items
		for s, g := range f.groups {
			sum := t.ByStatus[Statuses[s]]
			sum.Count += g.Count
			sum.Cents += g.Cents
			t.ByStatus[Statuses[s]] = sum
		}
	}
	if err := writeManifests(exp, id, o, files, t.Items); err != nil {
		return Totals{}, err
	}
	return t, nil
}

// dataFile is one written data file, as manifest-files.json describes it.
type dataFile struct {
	key    string // dataFileS3Key
	items  int64
	md5    [md5.Size]byte
	groups []Group // by index in Statuses
}

// writeDataFile writes the items i ≡ f (mod Files), gzipped.
func writeDataFile(exp, id string, o Options, f int) (dataFile, error) {
	name := fileName(o, f)
	p := filepath.Join(exp, "data", name)
	out, err := os.Create(p + ".tmp")
	if err != nil {
		return dataFile{}, err
	}
	defer out.Close()
	sum := md5.New()
	zw, _ := gzip.NewWriterLevel(io.MultiWriter(out, sum), gzip.BestSpeed) // level is valid
	d := dataFile{key: "AWSDynamoDB/" + id + "/data/" + name, groups: make([]Group, len(Statuses))}
	var buf []byte
	for i := f; i < o.Items; i += o.Files {
		var ord order
		buf, ord = appendItem(buf, o.Seed, i, o.Items)
		d.items++
		d.groups[ord.status].Count++
		d.groups[ord.status].Cents += ord.cents
		if len(buf) >= 1<<16 {
			if _, err := zw.Write(buf); err != nil {
				return dataFile{}, err
			}
			buf = buf[:0]
		}
	}
	if _, err := zw.Write(buf); err != nil {
		return dataFile{}, err
	}
	if err := zw.Close(); err != nil {
		return dataFile{}, err
	}
	if err := out.Close(); err != nil {
		return dataFile{}, err
	}
	copy(d.md5[:], sum.Sum(nil))
	return d, os.Rename(p+".tmp", p)
}

// writeManifests writes manifest-files.json, then manifest-summary.json,
// whose presence marks the export complete.
func writeManifests(exp, id string, o Options, files []dataFile, items int64) error {
	var mf bytes.Buffer
	enc := json.NewEncoder(&mf)
	for _, f := range files {
		line := struct {
			ItemCount     int64  `json:"itemCount"`
			Md5Checksum   string `json:"md5Checksum"`
			Etag          string `json:"etag"`
			DataFileS3Key string `json:"dataFileS3Key"`
		}{f.items, base64.StdEncoding.EncodeToString(f.md5[:]), hex.EncodeToString(f.md5[:]), f.key}
		if err := enc.Encode(line); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(exp, "manifest-files.json"), mf.Bytes(), 0o644); err != nil {
		return err
	}
	mfSum := md5.Sum(mf.Bytes())
	// A fixed export time: the export is a function of the Options only.
	start := time.Date(2026, 1, 15, 3, 0, 0, 0, time.UTC).Add(time.Duration(o.Seed%86400) * time.Second)
	tableArn := "arn:aws:dynamodb:us-east-1:123456789012:table/" + o.Table
	summary := map[string]any{
		"version":                  "2020-06-30",
		"exportArn":                tableArn + "/export/" + id,
		"startTime":                start.Format("2006-01-02T15:04:05.000Z"),
		"endTime":                  start.Add(7 * time.Minute).Format("2006-01-02T15:04:05.000Z"),
		"tableArn":                 tableArn,
		"tableId":                  tableID(o),
		"exportTime":               start.Format("2006-01-02T15:04:05.000Z"),
		"s3Bucket":                 "ddbsql-exports",
		"s3Prefix":                 nil,
		"s3SseAlgorithm":           "AES256",
		"s3SseKmsKeyId":            nil,
		"manifestFilesS3Key":       "AWSDynamoDB/" + id + "/manifest-files.json",
		"billedSizeBytes":          items * 255, // about what DynamoDB counts per item
		"itemCount":                items,
		"outputFormat":             "DYNAMODB_JSON",
		"exportType":               "FULL_EXPORT",
		"manifestFilesMd5Checksum": base64.StdEncoding.EncodeToString(mfSum[:]),
	}
	data, err := json.Marshal(summary) // map keys sorted: deterministic
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(exp, "manifest-summary.json"), append(data, '\n'), 0o644)
}

// exportID is "<13-digit epoch millis>-<8 hex>", as AWS names exports.
func exportID(o Options) string {
	h := md5.Sum(fmt.Appendf(nil, "%s/%d/%d/%d", o.Table, o.Seed, o.Items, o.Files))
	return fmt.Sprintf("01%011d-%s", o.Seed%1e11, hex.EncodeToString(h[:4]))
}

func tableID(o Options) string {
	h := md5.Sum(fmt.Appendf(nil, "table/%s/%d", o.Table, o.Seed))
	x := hex.EncodeToString(h[:])
	return x[:8] + "-" + x[8:12] + "-" + x[12:16] + "-" + x[16:20] + "-" + x[20:]
}

// fileName is a 26-letter base32 name, like AWS's data file names.
func fileName(o Options, f int) string {
	h := md5.Sum(fmt.Appendf(nil, "%s/%d/%d/%d/%d", o.Table, o.Seed, o.Items, o.Files, f))
	return strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(h[:]))[:26] + ".json.gz"
}
