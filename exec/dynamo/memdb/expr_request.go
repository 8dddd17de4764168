package memdb

import (
	"regexp"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/planner/value"
)

// A request's expressions, parsed and validated together as DynamoDB does:
// placeholder maps first, then each expression, then unused placeholders.

type exprInput struct {
	names      map[string]string
	values     map[string]types.AttributeValue
	keyCond    *string
	condition  *string
	filter     *string
	projection *string
	update     *string
}

// anyExpr says whether the request has any expression (names may appear
// in all of them).
func (in exprInput) anyExpr() bool {
	return in.keyCond != nil || in.condition != nil || in.filter != nil || in.projection != nil || in.update != nil
}

// anyValueExpr says whether the request has an expression that may use
// values (a projection takes none).
func (in exprInput) anyValueExpr() bool {
	return in.keyCond != nil || in.condition != nil || in.filter != nil || in.update != nil
}

type parsedExprs struct {
	keyCond    *cond
	condition  *cond
	filter     *cond
	projection []value.Path // nil: all attributes
	update     []updateAction
}

var placeholderKey = regexp.MustCompile(`^[#:][0-9a-zA-Z_]+$`)

func parseExpressions(in exprInput) (*parsedExprs, error) {
	env := &exprEnv{
		names:        in.names,
		values:       map[string]value.Value{},
		unusedNames:  map[string]struct{}{},
		unusedValues: map[string]struct{}{},
	}
	if in.names != nil {
		if len(in.names) == 0 {
			return nil, validationError("ExpressionAttributeNames must not be empty")
		}
		for _, k := range sortedNames(in.names) {
			if !strings.HasPrefix(k, "#") || !placeholderKey.MatchString(k) {
				return nil, validationErrorf(`ExpressionAttributeNames contains invalid key: Syntax error; key: "%s"`, k)
			}
			env.unusedNames[k] = struct{}{}
		}
	}
	if in.values != nil {
		if len(in.values) == 0 {
			return nil, validationError("ExpressionAttributeValues must not be empty")
		}
		keys := sortedNames(in.values)
		for _, k := range keys {
			if !strings.HasPrefix(k, ":") || !placeholderKey.MatchString(k) {
				return nil, validationErrorf(`ExpressionAttributeValues contains invalid key: Syntax error; key: "%s"`, k)
			}
			env.unusedValues[k] = struct{}{}
		}
		for _, k := range keys {
			if msg := checkAttributeValue(in.values[k]); msg != "" {
				return nil, validationErrorf("ExpressionAttributeValues contains invalid value: %s for key %s", msg, k)
			}
			v, err := value.FromAttributeValue(in.values[k])
			if err != nil {
				return nil, validationErrorf("ExpressionAttributeValues contains invalid value: %s for key %s", err.Error(), k)
			}
			env.values[k] = v
		}
	}
	out := &parsedExprs{}
	var err error
	if in.update != nil {
		if out.update, err = parseUpdate(env, *in.update); err != nil {
			return nil, validationErrorf("Invalid UpdateExpression: %s", err.Error())
		}
	}
	if in.condition != nil {
		if out.condition, err = parseCondition(env, *in.condition); err != nil {
			return nil, validationErrorf("Invalid ConditionExpression: %s", err.Error())
		}
	}
	if in.keyCond != nil {
		if out.keyCond, err = parseCondition(env, *in.keyCond); err != nil {
			return nil, validationErrorf("Invalid KeyConditionExpression: %s", err.Error())
		}
	}
	if in.filter != nil {
		if out.filter, err = parseCondition(env, *in.filter); err != nil {
			return nil, validationErrorf("Invalid FilterExpression: %s", err.Error())
		}
	}
	if in.projection != nil {
		if out.projection, err = parseProjection(env, *in.projection); err != nil {
			return nil, validationErrorf("Invalid ProjectionExpression: %s", err.Error())
		}
	}
	if len(env.unusedNames) > 0 {
		return nil, validationErrorf("Value provided in ExpressionAttributeNames unused in expressions: keys: {%s}",
			strings.Join(sortedNames(env.unusedNames), ", "))
	}
	if len(env.unusedValues) > 0 {
		return nil, validationErrorf("Value provided in ExpressionAttributeValues unused in expressions: keys: {%s}",
			strings.Join(sortedNames(env.unusedValues), ", "))
	}
	return out, nil
}

// checkExpressionParams rejects placeholder maps without expressions that
// could use them. in holds only the expressions the operation takes;
// valueExprs names those that take values, in DynamoDB's order.
func checkExpressionParams(in exprInput, valueExprs []string) error {
	if in.names != nil && !in.anyExpr() {
		return validationError("ExpressionAttributeNames can only be specified when using expressions")
	}
	if len(valueExprs) > 0 && in.values != nil && !in.anyValueExpr() {
		verb := "is"
		if len(valueExprs) > 1 {
			verb = "are"
		}
		return validationErrorf("ExpressionAttributeValues can only be specified when using expressions: %s %s null",
			strings.Join(valueExprs, " and "), verb)
	}
	return nil
}

// nestedKeyPath rejects document paths into key attributes (keys are
// scalars).
func nestedKeyPath(paths []value.Path, keys []string, what string) error {
	for _, k := range keys {
		for _, p := range paths {
			if len(p) > 1 && p[0].Name == k {
				return validationErrorf("Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: %s: %s", what, k)
			}
		}
	}
	return nil
}

// condPaths lists the document paths a condition reads.
func condPaths(c *cond) []value.Path {
	if c == nil {
		return nil
	}
	var out []value.Path
	var walkOp func(o *operand)
	walkOp = func(o *operand) {
		switch o.kind {
		case opPath:
			out = append(out, o.path)
		case opFunc:
			for _, a := range o.args {
				walkOp(a)
			}
		}
	}
	var walk func(c *cond)
	walk = func(c *cond) {
		for _, s := range c.sub {
			walk(s)
		}
		for _, a := range c.args {
			walkOp(a)
		}
	}
	walk(c)
	return out
}
