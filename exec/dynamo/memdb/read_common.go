package memdb

import (
	"regexp"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/planner/ddblimits"
	"github.com/ddbsql/ddbsql/planner/value"
)

// Validation and page set-up shared by Query and Scan.

// readShape is the part of a Query or Scan input both validate alike.
type readShape struct {
	op         string // "Query" or "Scan"
	tableName  *string
	indexName  *string
	limit      *int32
	selectAttr types.Select
	projection *string
	consistent *bool
	startKey   map[string]types.AttributeValue
	legacy     []string // legacy (non-expression) parameters present
}

func (s readShape) check(db *DB, c *constraintErrors) {
	db.checkTableName(c, aws.ToString(s.tableName), "tableName")
	if s.indexName != nil {
		c.checkName(*s.indexName, "indexName")
	}
	if s.limit != nil && *s.limit < 1 {
		c.add(*s.limit, "limit", "Member must have value greater than or equal to 1")
	}
	switch s.selectAttr {
	case "", types.SelectAllAttributes, types.SelectAllProjectedAttributes, types.SelectCount, types.SelectSpecificAttributes:
	default:
		c.add(s.selectAttr, "select", "Member must satisfy enum value set: [SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES]")
	}
}

// newPage starts the page of a Query or Scan of t (or ix) with the
// input's Select, Limit and ConsistentRead.
func (s readShape) newPage(t *table, ix *index, pe *parsedExprs, fetch bool, capacity types.ReturnConsumedCapacity) *page {
	return &page{req: &pageReq{t: t, ix: ix, filter: pe.filter, projection: pe.projection,
		count: s.selectAttr == types.SelectCount, fetch: fetch, limit: int(aws.ToInt32(s.limit)),
		consistent: aws.ToBool(s.consistent), capacity: capacity}}
}

// pageAnswer is what QueryOutput and ScanOutput both report of a page.
type pageAnswer struct {
	items          []map[string]types.AttributeValue
	count, scanned int32
	lastKey        map[string]types.AttributeValue
	consumed       *types.ConsumedCapacity
}

// answer counts the items a page read and renders what it returns.
func (db *DB) answer(pg *page) pageAnswer {
	db.itemsRead.Add(int64(len(pg.read)))
	items, count := pg.results()
	return pageAnswer{items: items, count: int32(count), scanned: int32(len(pg.read)),
		lastKey: pg.lastKey(), consumed: pg.consumed()}
}

// startEntry is the position an ExclusiveStartKey names in t (or ix).
func (t *table) startEntry(ix *index, esk attrs) *entry {
	if ix == nil {
		_, e := t.baseEntry(esk)
		return e
	}
	_, e := t.indexEntry(ix, esk)
	return e
}

func checkCapacityMode(c *constraintErrors, m types.ReturnConsumedCapacity) {
	switch m {
	case "", types.ReturnConsumedCapacityIndexes, types.ReturnConsumedCapacityTotal, types.ReturnConsumedCapacityNone:
	default:
		c.add(m, "returnConsumedCapacity", "Member must satisfy enum value set: [INDEXES, TOTAL, NONE]")
	}
}

var startKeyPlainMsg = regexp.MustCompile(`contains duplicates|number set|numeric value|significant digits|number with magnitude`)

// checkStartKeyValues validates the attribute values of an
// ExclusiveStartKey (before the table is looked at).
func checkStartKeyValues(esk map[string]types.AttributeValue) error {
	for _, k := range sortedNames(esk) {
		if msg := checkAttributeValue(esk[k]); msg != "" {
			if !startKeyPlainMsg.MatchString(msg) {
				msg = "The provided starting key is invalid: " + msg
			}
			return validationError(msg)
		}
	}
	return nil
}

func checkLegacy(legacy []string) error {
	if len(legacy) > 0 {
		return validationErrorf("memdb: legacy parameter %s is not supported; use expressions", legacy[0])
	}
	return nil
}

// checkSelect applies DynamoDB's Select/ProjectionExpression rules.
func (s readShape) checkSelect() error {
	if s.selectAttr == types.SelectSpecificAttributes && s.projection == nil {
		msg := "Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES"
		if s.op == "Query" {
			msg = "1 validation error detected: " + msg
		}
		return validationError(msg)
	}
	if s.projection != nil && s.selectAttr != "" && s.selectAttr != types.SelectSpecificAttributes {
		target := string(s.selectAttr)
		if s.selectAttr == types.SelectCount {
			target = "only the Count"
		}
		return validationErrorf("Cannot specify the ProjectionExpression when choosing to get %s", target)
	}
	if s.selectAttr == types.SelectAllProjectedAttributes && s.indexName == nil {
		return validationError("ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName")
	}
	return nil
}

// resolveIndex finds the index a read names and applies the index rules:
// GSIs are eventually consistent only, and Select=ALL_ATTRIBUTES on a
// partial projection fetches from the table (LSI) or is refused (GSI).
func (s readShape) resolveIndex(t *table) (ix *index, fetch bool, err error) {
	if s.indexName == nil {
		return nil, false, nil
	}
	ix = t.index(*s.indexName)
	if ix == nil {
		return nil, false, validationErrorf("The table does not have the specified index: %s", *s.indexName)
	}
	if ix.global && aws.ToBool(s.consistent) {
		return nil, false, validationError("Consistent reads are not supported on global secondary indexes")
	}
	fetch = s.selectAttr == types.SelectAllAttributes && ix.projection.ProjectionType != types.ProjectionTypeAll
	return ix, fetch, nil
}

func (s readShape) fetchOnGSI(ix *index, fetch bool) error {
	if fetch && ix.global {
		return validationErrorf("One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global secondary index %s because its projection type is not ALL", ix.name)
	}
	return nil
}

// keyPiece validates one key attribute of a key against its schema type.
func keyPiece(key attrs, attr string, typ types.ScalarAttributeType, isHash bool) error {
	v, ok := key.get(attr)
	if !ok || typeName(v) != string(typ) {
		return validationError("The provided key element does not match the schema")
	}
	if v.Text() == "" && (typ == types.ScalarAttributeTypeS || typ == types.ScalarAttributeTypeB) {
		kind := "string"
		if typ == types.ScalarAttributeTypeB {
			kind = "binary"
		}
		return validationErrorf("One or more parameter values were invalid: The AttributeValue for a key attribute cannot contain an empty %s value. Key: %s", kind, attr)
	}
	return checkKeySize(v, isHash)
}

func checkKeySize(v value.Value, isHash bool) error {
	if v.Kind() == value.Number {
		return nil
	}
	if isHash && len(v.Text()) > ddblimits.PartitionKeyBytes {
		return validationError("One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes")
	}
	if !isHash && len(v.Text()) > ddblimits.SortKeyBytes {
		return validationError("One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes")
	}
	return nil
}

// checkKey validates a full table key (GetItem, BatchGetItem, DeleteRequest).
func (t *table) checkKey(key attrs) error {
	if len(key) != len(t.keyNames()) {
		return validationError("The provided key element does not match the schema")
	}
	for i, k := range t.keyNames() {
		if err := keyPiece(key, k, t.attrTypes[k], i == 0); err != nil {
			return err
		}
	}
	return nil
}

// startKeyNames are the attributes an ExclusiveStartKey must hold.
func startKeyNames(t *table, ix *index) []string {
	names := t.keyNames()
	if ix != nil {
		for _, k := range []string{ix.hashAttr, ix.rangeAttr} {
			if k != "" && !slices.Contains(names, k) {
				names = append(names, k)
			}
		}
	}
	return names
}
