package exportgen

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// View types of an incremental export (its summary's outputView).
const (
	NewAndOldImages = "NEW_AND_OLD_IMAGES"
	NewImage        = "NEW_IMAGE"
)

// ChainOptions say what WriteChain writes: a full export of an accounts
// table and Windows incremental exports after it, each Window long.
type ChainOptions struct {
	Table   string        // table name in the ARNs; "" is "accounts"
	Seed    uint64        // same options, same bytes
	Items   int           // items in the full export, ≥ 0
	Windows int           // incremental exports, ≥ 0
	Changes int           // change records per window (distinct keys), ≥ 0
	Files   int           // data files per export; 0 is 1
	Window  time.Duration // each window's length; 0 is one hour
	// Views is each window's view type (NewAndOldImages or NewImage);
	// windows past its end alternate, starting with NewAndOldImages.
	Views []string
	// Gap and Overlap, when ≥ 1, make incremental export Gap (Overlap),
	// counted from 1, start a minute after (before) the previous export's
	// end: a chain that does not join, for the error tests.
	Gap, Overlap int
}

// Chain is what WriteChain wrote and the history it holds.
type Chain struct {
	Full    Export
	Windows []Window
	// States[k] is the table after window k (States[0]: the full
	// export), as bare DynamoDB-JSON items ({"PK": {"S": …}, …}) in key
	// order.
	States [][]string
}

// Export is one written export.
type Export struct {
	Dir  string    // the export's folder, DIR/<name>/AWSDynamoDB/<export id>
	Root string    // DIR/<name>: what --data is given
	ID   string    // the export id
	Time time.Time // a full export's exportTime
}

// Window is one incremental export: its time range [From, To), its view
// type and its records in the order of their write time.
type Window struct {
	Export
	From, To time.Time
	View     string
	Records  []Record
}

// Record is one change record as written, and what it did.
type Record struct {
	Micros int64  // Metadata.WriteTimestampMicros
	Keys   string // DynamoDB JSON of the key attributes
	Op     string // INSERT, MODIFY or REMOVE: what the change did to the table
	New    string // NewImage, "" for a REMOVE
	Old    string // the item before the change ("" for an INSERT), whether or not the record holds it
}

// The accounts table's key: PK ACC#<n/2>, SK A or B.
var chainSorts = []string{"A", "B"}

// WriteChain writes a full export to DIR/full and incremental export k to
// DIR/incr<k>, each laid out as AWS writes it (see doc.go), and returns
// the history they hold.
func WriteChain(dir string, o ChainOptions) (*Chain, error) {
	if o.Items < 0 || o.Windows < 0 || o.Changes < 0 {
		return nil, fmt.Errorf("items, windows and changes must be ≥ 0")
	}
	if o.Table == "" {
		o.Table = "accounts"
	}
	if o.Files < 1 {
		o.Files = 1
	}
	if o.Window <= 0 {
		o.Window = time.Hour
	}
	t0 := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(o.Seed%1000) * time.Hour)
	universe := max(2, o.Items+o.Items/2+o.Changes) // keys that may ever exist
	state := map[int]*account{}
	base := rng{s: o.Seed ^ 0x3c6ef372fe94f82b}
	base.next()
	// The full export holds Items keys of the universe, spread over it.
	for _, u := range pick(&base, universe, o.Items) {
		state[u] = newAccount(&base, u)
	}
	ch := &Chain{}
	full, err := writeFull(filepath.Join(dir, "full"), o, t0, state)
	if err != nil {
		return nil, err
	}
	ch.Full = full
	ch.States = append(ch.States, render(state))
	from := t0
	for k := 1; k <= o.Windows; k++ {
		start := from
		switch k {
		case o.Gap:
			start = from.Add(time.Minute)
		case o.Overlap:
			start = from.Add(-time.Minute)
		}
		w := Window{From: start, To: start.Add(o.Window), View: viewOf(o, k)}
		w.Records = changeWindow(&base, state, universe, o.Changes, w)
		ex, err := writeIncremental(filepath.Join(dir, fmt.Sprintf("incr%d", k)), o, k, w)
		if err != nil {
			return nil, err
		}
		w.Export = ex
		ch.Windows = append(ch.Windows, w)
		ch.States = append(ch.States, render(state))
		from = w.To
	}
	return ch, nil
}

func viewOf(o ChainOptions, k int) string {
	if k <= len(o.Views) {
		return o.Views[k-1]
	}
	if k%2 == 1 {
		return NewAndOldImages
	}
	return NewImage
}

// pick chooses n distinct numbers of [0, m) in increasing order.
func pick(r *rng, m, n int) []int {
	n = min(n, m)
	perm := make([]int, m)
	for i := range perm {
		perm[i] = i
	}
	for i := 0; i < n; i++ {
		j := i + r.intn(m-i)
		perm[i], perm[j] = perm[j], perm[i]
	}
	out := perm[:n]
	sort.Ints(out)
	return out
}

// changeWindow changes `changes` distinct keys once each at distinct
// times inside w (an item changed twice in a window appears once in an
// incremental export: the exports are compacted), and returns the records
// in write-time order.
func changeWindow(r *rng, state map[int]*account, universe, changes int, w Window) []Record {
	keys := pick(r, universe, changes)
	span := w.To.Sub(w.From).Microseconds()
	times := map[int64]bool{}
	var recs []Record
	for _, u := range keys {
		var at int64
		for {
			at = w.From.UnixMicro() + int64(r.next()%uint64(span))
			if !times[at] {
				break
			}
		}
		times[at] = true
		rec := Record{Micros: at, Keys: keyJSON(u)}
		old, ok := state[u]
		if ok {
			rec.Old = old.json()
		}
		switch {
		case !ok:
			a := newAccount(r, u)
			state[u] = a
			rec.Op, rec.New = "INSERT", a.json()
		case r.intn(10) < 4:
			delete(state, u)
			rec.Op = "REMOVE"
		default:
			a := old.modified(r)
			state[u] = a
			rec.Op, rec.New = "MODIFY", a.json()
		}
		recs = append(recs, rec)
	}
	sort.Slice(recs, func(i, j int) bool { return recs[i].Micros < recs[j].Micros })
	return recs
}

func render(state map[int]*account) []string {
	keys := make([]int, 0, len(state))
	for u := range state {
		keys = append(keys, u)
	}
	sort.Ints(keys)
	out := make([]string, len(keys))
	for i, u := range keys {
		out[i] = state[u].json()
	}
	return out
}

func keyJSON(u int) string {
	b, _ := json.Marshal(map[string]any{"PK": map[string]string{"S": pkOf(u)}, "SK": map[string]string{"S": chainSorts[u%2]}})
	return string(b)
}

func pkOf(u int) string { return fmt.Sprintf("ACC#%04d", u/2) }

// writeFull writes the full export of state, taken at t0.
func writeFull(root string, o ChainOptions, t0 time.Time, state map[int]*account) (Export, error) {
	id := chainExportID(o, 0, t0)
	files := make([][]byte, o.Files)
	keys := make([]int, 0, len(state))
	for u := range state {
		keys = append(keys, u)
	}
	sort.Ints(keys)
	counts := make([]int64, o.Files)
	for _, u := range keys {
		f := u % o.Files
		files[f] = append(files[f], `{"Item":`...)
		files[f] = append(files[f], state[u].json()...)
		files[f] = append(files[f], "}\n"...)
		counts[f]++
	}
	sum := chainSummary(o, id, t0.Add(2*time.Minute))
	sum["version"] = "2020-06-30"
	sum["exportTime"] = stamp(t0)
	sum["exportType"] = "FULL_EXPORT"
	exp := filepath.Join(root, "AWSDynamoDB", id)
	if err := writeLineExport(exp, id, o, 0, files, counts, sum); err != nil {
		return Export{}, err
	}
	return Export{Dir: exp, Root: root, ID: id, Time: t0}, nil
}

// writeIncremental writes incremental export k: one record per line,
// {"Metadata": …, "Keys": …, "OldImage": …, "NewImage": …}, where an
// insert has no OldImage, a delete no NewImage, and a NEW_IMAGE export no
// OldImage at all.
func writeIncremental(root string, o ChainOptions, k int, w Window) (Export, error) {
	id := chainExportID(o, k, w.To)
	files := make([][]byte, o.Files)
	counts := make([]int64, o.Files)
	// Records go to files by key, in key order within a file, as an
	// export's partitions hold them: not in write-time order.
	recs := append([]Record(nil), w.Records...)
	sort.Slice(recs, func(i, j int) bool { return recs[i].Keys < recs[j].Keys })
	for i, rec := range recs {
		f := i % o.Files
		b := files[f]
		b = fmt.Appendf(b, `{"Metadata":{"WriteTimestampMicros":{"N":"%d"}},"Keys":%s`, rec.Micros, rec.Keys)
		if rec.Old != "" && w.View == NewAndOldImages {
			b = append(b, `,"OldImage":`...)
			b = append(b, rec.Old...)
		}
		if rec.New != "" {
			b = append(b, `,"NewImage":`...)
			b = append(b, rec.New...)
		}
		files[f] = append(b, "}\n"...)
		counts[f]++
	}
	sum := chainSummary(o, id, w.To.Add(20*time.Minute))
	sum["version"] = "2023-08-01"
	sum["exportFromTime"] = stamp(w.From)
	sum["exportToTime"] = stamp(w.To)
	sum["exportType"] = "INCREMENTAL_EXPORT"
	sum["outputView"] = w.View
	exp := filepath.Join(root, "AWSDynamoDB", id)
	if err := writeLineExport(exp, id, o, k, files, counts, sum); err != nil {
		return Export{}, err
	}
	return Export{Dir: exp, Root: root, ID: id}, nil
}

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// chainSummary is the part of manifest-summary.json that both export
// types share.
func chainSummary(o ChainOptions, id string, start time.Time) map[string]any {
	arn := "arn:aws:dynamodb:us-east-1:123456789012:table/" + o.Table
	return map[string]any{
		"exportArn":          arn + "/export/" + id,
		"startTime":          stamp(start),
		"endTime":            stamp(start.Add(5 * time.Minute)),
		"tableArn":           arn,
		"tableId":            tableID(Options{Table: o.Table, Seed: o.Seed}),
		"s3Bucket":           "ddbsql-exports",
		"s3Prefix":           nil,
		"s3SseAlgorithm":     "AES256",
		"s3SseKmsKeyId":      nil,
		"manifestFilesS3Key": "AWSDynamoDB/" + id + "/manifest-files.json",
		"outputFormat":       "DYNAMODB_JSON",
	}
}

// chainExportID is "<13-digit epoch millis>-<8 hex>", as AWS names exports.
func chainExportID(o ChainOptions, k int, t time.Time) string {
	return fmt.Sprintf("%013d-%08x", t.UnixMilli(), uint32(hashOf(fmt.Sprintf("%s/%d/%d", o.Table, o.Seed, k))))
}

func hashOf(s string) uint64 {
	r := rng{s: 0}
	for _, c := range []byte(s) {
		r.s ^= uint64(c)
		r.next()
	}
	return r.next()
}

// writeLineExport writes an export's gzipped data files (lines) and its
// manifests, the summary last (its presence marks the export complete).
func writeLineExport(exp, id string, o ChainOptions, k int, files [][]byte, counts []int64, sum map[string]any) error {
	if err := os.MkdirAll(filepath.Join(exp, "data"), 0o755); err != nil {
		return err
	}
	written := make([]dataFile, len(files))
	var total int64
	for f, lines := range files {
		name := fileName(Options{Table: o.Table, Seed: o.Seed, Items: k, Files: len(files)}, f)
		d, err := writeGzip(filepath.Join(exp, "data", name), lines)
		if err != nil {
			return err
		}
		d.key, d.items = "AWSDynamoDB/"+id+"/data/"+name, counts[f]
		written[f] = d
		total += counts[f]
	}
	sum["itemCount"] = total
	sum["billedSizeBytes"] = total * 150
	return writeManifestFiles(exp, written, sum)
}
