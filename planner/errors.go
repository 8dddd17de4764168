package planner

import "fmt"

// Error codes. Tests and callers match on these; keep them stable.
const (
	CodeUnknownTable    = "unknown_table"
	CodeUnknownIndex    = "unknown_index"
	CodeUnknownColumn   = "unknown_column"
	CodeKeyType         = "key_type"
	CodeScanNotAllowed  = "scan_not_allowed"
	CodeConsistentIndex = "consistent_gsi"
	CodeUnsupported     = "unsupported"
	CodeInvalid         = "invalid"
	CodeAggregate       = "aggregate"
	CodeUnknownFunction = "unknown_function"
	CodeArguments       = "arguments"
	CodeAmbiguous       = "ambiguous_column"
	CodeSelfJoin        = "self_join"
	CodeJoin            = "join"
	CodeLimit           = "limit"
	CodeCatalog         = "catalog"
	CodeStrict          = "strict"
	CodeBudget          = "budget"
	// CodeSparseIndexHint: USE/FORCE INDEX names a sparse index that may
	// not hold every item the statement matches.
	CodeSparseIndexHint = "sparse_index_hint"
)

// Error is a planning error: the statement cannot run as written.
type Error struct {
	Code string
	Msg  string
	Hint string
	// Scan describes the read a scan_not_allowed error refused, so an
	// interactive caller can ask the user and plan again with AllowScan.
	Scan *ScanEstimate
	// Notes are the parts of Hint that hold whatever the caller does next
	// (a double-quoted name that may be meant as a string): a caller that
	// asks the user whether to Scan shows them with its question.
	Notes []string
}

// ScanEstimate is what DescribeTable says a Scan would read.
type ScanEstimate struct {
	Table     string
	Index     string
	ItemCount int64
	SizeBytes int64
	// Unknown, when set, is why the figures give no estimate: what
	// DescribeTable reports ("0 items", "0 bytes for 12 items") for a new or
	// freshly loaded table, whose counts lag by up to six hours.
	Unknown string
}

// UnknownReason explains an unknown Scan cost ("" when it is known):
// "DescribeTable reports 0 items; counts lag by up to six hours".
func (s ScanEstimate) UnknownReason() string {
	if s.Unknown == "" {
		return ""
	}
	return "DescribeTable reports " + s.Unknown + "; " + countsLag
}

func (e *Error) Error() string {
	if e.Hint == "" {
		return e.Msg
	}
	return e.Msg + "\n" + e.Hint
}

func errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

func (e *Error) withHint(format string, args ...any) *Error {
	e.Hint = fmt.Sprintf(format, args...)
	return e
}
