package offline

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// maxLine bounds one line of a DynamoDB-JSON lines file (an item is at
// most 400 KB; its JSON with base64 and escapes stays far below this).
const maxLine = 16 << 20

var utf8BOM = []byte{0xef, 0xbb, 0xbf}

// produceLines cuts a JSON-lines file into items, one per non-blank line.
// A read error (truncated gzip) drops the incomplete last line and is
// reported after the complete ones. (bufio.Scanner would hand that
// fragment over as a last line.)
func produceLines(d *dataFile) produceFunc {
	return func(ctx context.Context, emit func(rawItem) error) error {
		br := bufio.NewReaderSize(d, 256<<10)
		line := 0
		var long []byte
		for {
			frag, err := br.ReadSlice('\n')
			if errors.Is(err, bufio.ErrBufferFull) {
				if len(long)+len(frag) > maxLine {
					return &diag.Error{Phase: diag.Load, Code: diag.CodeBadJSON, Pos: diag.Pos{Source: d.path, Line: line + 1}, Msg: "line is longer than 16 MiB: not a DynamoDB-JSON item per line"}
				}
				long = append(long, frag...)
				continue
			}
			if err != nil && err != io.EOF {
				return d.readError(line, err)
			}
			b := frag
			if long != nil {
				b, long = append(long, frag...), nil
			}
			if len(b) > 0 {
				line++
				b = bytes.TrimSuffix(bytes.TrimSuffix(b, []byte{'\n'}), []byte{'\r'})
				col := 1
				if line == 1 && bytes.HasPrefix(b, utf8BOM) {
					b, col = b[len(utf8BOM):], 1+len(utf8BOM)
				}
				if len(bytes.TrimSpace(b)) > 0 {
					if err := emit(rawItem{data: bytes.Clone(b), line: line, col: col}); err != nil {
						return err
					}
				}
			}
			if err == io.EOF {
				return nil
			}
		}
	}
}

// lineCounter maps byte offsets of a document to lines, moving forward.
type lineCounter struct {
	data      []byte
	off, line int
	lineStart int
}

func newLineCounter(data []byte) *lineCounter { return &lineCounter{data: data, line: 1} }

// at returns the line and column of offset (not before the last offset asked).
func (lc *lineCounter) at(offset int) (line, col int) {
	offset = min(max(offset, lc.off), len(lc.data))
	for i := lc.off; i < offset; i++ {
		if lc.data[i] == '\n' {
			lc.line++
			lc.lineStart = i + 1
		}
	}
	lc.off = offset
	return lc.line, offset - lc.lineStart + 1
}

// skipSpace returns the offset of the first byte at or after off that is
// not JSON whitespace or a comma.
func skipSpace(data []byte, off int) int {
	for off < len(data) {
		switch data[off] {
		case ' ', '\t', '\r', '\n', ',':
			off++
		default:
			return off
		}
	}
	return off
}

// produceJSON cuts a document held in memory into items: the elements of
// a top-level JSON array (array) or a sequence of JSON objects, such as
// pretty-printed items one after another.
func produceJSON(path string, data []byte, array bool) produceFunc {
	return func(ctx context.Context, emit func(rawItem) error) error {
		body := data
		start := 0
		if bytes.HasPrefix(body, utf8BOM) {
			start = len(utf8BOM)
		}
		dec := json.NewDecoder(bytes.NewReader(body[start:]))
		lc := newLineCounter(body)
		fail := func(err error) error {
			e := &diag.Error{Phase: diag.Load, Code: diag.CodeBadJSON, Pos: diag.Pos{Source: path}, Msg: "invalid JSON: " + err.Error(), Cause: err}
			var se *json.SyntaxError
			if errors.As(err, &se) {
				e.Pos.Line, e.Pos.Column = lc.at(start + int(se.Offset)) // a Decoder reports the offending byte's offset
			} else if errors.Is(err, io.ErrUnexpectedEOF) {
				e.Pos.Line, e.Pos.Column = lc.at(len(body))
				e.Msg = "invalid JSON: the document ends in the middle of a value"
			}
			return e
		}
		if array {
			if _, err := dec.Token(); err != nil { // '[', checked by detection
				return fail(err)
			}
		}
		for dec.More() {
			off := skipSpace(body, start+int(dec.InputOffset()))
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return fail(err)
			}
			line, col := lc.at(off)
			if err := emit(rawItem{data: raw, line: line, col: col}); err != nil {
				return err
			}
		}
		what := "the items"
		if array {
			if _, err := dec.Token(); err != nil { // ']'
				return fail(err)
			}
			what = "the array"
		}
		if off := skipSpace(body, start+int(dec.InputOffset())); off < len(body) {
			line, col := lc.at(off)
			return &diag.Error{Phase: diag.Load, Code: diag.CodeBadJSON, Pos: diag.Pos{Source: path, Line: line, Column: col},
				Msg: "invalid JSON: unexpected " + quoteByte(body[off]) + " after " + what}
		}
		return nil
	}
}
