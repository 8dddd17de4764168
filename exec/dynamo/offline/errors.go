package offline

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/aws/smithy-go"
)

// Error codes. Tests and callers match on these; keep them stable.
const (
	CodeUnknownFormat = "unknown_format" // not a format Load reads
	CodeIO            = "io"             // the file cannot be opened or read
	CodeTruncated     = "truncated"      // gzip data ends early or is corrupt
	CodeBadJSON       = "bad_json"       // a line or value is not valid JSON
	CodeBadItem       = "bad_item"       // valid JSON that is not a valid DynamoDB item
	CodeNoKeySchema   = "no_key_schema"  // the source has no key schema and --key was not given
	CodeBadKeyFlag    = "bad_key_flag"   // --key is malformed
	CodeKeyMismatch   = "key_mismatch"   // --key disagrees with the source's own key schema
	CodeMissingKey    = "missing_key"    // an item lacks a key attribute
	CodeKeyType       = "key_type"       // a key attribute has the wrong type
	CodeDuplicateKey  = "duplicate_key"  // two items share a primary key
	CodeManifest      = "manifest"       // an export's manifest is invalid or disagrees with its data
	CodeBadModel      = "bad_model"      // a NoSQL Workbench model is invalid
	CodeTableExists   = "table_exists"   // the table name is already taken
	CodeBadName       = "bad_table_name" // the table name is not valid in DynamoDB
)

// Error is a load failure, located in a file (and line) where it has one.
// Its text is "path[:line[:col]]: message".
type Error struct {
	Code string
	Path string // the file; "" when the error concerns no single file
	Line int    // 1-based line, 0 when not known
	Col  int    // 1-based column (bytes), 0 when not known
	Msg  string
	Err  error // the underlying cause, if any
}

func (e *Error) Error() string {
	loc := e.Path
	if e.Line > 0 {
		loc += ":" + strconv.Itoa(e.Line)
		if e.Col > 0 {
			loc += ":" + strconv.Itoa(e.Col)
		}
	}
	if loc == "" {
		return e.Msg
	}
	return loc + ": " + e.Msg
}

func (e *Error) Unwrap() error { return e.Err }

// errorf builds an Error without a location.
func errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// at builds an Error located at path:line.
func at(code string, p pos, format string, args ...any) *Error {
	return &Error{Code: code, Path: p.path, Line: p.line, Msg: fmt.Sprintf(format, args...)}
}

// pos locates an item: its file and the line it starts on (0 if unknown).
type pos struct {
	path string
	line int
}

func (p pos) String() string {
	if p.line > 0 {
		return p.path + ":" + strconv.Itoa(p.line)
	}
	return p.path
}

// apiMessage is a DynamoDB error's own message (memdb returns them wrapped
// the way the SDK does), or the error text.
func apiMessage(err error) string {
	var ae smithy.APIError
	if errors.As(err, &ae) {
		return ae.ErrorMessage()
	}
	return err.Error()
}
