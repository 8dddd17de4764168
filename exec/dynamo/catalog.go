package dynamo

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/value"
)

// Catalog implements planner.Catalog with DescribeTable and ListTables,
// caching each answer for the session (Refresh forgets them).
type Catalog struct {
	client Client
	mu     sync.Mutex
	tables map[string]*planner.TableDef
	names  []string
	listed bool
}

// NewCatalog wraps a client.
func NewCatalog(c Client) *Catalog {
	return &Catalog{client: c, tables: map[string]*planner.TableDef{}}
}

// Refresh drops cached descriptions.
func (c *Catalog) Refresh() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tables = map[string]*planner.TableDef{}
	c.names, c.listed = nil, false
}

// Table describes a table; a missing table wraps planner.ErrNotFound.
func (c *Catalog) Table(ctx context.Context, name string) (*planner.TableDef, error) {
	c.mu.Lock()
	if t, ok := c.tables[name]; ok {
		c.mu.Unlock()
		return t, nil
	}
	c.mu.Unlock()
	out, err := c.client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)}, MetadataRetries)
	if err != nil {
		var nf *types.ResourceNotFoundException
		if errors.As(err, &nf) {
			return nil, fmt.Errorf("%s: %w", name, planner.ErrNotFound)
		}
		return nil, err
	}
	t, err := TableDefOf(out.Table)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.tables[name] = t
	c.mu.Unlock()
	return t, nil
}

// Tables lists table names (all pages of ListTables), sorted.
func (c *Catalog) Tables(ctx context.Context) ([]string, error) {
	c.mu.Lock()
	if c.listed {
		names := append([]string(nil), c.names...)
		c.mu.Unlock()
		return names, nil
	}
	c.mu.Unlock()
	var names []string
	in := &dynamodb.ListTablesInput{}
	for {
		out, err := c.client.ListTables(ctx, in, MetadataRetries)
		if err != nil {
			return nil, err
		}
		names = append(names, out.TableNames...)
		if out.LastEvaluatedTableName == nil {
			break
		}
		in = &dynamodb.ListTablesInput{ExclusiveStartTableName: out.LastEvaluatedTableName}
	}
	sort.Strings(names)
	c.mu.Lock()
	c.names, c.listed = names, true
	c.mu.Unlock()
	return append([]string(nil), names...), nil
}

// TableDefOf converts a DescribeTable answer into the planner's view.
func TableDefOf(td *types.TableDescription) (*planner.TableDef, error) {
	if td == nil || td.TableName == nil {
		return nil, fmt.Errorf("DescribeTable returned no table description")
	}
	types := map[string]value.Kind{}
	for _, ad := range td.AttributeDefinitions {
		types[aws.ToString(ad.AttributeName)] = kindOf(ad.AttributeType)
	}
	pk, sk, err := keysOf(td.KeySchema, types)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", *td.TableName, err)
	}
	t := &planner.TableDef{Name: *td.TableName, PK: pk, SK: sk,
		ItemCount: aws.ToInt64(td.ItemCount), SizeBytes: aws.ToInt64(td.TableSizeBytes)}
	for _, g := range td.GlobalSecondaryIndexes {
		ipk, isk, err := keysOf(g.KeySchema, types)
		if err != nil {
			return nil, fmt.Errorf("index %s: %w", aws.ToString(g.IndexName), err)
		}
		t.Indexes = append(t.Indexes, planner.IndexDef{Name: aws.ToString(g.IndexName), Global: true, PK: ipk, SK: isk,
			Projection: projectionOf(g.Projection), ItemCount: aws.ToInt64(g.ItemCount), SizeBytes: aws.ToInt64(g.IndexSizeBytes)})
	}
	for _, l := range td.LocalSecondaryIndexes {
		ipk, isk, err := keysOf(l.KeySchema, types)
		if err != nil {
			return nil, fmt.Errorf("index %s: %w", aws.ToString(l.IndexName), err)
		}
		t.Indexes = append(t.Indexes, planner.IndexDef{Name: aws.ToString(l.IndexName), PK: ipk, SK: isk,
			Projection: projectionOf(l.Projection), ItemCount: aws.ToInt64(l.ItemCount), SizeBytes: aws.ToInt64(l.IndexSizeBytes)})
	}
	sort.SliceStable(t.Indexes, func(i, j int) bool { return t.Indexes[i].Name < t.Indexes[j].Name })
	return t, nil
}

func keysOf(schema []types.KeySchemaElement, kinds map[string]value.Kind) (planner.KeyAttr, *planner.KeyAttr, error) {
	var pk planner.KeyAttr
	var sk *planner.KeyAttr
	for _, k := range schema {
		name := aws.ToString(k.AttributeName)
		attr := planner.KeyAttr{Name: name, Type: kinds[name]}
		if attr.Type == value.Missing {
			attr.Type = value.String
		}
		if k.KeyType == types.KeyTypeHash {
			pk = attr
		} else {
			a := attr
			sk = &a
		}
	}
	if pk.Name == "" {
		return pk, nil, fmt.Errorf("key schema has no partition (HASH) key")
	}
	return pk, sk, nil
}

func kindOf(t types.ScalarAttributeType) value.Kind {
	switch t {
	case types.ScalarAttributeTypeN:
		return value.Number
	case types.ScalarAttributeTypeB:
		return value.Binary
	}
	return value.String
}

func projectionOf(p *types.Projection) planner.Projection {
	if p == nil || p.ProjectionType == "" {
		return planner.Projection{Type: "ALL"}
	}
	return planner.Projection{Type: string(p.ProjectionType), NonKey: append([]string(nil), p.NonKeyAttributes...)}
}
