package offline

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/aws/smithy-go"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// errorf builds a load error without a location.
func errorf(code diag.Code, format string, args ...any) *diag.Error {
	return &diag.Error{Phase: diag.Load, Code: code, Msg: fmt.Sprintf(format, args...)}
}

// at builds a load error located at path:line; it reads
// "path[:line[:col]]: message".
func at(code diag.Code, p pos, format string, args ...any) *diag.Error {
	return &diag.Error{Phase: diag.Load, Code: code, Pos: diag.Pos{Source: p.path, Line: p.line}, Msg: fmt.Sprintf(format, args...)}
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
