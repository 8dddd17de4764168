package memdb

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/planner/ddblimits"
	"github.com/ddbsql/ddbsql/planner/value"
)

// Scan reads the whole table or index in placement-hash order. With
// TotalSegments = n, segment s covers the placement-hash buckets
// [⌈4096·s/n⌉, ⌈4096·(s+1)/n⌉): disjoint, and together the whole table.
func (db *DB) Scan(ctx context.Context, in *dynamodb.ScanInput, _ ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	return serve(ctx, db, "Scan", in, db.scan)
}

const numBuckets = 4096

func (db *DB) scan(in *dynamodb.ScanInput) (*dynamodb.ScanOutput, error) {
	return db.scanInto(in, nil)
}

// scanInto is scan; with body set, the page's items are appended to *body
// as DynamoDB JSON instead of being returned as SDK items.
func (db *DB) scanInto(in *dynamodb.ScanInput, body *[]byte) (*dynamodb.ScanOutput, error) {
	return db.scanFrom(context.Background(), in, body, nil)
}

// scanFrom is scanInto reading from src when it is set (see ScanFeed).
func (db *DB) scanFrom(ctx context.Context, in *dynamodb.ScanInput, body *[]byte, src *ScanSource) (*dynamodb.ScanOutput, error) {
	if in.TableName == nil {
		return nil, missingParam("ScanInput", "TableName")
	}
	shape := readShape{op: "Scan", tableName: in.TableName, indexName: in.IndexName, limit: in.Limit,
		selectAttr: in.Select, projection: in.ProjectionExpression, consistent: in.ConsistentRead}
	var ce constraintErrors
	shape.check(db, &ce)
	checkCapacityMode(&ce, in.ReturnConsumedCapacity)
	if in.Segment != nil && *in.Segment < 0 {
		ce.add(*in.Segment, "segment", "Member must have value greater than or equal to 0")
	}
	if in.Segment != nil && *in.Segment >= ddblimits.ScanSegments {
		ce.add(*in.Segment, "segment", "Member must have value less than or equal to 999999")
	}
	if in.TotalSegments != nil && *in.TotalSegments < 1 {
		ce.add(*in.TotalSegments, "totalSegments", "Member must have value greater than or equal to 1")
	}
	if in.TotalSegments != nil && *in.TotalSegments > ddblimits.ScanSegments {
		ce.add(*in.TotalSegments, "totalSegments", "Member must have value less than or equal to 1000000")
	}
	if err := ce.err(); err != nil {
		return nil, err
	}
	if err := checkLegacy(scanLegacy(in)); err != nil {
		return nil, err
	}
	ei := exprInput{names: in.ExpressionAttributeNames, values: in.ExpressionAttributeValues,
		filter: in.FilterExpression, projection: in.ProjectionExpression}
	if err := checkExpressionParams(ei, []string{"FilterExpression"}); err != nil {
		return nil, err
	}
	if err := checkStartKeyValues(in.ExclusiveStartKey); err != nil {
		return nil, err
	}
	seg, total := int(aws.ToInt32(in.Segment)), int(aws.ToInt32(in.TotalSegments))
	if seg != 0 && in.TotalSegments == nil {
		return nil, validationError("The TotalSegments parameter is required but was not present in the request when Segment parameter is present")
	}
	if in.TotalSegments != nil {
		if in.Segment == nil {
			return nil, validationError("The Segment parameter is required but was not present in the request when parameter TotalSegments is present")
		}
		if seg >= total {
			return nil, validationErrorf("The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: %d is not less than TotalSegments: %d", seg, total)
		}
	}
	pe, err := parseExpressions(ei)
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
	plan := &scanPlan{sp: t.base, hashAttr: t.hashAttr, loBucket: 0, hiBucket: numBuckets - 1}
	if ix != nil {
		plan.sp, plan.hashAttr = ix.space, ix.hashAttr
	}
	if total > 1 {
		plan.loBucket = ceilDiv(numBuckets*seg, total)
		plan.hiBucket = ceilDiv(numBuckets*(seg+1), total) - 1
	}
	if err := plan.setStart(t, ix, in.ExclusiveStartKey, seg, total); err != nil {
		return nil, err
	}
	if err := shape.fetchOnGSI(ix, fetch); err != nil {
		return nil, err
	}
	if err := checkReadPaths(t, pe, nil); err != nil {
		return nil, err
	}
	if err := nestedIndexKeyPath(t, condPaths(pe.filter)); err != nil {
		return nil, err
	}

	pg := shape.newPage(t, ix, pe, fetch, in.ReturnConsumedCapacity)
	pg.req.body = body
	if src != nil {
		if err := plan.runFeed(ctx, pg, src); err != nil {
			return nil, err
		}
	} else {
		plan.run(pg)
	}
	a := db.answer(pg)
	return &dynamodb.ScanOutput{Items: a.items, Count: a.count, ScannedCount: a.scanned,
		LastEvaluatedKey: a.lastKey, ConsumedCapacity: a.consumed}, nil
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

func scanLegacy(in *dynamodb.ScanInput) []string {
	var l []string
	if in.ScanFilter != nil {
		l = append(l, "ScanFilter")
	}
	if in.AttributesToGet != nil {
		l = append(l, "AttributesToGet")
	}
	if in.ConditionalOperator != "" {
		l = append(l, "ConditionalOperator")
	}
	return l
}

type scanPlan struct {
	sp                 *space
	hashAttr           string
	loBucket, hiBucket int
	startPart          *partition // resume in this partition (or the next one)
	start              *entry     // strictly after this entry
}

// setStart validates the ExclusiveStartKey and positions the scan after it.
func (s *scanPlan) setStart(t *table, ix *index, eskIn map[string]types.AttributeValue, seg, total int) error {
	if eskIn == nil {
		return nil
	}
	esk, _ := convertItem(eskIn)
	if len(esk) != len(startKeyNames(t, ix)) {
		if ix != nil {
			return validationError("The provided starting key is invalid")
		}
		return validationError("The provided starting key is invalid: The provided key element does not match the schema")
	}
	if ix != nil {
		for i, attr := range []string{ix.hashAttr, ix.rangeAttr} {
			if attr == "" {
				continue
			}
			if _, ok := esk.get(attr); !ok {
				return validationError("The provided starting key is invalid")
			}
			if err := keyPiece(esk, attr, t.attrTypes[attr], i == 0); err != nil {
				return err
			}
		}
	}
	if err := t.checkStartKey(esk); err != nil {
		return err
	}
	hash := esk.val(s.hashAttr)
	prefix := hashPrefix(hash, value.MissingValue())
	if total > 1 && (bucket(prefix) < s.loBucket || bucket(prefix) > s.hiBucket) {
		return validationErrorf("The provided starting key is invalid: Invalid ExclusiveStartKey. Please use ExclusiveStartKey with correct Segment. TotalSegments: %d Segment: %d", total, seg)
	}
	s.startPart = &partition{prefix: prefix, hk: encodeKey(hash)}
	s.start = t.startEntry(ix, esk)
	return nil
}

// run reads partitions in placement-hash order from the start position
// until the segment ends or the page is full.
func (s *scanPlan) run(pg *page) {
	from := s.startPart
	if from == nil {
		from = &partition{prefix: uint32(s.loBucket) << 12}
	}
	s.sp.order.AscendGreaterOrEqual(from, func(p *partition) bool {
		if bucket(p.prefix) > s.hiBucket {
			return false
		}
		more := true
		visit := func(e *entry) bool {
			more = pg.take(e)
			return more
		}
		if s.start != nil && p.prefix == s.startPart.prefix && p.hk == s.startPart.hk {
			p.items.AscendGreaterOrEqual(s.start, func(e *entry) bool {
				if compareEntries(e, s.start) == 0 {
					return true
				}
				return visit(e)
			})
		} else {
			p.items.Ascend(visit)
		}
		return more
	})
}
