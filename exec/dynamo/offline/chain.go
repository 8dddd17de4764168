package offline

import (
	"encoding/json"
	"sort"
	"strings"
	"time"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// ChangesSuffix names the table of an incremental chain's change records:
// orders$changes for orders. '$' is in no DynamoDB table name, so it can
// clash with none.
const ChangesSuffix = "$changes"

// incrExport is one incremental export (ExportType INCREMENTAL_EXPORT):
// the changes of the window [from, to).
type incrExport struct {
	src         Source
	dir         string
	summaryPath string
	id          string // the export id
	arn         string // the tableArn
	itemCount   *int64 // the summary's itemCount: records in the export
	from, to    time.Time
	view        string // NEW_AND_OLD_IMAGES or NEW_IMAGE
	files       []exportFile
}

// chain is a full export and the incremental exports that follow it.
type chain struct {
	table    string
	fullPath string
	fullTime time.Time // the full export's exportTime
	incr     []*incrExport
	// used is how many windows apply: all, or those ending at or before
	// --as-of.
	used    int
	asOf    time.Time // --as-of as given (zero: none)
	changes *tableSpec
	// changesMade: the $changes table exists (Open creates it empty).
	changesMade bool
}

// Boundary is the point in time a table with incremental exports shows.
type Boundary struct {
	Table   string
	At      time.Time // the full export's time or a window's end
	Export  string    // the id of the last export applied
	Windows int       // incremental exports applied
	Of      int       // incremental exports given
	AsOf    time.Time // --as-of (zero: not given: the last window)
}

// boundary is the point in time c shows.
func (c *chain) boundary() Boundary {
	b := Boundary{Table: c.table, At: c.fullTime, Windows: c.used, Of: len(c.incr), AsOf: c.asOf}
	if c.used > 0 {
		b.At, b.Export = c.incr[c.used-1].to, c.incr[c.used-1].id
	}
	return b
}

// windows are the exports c applies.
func (c *chain) windows() []*incrExport { return c.incr[:c.used] }

// peekSummary reads the summary of an export source (ok false for any
// other source, or one whose errors prepare reports).
func (l *loader) peekSummary(p string) (exportSummary, string, bool) {
	k, dir, err := detect(l.fsys, p)
	if err != nil || k != kindExport {
		return exportSummary{}, "", false
	}
	sp := l.fsys.Join(dir, summaryFile)
	data, err := readAll(l.fsys, sp)
	if err != nil {
		return exportSummary{}, "", false
	}
	var sum exportSummary
	if json.Unmarshal(data, &sum) != nil {
		return exportSummary{}, "", false
	}
	return sum, dir, true
}

// chains takes the incremental exports out of sources and ties each to
// the full export of its table (named by name= or the tableArn), checking
// that each table's windows join: the first starts at the full export's
// exportTime and each next one where the one before ends. It returns the
// other sources and, by their index, the chain of each full export that
// has incremental exports after it, with the windows --as-of selects.
func (l *loader) chains(sources []Source, asOf time.Time) ([]Source, map[int]*chain, error) {
	type fullExport struct {
		idx  int
		path string
		sum  exportSummary
	}
	type incremental struct {
		src Source
		dir string
		sum exportSummary
	}
	var rest []Source
	fulls := map[string]*fullExport{}
	byTable := map[string][]incremental{}
	var tables []string
	sources = l.expandChains(sources)
	for _, src := range sources {
		sum, dir, ok := l.peekSummary(src.Path)
		if !ok {
			rest = append(rest, src)
			continue
		}
		name := exportTable(src, sum)
		if sum.ExportType != "INCREMENTAL_EXPORT" {
			if _, dup := fulls[name]; !dup && name != "" {
				fulls[name] = &fullExport{idx: len(rest), path: src.Path, sum: sum}
			}
			rest = append(rest, src)
			continue
		}
		if _, seen := byTable[name]; !seen {
			tables = append(tables, name)
		}
		byTable[name] = append(byTable[name], incremental{src, dir, sum})
	}
	out := map[int]*chain{}
	for _, name := range tables {
		f := fulls[name]
		if f == nil {
			first := byTable[name][0].src
			if name == "" {
				name = "TABLE"
			}
			return nil, nil, &diag.Error{Phase: diag.Load, Code: diag.CodeExportChain, Pos: diag.Pos{Source: first.Path},
				Msg: "an incremental export of table " + name + " holds only the changes of its window: give the full export it follows too, " +
					"before it: --data " + name + "=FULL_EXPORT/ --data " + name + "=" + first.Path + " (export one with ExportTableToPointInTime, ExportType FULL_EXPORT; " +
					"a name= must be the same on the full export and each incremental export)"}
		}
		var incr []*incrExport
		for _, in := range byTable[name] {
			ie, err := l.planIncremental(in.src, in.dir, in.sum)
			if err != nil {
				return nil, nil, err
			}
			incr = append(incr, ie)
		}
		c, err := newChain(name, f.path, f.sum, incr, asOf)
		if err != nil {
			return nil, nil, err
		}
		out[f.idx] = c
	}
	return rest, out, nil
}

// exportTable names an export's table: name=, else its tableArn's.
func exportTable(src Source, sum exportSummary) string {
	if src.Table != "" {
		return src.Table
	}
	if n := tableFromArn(sum.TableArn); n != "" {
		return n
	}
	return tableFromArn(sum.ExportArn)
}

// newChain orders a table's incremental exports by their windows and
// checks that they join the full export and each other.
func newChain(table, fullPath string, full exportSummary, incr []*incrExport, asOf time.Time) (*chain, error) {
	t0, err := summaryTime(full.ExportTime)
	if err != nil {
		return nil, &diag.Error{Phase: diag.Load, Code: diag.CodeManifest, Pos: diag.Pos{Source: fullPath},
			Msg: "the full export's " + summaryFile + " has no valid exportTime (" + quote(full.ExportTime) + "), so incremental exports cannot be applied to it"}
	}
	for _, ie := range incr {
		if ie.arn != "" && full.TableArn != "" && ie.arn != full.TableArn {
			return nil, &diag.Error{Phase: diag.Load, Code: diag.CodeExportChain, Pos: diag.Pos{Source: ie.src.Path},
				Msg: "the incremental export " + ie.src.Path + " is of " + ie.arn + ", but the full export " + fullPath + " of " + full.TableArn + "; give the full export of the same table"}
		}
	}
	sort.SliceStable(incr, func(i, j int) bool { return incr[i].from.Before(incr[j].from) })
	prevEnd, prevPath, prevWhat := t0, fullPath, "the full export "+fullPath+" is the table at "+stampOf(t0)
	for i, ie := range incr {
		// ExportFromTime is given in whole seconds, while a full export
		// taken "now" has an exportTime with milliseconds: the first
		// window may start at that second (its records before exportTime
		// hold states the full export already has, and each key's record
		// is its last state in the window, so applying them again changes
		// nothing).
		joins := ie.from.Equal(prevEnd) || i == 0 && ie.from.Equal(prevEnd.Truncate(time.Second))
		if !joins {
			kind := "a gap"
			advice := "export the missing window [" + stampOf(prevEnd) + ", " + stampOf(ie.from) + ") too"
			if ie.from.Before(prevEnd) {
				kind = "an overlap"
				advice = "give windows that do not overlap: leave out " + ie.src.Path + " or " + prevPath
				if i == 0 {
					advice = "export the first window again from the full export's exportTime " + stampOf(prevEnd)
				}
			}
			return nil, &diag.Error{Phase: diag.Load, Code: diag.CodeExportChain, Pos: diag.Pos{Source: ie.src.Path},
				Msg: "the incremental exports of table " + table + " leave " + kind + ": " + prevWhat +
					", but the incremental export " + ie.src.Path + " starts at " + stampOf(ie.from) +
					" (each window must start exactly where the one before ends; " + advice + ")"}
		}
		prevEnd, prevPath, prevWhat = ie.to, ie.src.Path, "the incremental export "+ie.src.Path+" ends at "+stampOf(ie.to)
	}
	c := &chain{table: table, fullPath: fullPath, fullTime: t0, incr: incr, used: len(incr), asOf: asOf}
	if !asOf.IsZero() {
		if asOf.Before(t0) {
			return nil, &diag.Error{Phase: diag.Load, Code: diag.CodeAsOf, Pos: diag.Pos{Source: fullPath},
				Msg: "--as-of " + stampOf(asOf) + " is before the full export of table " + table + " (exportTime " + stampOf(t0) + "): the exports show the table from then on"}
		}
		c.used = 0
		for c.used < len(incr) && !incr[c.used].to.After(asOf) {
			c.used++
		}
	}
	keys := []keyAttr{{Name: "export_id", Type: "S"}, {Name: "seq", Type: "N"}}
	c.changes = &tableSpec{name: table + ChangesSuffix, from: incr[0].src.Path, keys: keys, keysFrom: "the change table"}
	return c, nil
}

// planIncremental reads an incremental export's manifests.
func (l *loader) planIncremental(src Source, dir string, sum exportSummary) (*incrExport, error) {
	sp := l.fsys.Join(dir, summaryFile)
	switch sum.OutputFormat {
	case "", "DYNAMODB_JSON":
	default:
		return nil, &diag.Error{Phase: diag.Load, Code: diag.CodeUnknownFormat, Pos: diag.Pos{Source: sp}, Msg: "an incremental export in " + sum.OutputFormat + " format; ddbsql reads exports in DYNAMODB_JSON format"}
	}
	ie := &incrExport{src: src, dir: dir, summaryPath: sp, view: sum.OutputView, arn: sum.TableArn, itemCount: sum.ItemCount}
	if ie.view == "" {
		ie.view = "NEW_AND_OLD_IMAGES" // the API's default
	}
	var err error
	if ie.from, err = summaryTime(sum.ExportFromTime); err != nil {
		return nil, &diag.Error{Phase: diag.Load, Code: diag.CodeManifest, Pos: diag.Pos{Source: sp}, Msg: "an incremental export without a valid exportFromTime (" + quote(sum.ExportFromTime) + ")"}
	}
	if ie.to, err = summaryTime(sum.ExportToTime); err != nil || !ie.to.After(ie.from) {
		return nil, &diag.Error{Phase: diag.Load, Code: diag.CodeManifest, Pos: diag.Pos{Source: sp}, Msg: "an incremental export without a valid exportToTime after its exportFromTime (" + quote(sum.ExportToTime) + ")"}
	}
	ie.id = l.fsys.Base(dir)
	if i := strings.LastIndex(sum.ExportArn, "/export/"); i >= 0 {
		ie.id = sum.ExportArn[i+len("/export/"):]
	}
	if ie.files, err = l.exportFiles(dir); err != nil {
		return nil, err
	}
	return ie, nil
}

// summaryTime parses a manifest's time ("2026-03-01T00:00:00.000Z").
func summaryTime(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	return t.UTC(), err
}

// stampOf renders a boundary as ISO 8601 UTC, with fractions only when it
// has them.
func stampOf(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// expandChains replaces a source folder that holds several exports (an S3
// prefix copied whole: <prefix>/AWSDynamoDB/<id>/ for each) of which some
// are incremental by one source per export, with the folder's name= and
// --key; any other source stays as it is.
func (l *loader) expandChains(sources []Source) []Source {
	var out []Source
	for _, src := range sources {
		st, err := l.fsys.Stat(src.Path)
		if err != nil || !st.IsDir() || hasManifest(l.fsys, src.Path) {
			out = append(out, src)
			continue
		}
		dirs := exportsBelow(l.fsys, src.Path)
		incremental := false
		for _, d := range dirs {
			if sum, _, ok := l.peekSummary(d); ok && sum.ExportType == "INCREMENTAL_EXPORT" {
				incremental = true
			}
		}
		if len(dirs) < 2 || !incremental {
			out = append(out, src)
			continue
		}
		for _, d := range dirs {
			one := src
			one.Path = d
			out = append(out, one)
		}
	}
	return out
}
