package memdb

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/planner/value"
)

// Query reads one partition of the table or of an index, in sort-key order.
func (db *DB) Query(ctx context.Context, in *dynamodb.QueryInput, _ ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	return serve(ctx, db, "Query", in, db.query)
}

func (db *DB) query(in *dynamodb.QueryInput) (*dynamodb.QueryOutput, error) {
	return db.queryInto(in, nil)
}

// queryInto is query; with body set, the page's items are appended to
// *body as DynamoDB JSON instead of being returned as SDK items.
func (db *DB) queryInto(in *dynamodb.QueryInput, body *[]byte) (*dynamodb.QueryOutput, error) {
	if in.TableName == nil {
		return nil, missingParam("QueryInput", "TableName")
	}
	shape := readShape{op: "Query", tableName: in.TableName, indexName: in.IndexName, limit: in.Limit,
		selectAttr: in.Select, projection: in.ProjectionExpression, consistent: in.ConsistentRead}
	var ce constraintErrors
	shape.check(db, &ce)
	checkCapacityMode(&ce, in.ReturnConsumedCapacity)
	if err := ce.err(); err != nil {
		return nil, err
	}
	if err := checkLegacy(queryLegacy(in)); err != nil {
		return nil, err
	}
	ei := exprInput{names: in.ExpressionAttributeNames, values: in.ExpressionAttributeValues,
		keyCond: in.KeyConditionExpression, filter: in.FilterExpression, projection: in.ProjectionExpression}
	if err := checkExpressionParams(ei, []string{"FilterExpression", "KeyConditionExpression"}); err != nil {
		return nil, err
	}
	if err := checkStartKeyValues(in.ExclusiveStartKey); err != nil {
		return nil, err
	}
	if in.KeyConditionExpression == nil {
		return nil, validationError("Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.")
	}
	pe, err := parseExpressions(ei)
	if err != nil {
		return nil, err
	}
	conds, err := keyConditions(pe.keyCond)
	if err != nil {
		return nil, err
	}
	if err := shape.checkSelect(); err != nil {
		return nil, err
	}

	t, err := db.table(*in.TableName, dataLookup)
	if err != nil {
		return nil, err
	}
	t.mu.RLock()
	defer t.mu.RUnlock()
	ix, fetch, err := shape.resolveIndex(t)
	if err != nil {
		return nil, err
	}
	plan, err := planQuery(t, ix, conds, in.ExclusiveStartKey)
	if err != nil {
		return nil, err
	}
	if err := checkReadPaths(t, pe, plan.keyAttrs); err != nil {
		return nil, err
	}
	if err := shape.fetchOnGSI(ix, fetch); err != nil {
		return nil, err
	}
	if err := nestedIndexKeyPath(t, condPaths(pe.filter)); err != nil {
		return nil, err
	}

	pg := shape.newPage(t, ix, pe, fetch, in.ReturnConsumedCapacity)
	pg.req.body = body
	plan.run(pg, in.ScanIndexForward == nil || *in.ScanIndexForward)
	a := db.answer(pg)
	return &dynamodb.QueryOutput{Items: a.items, Count: a.count, ScannedCount: a.scanned,
		LastEvaluatedKey: a.lastKey, ConsumedCapacity: a.consumed}, nil
}

func queryLegacy(in *dynamodb.QueryInput) []string {
	var l []string
	if in.KeyConditions != nil {
		l = append(l, "KeyConditions")
	}
	if in.QueryFilter != nil {
		l = append(l, "QueryFilter")
	}
	if in.AttributesToGet != nil {
		l = append(l, "AttributesToGet")
	}
	if in.ConditionalOperator != "" {
		l = append(l, "ConditionalOperator")
	}
	return l
}

// queryPlan is a validated Query: its partition, sort-key range and start.
type queryPlan struct {
	sp       *space
	hk       string
	rng      keyRange
	start    *entry // resume strictly after this entry
	keyAttrs []string
}

// planQuery applies the key schema to the key conditions and the
// ExclusiveStartKey, with DynamoDB's checks in DynamoDB's order.
func planQuery(t *table, ix *index, conds map[string]*keyCond, eskIn map[string]types.AttributeValue) (*queryPlan, error) {
	hashAttr, rangeAttr, sp := t.hashAttr, t.rangeAttr, t.base
	if ix != nil {
		hashAttr, rangeAttr, sp = ix.hashAttr, ix.rangeAttr, ix.space
	}
	keyAttrs := []string{hashAttr}
	if rangeAttr != "" {
		keyAttrs = append(keyAttrs, rangeAttr)
	}
	var esk attrs
	if eskIn != nil {
		esk, _ = convertItem(eskIn)
		if len(esk) != len(startKeyNames(t, ix)) {
			return nil, validationError("The provided starting key is invalid")
		}
	}
	for i, attr := range keyAttrs {
		isHash := i == 0
		typ := t.attrTypes[attr]
		if esk != nil {
			if _, ok := esk.get(attr); !ok {
				return nil, validationError("The provided starting key is invalid")
			}
			if err := keyPiece(esk, attr, typ, isHash); err != nil {
				return nil, err
			}
		}
		if isHash && rangeAttr == "" && len(conds) > 1 {
			return nil, validationError("Query key condition not supported")
		}
		kc := conds[attr]
		if kc == nil {
			if isHash || len(conds) > 1 {
				return nil, validationErrorf("Query condition missed key schema element: %s", attr)
			}
			continue
		}
		for _, v := range kc.vals {
			if typeName(v) != string(typ) {
				return nil, validationError("One or more parameter values were invalid: Condition parameter type does not match schema type")
			}
		}
		if isHash && kc.op != "EQ" {
			return nil, validationError("Query key condition not supported")
		}
	}
	hashVal := conds[hashAttr].vals[0]
	plan := &queryPlan{sp: sp, hk: encodeKey(hashVal), keyAttrs: keyAttrs}
	if rangeAttr != "" {
		plan.rng = rangeOf(conds[rangeAttr])
	}
	if esk != nil {
		if err := t.checkStartKey(esk); err != nil {
			return nil, err
		}
		rc := conds[rangeAttr]
		if rangeAttr == "" || rc == nil {
			if !equal(esk.val(hashAttr), hashVal) {
				return nil, validationError("The provided starting key is outside query boundaries based on provided conditions")
			}
		} else {
			if !matchesKeyCond(rc, esk.val(rangeAttr)) {
				return nil, validationError("The provided starting key does not match the range key predicate")
			}
			if !equal(esk.val(hashAttr), hashVal) {
				return nil, validationError("The query can return at most one row and cannot be restarted")
			}
		}
		plan.start = t.startEntry(ix, esk)
	}
	return plan, nil
}

// checkStartKey validates the table-key part of an ExclusiveStartKey.
func (t *table) checkStartKey(esk attrs) error {
	if err := t.checkKey(esk.pick(t.keyNames()...)); err != nil {
		return validationErrorf("The provided starting key is invalid: %s", apiMessage(err))
	}
	return nil
}

// run reads the partition into the page, forward or backward.
func (q *queryPlan) run(pg *page, forward bool) {
	p := q.sp.parts[q.hk]
	if p == nil {
		return
	}
	r := q.rng
	if forward {
		visit := func(e *entry) bool {
			if q.start != nil && compareEntries(e, q.start) == 0 {
				return true
			}
			if !r.contains(e.rk) {
				return r.hasLo && e.rk <= r.lo // below the range: skip; above: stop
			}
			return pg.take(e)
		}
		switch {
		case q.start != nil:
			p.items.AscendGreaterOrEqual(q.start, visit)
		case r.hasLo && r.loIncl:
			p.items.AscendGreaterOrEqual(firstWith(r.lo), visit)
		case r.hasLo:
			p.items.AscendGreaterOrEqual(afterAll(r.lo), visit)
		default:
			p.items.Ascend(visit)
		}
		return
	}
	visit := func(e *entry) bool {
		if q.start != nil && compareEntries(e, q.start) == 0 {
			return true
		}
		if !r.contains(e.rk) {
			return r.hasHi && e.rk >= r.hi // above the range: skip; below: stop
		}
		return pg.take(e)
	}
	switch {
	case q.start != nil:
		p.items.DescendLessOrEqual(q.start, visit)
	case r.hasHi && r.hiIncl:
		p.items.DescendLessOrEqual(afterAll(r.hi), visit)
	case r.hasHi:
		p.items.DescendLessOrEqual(firstWith(r.hi), visit)
	default:
		p.items.Descend(visit)
	}
}

// checkReadPaths applies the path rules of Query and Scan: no document
// paths into key attributes and, for Query (whose queried keys are
// keyAttrs; a Scan has none), no filter on the queried keys.
func checkReadPaths(t *table, pe *parsedExprs, keyAttrs []string) error {
	if err := nestedIndexKeyPath(t, pe.projection); err != nil {
		return err
	}
	if len(keyAttrs) == 0 || pe.filter == nil {
		return nil
	}
	paths := condPaths(pe.filter)
	for _, k := range keyAttrs {
		for _, p := range paths {
			if p[0].Name == k {
				return validationErrorf("Filter Expression can only contain non-primary key attributes: Primary key attribute: %s", k)
			}
		}
	}
	return nil
}

// nestedIndexKeyPath rejects document paths into table or index keys.
func nestedIndexKeyPath(t *table, paths []value.Path) error {
	if err := nestedKeyPath(paths, t.keyNames(), "Key"); err != nil {
		return err
	}
	for _, ix := range t.indexes {
		keys := []string{ix.hashAttr}
		if ix.rangeAttr != "" {
			keys = append(keys, ix.rangeAttr)
		}
		if err := nestedKeyPath(paths, keys, "IndexKey"); err != nil {
			return err
		}
	}
	return nil
}
