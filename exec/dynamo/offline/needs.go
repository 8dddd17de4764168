package offline

import (
	"sort"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// scanNeeds is the set of top-level attributes a streamed Scan's answer
// depends on — the ones its ProjectionExpression and FilterExpression name,
// and the table's keys (positions, segments, LastEvaluatedKey) — or nil
// when it needs whole items (no projection, or the legacy parameters).
// It over-approximates: every word of the expressions counts as a name
// (function names, nested path parts), which only decodes a little more.
// id identifies the set, so that a stream kept for one request is only
// continued by a request needing the same attributes.
func scanNeeds(in *dynamodb.ScanInput, keys []keyAttr) (need map[string]bool, id string) {
	if len(in.AttributesToGet) > 0 || len(in.ScanFilter) > 0 {
		return nil, ""
	}
	if in.ProjectionExpression == nil && in.Select != types.SelectCount {
		return nil, ""
	}
	need = map[string]bool{}
	for _, k := range keys {
		need[k.Name] = true
	}
	for _, e := range []*string{in.ProjectionExpression, in.FilterExpression} {
		if e != nil && !addExpressionNames(need, *e, in.ExpressionAttributeNames) {
			return nil, ""
		}
	}
	names := make([]string, 0, len(need))
	for n := range need {
		names = append(names, n)
	}
	sort.Strings(names)
	return need, strings.Join(names, "\x00")
}

// addExpressionNames adds every word and every #placeholder's name of expr
// to need; false when a placeholder has no name (the request is invalid,
// and memdb says so).
func addExpressionNames(need map[string]bool, expr string, names map[string]string) bool {
	for i := 0; i < len(expr); {
		c := expr[i]
		if !isWordByte(c) && c != '#' && c != ':' {
			i++
			continue
		}
		j := i + 1
		for j < len(expr) && isWordByte(expr[j]) {
			j++
		}
		switch word := expr[i:j]; c {
		case ':': // a value placeholder
		case '#':
			n, ok := names[word]
			if !ok {
				return false
			}
			need[n] = true
		default:
			need[word] = true
		}
		i = j
	}
	return true
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
