package memdb

import (
	"context"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/planner/ddblimits"
	"github.com/ddbsql/ddbsql/planner/value"
)

// GetItem reads one item by its full key. Capacity is per item, rounded
// up to 4 KB; a missing item costs a minimal read.
func (db *DB) GetItem(ctx context.Context, in *dynamodb.GetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	return serve(ctx, db, "GetItem", in, db.getItem)
}

func (db *DB) getItem(in *dynamodb.GetItemInput) (*dynamodb.GetItemOutput, error) {
	if in.TableName == nil {
		return nil, missingParam("GetItemInput", "TableName")
	}
	if in.Key == nil {
		return nil, missingParam("GetItemInput", "Key")
	}
	var ce constraintErrors
	db.checkTableName(&ce, *in.TableName, "tableName")
	checkCapacityMode(&ce, in.ReturnConsumedCapacity)
	if err := ce.err(); err != nil {
		return nil, err
	}
	if in.AttributesToGet != nil {
		return nil, checkLegacy([]string{"AttributesToGet"})
	}
	ei := exprInput{names: in.ExpressionAttributeNames, projection: in.ProjectionExpression}
	if err := checkExpressionParams(ei, nil); err != nil {
		return nil, err
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
	t.mu.RLock()
	defer t.mu.RUnlock()
	if err := t.checkKey(key); err != nil {
		return nil, err
	}
	if err := nestedIndexKeyPath(t, pe.projection); err != nil {
		return nil, err
	}
	it := t.lookup(key)
	out := &dynamodb.GetItemOutput{}
	consistent := aws.ToBool(in.ConsistentRead)
	var units float64
	if it != nil {
		db.itemsRead.Add(1)
		out.Item = toSDK(project(it.only(topNames(pe.projection)), pe.projection))
		units = readUnits(it.size, consistent)
	} else {
		units = readUnits(1, consistent)
	}
	out.ConsumedCapacity = tableCapacity(t.name, units, in.ReturnConsumedCapacity)
	return out, nil
}

// checkKeyValues validates and converts a key's attribute values.
func checkKeyValues(key map[string]types.AttributeValue) (attrs, error) {
	out, msg := checkItem(key)
	if msg != "" {
		return nil, validationError(msg)
	}
	return out, nil
}

// tableCapacity is a ConsumedCapacity charged to the table only.
func tableCapacity(name string, units float64, mode types.ReturnConsumedCapacity) *types.ConsumedCapacity {
	switch mode {
	case types.ReturnConsumedCapacityTotal:
		return &types.ConsumedCapacity{TableName: aws.String(name), CapacityUnits: aws.Float64(units)}
	case types.ReturnConsumedCapacityIndexes:
		return &types.ConsumedCapacity{TableName: aws.String(name), CapacityUnits: aws.Float64(units),
			Table: &types.Capacity{CapacityUnits: aws.Float64(units)}}
	}
	return nil
}

// BatchGetItem reads up to 100 keys across tables. Items come back in
// request order per table; keys past the 16 MB response limit, or chosen
// by WithUnprocessedKeys, come back in UnprocessedKeys.
func (db *DB) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	return serve(ctx, db, "BatchGetItem", in, db.batchGetItem)
}

type batchGetTable struct {
	name  string
	req   types.KeysAndAttributes
	keys  []attrs
	exprs *parsedExprs
	t     *table
}

func (db *DB) batchGetItem(in *dynamodb.BatchGetItemInput) (*dynamodb.BatchGetItemOutput, error) {
	if in.RequestItems == nil {
		return nil, missingParam("BatchGetItemInput", "RequestItems")
	}
	reqs, err := db.checkBatchGet(in)
	if err != nil {
		return nil, err
	}
	for _, r := range reqs {
		if r.t, err = db.table(r.name, dataLookup); err != nil {
			return nil, err
		}
		for _, k := range r.keys {
			if err := r.t.checkKey(k); err != nil {
				return nil, err
			}
		}
		if err := nestedIndexKeyPath(r.t, r.exprs.projection); err != nil {
			return nil, err
		}
	}
	out := &dynamodb.BatchGetItemOutput{
		Responses:       map[string][]map[string]types.AttributeValue{},
		UnprocessedKeys: map[string]types.KeysAndAttributes{},
	}
	total := 0
	for _, r := range reqs {
		units, unprocessed := db.batchGetTable(r, out, &total)
		if len(unprocessed) > 0 {
			u := r.req
			u.Keys = unprocessed
			out.UnprocessedKeys[r.name] = u
		}
		if cc := tableCapacity(r.name, units, in.ReturnConsumedCapacity); cc != nil {
			out.ConsumedCapacity = append(out.ConsumedCapacity, *cc)
		}
	}
	return out, nil
}

// batchGetTable reads one table's keys into out and returns the units
// consumed and the keys left unprocessed.
func (db *DB) batchGetTable(r *batchGetTable, out *dynamodb.BatchGetItemOutput, total *int) (float64, []map[string]types.AttributeValue) {
	r.t.mu.RLock()
	defer r.t.mu.RUnlock()
	consistent := aws.ToBool(r.req.ConsistentRead)
	items := []map[string]types.AttributeValue{}
	var units float64
	var unprocessed []map[string]types.AttributeValue
	for i, k := range r.keys {
		if *total >= ddblimits.BatchGetResponseBytes || (db.unprocessed != nil && db.unprocessed(r.name, r.req.Keys[i])) {
			unprocessed = append(unprocessed, r.req.Keys[i])
			continue
		}
		it := r.t.lookup(k)
		if it == nil {
			units += readUnits(1, consistent)
			continue
		}
		db.itemsRead.Add(1)
		*total += it.size
		units += readUnits(it.size, consistent)
		items = append(items, toSDK(project(it.only(topNames(r.exprs.projection)), r.exprs.projection)))
	}
	out.Responses[r.name] = items
	return units, unprocessed
}

// checkBatchGet validates the request before any table is looked at.
func (db *DB) checkBatchGet(in *dynamodb.BatchGetItemInput) ([]*batchGetTable, error) {
	var ce constraintErrors
	if len(in.RequestItems) == 0 {
		ce.add("{}", "requestItems", "Member must have length greater than or equal to 1")
	}
	checkCapacityMode(&ce, in.ReturnConsumedCapacity)
	names := sortedNames(in.RequestItems)
	for _, name := range names {
		db.checkTableName(&ce, name, "requestItems."+name)
		switch keys := in.RequestItems[name].Keys; {
		case len(keys) < 1:
			ce.add("[]", "requestItems."+name+".member.keys", "Member must have length greater than or equal to 1")
		case len(keys) > ddblimits.BatchGetKeys:
			ce.add(renderKeyList(keys), "requestItems."+name+".member.keys", "Member must have length less than or equal to 100")
		}
	}
	if err := ce.err(); err != nil {
		return nil, err
	}
	var reqs []*batchGetTable
	n := 0
	for _, name := range names {
		req := in.RequestItems[name]
		if req.AttributesToGet != nil {
			return nil, checkLegacy([]string{"AttributesToGet"})
		}
		ei := exprInput{names: req.ExpressionAttributeNames, projection: req.ProjectionExpression}
		if err := checkExpressionParams(ei, nil); err != nil {
			return nil, err
		}
		pe, err := parseExpressions(ei)
		if err != nil {
			return nil, err
		}
		r := &batchGetTable{name: name, req: req, exprs: pe}
		seen := map[string]struct{}{}
		for _, k := range req.Keys {
			key, err := checkKeyValues(k)
			if err != nil {
				return nil, err
			}
			sig := keySignature(key)
			if _, dup := seen[sig]; dup {
				return nil, validationError("Provided list of item keys contains duplicates")
			}
			seen[sig] = struct{}{}
			if n++; n > ddblimits.BatchGetKeys {
				return nil, validationError("Too many items requested for the BatchGetItem call")
			}
			r.keys = append(r.keys, key)
		}
		reqs = append(reqs, r)
	}
	return reqs, nil
}

// keySignature identifies a key's attributes and values.
func keySignature(key attrs) string {
	var sb strings.Builder
	for _, at := range key {
		sb.WriteString(at.name)
		sb.WriteByte(0)
		sb.WriteString(typeName(at.val))
		sb.WriteByte(0)
		sb.WriteString(encodeKey(at.val))
		sb.WriteByte(0)
	}
	return sb.String()
}

// renderKeyList renders keys the way DynamoDB's constraint messages do.
func renderKeyList(keys []map[string]types.AttributeValue) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		v, err := value.FromItem(k)
		if err != nil {
			parts[i] = "?"
			continue
		}
		parts[i] = string(value.AppendItemJSON(nil, v))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
