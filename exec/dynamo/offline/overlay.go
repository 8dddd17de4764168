package offline

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"time"

	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/plural"
	"github.com/ddbsql/ddbsql/planner/value"
)

// change is one record of an incremental export.
type change struct {
	window   int   // index in the chain's windows
	micros   int64 // Metadata.WriteTimestampMicros
	keys     []memdb.NamedValue
	newImage []memdb.NamedValue // nil: the item was deleted
	oldImage []memdb.NamedValue // nil: not in the record (NEW_IMAGE, or an insert)
	hasOld   bool
	at       pos
}

// heldItem is an item of the table being rebuilt, and where it came from.
type heldItem struct {
	item []memdb.NamedValue
	at   pos
}

// runChain loads a full export with its incremental exports applied. The
// records of the windows that apply are read and checked first (they are
// few next to the table); then the export's items are checked as a load
// checks them and stored as they come, except those of a key some record
// changes, which are held; then the records are applied per key in the
// order of their window and write time (a record with a NewImage puts
// it, one without deletes the key) on the held items, and what remains is
// stored. So only the changed items are held, never the table. The same
// pass fills the <table>$changes table (changes.go).
func (l *loader) runChain(ps *plannedSource, s *sink) error {
	c := ps.chain
	if s.peek { // the key types: from the export's first item, else the first record
		if err := l.runExport(ps, s); err != nil {
			return err
		}
		for w, ie := range c.windows() {
			if _, err := l.readChanges(s, w, ie); err != nil {
				return err
			}
		}
		return errPeeked // an empty chain: any key types will do
	}
	var changes []change
	for w, ie := range c.windows() {
		got, err := l.readChanges(s, w, ie)
		if err != nil {
			return err
		}
		changes = append(changes, got...)
	}
	changed := make(map[string]bool, len(changes))
	for i := range changes {
		changed[itemKey(s.spec.keys, changes[i].keys)] = true
	}
	held := map[string]heldItem{}
	s.collect = func(item []memdb.NamedValue, p pos) error {
		if k := itemKey(s.spec.keys, item); changed[k] {
			held[k] = heldItem{item: item, at: p}
			return nil
		}
		return s.store(item, p)
	}
	err := l.runExport(ps, s)
	s.collect = nil
	if err != nil {
		return err
	}
	sort.SliceStable(changes, func(i, j int) bool {
		if changes[i].window != changes[j].window {
			return changes[i].window < changes[j].window
		}
		return changes[i].micros < changes[j].micros
	})
	rows := newChangeRows(c, s.spec.keys)
	for i := range changes {
		ch := &changes[i]
		k := itemKey(s.spec.keys, ch.keys)
		prior, existed := held[k]
		if err := rows.add(ch, prior.item, existed); err != nil {
			return err
		}
		if ch.newImage == nil {
			delete(held, k)
		} else {
			held[k] = heldItem{item: ch.newImage, at: ch.at}
		}
	}
	if err := s.ensureTable(); err != nil {
		return err
	}
	keys := make([]string, 0, len(held))
	for k := range held {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := s.store(held[k].item, held[k].at); err != nil {
			return err
		}
	}
	return l.storeChanges(c, rows)
}

// itemKey is the identity of an item's key (as checkDuplicate builds it).
func itemKey(keys []keyAttr, item []memdb.NamedValue) string {
	var b []byte
	for _, k := range keys {
		v := keyBytes(attrOf(item, k.Name))
		b = binary.AppendUvarint(b, uint64(len(v)))
		b = append(b, v...)
	}
	return string(b)
}

// readChanges reads the records of one incremental export, checking each:
// valid JSON with Keys (the table's key attributes, of its key types), a
// WriteTimestampMicros inside the window, and a NewImage (and OldImage)
// with the same key; and each data file's item count.
func (l *loader) readChanges(s *sink, w int, ie *incrExport) ([]change, error) {
	var out []change
	for _, f := range ie.files {
		p, ok := l.dataPath(ie.dir, f.DataFileS3Key)
		if !ok {
			return nil, &diag.Error{Phase: diag.Load, Code: diag.CodeManifest, Pos: diag.Pos{Source: l.fsys.Join(ie.dir, filesFile), Line: f.line},
				Msg: "data file " + quote(f.DataFileS3Key) + " is not in " + l.fsys.Join(ie.dir, "data") + " (copy the export's data/ folder next to its manifests)"}
		}
		n, err := l.readChangeFile(s, w, ie, p, &out)
		if err != nil {
			return nil, err
		}
		if f.ItemCount != nil && int64(n) != *f.ItemCount {
			return nil, &diag.Error{Phase: diag.Load, Code: diag.CodeManifest, Pos: diag.Pos{Source: p}, Msg: fmt.Sprintf("has %s, but %s line %d says %d (was the file copied completely?)", plural.Of(n, "record"), filesFile, f.line, *f.ItemCount)}
		}
	}
	if ie.itemCount != nil && !s.peek && int64(len(out)) != *ie.itemCount {
		return nil, &diag.Error{Phase: diag.Load, Code: diag.CodeManifest, Pos: diag.Pos{Source: ie.summaryPath}, Msg: fmt.Sprintf("the export has %s, but itemCount says %d (is a data file missing from manifest-files.json?)", plural.Of(len(out), "record"), *ie.itemCount)}
	}
	return out, nil
}

func (l *loader) readChangeFile(s *sink, w int, ie *incrExport, p string, out *[]change) (int, error) {
	d, err := openData(l.data, p)
	if err != nil {
		return 0, err
	}
	defer d.Close()
	br := bufio.NewReaderSize(d, 1<<20)
	n, line := 0, 0
	for {
		data, err := br.ReadBytes('\n')
		if len(data) > 0 {
			line++
			if len(bytes.TrimSpace(data)) > 0 {
				ch, cerr := parseChange(data, pos{path: p, line: line})
				if cerr != nil {
					return n, cerr
				}
				ch.window = w
				if err := checkChange(s, ie, &ch); err != nil {
					return n, err
				}
				*out = append(*out, ch)
				n++
				if s.peek {
					return n, nil
				}
			}
		}
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, d.readError(line, err)
		}
		if n%4096 == 0 {
			if err := l.ctx.Err(); err != nil {
				return n, err
			}
		}
	}
}

// parseChange decodes one record:
// {"Metadata":{"WriteTimestampMicros":{"N":"…"}},"Keys":{…},"NewImage":{…},"OldImage":{…}}.
func parseChange(data []byte, at pos) (change, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		e := jsonError(diag.CodeBadJSON, at.path, data, err)
		e.Pos.Line += at.line - 1
		return change{}, e
	}
	ch := change{at: at}
	meta, err := value.ParseItemJSON(top["Metadata"])
	if top["Metadata"] == nil || err != nil {
		return change{}, at2(at, "a change record without Metadata.WriteTimestampMicros")
	}
	ts := meta.Attrs()["WriteTimestampMicros"]
	if ts.Kind() != value.Number {
		return change{}, at2(at, "a change record without Metadata.WriteTimestampMicros (a number)")
	}
	if ch.micros, err = strconv.ParseInt(ts.Text(), 10, 64); err != nil {
		return change{}, at2(at, "WriteTimestampMicros "+ts.Text()+" is not a whole number of microseconds")
	}
	if top["Keys"] == nil {
		return change{}, at2(at, "a change record without Keys")
	}
	for _, part := range []struct {
		name string
		dst  *[]memdb.NamedValue
	}{{"Keys", &ch.keys}, {"NewImage", &ch.newImage}, {"OldImage", &ch.oldImage}} {
		raw, ok := top[part.name]
		if !ok || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
			continue
		}
		if out, ok := fastItem(raw, false, nil); ok {
			*part.dst = out // the one-pass decoder of items; errors below
			continue
		}
		v, err := value.ParseItemJSON(raw)
		if err != nil {
			ie := explainItemError(raw, err)
			return change{}, at2(at, part.name+": "+ie.msg)
		}
		*part.dst = namedValues(v)
	}
	ch.hasOld = ch.oldImage != nil
	return ch, nil
}

func namedValues(v value.Value) []memdb.NamedValue {
	out := make([]memdb.NamedValue, 0, len(v.Attrs()))
	for k, a := range v.Attrs() {
		out = append(out, memdb.NamedValue{Name: k, Value: a})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func at2(p pos, msg string) *diag.Error { return at(diag.CodeBadItem, p, "%s", msg) }

// checkChange checks a record against its table and window.
func checkChange(s *sink, ie *incrExport, ch *change) error {
	if err := s.checkKeys(ch.keys, ch.at); err != nil {
		return err
	}
	t := time.UnixMicro(ch.micros).UTC()
	if t.Before(ie.from) || !t.Before(ie.to) {
		return at(diag.CodeBadItem, ch.at, "the change was written at %s, outside the export's window [%s, %s)", t.Format(microStamp), stampOf(ie.from), stampOf(ie.to))
	}
	k := itemKey(s.spec.keys, ch.keys)
	for _, img := range []struct {
		name string
		item []memdb.NamedValue
	}{{"NewImage", ch.newImage}, {"OldImage", ch.oldImage}} {
		if img.item == nil {
			continue
		}
		if err := s.checkKeys(img.item, ch.at); err != nil {
			var de *diag.Error
			if errors.As(err, &de) {
				de.Msg = img.name + ": " + de.Msg
			}
			return err
		}
		if itemKey(s.spec.keys, img.item) != k {
			return at(diag.CodeBadItem, ch.at, "the %s's key is not the record's Keys", img.name)
		}
	}
	return nil
}

// microStamp is how change times are written: ISO 8601 UTC with six
// fractional digits, so string order is time order.
const microStamp = "2006-01-02T15:04:05.000000Z"
