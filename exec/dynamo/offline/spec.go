package offline

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/planner/value"
)

// tableSpec is a table to create: its key schema and indexes.
type tableSpec struct {
	name string
	from string // the source path, for LoadedTable and messages
	// keys is the primary key, partition key first. A key whose Type is
	// "" takes the type of the first item's attribute.
	keys []keyAttr
	// keysFrom says where the key schema came from ("--key", "the model"),
	// for messages about key types.
	keysFrom string
	gsis     []indexSpec
	lsis     []indexSpec
}

type indexSpec struct {
	name       string
	keys       []keyAttr
	projection types.Projection
}

// createInput is the CreateTable request for the spec. All key types must
// be known.
func (s *tableSpec) createInput() (*dynamodb.CreateTableInput, error) {
	defs := map[string]types.ScalarAttributeType{}
	var order []string
	define := func(owner string, ks []keyAttr) error {
		for _, k := range ks {
			if t, ok := defs[k.Name]; ok {
				if t != k.Type {
					return fmt.Errorf("attribute %s is %s in the table's key but %s in %s", k.Name, t, k.Type, owner)
				}
				continue
			}
			defs[k.Name] = k.Type
			order = append(order, k.Name)
		}
		return nil
	}
	if err := define("the table", s.keys); err != nil {
		return nil, err
	}
	in := &dynamodb.CreateTableInput{
		TableName:   aws.String(s.name),
		BillingMode: types.BillingModePayPerRequest,
		KeySchema:   keySchema(s.keys),
	}
	for _, ix := range s.gsis {
		if err := define("index "+ix.name, ix.keys); err != nil {
			return nil, err
		}
		proj := ix.projection
		in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, types.GlobalSecondaryIndex{
			IndexName: aws.String(ix.name), KeySchema: keySchema(ix.keys), Projection: &proj})
	}
	for _, ix := range s.lsis {
		if err := define("index "+ix.name, ix.keys); err != nil {
			return nil, err
		}
		proj := ix.projection
		in.LocalSecondaryIndexes = append(in.LocalSecondaryIndexes, types.LocalSecondaryIndex{
			IndexName: aws.String(ix.name), KeySchema: keySchema(ix.keys), Projection: &proj})
	}
	for _, name := range order {
		in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{
			AttributeName: aws.String(name), AttributeType: defs[name]})
	}
	return in, nil
}

func keySchema(ks []keyAttr) []types.KeySchemaElement {
	out := make([]types.KeySchemaElement, len(ks))
	for i, k := range ks {
		out[i] = types.KeySchemaElement{AttributeName: aws.String(k.Name), KeyType: types.KeyTypeHash}
		if i == 1 {
			out[i].KeyType = types.KeyTypeRange
		}
	}
	return out
}

// keyNames renders the key schema as "PK, SK".
func keyNames(ks []keyAttr) string {
	names := make([]string, len(ks))
	for i, k := range ks {
		names[i] = k.Name
	}
	return strings.Join(names, ", ")
}

// typeTag is the DynamoDB type of an attribute value ("S", "N", "M", …).
func typeTag(v value.Value) string {
	if v.Kind() == value.Missing {
		return "?"
	}
	return v.Kind().String()
}

// keyText renders a key value for messages: strings quoted, numbers bare,
// binary as base64.
func keyText(v value.Value) string {
	switch v.Kind() {
	case value.String:
		return strconv.Quote(v.Text())
	case value.Number:
		return v.Text()
	case value.Binary:
		return "b64:" + base64.StdEncoding.EncodeToString([]byte(v.Text()))
	}
	return typeTag(v)
}

// keyBytes is the identity of a scalar key value for duplicate detection
// (numbers are canonical after parsing, so 1.0 and 1 agree).
func keyBytes(v value.Value) string {
	switch v.Kind() {
	case value.String, value.Number, value.Binary:
		return v.Text()
	}
	return ""
}
