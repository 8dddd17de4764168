package dynamo

import "github.com/ddbsql/ddbsql/parser/diag"

// configError is a connection setting Connect cannot use, as a connect-phase
// error: code says which problem it is (diag.CodeEndpoint, CodeRegion,
// CodeProfile or CodeConfig), msg names the setting and where it came from
// (flag or environment variable).
func configError(code diag.Code, msg, hint string, cause error) *diag.Error {
	return &diag.Error{Phase: diag.Connect, Code: code, Msg: msg, Hint: hint, Cause: cause}
}
