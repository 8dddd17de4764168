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
	"time"
)

func TestChainSameOptionsSameBytes(t *testing.T) {
	o := ChainOptions{Items: 40, Windows: 3, Changes: 12, Files: 2, Seed: 3}
	a, b := t.TempDir(), t.TempDir()
	if _, err := WriteChain(a, o); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteChain(b, o); err != nil {
		t.Fatal(err)
	}
	fa, fb := tree(t, a), tree(t, b)
	if len(fa) != 4*4 { // four exports of two manifests and two data files
		t.Fatalf("wrote %d files: %v", len(fa), keys(fa))
	}
	for p, data := range fa {
		if !bytes.Equal(data, fb[p]) {
			t.Errorf("%s differs between two runs", p)
		}
	}
}

// The windows join, the records lie inside their windows, every kind of
// change happens, and replaying the records on the full export gives each
// state.
func TestChainHistory(t *testing.T) {
	ch, err := WriteChain(t.TempDir(), ChainOptions{Items: 60, Windows: 4, Changes: 30, Files: 3, Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	if len(ch.Windows) != 4 || len(ch.States) != 5 {
		t.Fatalf("%d windows, %d states", len(ch.Windows), len(ch.States))
	}
	from := ch.Full.Time
	ops := map[string]int{}
	reinserted := false
	removed := map[string]bool{}
	state := map[string]string{}
	for _, it := range ch.States[0] {
		state[keyOf(t, it)] = it
	}
	for k, w := range ch.Windows {
		if !w.From.Equal(from) || w.To.Sub(w.From) != time.Hour {
			t.Fatalf("window %d is [%s, %s), previous ended %s", k+1, w.From, w.To, from)
		}
		from = w.To
		for _, r := range w.Records {
			if r.Micros < w.From.UnixMicro() || r.Micros >= w.To.UnixMicro() {
				t.Errorf("record at %d outside window %d", r.Micros, k+1)
			}
			ops[r.Op]++
			if r.Op == "INSERT" && removed[r.Keys] {
				reinserted = true
			}
			if r.Op == "REMOVE" {
				removed[r.Keys] = true
				delete(state, r.Keys)
			} else {
				state[r.Keys] = r.New
			}
		}
		var got []string
		for _, it := range ch.States[k+1] {
			got = append(got, it)
			if state[keyOf(t, it)] != it {
				t.Errorf("window %d: state differs at %s", k+1, keyOf(t, it))
			}
		}
		if len(got) != len(state) {
			t.Errorf("window %d: %d items, replay has %d", k+1, len(got), len(state))
		}
	}
	if ops["INSERT"] == 0 || ops["MODIFY"] == 0 || ops["REMOVE"] == 0 || !reinserted {
		t.Errorf("changes %v, re-inserted %v: want every kind", ops, reinserted)
	}

	// The data lines are the records, with OldImage only in NEW_AND_OLD_IMAGES.
	for _, w := range ch.Windows {
		sum := readJSON(t, filepath.Join(w.Dir, "manifest-summary.json"))
		if sum["exportType"] != "INCREMENTAL_EXPORT" || sum["outputView"] != w.View || sum["exportFromTime"] != stamp(w.From) {
			t.Errorf("summary %v", sum)
		}
		n := 0
		for p, data := range tree(t, filepath.Join(w.Dir, "data")) {
			for _, line := range strings.Split(strings.TrimSpace(gunzip(t, data)), "\n") {
				if line == "" {
					continue
				}
				n++
				var rec map[string]json.RawMessage
				if err := json.Unmarshal([]byte(line), &rec); err != nil {
					t.Fatalf("%s: %v", p, err)
				}
				if _, ok := rec["OldImage"]; ok && w.View != NewAndOldImages {
					t.Errorf("%s: OldImage in a %s export", p, w.View)
				}
				if rec["Metadata"] == nil || rec["Keys"] == nil {
					t.Errorf("%s: %s", p, line)
				}
			}
		}
		if n != len(w.Records) {
			t.Errorf("%s: %d lines, %d records", w.ID, n, len(w.Records))
		}
	}
}

func keyOf(t *testing.T, item string) string {
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(item), &m); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]json.RawMessage{"PK": m["PK"], "SK": m["SK"]})
	return string(b)
}

func readJSON(t *testing.T, p string) map[string]any {
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func gunzip(t *testing.T, data []byte) string {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}
