package bulkload

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/ddblimits"
	"github.com/ddbsql/ddbsql/planner/value"
)

// isCSV reports whether path names a CSV (or TSV) file, gzipped or not.
func isCSV(path string) bool {
	p := strings.ToLower(strings.TrimSuffix(strings.ToLower(path), ".gz"))
	return strings.HasSuffix(p, ".csv") || strings.HasSuffix(p, ".tsv")
}

// column is one CSV column: its attribute name and declared type ("":
// inferred per cell).
type column struct {
	name string
	typ  string // S, N, B, BOOL, JSON or ""
}

// headerType matches a typed header cell: "price:N" or "price (N)", the
// latter as the DynamoDB console writes its CSV downloads.
var headerType = regexp.MustCompile(`^(.+?)(?::| \()(S|N|B|BOOL|JSON|SS|NS|BS|L|M|NULL)\)?$`)

// parseHeader reads the header's columns.
func parseHeader(rec []string, path string, keys []keyAttr) ([]column, error) {
	cols := make([]column, len(rec))
	seen := map[string]bool{}
	for i, h := range rec {
		if i == 0 {
			h = strings.TrimPrefix(h, "\ufeff")
		}
		h = strings.TrimSpace(h)
		c := column{name: h}
		if m := headerType.FindStringSubmatch(h); m != nil && (strings.HasSuffix(h, ")") == strings.Contains(h, " (")) {
			c.name, c.typ = m[1], m[2]
			switch c.typ {
			case "SS", "NS", "BS", "L", "M", "NULL":
				c.typ = "JSON" // written as DynamoDB JSON in the cell
			}
		}
		if c.name == "" {
			return nil, csvError(diag.CodeBadItem, path, 1, "column %d of the header has no name", i+1)
		}
		if seen[c.name] {
			return nil, csvError(diag.CodeBadItem, path, 1, "the header names column %s twice", c.name)
		}
		seen[c.name] = true
		cols[i] = c
	}
	for _, k := range keys {
		i := indexOf(cols, k.Name)
		if i < 0 {
			return nil, csvError(diag.CodeMissingKey, path, 1, "the header has no column %s, a key attribute of the table", k.Name)
		}
		if cols[i].typ != "" && cols[i].typ != string(k.Type) {
			return nil, csvError(diag.CodeKeyType, path, 1, "column %s is declared %s, but the table's key %s is %s", k.Name, cols[i].typ, k.Name, k.Type)
		}
		cols[i].typ = string(k.Type)
	}
	return cols, nil
}

func indexOf(cols []column, name string) int {
	for i, c := range cols {
		if c.name == name {
			return i
		}
	}
	return -1
}

func csvError(code diag.Code, path string, line int, format string, args ...any) *diag.Error {
	return &diag.Error{Phase: diag.Load, Code: code, Pos: diag.Pos{Source: path, Line: line}, Msg: fmt.Sprintf(format, args...)}
}

// readCSV reads a CSV file with a header, one item per record, calling fn
// with each in file order. Duplicate keys are refused with both lines.
func readCSV(ctx context.Context, path string, keys []keyAttr, fn func(item) error) error {
	f, err := os.Open(path)
	if err != nil {
		return &diag.Error{Phase: diag.Load, Code: diag.CodeIO, Pos: diag.Pos{Source: path}, Msg: "cannot read the file: " + unwrapPath(err).Error(), Cause: err}
	}
	defer f.Close()
	var r io.Reader = bufio.NewReaderSize(f, 1<<20)
	br := r.(*bufio.Reader)
	if magic, _ := br.Peek(2); bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return &diag.Error{Phase: diag.Load, Code: diag.CodeTruncated, Pos: diag.Pos{Source: path}, Msg: "the gzip data is corrupt: " + err.Error()}
		}
		defer zr.Close()
		r = zr
	}
	cr := csv.NewReader(r)
	if strings.HasSuffix(strings.TrimSuffix(strings.ToLower(path), ".gz"), ".tsv") {
		cr.Comma = '\t'
	}
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err == io.EOF {
		return nil // an empty file: no items
	}
	if err != nil {
		return csvReadError(path, err)
	}
	cols, err := parseHeader(header, path, keys)
	if err != nil {
		return err
	}
	cr.FieldsPerRecord = len(cols)
	seen := map[string]int{}
	for n := 0; ; n++ {
		if n%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		rec, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return csvReadError(path, err)
		}
		line, _ := cr.FieldPos(0)
		attrs, err := csvItem(cols, rec, path, line)
		if err != nil {
			return err
		}
		id, text := keyIdentity(keys, attrs)
		if id == "" {
			return csvError(diag.CodeMissingKey, path, line, "the key %s is empty; every item needs its key attributes", missingKey(keys, attrs))
		}
		if first, dup := seen[id]; dup {
			return csvError(diag.CodeDuplicateKey, path, line, "duplicate key %s: the same key is at %s:%d", text, path, first)
		}
		seen[id] = line
		if err := fn(item{Attrs: attrs, Path: path, Line: line}); err != nil {
			return err
		}
	}
}

func csvReadError(path string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return csvError(diag.CodeBadItem, path, pe.Line, "not valid CSV: %v", pe.Err)
	}
	return &diag.Error{Phase: diag.Load, Code: diag.CodeIO, Pos: diag.Pos{Source: path}, Msg: "cannot read the file: " + err.Error(), Cause: err}
}

// plainNumber is a number as CSV files write them: an optional minus,
// digits without a leading zero (007 is a code, not a number), an
// optional fraction and exponent.
var plainNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// csvItem turns one record into an item. An empty cell is no attribute.
func csvItem(cols []column, rec []string, path string, line int) (map[string]types.AttributeValue, error) {
	attrs := make(map[string]types.AttributeValue, len(cols))
	for i, c := range cols {
		cell := rec[i]
		if cell == "" {
			continue
		}
		av, err := csvValue(c, cell)
		if err != nil {
			return nil, csvError(diag.CodeBadItem, path, line, "column %s: %v", c.name, err)
		}
		attrs[c.name] = av
	}
	return attrs, nil
}

func csvValue(c column, cell string) (types.AttributeValue, error) {
	switch c.typ {
	case "S":
		return &types.AttributeValueMemberS{Value: cell}, nil
	case "N":
		n, err := exactNumber(cell)
		if err != nil {
			return nil, err
		}
		return &types.AttributeValueMemberN{Value: n}, nil
	case "B":
		b, err := base64.StdEncoding.DecodeString(cell)
		if err != nil {
			return nil, fmt.Errorf("%q is not base64 (a B column holds base64)", cell)
		}
		return &types.AttributeValueMemberB{Value: b}, nil
	case "BOOL":
		switch strings.ToLower(cell) {
		case "true":
			return &types.AttributeValueMemberBOOL{Value: true}, nil
		case "false":
			return &types.AttributeValueMemberBOOL{Value: false}, nil
		}
		return nil, fmt.Errorf("%q is not true or false", cell)
	case "JSON":
		v, err := value.ParseDynamoJSON([]byte(cell))
		if err != nil {
			return nil, fmt.Errorf("%q is not a DynamoDB-JSON value such as {\"SS\":[\"a\"]}: %v", cell, err)
		}
		return v.AttributeValue(), nil
	}
	// Inferred: a plain number is N, anything else S.
	if plainNumber.MatchString(cell) {
		n, err := exactNumber(cell)
		if err != nil {
			return nil, fmt.Errorf("%v; declare the column %s:S to keep such values as text", err, c.name)
		}
		return &types.AttributeValueMemberN{Value: n}, nil
	}
	return &types.AttributeValueMemberS{Value: cell}, nil
}

// exactNumber checks a number against DynamoDB's range and 38 digits and
// returns it in canonical form, exactly (never through a float).
func exactNumber(cell string) (string, error) {
	n, err := value.CanonicalNumber(cell)
	if err != nil {
		return "", err
	}
	_, digits, _, ok := value.NumberParts(n)
	if ok && len(digits) > ddblimits.NumberDigits {
		return "", fmt.Errorf("%s has %d significant digits; DynamoDB numbers hold at most %d", cell, len(digits), ddblimits.NumberDigits)
	}
	return n, nil
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// missingKey names the first key attribute attrs lacks.
func missingKey(keys []keyAttr, attrs map[string]types.AttributeValue) string {
	for _, k := range keys {
		if attrs[k.Name] == nil {
			return k.Name
		}
	}
	return keyNames(keys)[0]
}
