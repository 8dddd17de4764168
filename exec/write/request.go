package write

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/parser/diag"
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
func asRead(wp *planner.WritePlan, old value.Value) (expression.ConditionBuilder, error) {
	names := old.SortedKeys()
	if len(names) > maxConditionAttrs {
		names = nil
		for _, n := range append(wp.Table.KeyNames(), wp.Refs...) {
			if old.Attr(n).Kind() != value.Missing {
				names = appendOnce(names, n)
			}
		}
	}
	var absent []string
	refs := append([]string(nil), wp.Refs...)
	sort.Strings(refs)
	for _, n := range refs {
		if old.Attr(n).Kind() == value.Missing {
			absent = append(absent, n)
		}
	}
	return holdsAttrs(wp.Table.PK.Name, old, names, absent)
}

// maxLeafConditions bounds the comparisons one document attribute is
// checked with member by member; a larger one is compared whole.
const maxLeafConditions = 64

// holdsAttrs is the condition that an item exists, that each of names
// holds its value in img, and that each of absent is missing. A map or
// list is compared member by member (its type, its size, and each
// element), which DynamoDB and dynalite both evaluate; dynalite never
// finds two maps or lists equal with =.
func holdsAttrs(pk string, img value.Value, names, absent []string) (expression.ConditionBuilder, error) {
	conds := []expression.ConditionBuilder{expression.AttributeExists(expression.NameNoDotSplit(pk))}
	for _, n := range append(append([]string{pk}, names...), absent...) {
		if strings.ContainsAny(n, "[]") {
			return expression.ConditionBuilder{}, &diag.Error{Phase: diag.Execute, Code: diag.CodeUnsupported,
				Msg: fmt.Sprintf("the attribute name %q holds [ or ], which DynamoDB's expressions read as a list index: ddbsql cannot write items with it", n)}
		}
	}
	for _, n := range names {
		v := img.Attr(n)
		leaves, ok := leafConds(nil, []string{n}, v)
		if !ok || len(leaves) > maxLeafConditions {
			leaves = []expression.ConditionBuilder{expression.NameNoDotSplit(n).Equal(expression.Value(v.AttributeValue()))}
		}
		conds = append(conds, leaves...)
	}
	for _, n := range absent {
		conds = append(conds, expression.AttributeNotExists(expression.NameNoDotSplit(n)))
	}
	if len(conds) == 1 {
		return conds[0], nil
	}
	return expression.And(conds[0], conds[1], conds[2:]...), nil
}

// leafConds compares the value at path (words: a name each, a list index
// appended to its word as [i]) with v, appending to out; false when that
// takes more than maxLeafConditions comparisons or a member's name holds
// [ or ] (then the caller compares the attribute whole).
func leafConds(out []expression.ConditionBuilder, path []string, v value.Value) ([]expression.ConditionBuilder, bool) {
	nb := expression.NameNoDotSplit(path[0])
	for _, w := range path[1:] {
		nb = nb.AppendName(expression.NameNoDotSplit(w))
	}
	if len(out) > maxLeafConditions {
		return out, false
	}
	ok := true
	switch v.Kind() {
	case value.Map:
		out = append(out, nb.AttributeType(expression.Map), nb.Size().Equal(expression.Value(len(v.Attrs()))))
		for _, k := range v.SortedKeys() {
			if strings.ContainsAny(k, "[]") {
				return out, false
			}
			if out, ok = leafConds(out, append(slices.Clone(path), k), v.Attr(k)); !ok {
				return out, false
			}
		}
		return out, true
	case value.List:
		out = append(out, nb.AttributeType(expression.List), nb.Size().Equal(expression.Value(len(v.Elems()))))
		for i, e := range v.Elems() {
			p := slices.Clone(path)
			p[len(p)-1] += "[" + strconv.Itoa(i) + "]"
			if out, ok = leafConds(out, p, e); !ok {
				return out, false
			}
		}
		return out, true
	}
	return append(out, nb.Equal(expression.Value(v.AttributeValue()))), true
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
	cond, err := asRead(wp, t.old)
	if err != nil {
		return nil, err
	}
	e, err := expression.NewBuilder().WithUpdate(up).WithCondition(cond).Build()
	if err != nil {
		return nil, err
	}
	return &dynamodb.UpdateItemInput{TableName: aws.String(wp.Table.Name), Key: t.key,
		UpdateExpression: e.Update(), ConditionExpression: e.Condition(),
		ExpressionAttributeNames: e.Names(), ExpressionAttributeValues: e.Values(),
		ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes}, nil
}

func deleteInput(wp *planner.WritePlan, t *target) (*dynamodb.DeleteItemInput, error) {
	cond, err := asRead(wp, t.old)
	if err != nil {
		return nil, err
	}
	e, err := expression.NewBuilder().WithCondition(cond).Build()
	if err != nil {
		return nil, err
	}
	return &dynamodb.DeleteItemInput{TableName: aws.String(wp.Table.Name), Key: t.key,
		ConditionExpression: e.Condition(), ExpressionAttributeNames: e.Names(), ExpressionAttributeValues: e.Values(),
		ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes}, nil
}
