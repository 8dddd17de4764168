package offline

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// kind is a source format.
type kind int

const (
	kindExport    kind = iota + 1 // a DynamoDB export to S3, copied locally
	kindLines                     // DynamoDB-JSON items, one per line
	kindArray                     // a JSON array of DynamoDB-JSON items
	kindStream                    // DynamoDB-JSON items one after another, pretty-printed
	kindWorkbench                 // a NoSQL Workbench data model
)

const (
	summaryFile = "manifest-summary.json"
	filesFile   = "manifest-files.json"
)

// formats lists what Load reads, for "unknown format" messages.
const formats = "expected a DynamoDB export folder (with " + summaryFile + "), a file of DynamoDB-JSON items (one per line, or a JSON array), or a NoSQL Workbench model"

// detect decides the format of a source path. For an export it returns the
// export's directory.
func detect(fsys fileSystem, p string) (kind, string, error) {
	st, err := fsys.Stat(p)
	if err != nil {
		return 0, "", &diag.Error{Phase: diag.Load, Code: diag.CodeIO, Pos: diag.Pos{Source: p}, Msg: "cannot read: " + ioReason(err), Cause: err}
	}
	if st.IsDir() {
		dir, err := findExport(fsys, p)
		return kindExport, dir, err
	}
	if base := fsys.Base(p); base == summaryFile || base == filesFile {
		return kindExport, fsys.Dir(p), nil
	}
	return sniff(fsys, p)
}

// sniff looks at a file's first bytes (after gunzip) and, for a JSON
// object, at its top-level attribute names.
func sniff(fsys fileSystem, p string) (kind, string, error) {
	d, err := openData(fsys, p)
	if err != nil {
		return 0, "", err
	}
	defer d.Close()
	// Room for any first line of a JSON-lines file (an item is at most
	// 400 KB, a little more as DynamoDB JSON).
	br := bufio.NewReaderSize(d, 2<<20)
	first, err := firstByte(br)
	if err == io.EOF {
		return kindLines, p, nil // empty: no items
	}
	if err != nil {
		return 0, "", d.readError(0, err)
	}
	switch first {
	case '[':
		return kindArray, p, nil
	case '{':
	case '$':
		return 0, "", &diag.Error{Phase: diag.Load, Code: diag.CodeUnknownFormat, Pos: diag.Pos{Source: p}, Msg: "this looks like an Amazon Ion export; ddbsql reads exports in DYNAMODB_JSON format"}
	default:
		return 0, "", &diag.Error{Phase: diag.Load, Code: diag.CodeUnknownFormat, Pos: diag.Pos{Source: p}, Msg: "unknown format: the file is not JSON (it starts with " + quoteByte(first) + "); " + formats}
	}
	line, err := br.ReadSlice('\n')
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return 0, "", d.readError(0, err)
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(line, &top) == nil {
		if k, ok := classifyObject(top); ok {
			return k, exportDirFor(fsys, k, p), nil
		}
		return kindLines, p, nil
	}
	// The first object spans several lines: a model, a manifest, or
	// pretty-printed items. Decode just the first value.
	firstLine := bytes.Clone(line) // line is only valid until br is read again
	more, _ := br.Peek(br.Buffered())
	head := append(bytes.Clone(firstLine), more...)
	rest := io.MultiReader(bytes.NewReader(firstLine), br)
	if json.NewDecoder(rest).Decode(&top) == nil {
		if k, ok := classifyObject(top); ok {
			return k, exportDirFor(fsys, k, p), nil
		}
		return kindStream, p, nil
	}
	// Invalid JSON: recognise a model or manifest by its first attribute
	// names, so that its own loader reports the error with its position.
	for _, m := range []struct {
		marker string
		k      kind
	}{{`"ModelName"`, kindWorkbench}, {`"DataModel"`, kindWorkbench}, {`"exportArn"`, kindExport}} {
		if bytes.Contains(head, []byte(m.marker)) {
			return m.k, exportDirFor(fsys, m.k, p), nil
		}
	}
	return kindStream, p, nil // decoding reports the syntax error with its line
}

// classifyObject recognises a Workbench model or an export manifest by its
// top-level attributes.
func classifyObject(top map[string]json.RawMessage) (kind, bool) {
	switch {
	case top["DataModel"] != nil:
		return kindWorkbench, true
	case top["exportArn"] != nil, top["manifestFilesS3Key"] != nil, top["dataFileS3Key"] != nil:
		return kindExport, true
	}
	return 0, false
}

func exportDirFor(fsys fileSystem, k kind, p string) string {
	if k == kindExport {
		return fsys.Dir(p)
	}
	return p
}

func firstByte(br *bufio.Reader) (byte, error) {
	bom := true
	for {
		c, err := br.ReadByte()
		if err != nil {
			return 0, err
		}
		if bom && c == utf8BOM[0] {
			if next, err := br.Peek(2); err == nil && next[0] == utf8BOM[1] && next[1] == utf8BOM[2] {
				br.Discard(2)
				continue
			}
		}
		bom = false
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return c, br.UnreadByte()
	}
}

func quoteByte(c byte) string { return fmt.Sprintf("%q", rune(c)) }

// findExport finds the export in dir: dir itself when it holds a manifest,
// else the one export below it (…/AWSDynamoDB/<export id>/).
func findExport(fsys fileSystem, dir string) (string, error) {
	if hasManifest(fsys, dir) {
		return dir, nil
	}
	found := exportsBelow(fsys, dir)
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		msg := "unknown format: a directory without " + summaryFile + " or " + filesFile + "; " + formats
		if st, err := fsys.Stat(fsys.Join(dir, "data")); err == nil && st.IsDir() {
			msg += " (to load an export's data files without their manifests, pass each file with --data and give --key)"
		}
		return "", &diag.Error{Phase: diag.Load, Code: diag.CodeUnknownFormat, Pos: diag.Pos{Source: dir}, Msg: msg}
	}
	return "", &diag.Error{Phase: diag.Load, Code: diag.CodeUnknownFormat, Pos: diag.Pos{Source: dir}, Msg: "the directory holds " + strconv.Itoa(len(found)) + " exports (" + strings.Join(found, ", ") + "); pass one of them"}
}

// exportsBelow finds the export folders one or two levels below dir
// (…/AWSDynamoDB/<export id>/), in name order.
func exportsBelow(fsys fileSystem, dir string) []string {
	var found []string
	var walk func(d string, depth int)
	walk = func(d string, depth int) {
		entries, err := fsys.ReadDir(d)
		if err != nil {
			return
		}
		for _, e := range entries {
			if !e.IsDir() {
				continue
			}
			sub := fsys.Join(d, e.Name())
			if hasManifest(fsys, sub) {
				found = append(found, sub)
			} else if depth < 2 {
				walk(sub, depth+1)
			}
		}
	}
	walk(dir, 1)
	sort.Strings(found)
	return found
}

func hasManifest(fsys fileSystem, dir string) bool {
	for _, name := range []string{summaryFile, filesFile} {
		if st, err := fsys.Stat(fsys.Join(dir, name)); err == nil && !st.IsDir() {
			return true
		}
	}
	return false
}
