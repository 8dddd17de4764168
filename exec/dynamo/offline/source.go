package offline

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/ddblimits"
)

// Source is one --data argument: a path to load, with an optional table
// name (from name=PATH) and key schema (from --key PK[,SK]).
type Source struct {
	Path  string
	Table string // optional: the table name, overriding the file's
	// Keys is the key schema, partition key first: "PK" or "PK:S", then
	// optionally the sort key "SK" or "SK:N". A key without a type takes
	// the type of the first item's attribute. Required for sources that
	// carry no key schema (exports, item files); checked against the
	// schema of sources that do (Workbench models).
	Keys []string
}

// LoadedTable describes a table Load created.
type LoadedTable struct {
	Name  string
	Items int
	From  string // the source path it was loaded from
}

// ParseDataFlag splits a --data argument: "PATH" or "name=PATH". A name is
// recognised only when the text before "=" is a valid DynamoDB table name
// (3–255 of a-z A-Z 0-9 _ - .), so paths containing "=" still work.
func ParseDataFlag(arg string) Source {
	if i := strings.IndexByte(arg, '='); i > 0 && ValidTableName(arg[:i]) {
		return Source{Table: arg[:i], Path: arg[i+1:]}
	}
	return Source{Path: arg}
}

// ParseKeyFlag splits a --key argument "PK[,SK]" (each optionally with a
// type, "PK:S,SK:N") into Source.Keys, checking its shape.
func ParseKeyFlag(arg string) ([]string, error) {
	parts := strings.Split(arg, ",")
	if len(parts) > 2 {
		return nil, keyFlagError(arg, "give the partition key and at most one sort key, PK[,SK]", nil)
	}
	for i, p := range parts {
		parts[i] = strings.TrimSpace(p)
	}
	if _, err := parseKeys(parts); err != nil {
		return nil, keyFlagError(arg, err.Error(), err)
	}
	return parts, nil
}

// keyFlagError is a malformed --key argument: a config-phase error located
// at the argument, so it reads `--key "a,b,c": why` and a caller that names
// the argument its own way takes Msg alone.
func keyFlagError(arg, why string, cause error) *diag.Error {
	return &diag.Error{Phase: diag.Config, Code: diag.CodeBadKeyFlag, Pos: diag.Pos{Source: "--key " + strconv.Quote(arg)}, Msg: why, Cause: cause}
}

// keyAttr is one key attribute: its name and type ("" until known).
type keyAttr struct {
	Name string
	Type types.ScalarAttributeType
}

// parseKeys turns Source.Keys into key attributes.
func parseKeys(keys []string) ([]keyAttr, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	if len(keys) > 2 {
		return nil, fmt.Errorf("a key schema has a partition key and at most one sort key, got %d names", len(keys))
	}
	out := make([]keyAttr, len(keys))
	for i, k := range keys {
		name, typ, hasType := strings.Cut(k, ":")
		if name == "" {
			return nil, fmt.Errorf("empty key attribute name")
		}
		out[i].Name = name
		if hasType {
			t, ok := scalarType(strings.ToUpper(typ))
			if !ok {
				return nil, fmt.Errorf("key %s: type %q is not S, N or B", name, typ)
			}
			out[i].Type = t
		}
	}
	if len(out) == 2 && out[0].Name == out[1].Name {
		return nil, fmt.Errorf("the partition and sort keys are both %s", out[0].Name)
	}
	return out, nil
}

func scalarType(t string) (types.ScalarAttributeType, bool) {
	switch t {
	case "S", "N", "B":
		return types.ScalarAttributeType(t), true
	}
	return "", false
}

// ValidTableName reports whether s is a valid DynamoDB table name: 3 to
// 255 of a-z A-Z 0-9 _ - .
func ValidTableName(s string) bool {
	if len(s) < ddblimits.TableNameMinLength || len(s) > ddblimits.TableNameMaxLength {
		return false
	}
	for _, c := range []byte(s) {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '-', c == '.':
		default:
			return false
		}
	}
	return true
}
