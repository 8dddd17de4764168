package memdb

import (
	"context"
	"errors"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/planner/ddblimits"
	"github.com/ddbsql/ddbsql/planner/value"
)

// updateAction is one clause action of an UpdateExpression: SET path =
// :value, or REMOVE path (val Missing).
type updateAction struct {
	path   value.Path
	val    value.Value
	remove bool
}

// parseUpdate parses the UpdateExpression subset memdb serves: SET of
// top-level attributes to values and REMOVE of top-level attributes,
// each clause at most once, as DynamoDB requires. Other forms (ADD,
// DELETE, arithmetic, functions, nested paths) are a ValidationException
// that says memdb does not serve them.
func parseUpdate(env *exprEnv, src string) ([]updateAction, error) {
	if strings.TrimSpace(src) == "" {
		return nil, errors.New("The expression can not be empty;")
	}
	ps := newParser(env, src)
	var out []updateAction
	seen := map[string]bool{}
	for ps.tok().kind != tEOF {
		clause := strings.ToUpper(ps.tok().text)
		if ps.tok().kind != tIdent || clause != "SET" && clause != "REMOVE" {
			if clause == "ADD" || clause == "DELETE" {
				return nil, errors.New("memdb serves SET and REMOVE clauses only; clause: " + clause)
			}
			return nil, ps.fail()
		}
		if seen[clause] {
			return nil, errors.New(`The "` + clause + `" section can only be used once in an update expression;`)
		}
		seen[clause] = true
		ps.p++
		for {
			p, err := ps.parsePath()
			if err != nil {
				return nil, err
			}
			if len(p) > 1 {
				return nil, errors.New("memdb serves top-level attribute paths only in an UpdateExpression; path: " + pathString(p))
			}
			act := updateAction{path: p, remove: clause == "REMOVE"}
			if !act.remove {
				if err := ps.expect("="); err != nil {
					return nil, err
				}
				if ps.tok().kind != tValue {
					return nil, errors.New("memdb serves SET path = :value only")
				}
				act.val = ps.resolveValue(ps.tok().text)
				ps.p++
			}
			for _, prev := range out {
				if prev.path[0].Name == p[0].Name {
					return nil, errors.New("Two document paths overlap with each other; must remove or rewrite one of these paths; path one: " +
						pathString(prev.path) + ", path two: " + pathString(p))
				}
			}
			out = append(out, act)
			if !ps.tok().is(",") || ps.tok().kind != tSymbol {
				break
			}
			ps.p++
		}
	}
	if err := ps.firstError(); err != nil {
		return nil, err
	}
	return out, nil
}

// UpdateItem changes one item with an UpdateExpression (memdb's subset:
// parseUpdate), an optional ConditionExpression, and ReturnValues NONE,
// ALL_OLD, ALL_NEW, UPDATED_OLD or UPDATED_NEW. An item that does not
// exist is created from its key, as in DynamoDB.
func (db *DB) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	return serveWrite(ctx, db, "UpdateItem", in, honourReadOnly, db.update)
}

func (db *DB) update(in *dynamodb.UpdateItemInput) (*dynamodb.UpdateItemOutput, error) {
	if in.TableName == nil {
		return nil, missingParam("UpdateItemInput", "TableName")
	}
	if in.Key == nil {
		return nil, missingParam("UpdateItemInput", "Key")
	}
	var ce constraintErrors
	ce.checkName(*in.TableName, "tableName")
	checkCapacityMode(&ce, in.ReturnConsumedCapacity)
	if err := ce.err(); err != nil {
		return nil, err
	}
	if in.Expected != nil || in.AttributeUpdates != nil || in.ConditionalOperator != "" {
		return nil, checkLegacy([]string{"Expected", "AttributeUpdates"})
	}
	ei := exprInput{names: in.ExpressionAttributeNames, values: in.ExpressionAttributeValues, condition: in.ConditionExpression, update: in.UpdateExpression}
	if err := checkExpressionParams(ei, []string{"UpdateExpression", "ConditionExpression"}); err != nil {
		return nil, err
	}
	switch in.ReturnValues {
	case "", types.ReturnValueNone, types.ReturnValueAllOld, types.ReturnValueAllNew, types.ReturnValueUpdatedOld, types.ReturnValueUpdatedNew:
	default:
		return nil, validationError("ReturnValues must be one of NONE, ALL_OLD, UPDATED_OLD, ALL_NEW, UPDATED_NEW")
	}
	key, err := checkKeyValues(in.Key)
	if err != nil {
		return nil, err
	}
	pe, err := parseExpressions(ei)
	if err != nil {
		return nil, err
	}
	t, err := db.table(*in.TableName, dataLookup)
	if err != nil {
		return nil, err
	}
	if err := t.checkKey(key); err != nil {
		return nil, err
	}
	for _, a := range pe.update {
		if t.isKeyName(a.path[0].Name) {
			return nil, validationErrorf("One or more parameter values were invalid: Cannot update attribute %s. This attribute is part of the key", a.path[0].Name)
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	old := t.lookup(key)
	var oldAttrs attrs
	if old != nil {
		oldAttrs = old.attrs()
	}
	if pe.condition != nil && !pe.condition.eval(oldAttrs) {
		return nil, conditionFailed()
	}
	next := map[string]value.Value{}
	for _, a := range key {
		next[a.name] = a.val
	}
	for _, a := range oldAttrs {
		next[a.name] = a.val
	}
	for _, a := range pe.update {
		if a.remove {
			delete(next, a.path[0].Name)
		} else {
			next[a.path[0].Name] = a.val
		}
	}
	newAttrs := make(attrs, 0, len(next))
	for n, v := range next {
		newAttrs = append(newAttrs, attr{n, v})
	}
	newAttrs = sortAttrs(newAttrs)
	size := itemSize(newAttrs)
	if size > ddblimits.ItemBytes {
		return nil, validationError("Item size to update has exceeded the maximum allowed size")
	}
	if err := t.checkItem(newAttrs); err != nil {
		return nil, err
	}
	t.store(newAttrs, size)
	out := &dynamodb.UpdateItemOutput{}
	switch in.ReturnValues {
	case types.ReturnValueAllOld:
		if old != nil {
			out.Attributes = toSDK(oldAttrs)
		}
	case types.ReturnValueAllNew:
		out.Attributes = toSDK(newAttrs)
	case types.ReturnValueUpdatedOld, types.ReturnValueUpdatedNew:
		from := newAttrs
		if in.ReturnValues == types.ReturnValueUpdatedOld {
			from = oldAttrs
		}
		var names []string
		for _, a := range pe.update {
			names = append(names, a.path[0].Name)
		}
		if picked := from.pick(names...); len(picked) > 0 {
			out.Attributes = toSDK(picked)
		}
	}
	out.ConsumedCapacity = tableCapacity(t.name, writeCost(size, old), in.ReturnConsumedCapacity)
	return out, nil
}

// DeleteItem deletes one item, with an optional ConditionExpression and
// ReturnValues NONE or ALL_OLD. Deleting a missing item succeeds.
func (db *DB) DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	return serveWrite(ctx, db, "DeleteItem", in, honourReadOnly, db.deleteItem)
}

func (db *DB) deleteItem(in *dynamodb.DeleteItemInput) (*dynamodb.DeleteItemOutput, error) {
	if in.TableName == nil {
		return nil, missingParam("DeleteItemInput", "TableName")
	}
	if in.Key == nil {
		return nil, missingParam("DeleteItemInput", "Key")
	}
	var ce constraintErrors
	ce.checkName(*in.TableName, "tableName")
	checkCapacityMode(&ce, in.ReturnConsumedCapacity)
	if err := ce.err(); err != nil {
		return nil, err
	}
	if in.Expected != nil || in.ConditionalOperator != "" {
		return nil, checkLegacy([]string{"Expected"})
	}
	ei := exprInput{names: in.ExpressionAttributeNames, values: in.ExpressionAttributeValues, condition: in.ConditionExpression}
	if err := checkExpressionParams(ei, []string{"ConditionExpression"}); err != nil {
		return nil, err
	}
	if in.ReturnValues != "" && in.ReturnValues != types.ReturnValueAllOld && in.ReturnValues != types.ReturnValueNone {
		return nil, validationError("ReturnValues can only be ALL_OLD or NONE")
	}
	key, err := checkKeyValues(in.Key)
	if err != nil {
		return nil, err
	}
	pe, err := parseExpressions(ei)
	if err != nil {
		return nil, err
	}
	t, err := db.table(*in.TableName, dataLookup)
	if err != nil {
		return nil, err
	}
	if err := t.checkKey(key); err != nil {
		return nil, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	old := t.lookup(key)
	var oldAttrs attrs
	if old != nil {
		oldAttrs = old.attrs()
	}
	if pe.condition != nil && !pe.condition.eval(oldAttrs) {
		return nil, conditionFailed()
	}
	out := &dynamodb.DeleteItemOutput{}
	if old != nil {
		t.delete(key)
		if in.ReturnValues == types.ReturnValueAllOld {
			out.Attributes = toSDK(oldAttrs)
		}
	}
	out.ConsumedCapacity = tableCapacity(t.name, writeCost(0, old), in.ReturnConsumedCapacity)
	return out, nil
}

// isKeyName reports whether name is one of the table's key attributes.
func (t *table) isKeyName(name string) bool {
	for _, k := range t.keyNames() {
		if k == name {
			return true
		}
	}
	return false
}
