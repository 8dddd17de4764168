package memdb

import (
	"context"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/planner/ddblimits"
	"github.com/ddbsql/ddbsql/planner/value"
)

// PutItem writes (or replaces) one item, with an optional
// ConditionExpression and ReturnValues=ALL_OLD.
func (db *DB) PutItem(ctx context.Context, in *dynamodb.PutItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	return db.putItem(ctx, in, honourReadOnly)
}

func (db *DB) putItem(ctx context.Context, in *dynamodb.PutItemInput, mode writeMode) (*dynamodb.PutItemOutput, error) {
	return serveWrite(ctx, db, "PutItem", in, mode, db.put)
}

func (db *DB) put(in *dynamodb.PutItemInput) (*dynamodb.PutItemOutput, error) {
	if in.TableName == nil {
		return nil, missingParam("PutItemInput", "TableName")
	}
	if in.Item == nil {
		return nil, missingParam("PutItemInput", "Item")
	}
	var ce constraintErrors
	db.checkTableName(&ce, *in.TableName, "tableName")
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
	newAttrs, size, err := checkNewItem(in.Item)
	if err != nil {
		return nil, err
	}
	if in.ReturnValues != "" && in.ReturnValues != types.ReturnValueAllOld && in.ReturnValues != types.ReturnValueNone {
		return nil, validationError("ReturnValues can only be ALL_OLD or NONE")
	}
	pe, err := parseExpressions(ei)
	if err != nil {
		return nil, err
	}
	t, err := db.table(*in.TableName, dataLookup)
	if err != nil {
		return nil, err
	}
	if err := t.checkItem(newAttrs); err != nil {
		return nil, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	old := t.lookup(newAttrs)
	if pe.condition != nil {
		var oldAttrs attrs
		if old != nil {
			oldAttrs = old.attrs()
		}
		if !pe.condition.eval(oldAttrs) {
			return nil, conditionFailed()
		}
	}
	t.store(newAttrs, size)
	out := &dynamodb.PutItemOutput{}
	if old != nil && in.ReturnValues == types.ReturnValueAllOld {
		out.Attributes = toSDK(old.attrs())
	}
	out.ConsumedCapacity = tableCapacity(t.name, writeCost(size, old), in.ReturnConsumedCapacity)
	return out, nil
}

// writeCost is the write capacity of replacing old (maybe nil) with an
// item of the given size: the larger of the two, in 1 KB units.
func writeCost(size int, old *item) float64 {
	units := writeUnits(size)
	if old != nil {
		units = max(units, writeUnits(old.size))
	}
	return units
}

// checkNewItem validates an item's values and its size.
func checkNewItem(item map[string]types.AttributeValue) (attrs, int, error) {
	attrs, msg := checkItem(item)
	if msg != "" {
		return nil, 0, validationError(msg)
	}
	size := itemSize(attrs)
	if size > ddblimits.ItemBytes {
		return nil, 0, validationError("Item size has exceeded the maximum allowed size")
	}
	return attrs, size, nil
}

// checkItem validates an item's key and index-key attributes.
func (t *table) checkItem(attrs attrs) error {
	for i, k := range t.keyNames() {
		v, ok := attrs.get(k)
		typ := string(t.attrTypes[k])
		if !ok {
			return validationErrorf("One or more parameter values were invalid: Missing the key %s in the item", k)
		}
		if typeName(v) != typ {
			return validationErrorf("One or more parameter values were invalid: Type mismatch for key %s expected: %s actual: %s", k, typ, typeName(v))
		}
		if v.Text() == "" && (v.Kind() == value.String || v.Kind() == value.Binary) {
			kind := "string"
			if v.Kind() == value.Binary {
				kind = "binary"
			}
			return validationErrorf("One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty %s value. Key: %s", kind, k)
		}
		if err := checkKeySize(v, i == 0); err != nil {
			return err
		}
	}
	for _, ix := range t.indexes {
		for _, k := range []string{ix.hashAttr, ix.rangeAttr} {
			v, ok := attrs.get(k)
			if k == "" || !ok {
				continue
			}
			typ := string(t.attrTypes[k])
			if typeName(v) != typ {
				return validationErrorf("One or more parameter values were invalid: Type mismatch for Index Key %s Expected: %s Actual: %s IndexName: %s", k, typ, typeName(v), ix.name)
			}
			if v.Text() == "" && v.Kind() != value.Number {
				kind := "string"
				if v.Kind() == value.Binary {
					kind = "binary"
				}
				return validationErrorf("One or more parameter values are not valid. A value specified for a secondary index key is not supported. The AttributeValue for a key attribute cannot contain an empty %s value. IndexName: %s, IndexKey: %s", kind, ix.name, k)
			}
		}
	}
	return nil
}

// BatchWriteItem applies up to 25 puts and deletes across tables. The
// whole batch is validated before anything is written; UnprocessedItems is
// always empty.
func (db *DB) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	return db.batchWriteItem(ctx, in, honourReadOnly)
}

func (db *DB) batchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, mode writeMode) (*dynamodb.BatchWriteItemOutput, error) {
	return serveWrite(ctx, db, "BatchWriteItem", in, mode, db.batchWrite)
}

type writeOp struct {
	t     *table
	put   attrs // nil for a delete
	size  int   // the put item's size
	key   attrs // a delete's key
	units float64
}

func (db *DB) batchWrite(in *dynamodb.BatchWriteItemInput) (*dynamodb.BatchWriteItemOutput, error) {
	if in.RequestItems == nil {
		return nil, missingParam("BatchWriteItemInput", "RequestItems")
	}
	ops, err := db.checkBatchWrite(in)
	if err != nil {
		return nil, err
	}
	units := map[string]float64{}
	for _, op := range ops {
		op.t.mu.Lock()
		if op.put != nil {
			old := op.t.store(op.put, op.size)
			op.units = writeCost(op.size, old)
		} else {
			old := op.t.delete(op.key)
			op.units = writeCost(0, old)
		}
		op.t.mu.Unlock()
		units[op.t.name] += op.units
	}
	out := &dynamodb.BatchWriteItemOutput{UnprocessedItems: map[string][]types.WriteRequest{}}
	for _, name := range sortedNames(units) {
		if cc := tableCapacity(name, units[name], in.ReturnConsumedCapacity); cc != nil {
			out.ConsumedCapacity = append(out.ConsumedCapacity, *cc)
		}
	}
	return out, nil
}

func (db *DB) checkBatchWrite(in *dynamodb.BatchWriteItemInput) ([]*writeOp, error) {
	var ce constraintErrors
	if len(in.RequestItems) == 0 {
		ce.add("{}", "requestItems", "Member must have length greater than or equal to 1")
	}
	checkCapacityMode(&ce, in.ReturnConsumedCapacity)
	names := sortedNames(in.RequestItems)
	total := 0
	for _, name := range names {
		ce.checkName(name, "requestItems."+name)
		if len(in.RequestItems[name]) == 0 {
			ce.add("[]", "requestItems."+name, "Member must have length greater than or equal to 1")
		}
		total += len(in.RequestItems[name])
	}
	if err := ce.err(); err != nil {
		return nil, err
	}
	if total > ddblimits.BatchWriteItems {
		return nil, validationError("Too many items requested for the BatchWriteItem call")
	}
	var ops []*writeOp
	for _, name := range names {
		for _, wr := range in.RequestItems[name] {
			op := &writeOp{}
			switch {
			case wr.PutRequest != nil && wr.DeleteRequest == nil && wr.PutRequest.Item != nil:
				attrs, size, err := checkNewItem(wr.PutRequest.Item)
				if err != nil {
					return nil, err
				}
				op.put, op.size = attrs, size
			case wr.DeleteRequest != nil && wr.PutRequest == nil && wr.DeleteRequest.Key != nil:
				key, err := checkKeyValues(wr.DeleteRequest.Key)
				if err != nil {
					return nil, err
				}
				op.key = key
			default:
				return nil, validationError("Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes")
			}
			ops = append(ops, op)
		}
	}
	seen := map[string]struct{}{}
	i := 0
	for _, name := range names {
		t, err := db.table(name, dataLookup)
		if err != nil {
			return nil, err
		}
		for range in.RequestItems[name] {
			op := ops[i]
			i++
			op.t = t
			var sig string
			if op.put != nil {
				if err := t.checkItem(op.put); err != nil {
					return nil, keyMismatch(err)
				}
				sig = t.keySignature(op.put)
			} else {
				if err := t.checkKey(op.key); err != nil {
					return nil, err
				}
				sig = t.keySignature(op.key)
			}
			sig = name + "\x00" + sig
			if _, dup := seen[sig]; dup {
				return nil, validationError("Provided list of item keys contains duplicates")
			}
			seen[sig] = struct{}{}
		}
	}
	return ops, nil
}

// keyMismatch rewrites a put's key errors the way BatchWriteItem reports them.
func keyMismatch(err error) error {
	msg := apiMessage(err)
	if strings.Contains(msg, "Missing the key") || strings.Contains(msg, "Type mismatch for key") {
		return validationError("The provided key element does not match the schema")
	}
	return err
}

// keySignature identifies an item's table key (within the table).
func (t *table) keySignature(attrs attrs) string {
	sig := encodeKey(attrs.val(t.hashAttr))
	if t.rangeAttr != "" {
		sig += "\x00" + encodeKey(attrs.val(t.rangeAttr))
	}
	return sig
}
