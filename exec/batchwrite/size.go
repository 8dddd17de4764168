package batchwrite

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/eval"
)

// itemSize is the item's size as DynamoDB counts it, by eval.ItemSize's
// rules, computed on the SDK values the request carries (no conversion).
func itemSize(item Item) (int64, error) {
	var n int64
	for name, av := range item {
		s, err := avSize(av)
		if err != nil {
			return 0, fmt.Errorf("attribute %s: %w", name, err)
		}
		n += int64(len(name)) + s
	}
	return n, nil
}

func avSize(av types.AttributeValue) (int64, error) {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return int64(len(v.Value)), nil
	case *types.AttributeValueMemberN:
		return eval.NumberSize(v.Value), nil
	case *types.AttributeValueMemberB:
		return int64(len(v.Value)), nil
	case *types.AttributeValueMemberBOOL, *types.AttributeValueMemberNULL:
		return 1, nil
	case *types.AttributeValueMemberSS:
		var n int64
		for _, s := range v.Value {
			n += int64(len(s))
		}
		return n, nil
	case *types.AttributeValueMemberNS:
		var n int64
		for _, s := range v.Value {
			n += eval.NumberSize(s)
		}
		return n, nil
	case *types.AttributeValueMemberBS:
		var n int64
		for _, b := range v.Value {
			n += int64(len(b))
		}
		return n, nil
	case *types.AttributeValueMemberL:
		n := int64(3)
		for _, e := range v.Value {
			s, err := avSize(e)
			if err != nil {
				return 0, err
			}
			n += 1 + s
		}
		return n, nil
	case *types.AttributeValueMemberM:
		n := int64(3)
		for k, e := range v.Value {
			s, err := avSize(e)
			if err != nil {
				return 0, err
			}
			n += 1 + int64(len(k)) + s
		}
		return n, nil
	}
	return 0, fmt.Errorf("%T is not a DynamoDB value", av)
}
