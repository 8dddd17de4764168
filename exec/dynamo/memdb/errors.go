package memdb

import (
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/ddbsql/ddbsql/planner/ddblimits"
)

// Errors are shaped the way the SDK surfaces DynamoDB's: an
// *smithy.OperationError wrapping the service error, so callers use
// errors.As with *types.ResourceNotFoundException or smithy.APIError
// (ErrorCode "ValidationException") exactly as against the real service.

// ErrReadOnly is returned (wrapped) by writes to a read-only DB.
var ErrReadOnly = errors.New("memdb: the database is read-only (loaded data cannot be modified)")

// validationError is DynamoDB's ValidationException with its message.
func validationError(msg string) error {
	return &smithy.GenericAPIError{Code: "ValidationException", Message: msg, Fault: smithy.FaultClient}
}

func validationErrorf(format string, args ...any) error {
	return validationError(fmt.Sprintf(format, args...))
}

// lookup says which kind of operation looks a table up, for the text of
// ResourceNotFoundException.
type lookup int

const (
	// dataLookup: item operations (GetItem, Query, PutItem, ...), whose
	// message does not name the table.
	dataLookup lookup = iota
	// controlLookup: DescribeTable, DeleteTable and the per-table
	// settings, whose message names it.
	controlLookup
)

// notFound is ResourceNotFoundException, in the words of the lookup.
func notFound(table string, by lookup) error {
	msg := "Requested resource not found"
	if by == controlLookup {
		msg += ": Table: " + table + " not found"
	}
	return &types.ResourceNotFoundException{Message: aws.String(msg)}
}

func inUse(table string) error {
	return &types.ResourceInUseException{Message: aws.String("Table already exists: " + table)}
}

func conditionFailed() error {
	return &types.ConditionalCheckFailedException{Message: aws.String("The conditional request failed")}
}

func missingParam(input, field string) error {
	e := smithy.InvalidParamsError{Context: input}
	e.Add(smithy.NewErrParamRequired(field))
	return &e
}

// wrapOp wraps a service error as the SDK does for operation op.
func wrapOp(op string, err error) error {
	if err == nil {
		return nil
	}
	var oe *smithy.OperationError
	if errors.As(err, &oe) {
		return err
	}
	return &smithy.OperationError{ServiceID: "DynamoDB", OperationName: op, Err: err}
}

// constraintErrors collects DynamoDB's request-shape violations
// ("1 validation error detected: Value '0' at 'limit' failed to satisfy
// constraint: Member must have value greater than or equal to 1").
type constraintErrors []string

func (c *constraintErrors) add(val any, field, constraint string) {
	*c = append(*c, fmt.Sprintf("Value '%v' at '%s' failed to satisfy constraint: %s", val, field, constraint))
}

func (c constraintErrors) err() error {
	if len(c) == 0 {
		return nil
	}
	noun := "error"
	if len(c) > 1 {
		noun = "errors"
	}
	msg := fmt.Sprintf("%d validation %s detected: ", len(c), noun)
	for i, s := range c {
		if i > 0 {
			msg += "; "
		}
		msg += s
	}
	return validationError(msg)
}

// checkTableName validates a table (or index) name's shape.
func (c *constraintErrors) checkName(name, field string) {
	if len(name) < ddblimits.TableNameMinLength {
		c.add(name, field, "Member must have length greater than or equal to 3")
	}
	if len(name) > ddblimits.TableNameMaxLength {
		c.add(name, field, "Member must have length less than or equal to 255")
	}
	for i := 0; i < len(name); i++ {
		ch := name[i]
		if !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '_' || ch == '.' || ch == '-') {
			c.add(name, field, "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+")
			break
		}
	}
}

// apiMessage is the message of a service error.
func apiMessage(err error) string {
	var ae smithy.APIError
	if errors.As(err, &ae) {
		return ae.ErrorMessage()
	}
	return err.Error()
}
