package write

import (
	"sort"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/value"
)

// maxConditionAttrs bounds the attributes a condition compares one by one:
// DynamoDB allows 300 operators and 4 KB of expression text. An item with
// more attributes is compared on its key and the attributes the statement
// names (which still makes the WHERE hold, and a replay fail).
const maxConditionAttrs = 60

// asRead is the condition that the item is still as it was read: the
// attributes it had equal their values, those the statement names that it
// lacked still absent, and the item present.
func asRead(wp *planner.WritePlan, old value.Value) expression.ConditionBuilder {
	names := old.SortedKeys()
	if len(names) > maxConditionAttrs {
		names = nil
		for _, n := range append(wp.Table.KeyNames(), wp.Refs...) {
			if old.Attr(n).Kind() != value.Missing {
				names = appendOnce(names, n)
			}
		}
	}
	conds := []expression.ConditionBuilder{expression.AttributeExists(expression.NameNoDotSplit(wp.Table.PK.Name))}
	for _, n := range names {
		conds = append(conds, expression.NameNoDotSplit(n).Equal(expression.Value(old.Attr(n).AttributeValue())))
	}
	refs := append([]string(nil), wp.Refs...)
	sort.Strings(refs)
	for _, n := range refs {
		if old.Attr(n).Kind() == value.Missing {
			conds = append(conds, expression.AttributeNotExists(expression.NameNoDotSplit(n)))
		}
	}
	if len(conds) == 1 {
		return conds[0]
	}
	return expression.And(conds[0], conds[1], conds[2:]...)
}

func appendOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// changes lists the top-level attributes an update sets (new or changed
// values) and removes.
func changes(old, nv value.Value) (set []string, remove []string) {
	for _, n := range nv.SortedKeys() {
		if ov := old.Attr(n); ov.Kind() == value.Missing || !value.Equal(ov, nv.Attr(n)) || ov.Kind() != nv.Attr(n).Kind() {
			set = append(set, n)
		}
	}
	for _, n := range old.SortedKeys() {
		if nv.Attr(n).Kind() == value.Missing {
			remove = append(remove, n)
		}
	}
	return set, remove
}

func putInput(wp *planner.WritePlan, t *target) (*dynamodb.PutItemInput, error) {
	item := map[string]types.AttributeValue{}
	for n, v := range t.new.Attrs() {
		item[n] = v.AttributeValue()
	}
	in := &dynamodb.PutItemInput{TableName: aws.String(wp.Table.Name), Item: item, ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes}
	if wp.Kind == planner.WriteInsert {
		e, err := expression.NewBuilder().WithCondition(expression.AttributeNotExists(expression.NameNoDotSplit(wp.Table.PK.Name))).Build()
		if err != nil {
			return nil, err
		}
		in.ConditionExpression, in.ExpressionAttributeNames = e.Condition(), e.Names()
	}
	return in, nil
}

// updateInput is the UpdateItem of t, or nil when the new image equals
// the old one (nothing to send).
func updateInput(wp *planner.WritePlan, t *target) (*dynamodb.UpdateItemInput, error) {
	set, remove := changes(t.old, t.new)
	if len(set) == 0 && len(remove) == 0 {
		return nil, nil
	}
	var up expression.UpdateBuilder
	for _, n := range set {
		up = up.Set(expression.NameNoDotSplit(n), expression.Value(t.new.Attr(n).AttributeValue()))
	}
	for _, n := range remove {
		up = up.Remove(expression.NameNoDotSplit(n))
	}
	e, err := expression.NewBuilder().WithUpdate(up).WithCondition(asRead(wp, t.old)).Build()
	if err != nil {
		return nil, err
	}
	return &dynamodb.UpdateItemInput{TableName: aws.String(wp.Table.Name), Key: t.key,
		UpdateExpression: e.Update(), ConditionExpression: e.Condition(),
		ExpressionAttributeNames: e.Names(), ExpressionAttributeValues: e.Values(),
		ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes}, nil
}

func deleteInput(wp *planner.WritePlan, t *target) (*dynamodb.DeleteItemInput, error) {
	e, err := expression.NewBuilder().WithCondition(asRead(wp, t.old)).Build()
	if err != nil {
		return nil, err
	}
	return &dynamodb.DeleteItemInput{TableName: aws.String(wp.Table.Name), Key: t.key,
		ConditionExpression: e.Condition(), ExpressionAttributeNames: e.Names(), ExpressionAttributeValues: e.Values(),
		ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes}, nil
}
