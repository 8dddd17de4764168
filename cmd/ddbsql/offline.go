package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/exec/dynamo/offline"
	"github.com/ddbsql/ddbsql/parser/diag"
)

// dataFlags collects --data sources and the --key flags that go with them.
type dataFlags struct {
	sources    []offline.Source
	keyArgs    []string // the --key argument of each source, as given ("" if none)
	defaultKey []string // a --key given before any --data
	defaultArg string   // that --key's argument, as given
}

// dataFlag is the flag.Value of --data.
type dataFlag struct{ d *dataFlags }

func (f dataFlag) String() string {
	if f.d == nil {
		return ""
	}
	var paths []string
	for _, s := range f.d.sources {
		paths = append(paths, s.Path)
	}
	return strings.Join(paths, ", ")
}

// Set reads "PATH" or "name=PATH". The text before the first "=" names
// the table unless it holds a path separator, so ./a=b/items.json and
// C:\exports\x=1\items.json stay paths; a file in the current directory
// whose name has an "=" is written TABLE=./a=b.json. A name that DynamoDB
// would refuse is an error here rather than a "no such file" later.
func (f dataFlag) Set(v string) error {
	src := offline.Source{Path: v}
	if name, path, ok := strings.Cut(v, "="); ok && !strings.ContainsAny(name, `/\`) {
		if !offline.ValidTableName(name) {
			return fmt.Errorf("--data %s: %q is not a valid table name (3 to 255 characters: letters, digits, _ - .); for a file whose name holds =, write --data TABLE=./%s", shownValue(v), name, v)
		}
		if path == "" {
			return fmt.Errorf("--data %s: give the path after =, as in --data %s=orders.jsonl", shownValue(v), name)
		}
		src = offline.Source{Table: name, Path: path}
	}
	src.Keys = f.d.defaultKey
	f.d.sources = append(f.d.sources, src)
	f.d.keyArgs = append(f.d.keyArgs, "")
	return nil
}

// keyFlag is the flag.Value of --key: it applies to the --data (or
// --load) before it.
type keyFlag struct {
	d *dataFlags
	l *loadFlags
}

func (f keyFlag) String() string { return "" }

func (f keyFlag) Set(v string) error {
	n := len(f.d.sources)
	keys, err := offline.ParseKeyFlag(v)
	if err == nil && n == 0 && f.l != nil && len(f.l.sources) > 0 {
		return f.l.setKey(v, keys)
	}
	if err != nil {
		// ParseKeyFlag's error is located at `--key "v"`; keyError says
		// which --data the key is for, so it takes the message alone.
		why := err.Error()
		if de, ok := diag.As(err); ok {
			why = de.Msg
		}
		if n == 0 {
			return fmt.Errorf("--key %s (before any --data, so for every --data): %s", shownValue(v), why)
		}
		return keyError(v, f.d.sources[n-1], why)
	}
	if n == 0 {
		if f.d.defaultArg != "" {
			return fmt.Errorf("--key %s: --key %s came before it and before any --data; give one --key after each --data it is for", shownValue(v), f.d.defaultArg)
		}
		f.d.defaultKey, f.d.defaultArg = keys, v
		return nil
	}
	if prev := f.d.keyArgs[n-1]; prev != "" {
		return keyError(v, f.d.sources[n-1], "that --data already has --key "+prev+"; give one --key after each --data")
	}
	f.d.sources[n-1].Keys, f.d.keyArgs[n-1] = keys, v
	return nil
}

// keyError is an error about the --key arg given for src, naming the
// table it is for.
func keyError(arg string, src offline.Source, why string) error {
	return fmt.Errorf("--key %s for %s: %s (--key applies to the --data before it)", shownValue(arg), sourceTable(src, jsonUnknown), why)
}

// jsonContent is what a .json --data file is known to hold.
type jsonContent int

const (
	jsonUnknown jsonContent = iota // items, or a Workbench model
	jsonItems                      // items: loading them is what failed
)

// sourceTable names the table a --data source loads, as far as the
// command line tells: "table orders" from orders=… or from orders.jsonl,
// else "--data PATH" (an export folder or a model names its own tables).
func sourceTable(src offline.Source, content jsonContent) string {
	if src.Table != "" {
		return "table " + src.Table
	}
	base := filepath.Base(src.Path)
	name := base
	for _, ext := range []string{".gz", ".json", ".jsonl", ".ndjson", ".txt"} {
		name = strings.TrimSuffix(name, ext)
	}
	named := name != base && name != ""
	if strings.HasSuffix(strings.TrimSuffix(base, ".gz"), ".json") && content == jsonUnknown {
		named = false // a .json file may be a Workbench model, which names its tables
	}
	if named {
		return "table " + name
	}
	return "--data " + shownValue(src.Path)
}

// checkKeys reports a --key that no --data follows or precedes.
func (d *dataFlags) checkKeys() error {
	if d.defaultArg != "" && len(d.sources) == 0 {
		return fmt.Errorf("--key %s: --key applies to the --data before it, and there is no --data; write --data PATH --key %s", shownValue(d.defaultArg), d.defaultArg)
	}
	return nil
}

// keyLoadError rewords a load failure caused by the key schema --key gave
// (an item without the key, a key of another type, a model that declares
// other keys), naming the --key and its table, or by reading name=PATH
// as a table name where a file name with an = was meant; other errors
// pass through.
func keyLoadError(err error, d *dataFlags) error {
	le, ok := diag.As(err)
	if !ok || le.Phase != diag.Load {
		return err
	}
	i := sourceOf(le.Pos.Source, d.sources)
	if i < 0 {
		return err
	}
	switch le.Code {
	case diag.CodeIO:
		// --data abc=def.json read as table abc, path def.json, when a
		// file named abc=def.json is what was meant.
		src := d.sources[i]
		if whole := src.Table + "=" + src.Path; src.Table != "" && le.Pos.Source == src.Path && exists(whole) {
			return reworded(le, err, fmt.Sprintf("%v (--data %s names table %s; to load the file %s, write --data TABLE=./%s)", err, shownValue(whole), src.Table, whole, whole))
		}
		return err
	case diag.CodeNoKeySchema:
		return reworded(le, err, fmt.Sprintf("%v, right after --data %s", err, shownValue(d.sources[i].Path)))
	case diag.CodeKeyMismatch: // names the --key and the model's table already
		return reworded(le, err, fmt.Sprintf("%v (--key applies to the --data before it)", err))
	case diag.CodeMissingKey, diag.CodeKeyType, diag.CodeBadKeyFlag:
	default:
		return err
	}
	arg := d.keyArgs[i]
	if arg == "" {
		arg = d.defaultArg
	}
	if arg == "" || strings.Contains(le.Msg, "declared by the model") {
		return err // the key schema is the model's, not --key's
	}
	return reworded(le, err, fmt.Sprintf("--key %s for %s: %v (--key applies to the --data before it)", shownValue(arg), sourceTable(d.sources[i], jsonItems), err))
}

// reworded is a load error said the way the command line names its
// arguments: text, which quotes err (le, or an error wrapping it), is the
// whole message, and err stays the cause, so the code and the file's
// position are still there for errors.As.
func reworded(le *diag.Error, err error, text string) error {
	return &diag.Error{Phase: le.Phase, Code: le.Code, Msg: text, Cause: err}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// sourceOf is the index of the source a file belongs to: the source with
// that path, or the folder holding it (an export's data files).
func sourceOf(path string, sources []offline.Source) int {
	best, bestLen := -1, -1
	for i, s := range sources {
		p := filepath.Clean(s.Path)
		if path == s.Path || filepath.Clean(path) == p {
			return i
		}
		if rel, err := filepath.Rel(p, path); err == nil && !strings.HasPrefix(rel, "..") && len(p) > bestLen {
			best, bestLen = i, len(p)
		}
	}
	return best
}

// offlineClient is the in-process backend, named for the REPL prompt.
type offlineClient struct {
	*offline.Backend
	label string
}

// Label names the connection ("demo" or "offline").
func (c offlineClient) Label() string { return c.label }

// offlineOpened, when set (by tests), sees the offline backend once it is
// open.
var offlineOpened func(*offline.Backend)

// openOffline opens an in-process, read-only DynamoDB with the demo tables
// and/or the --data sources. An export or a file of items is read from its
// files by every Scan until a statement needs it loaded (see
// offline.Backend); eager loads them all now, with the loading line on a
// terminal.
func openOffline(ctx context.Context, cfg *config, progress io.Writer, eager bool) (offlineClient, error) {
	db := memdb.New()
	label := "offline"
	if cfg.demo {
		label = "demo"
		if _, err := offline.LoadDemo(ctx, db); err != nil {
			if le, ok := diag.As(err); ok {
				return offlineClient{}, reworded(le, err, "loading the demo tables: "+err.Error())
			}
			return offlineClient{}, fmt.Errorf("loading the demo tables: %w", err)
		}
	}
	opts := offline.Options{
		Loading: func(_ string, p *offline.Progress) func() { return startLoadProgress(progress, p) },
		Reword:  func(err error) error { return keyLoadError(err, &cfg.data) },
		AsOf:    cfg.asOf,
	}
	b, err := offline.Open(ctx, db, cfg.data.sources, opts)
	if err != nil {
		return offlineClient{}, err
	}
	if eager {
		if err := b.LoadAll(ctx); err != nil {
			b.Close()
			return offlineClient{}, err
		}
	}
	// Write statements change the tables in memory; the session says so
	// at the first write.
	db.Thaw()
	if offlineOpened != nil {
		offlineOpened(b)
	}
	return offlineClient{Backend: b, label: label}, nil
}
