package bulkload

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/read"
	"github.com/ddbsql/ddbsql/parser/diag"
)

// keyAttr is one key attribute of the table loaded.
type keyAttr struct {
	Name string
	Type types.ScalarAttributeType
}

// keySpec splits Source.Keys ("PK", "PK:S") into names and types ("" when
// not given).
func keySpec(keys []string) []keyAttr {
	out := make([]keyAttr, len(keys))
	for i, k := range keys {
		name, typ, _ := strings.Cut(k, ":")
		out[i] = keyAttr{Name: name, Type: types.ScalarAttributeType(strings.ToUpper(typ))}
	}
	return out
}

// tableKeys returns the key schema of the table, creating the table when
// it does not exist and every --key has a type.
func tableKeys(ctx context.Context, c Client, src Source) (keys []keyAttr, created bool, err error) {
	given := keySpec(src.Keys)
	out, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(src.Table)})
	var notFound *types.ResourceNotFoundException
	switch {
	case errors.As(err, &notFound):
		if len(given) == 0 || !allTyped(given) {
			return nil, false, &diag.Error{Phase: diag.Execute, Code: diag.CodeNotFound,
				Msg:  fmt.Sprintf("table %s does not exist", src.Table),
				Hint: "create it first, or give its key schema with types (--key PK:S or --key PK:S,SK:N) and --load creates it (on-demand capacity)"}
		}
		if err := createTable(ctx, c, src.Table, given); err != nil {
			return nil, false, err
		}
		return given, true, nil
	case err != nil:
		return nil, false, read.DynamoError("DescribeTable", err)
	}
	defs := map[string]types.ScalarAttributeType{}
	for _, d := range out.Table.AttributeDefinitions {
		defs[aws.ToString(d.AttributeName)] = d.AttributeType
	}
	for _, k := range out.Table.KeySchema {
		a := keyAttr{Name: aws.ToString(k.AttributeName), Type: defs[aws.ToString(k.AttributeName)]}
		if k.KeyType == "HASH" {
			keys = append([]keyAttr{a}, keys...)
		} else {
			keys = append(keys, a)
		}
	}
	if len(given) > 0 && !sameKeys(given, keys) {
		return nil, false, &diag.Error{Phase: diag.Config, Code: diag.CodeKeyMismatch,
			Msg:  fmt.Sprintf("--key %s does not match table %s, whose key is %s", keysText(given), src.Table, keysText(keys)),
			Hint: "leave --key out: the table's own key schema is used"}
	}
	return keys, false, nil
}

func allTyped(ks []keyAttr) bool {
	for _, k := range ks {
		if k.Type == "" {
			return false
		}
	}
	return true
}

func sameKeys(given, table []keyAttr) bool {
	if len(given) != len(table) {
		return false
	}
	for i := range given {
		if given[i].Name != table[i].Name || (given[i].Type != "" && given[i].Type != table[i].Type) {
			return false
		}
	}
	return true
}

func keysText(ks []keyAttr) string {
	var parts []string
	for _, k := range ks {
		s := k.Name
		if k.Type != "" {
			s += ":" + string(k.Type)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ",")
}

func keyNames(ks []keyAttr) []string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = k.Name
	}
	return out
}

// createTable creates an on-demand table with the key schema and waits
// (at most two minutes) until it is ACTIVE.
func createTable(ctx context.Context, c Client, name string, keys []keyAttr) error {
	in := &dynamodb.CreateTableInput{TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest}
	for i, k := range keys {
		kt := types.KeyTypeHash
		if i == 1 {
			kt = types.KeyTypeRange
		}
		in.KeySchema = append(in.KeySchema, types.KeySchemaElement{AttributeName: aws.String(k.Name), KeyType: kt})
		in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String(k.Name), AttributeType: k.Type})
	}
	if _, err := c.CreateTable(ctx, in); err != nil {
		return read.DynamoError("CreateTable", err)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for delay := 20 * time.Millisecond; ; delay = min(2*delay, time.Second) {
		out, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
		if err == nil && out.Table != nil && out.Table.TableStatus == types.TableStatusActive {
			return nil
		}
		if time.Now().After(deadline) {
			return &diag.Error{Phase: diag.Execute, Code: diag.CodeTimeout, Msg: fmt.Sprintf("table %s was created but is not ACTIVE after two minutes", name),
				Hint: "run the same command again once DESCRIBE shows it ACTIVE"}
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return read.DynamoError("DescribeTable", ctx.Err())
		case <-t.C:
		}
	}
}
