package memdb

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/ddbsql/ddbsql/planner/ddblimits"
)

// CreateTable creates a table, ACTIVE at once.
func (db *DB) CreateTable(ctx context.Context, in *dynamodb.CreateTableInput, _ ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error) {
	return db.createTable(ctx, in, honourReadOnly)
}

func (db *DB) createTable(ctx context.Context, in *dynamodb.CreateTableInput, mode writeMode) (*dynamodb.CreateTableOutput, error) {
	if err := db.beginWrite(ctx, "CreateTable", in, mode); err != nil {
		return nil, wrapOp("CreateTable", err)
	}
	t, err := newTable(in, mode == bypassReadOnly)
	if err != nil {
		return nil, wrapOp("CreateTable", err)
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.tables[t.name] != nil {
		return nil, wrapOp("CreateTable", inUse(t.name))
	}
	db.tables[t.name] = t
	return &dynamodb.CreateTableOutput{TableDescription: t.describe()}, nil
}

// newTable validates a CreateTable request (DynamoDB's messages) and
// builds the empty table.
func newTable(in *dynamodb.CreateTableInput, loader bool) (*table, error) {
	if in.TableName == nil {
		return nil, missingParam("CreateTableInput", "TableName")
	}
	var ce constraintErrors
	name := *in.TableName
	if checked, ok := derivedName(name); ok && loader {
		name = checked // a Loader's derived table (derivedname.go)
	}
	ce.checkName(name, "tableName")
	if len(in.KeySchema) < 1 || len(in.KeySchema) > 2 {
		ce.add(in.KeySchema, "keySchema", "Member must have length less than or equal to 2")
	}
	for _, g := range in.GlobalSecondaryIndexes {
		ce.checkName(aws.ToString(g.IndexName), "globalSecondaryIndexes.member.indexName")
	}
	for _, l := range in.LocalSecondaryIndexes {
		ce.checkName(aws.ToString(l.IndexName), "localSecondaryIndexes.member.indexName")
	}
	for _, d := range in.AttributeDefinitions {
		switch d.AttributeType {
		case types.ScalarAttributeTypeS, types.ScalarAttributeTypeN, types.ScalarAttributeTypeB:
		default:
			ce.add(d.AttributeType, "attributeDefinitions.member.attributeType", "Member must satisfy enum value set: [B, N, S]")
		}
	}
	if err := ce.err(); err != nil {
		return nil, err
	}
	if err := checkBilling(in); err != nil {
		return nil, err
	}
	t := &table{name: *in.TableName, attrTypes: map[string]types.ScalarAttributeType{},
		keySchema: in.KeySchema, attrDefs: in.AttributeDefinitions, billing: in.BillingMode, created: time.Now()}
	if sp := in.StreamSpecification; sp != nil && aws.ToBool(sp.StreamEnabled) {
		t.stream = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: sp.StreamViewType}
	}
	if t.billing == "" {
		t.billing = types.BillingModeProvisioned
	}
	if pt := in.ProvisionedThroughput; pt != nil {
		t.rcu, t.wcu = aws.ToInt64(pt.ReadCapacityUnits), aws.ToInt64(pt.WriteCapacityUnits)
	}
	var defs []string
	for _, d := range in.AttributeDefinitions {
		t.attrTypes[aws.ToString(d.AttributeName)] = d.AttributeType
		defs = append(defs, aws.ToString(d.AttributeName))
	}
	keys := keyNamesOf(in.KeySchema)
	if len(keys) > len(defs) {
		return nil, validationError("Invalid KeySchema: Some index key attribute have no definition")
	}
	if err := checkKeySchema(in.KeySchema, defs); err != nil {
		return nil, err
	}
	if in.LocalSecondaryIndexes == nil && in.GlobalSecondaryIndexes == nil && len(in.KeySchema) != len(in.AttributeDefinitions) {
		return nil, validationError("One or more parameter values were invalid: Number of attributes in KeySchema does not exactly match number of attributes defined in AttributeDefinitions")
	}
	t.hashAttr = keys[0]
	if len(keys) > 1 {
		t.rangeAttr = keys[1]
	}
	t.base = newSpace(t.hashAttr, t.rangeAttr)
	if err := t.addIndexes(in, defs); err != nil {
		return nil, err
	}
	return t, nil
}

func checkBilling(in *dynamodb.CreateTableInput) error {
	if in.BillingMode == types.BillingModePayPerRequest {
		if in.ProvisionedThroughput != nil {
			return validationError("One or more parameter values were invalid: Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST")
		}
		return nil
	}
	pt := in.ProvisionedThroughput
	if pt == nil || aws.ToInt64(pt.ReadCapacityUnits) == 0 || aws.ToInt64(pt.WriteCapacityUnits) == 0 {
		return validationError("One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED")
	}
	return nil
}

func keyNamesOf(ks []types.KeySchemaElement) []string {
	names := make([]string, len(ks))
	for i, k := range ks {
		names[i] = aws.ToString(k.AttributeName)
	}
	return names
}

// checkKeySchema checks a table's or index's key schema against the
// attribute definitions.
func checkKeySchema(ks []types.KeySchemaElement, defs []string) error {
	keys := keyNamesOf(ks)
	for _, k := range keys {
		if !slices.Contains(defs, k) {
			return validationErrorf("One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions. Keys: [%s], AttributeDefinitions: [%s]",
				strings.Join(keys, ", "), strings.Join(defs, ", "))
		}
	}
	if len(keys) == 2 && keys[0] == keys[1] {
		return validationError("Both the Hash Key and the Range Key element in the KeySchema have the same name")
	}
	if ks[0].KeyType != types.KeyTypeHash {
		return validationError("Invalid KeySchema: The first KeySchemaElement is not a HASH key type")
	}
	if len(ks) == 2 && ks[1].KeyType != types.KeyTypeRange {
		return validationError("Invalid KeySchema: The second KeySchemaElement is not a RANGE key type")
	}
	return nil
}

func (t *table) addIndexes(in *dynamodb.CreateTableInput, defs []string) error {
	seen := map[string]bool{}
	add := func(name string, global bool, ks []types.KeySchemaElement, proj *types.Projection) error {
		if len(ks) < 1 || len(ks) > 2 {
			return validationErrorf("1 validation error detected: Value '%v' at 'keySchema' failed to satisfy constraint: Member must have length less than or equal to 2", ks)
		}
		if err := checkKeySchema(ks, defs); err != nil {
			return err
		}
		if proj == nil || proj.ProjectionType == "" {
			return validationError("One or more parameter values were invalid: Unknown ProjectionType: null")
		}
		if proj.NonKeyAttributes != nil && proj.ProjectionType != types.ProjectionTypeInclude {
			return validationErrorf("One or more parameter values were invalid: ProjectionType is %s, but NonKeyAttributes is specified", proj.ProjectionType)
		}
		if seen[name] {
			return validationErrorf("One or more parameter values were invalid: Duplicate index name: %s", name)
		}
		seen[name] = true
		keys := keyNamesOf(ks)
		ix := &index{name: name, global: global, hashAttr: keys[0], keySchema: ks, projection: *proj}
		if len(keys) > 1 {
			ix.rangeAttr = keys[1]
		}
		ix.projected = append([]string{t.hashAttr, t.rangeAttr, ix.hashAttr, ix.rangeAttr}, proj.NonKeyAttributes...)
		ix.space = newSpace(ix.hashAttr, ix.rangeAttr)
		t.indexes = append(t.indexes, ix)
		return nil
	}
	if in.LocalSecondaryIndexes != nil {
		if len(in.LocalSecondaryIndexes) == 0 {
			return validationError("One or more parameter values were invalid: List of LocalSecondaryIndexes is empty")
		}
		if t.rangeAttr == "" {
			return validationError("One or more parameter values were invalid: Table KeySchema does not have a range key, which is required when specifying a LocalSecondaryIndex")
		}
		for _, l := range in.LocalSecondaryIndexes {
			name := aws.ToString(l.IndexName)
			if len(l.KeySchema) != 2 {
				return validationErrorf("One or more parameter values were invalid: Index KeySchema does not have a range key for index: %s", name)
			}
			if h := aws.ToString(l.KeySchema[0].AttributeName); h != t.hashAttr {
				return validationErrorf("One or more parameter values were invalid: Index KeySchema does not have the same leading hash key as table KeySchema for index: %s. index hash key: %s, table hash key: %s", name, h, t.hashAttr)
			}
			if err := add(name, false, l.KeySchema, l.Projection); err != nil {
				return err
			}
		}
		if len(in.LocalSecondaryIndexes) > 5 {
			return validationError("One or more parameter values were invalid: Number of LocalSecondaryIndexes exceeds per-table limit of 5")
		}
	}
	if in.GlobalSecondaryIndexes != nil {
		if len(in.GlobalSecondaryIndexes) == 0 {
			return validationError("One or more parameter values were invalid: List of GlobalSecondaryIndexes is empty")
		}
		for _, g := range in.GlobalSecondaryIndexes {
			name := aws.ToString(g.IndexName)
			if in.BillingMode == types.BillingModePayPerRequest && g.ProvisionedThroughput != nil {
				return validationErrorf("One or more parameter values were invalid: ProvisionedThroughput should not be specified for index: %s when BillingMode is PAY_PER_REQUEST", name)
			}
			if err := add(name, true, g.KeySchema, g.Projection); err != nil {
				return err
			}
		}
		if len(in.GlobalSecondaryIndexes) > 20 {
			return validationError("One or more parameter values were invalid: GlobalSecondaryIndex count exceeds the per-table limit of 20")
		}
	}
	return nil
}

// DeleteTable removes a table and its data at once.
func (db *DB) DeleteTable(ctx context.Context, in *dynamodb.DeleteTableInput, _ ...func(*dynamodb.Options)) (*dynamodb.DeleteTableOutput, error) {
	return db.deleteTable(ctx, in, honourReadOnly)
}

func (db *DB) deleteTable(ctx context.Context, in *dynamodb.DeleteTableInput, mode writeMode) (*dynamodb.DeleteTableOutput, error) {
	if err := db.beginWrite(ctx, "DeleteTable", in, mode); err != nil {
		return nil, wrapOp("DeleteTable", err)
	}
	if in.TableName == nil {
		return nil, wrapOp("DeleteTable", missingParam("DeleteTableInput", "TableName"))
	}
	db.mu.Lock()
	t := db.tables[*in.TableName]
	delete(db.tables, *in.TableName)
	db.mu.Unlock()
	if t == nil {
		return nil, wrapOp("DeleteTable", notFound(*in.TableName, controlLookup))
	}
	t.mu.RLock()
	desc := t.describe()
	t.mu.RUnlock()
	desc.TableStatus = types.TableStatusDeleting
	return &dynamodb.DeleteTableOutput{TableDescription: desc}, nil
}

// DescribeTable reports the schema, ACTIVE status and item counts and
// sizes of the table and each index: live ones, or with WithLaggingCounts
// those of the last RefreshCounts.
func (db *DB) DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, _ ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error) {
	if err := db.begin(ctx, "DescribeTable", in); err != nil {
		return nil, wrapOp("DescribeTable", err)
	}
	if in.TableName == nil {
		return nil, wrapOp("DescribeTable", missingParam("DescribeTableInput", "TableName"))
	}
	var ce constraintErrors
	db.checkTableName(&ce, *in.TableName, "tableName")
	if err := ce.err(); err != nil {
		return nil, wrapOp("DescribeTable", err)
	}
	t, err := db.table(*in.TableName, controlLookup)
	if err != nil {
		return nil, wrapOp("DescribeTable", err)
	}
	t.mu.RLock()
	defer t.mu.RUnlock()
	d := t.describe()
	if db.laggingCounts {
		t.showReported(d)
	}
	return &dynamodb.DescribeTableOutput{Table: d}, nil
}

const arnPrefix = "arn:aws:dynamodb:us-east-1:000000000000:table/"

func (t *table) describe() *types.TableDescription {
	d := &types.TableDescription{
		TableName:            aws.String(t.name),
		TableArn:             aws.String(arnPrefix + t.name),
		TableStatus:          types.TableStatusActive,
		KeySchema:            t.keySchema,
		AttributeDefinitions: t.attrDefs,
		CreationDateTime:     aws.Time(t.created),
		ItemCount:            aws.Int64(int64(t.base.count)),
		TableSizeBytes:       aws.Int64(int64(t.base.bytes)),
		ProvisionedThroughput: &types.ProvisionedThroughputDescription{
			ReadCapacityUnits: aws.Int64(t.rcu), WriteCapacityUnits: aws.Int64(t.wcu), NumberOfDecreasesToday: aws.Int64(0),
		},
	}
	if t.billing == types.BillingModePayPerRequest {
		d.BillingModeSummary = &types.BillingModeSummary{BillingMode: t.billing}
	}
	if t.stream != nil {
		d.StreamSpecification = t.stream
	}
	for _, ix := range t.indexes {
		proj := ix.projection
		if ix.global {
			d.GlobalSecondaryIndexes = append(d.GlobalSecondaryIndexes, types.GlobalSecondaryIndexDescription{
				IndexName: aws.String(ix.name), IndexArn: aws.String(arnPrefix + t.name + "/index/" + ix.name),
				KeySchema: ix.keySchema, Projection: &proj, IndexStatus: types.IndexStatusActive,
				ItemCount: aws.Int64(int64(ix.space.count)), IndexSizeBytes: aws.Int64(int64(ix.space.bytes)),
				ProvisionedThroughput: &types.ProvisionedThroughputDescription{
					ReadCapacityUnits: aws.Int64(t.rcu), WriteCapacityUnits: aws.Int64(t.wcu), NumberOfDecreasesToday: aws.Int64(0),
				},
			})
			continue
		}
		d.LocalSecondaryIndexes = append(d.LocalSecondaryIndexes, types.LocalSecondaryIndexDescription{
			IndexName: aws.String(ix.name), IndexArn: aws.String(arnPrefix + t.name + "/index/" + ix.name),
			KeySchema: ix.keySchema, Projection: &proj,
			ItemCount: aws.Int64(int64(ix.space.count)), IndexSizeBytes: aws.Int64(int64(ix.space.bytes)),
		})
	}
	return d
}

// ListTables lists table names in byte order, Limit (≤ 100) at a time.
func (db *DB) ListTables(ctx context.Context, in *dynamodb.ListTablesInput, _ ...func(*dynamodb.Options)) (*dynamodb.ListTablesOutput, error) {
	if err := db.begin(ctx, "ListTables", in); err != nil {
		return nil, wrapOp("ListTables", err)
	}
	limit := ddblimits.ListTablesLimit
	var ce constraintErrors
	if in.Limit != nil {
		limit = int(*in.Limit)
		if limit < 1 {
			ce.add(limit, "limit", "Member must have value greater than or equal to 1")
		}
		if limit > ddblimits.ListTablesLimit {
			ce.add(limit, "limit", "Member must have value less than or equal to 100")
		}
	}
	if in.ExclusiveStartTableName != nil {
		db.checkTableName(&ce, *in.ExclusiveStartTableName, "exclusiveStartTableName")
	}
	if err := ce.err(); err != nil {
		return nil, wrapOp("ListTables", err)
	}
	names := db.tableNames()
	if s := in.ExclusiveStartTableName; s != nil {
		i, _ := slices.BinarySearch(names, *s)
		for i < len(names) && names[i] <= *s {
			i++
		}
		names = names[i:]
	}
	out := &dynamodb.ListTablesOutput{TableNames: names}
	if len(names) > limit {
		out.TableNames = names[:limit]
		out.LastEvaluatedTableName = aws.String(names[limit-1])
	}
	return out, nil
}
