package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// oddCategories are partition values that exercise Hive's escaping: every
// character it escapes, non-ASCII text, the empty string (the default
// partition, as NULL and a missing attribute are).
var oddCategories = []string{"plain", "a/b", "x=y", "50%", "", "日本語", "q?#", "ctl\x01\x1f\x7f", "sp ace", `{[]}^'"*:\`}

// partItems are the items of the partitioned-export tests: key id, a
// category cat with odd values (NULL on some items, missing on others), a
// small number grp, numbers of 38 digits, documents, sets, binary, an
// attribute only the last items have and one named _extra.
func partItems(n int) []map[string]types.AttributeValue {
	items := make([]map[string]types.AttributeValue, n)
	for i := range items {
		it := map[string]types.AttributeValue{
			"id":    &types.AttributeValueMemberS{Value: fmt.Sprintf("id-%05d", i)},
			"grp":   &types.AttributeValueMemberN{Value: fmt.Sprint(i % 3)},
			"n":     &types.AttributeValueMemberN{Value: fmt.Sprintf("1234567890123456789012345678901234%04d", i)},
			"price": &types.AttributeValueMemberN{Value: fmt.Sprintf("%d.%02d", i, i%100)},
			"doc": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
				"k": &types.AttributeValueMemberS{Value: fmt.Sprint("v", i%4)},
				"l": &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberN{Value: "1"}, &types.AttributeValueMemberBOOL{Value: i%2 == 0}}},
			}},
			"tags": &types.AttributeValueMemberSS{Value: []string{"t" + fmt.Sprint(i%5), "all"}},
			"flag": &types.AttributeValueMemberBOOL{Value: i%3 == 0},
			"bin":  &types.AttributeValueMemberB{Value: []byte{byte(i), 0, 0xff}},
		}
		switch {
		case i%11 == 7:
			it["cat"] = &types.AttributeValueMemberNULL{Value: true}
		case i%13 == 5: // no cat
		default:
			it["cat"] = &types.AttributeValueMemberS{Value: oddCategories[i%len(oddCategories)]}
		}
		if i%4 == 1 {
			it["_extra"] = &types.AttributeValueMemberS{Value: "not special"}
		}
		if i >= n-5 {
			it["zlate"] = &types.AttributeValueMemberN{Value: "-0.00000000000000000000000000000000000001"}
		}
		items[i] = it
	}
	return items
}

// ddbJSON is an item in DynamoDB JSON, as exports and --data files hold it.
func ddbJSON(av types.AttributeValue) any {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return map[string]any{"S": v.Value}
	case *types.AttributeValueMemberN:
		return map[string]any{"N": v.Value}
	case *types.AttributeValueMemberB:
		return map[string]any{"B": base64.StdEncoding.EncodeToString(v.Value)}
	case *types.AttributeValueMemberBOOL:
		return map[string]any{"BOOL": v.Value}
	case *types.AttributeValueMemberNULL:
		return map[string]any{"NULL": true}
	case *types.AttributeValueMemberSS:
		return map[string]any{"SS": v.Value}
	case *types.AttributeValueMemberL:
		var l []any
		for _, e := range v.Value {
			l = append(l, ddbJSON(e))
		}
		return map[string]any{"L": l}
	case *types.AttributeValueMemberM:
		m := map[string]any{}
		for k, e := range v.Value {
			m[k] = ddbJSON(e)
		}
		return map[string]any{"M": m}
	}
	panic(fmt.Sprintf("ddbJSON: %T", av))
}

// writeItemsFile writes items as DynamoDB-JSON lines and returns the path.
func writeItemsFile(t *testing.T, items []map[string]types.AttributeValue) string {
	t.Helper()
	var b strings.Builder
	for _, it := range items {
		m := map[string]any{}
		for k, v := range it {
			m[k] = ddbJSON(v)
		}
		line, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	path := filepath.Join(t.TempDir(), "items.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// createItemsTable creates a table keyed by id on dynalite and puts items.
func createItemsTable(t *testing.T, c *dynamodb.Client, name string, items []map[string]types.AttributeValue) {
	t.Helper()
	ctx := context.Background()
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String(name),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
	})
	if err != nil {
		t.Fatal(err)
	}
	w := dynamodb.NewTableExistsWaiter(c)
	if err := w.Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)}, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(name), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
}
