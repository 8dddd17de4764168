package repl

import (
	"context"
	"sort"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo"
)

// maxSeenPerTable bounds the attribute names remembered per table.
const maxSeenPerTable = 500

// seenAttrs remembers the attribute names of items DynamoDB returned in
// this session, per table: completion offers them after the key attributes.
type seenAttrs struct {
	mu     sync.Mutex
	tables map[string]map[string]struct{}
}

func newSeenAttrs() *seenAttrs { return &seenAttrs{tables: map[string]map[string]struct{}{}} }

func (s *seenAttrs) add(table string, items ...map[string]types.AttributeValue) {
	if table == "" || len(items) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	set := s.tables[table]
	if set == nil {
		set = map[string]struct{}{}
		s.tables[table] = set
	}
	for _, it := range items {
		for name := range it {
			if len(set) >= maxSeenPerTable {
				return
			}
			set[name] = struct{}{}
		}
	}
}

// Names returns the names seen for a table, sorted.
func (s *seenAttrs) Names(table string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.tables[table]))
	for n := range s.tables[table] {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// recordingClient passes every call to the session's client and records
// the attribute names of the items that come back. It sends nothing extra.
type recordingClient struct {
	dynamo.Client
	seen *seenAttrs
}

func (c recordingClient) GetItem(ctx context.Context, in *dynamodb.GetItemInput, opt ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	out, err := c.Client.GetItem(ctx, in, opt...)
	if err == nil && out != nil && out.Item != nil {
		c.seen.add(aws.ToString(in.TableName), out.Item)
	}
	return out, err
}

func (c recordingClient) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, opt ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	out, err := c.Client.BatchGetItem(ctx, in, opt...)
	if err == nil && out != nil {
		for table, items := range out.Responses {
			c.seen.add(table, items...)
		}
	}
	return out, err
}

func (c recordingClient) Query(ctx context.Context, in *dynamodb.QueryInput, opt ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	out, err := c.Client.Query(ctx, in, opt...)
	if err == nil && out != nil {
		c.seen.add(aws.ToString(in.TableName), out.Items...)
	}
	return out, err
}

func (c recordingClient) Scan(ctx context.Context, in *dynamodb.ScanInput, opt ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	out, err := c.Client.Scan(ctx, in, opt...)
	if err == nil && out != nil {
		c.seen.add(aws.ToString(in.TableName), out.Items...)
	}
	return out, err
}
