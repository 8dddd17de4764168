package planner

import (
	"errors"
	"fmt"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// ScanNeeded is the cause of a scan_not_allowed error: the read the
// statement needs and was refused, so an interactive caller can ask the
// user and plan again with AllowScan. Find it with errors.As.
type ScanNeeded struct {
	Estimate ScanEstimate
	// Notes are the parts of the error's hint that hold whatever the
	// caller does next (a double-quoted name that may be meant as a
	// string): a caller that asks the user whether to Scan shows them with
	// its question.
	Notes []string
}

func (s *ScanNeeded) Error() string {
	if s.Estimate.Index != "" {
		return "a Scan of index " + s.Estimate.Index + " of table " + s.Estimate.Table + " is not allowed"
	}
	return "a Scan of table " + s.Estimate.Table + " is not allowed"
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

// errorf makes a planning error: the statement cannot run as written.
func errorf(code diag.Code, format string, args ...any) *diag.Error {
	return &diag.Error{Phase: diag.Plan, Code: code, Msg: fmt.Sprintf(format, args...)}
}

// asPlanError is errors.As for an error of the plan phase: other errors
// (a catalog's DynamoDB failure) pass through the planner unchanged.
func asPlanError(err error, target **diag.Error) bool {
	return errors.As(err, target) && (*target).Phase == diag.Plan
}
