package offline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"reflect"
	"strings"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/plural"
)

// exportSummary is manifest-summary.json of an ExportTableToPointInTime.
type exportSummary struct {
	ExportArn          string `json:"exportArn"`
	TableArn           string `json:"tableArn"`
	ManifestFilesS3Key string `json:"manifestFilesS3Key"`
	ItemCount          *int64 `json:"itemCount"`
	OutputFormat       string `json:"outputFormat"`
	ExportType         string `json:"exportType"`
	// A full export's point in time; an incremental export's window
	// [ExportFromTime, ExportToTime) and view type.
	ExportTime     string `json:"exportTime"`
	ExportFromTime string `json:"exportFromTime"`
	ExportToTime   string `json:"exportToTime"`
	OutputView     string `json:"outputView"`
}

// exportFile is one line of manifest-files.json.
type exportFile struct {
	ItemCount     *int64 `json:"itemCount"`
	DataFileS3Key string `json:"dataFileS3Key"`
	line          int
}

// loadExport loads a DynamoDB export to S3 laid out locally in dir:
// manifest-summary.json (optional), manifest-files.json and the data files
// it lists (data/*.json.gz, DYNAMODB_JSON lines {"Item": {…}}).
func (l *loader) loadExport(src Source, dir string, keys []keyAttr, c *chain) error {
	ps, err := l.planExport(src, dir, keys)
	if err != nil {
		return err
	}
	if err := l.claim(ps.spec.name, src.Path); err != nil {
		return err
	}
	if c != nil {
		if err := l.claimChanges(c); err != nil {
			return err
		}
		ps.chain = c
	}
	s := l.sink(ps.spec)
	if err := l.run(ps, s); err != nil {
		return err
	}
	return l.done(s)
}

// planExport reads an export's manifests: the table's name, its key
// schema (from --key) and its data files, reading no item.
func (l *loader) planExport(src Source, dir string, keys []keyAttr) (*plannedSource, error) {
	ps := &plannedSource{src: src, kind: kindExport, dir: dir, summaryPath: l.fsys.Join(dir, summaryFile)}
	sum := &ps.sum
	hasSummary := false
	if st, err := l.fsys.Stat(ps.summaryPath); err == nil && !st.IsDir() {
		data, err := readAll(l.fsys, ps.summaryPath)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(data, sum); err != nil {
			return nil, jsonError(diag.CodeManifest, ps.summaryPath, data, err)
		}
		hasSummary = true
		if err := checkSummary(ps.summaryPath, *sum); err != nil {
			return nil, err
		}
	}
	name := src.Table
	if name == "" {
		name = tableFromArn(sum.TableArn)
	}
	if name == "" {
		name = tableFromArn(sum.ExportArn)
	}
	where := l.fsys.Join(dir, filesFile)
	if hasSummary {
		where = ps.summaryPath
	}
	if name == "" {
		return nil, &diag.Error{Phase: diag.Load, Code: diag.CodeManifest, Pos: diag.Pos{Source: where}, Msg: "no table name: the export names no table (tableArn); pass name=PATH"}
	}
	if len(keys) == 0 {
		return nil, &diag.Error{Phase: diag.Load, Code: diag.CodeNoKeySchema, Pos: diag.Pos{Source: where}, Msg: "no key schema in " + l.fsys.Base(where) + ": a DynamoDB export does not record the table's key attributes; pass --key PK[,SK]"}
	}
	files, err := l.exportFiles(dir)
	if err != nil {
		return nil, err
	}
	ps.files = files
	ps.spec = &tableSpec{name: name, from: src.Path, keys: keys, keysFrom: "--key"}
	return ps, nil
}

// runExport adds the export's items to s, data file by data file, and
// checks the item counts the manifests give.
func (l *loader) runExport(ps *plannedSource, s *sink) error {
	sum := ps.sum
	if sum.ItemCount != nil && *sum.ItemCount > 0 && *sum.ItemCount < 1<<28 {
		s.reserve(int(*sum.ItemCount))
	}
	total := 0
	for _, f := range ps.files {
		n, err := l.loadDataFile(ps.dir, f, s)
		if err != nil {
			return err
		}
		total += n
	}
	if sum.ItemCount != nil && int64(total) != *sum.ItemCount {
		return &diag.Error{Phase: diag.Load, Code: diag.CodeManifest, Pos: diag.Pos{Source: ps.summaryPath}, Msg: fmt.Sprintf("the export has %s, but itemCount says %d (is a data file missing from manifest-files.json?)", plural.Of(total, "item"), *sum.ItemCount)}
	}
	return nil
}

func checkSummary(p string, sum exportSummary) error {
	switch sum.OutputFormat {
	case "", "DYNAMODB_JSON":
	case "ION":
		return &diag.Error{Phase: diag.Load, Code: diag.CodeUnknownFormat, Pos: diag.Pos{Source: p}, Msg: "an export in Amazon Ion format; ddbsql reads exports in DYNAMODB_JSON format"}
	default:
		return &diag.Error{Phase: diag.Load, Code: diag.CodeUnknownFormat, Pos: diag.Pos{Source: p}, Msg: "unknown export outputFormat " + quote(sum.OutputFormat) + "; ddbsql reads DYNAMODB_JSON"}
	}
	if sum.ExportType == "INCREMENTAL_EXPORT" {
		return &diag.Error{Phase: diag.Load, Code: diag.CodeUnknownFormat, Pos: diag.Pos{Source: p}, Msg: "an incremental export holds changes, not a table's items; load a full export"}
	}
	return nil
}

// exportFiles reads manifest-files.json (JSON lines).
func (l *loader) exportFiles(dir string) ([]exportFile, error) {
	p := l.fsys.Join(dir, filesFile)
	data, err := readAll(l.fsys, p)
	if err != nil {
		return nil, err
	}
	var files []exportFile
	for i, line := range bytes.Split(data, []byte{'\n'}) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var f exportFile
		if err := json.Unmarshal(line, &f); err != nil {
			e := jsonError(diag.CodeManifest, p, line, err)
			e.Pos.Line += i
			return nil, e
		}
		if f.DataFileS3Key == "" {
			return nil, &diag.Error{Phase: diag.Load, Code: diag.CodeManifest, Pos: diag.Pos{Source: p, Line: i + 1}, Msg: "no dataFileS3Key"}
		}
		f.line = i + 1
		files = append(files, f)
	}
	return files, nil
}

// loadDataFile loads one data file of an export and checks its item count.
func (l *loader) loadDataFile(dir string, f exportFile, s *sink) (int, error) {
	p, ok := l.dataPath(dir, f.DataFileS3Key)
	if !ok {
		return 0, &diag.Error{Phase: diag.Load, Code: diag.CodeManifest, Pos: diag.Pos{Source: l.fsys.Join(dir, filesFile), Line: f.line},
			Msg: "data file " + quote(f.DataFileS3Key) + " is not in " + l.fsys.Join(dir, "data") + " (copy the export's data/ folder next to its manifests)"}
	}
	d, err := openData(l.data, p)
	if err != nil {
		return 0, err
	}
	defer d.Close()
	n, err := pump(l.ctx, p, s, itemParser{unwrap: true, need: l.need}, produceLines(d))
	if err != nil {
		return n, err
	}
	if f.ItemCount != nil && int64(n) != *f.ItemCount {
		return n, &diag.Error{Phase: diag.Load, Code: diag.CodeManifest, Pos: diag.Pos{Source: p}, Msg: fmt.Sprintf("has %s, but %s line %d says %d (was the file copied completely?)", plural.Of(n, "item"), filesFile, f.line, *f.ItemCount)}
	}
	return n, nil
}

// dataPath finds an export data file locally: the key's part after
// "data/" under dir/data, or its base name in dir/data or dir.
func (l *loader) dataPath(dir, key string) (string, bool) {
	rel := path.Base(key)
	if i := strings.LastIndex(key, "/data/"); i >= 0 {
		rel = key[i+len("/data/"):]
	} else if strings.HasPrefix(key, "data/") {
		rel = key[len("data/"):]
	}
	for _, c := range []string{l.fsys.Join(dir, "data", rel), l.fsys.Join(dir, "data", path.Base(key)), l.fsys.Join(dir, path.Base(key))} {
		if st, err := l.fsys.Stat(c); err == nil && !st.IsDir() {
			return c, true
		}
	}
	return "", false
}

// tableFromArn takes the table name from "arn:…:table/NAME[/export/…]".
func tableFromArn(arn string) string {
	_, rest, ok := strings.Cut(arn, ":table/")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(rest, "/")
	return name
}

// jsonError locates a JSON decoding error in data.
func jsonError(code diag.Code, p string, data []byte, err error) *diag.Error {
	e := &diag.Error{Phase: diag.Load, Code: code, Pos: diag.Pos{Source: p}, Msg: "invalid JSON: " + err.Error(), Cause: err}
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		e.Pos.Line, e.Pos.Column = locate(data, int(se.Offset), 1, 1)
	case errors.As(err, &te):
		e.Pos.Line, _ = locate(data, int(te.Offset), 1, 1) // Offset is past the value: no column
		e.Msg = fmt.Sprintf("%s is a JSON %s, expected %s", fieldName(te), te.Value, jsonTypeName(te.Type))
	}
	return e
}

func fieldName(te *json.UnmarshalTypeError) string {
	if te.Field == "" {
		return "the document"
	}
	return te.Field
}

func jsonTypeName(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	}
	return "a number"
}
