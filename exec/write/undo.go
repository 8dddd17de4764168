package write

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/engine"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/value"
)

// UndoResult is what Undo did.
type UndoResult struct {
	// Statements are the journaled statements undone, newest first.
	Statements []int
	// Restored are the items put back to their old image; Conflicts the
	// items that no longer hold the image the statement left (someone
	// changed them since), left as they are.
	Restored  []string
	Conflicts []string
}

// Undo puts back the old images a journal recorded, newest item first:
// every statement of the file, or only statement (when positive). Each
// item is restored only if it still holds the new image the statement
// left (a conditional request); one that does not is a conflict, reported
// and left alone. An inserted item is deleted, a deleted one put back, an
// updated one has the attributes the statement changed set back (others'
// later additions of other attributes are kept).
func Undo(ctx context.Context, client dynamo.ItemWriter, cat planner.Catalog, path string, statement int) (*UndoResult, error) {
	lines, err := readJournal(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, &diag.Error{Phase: diag.Execute, Code: diag.CodeIO, Cause: err, Msg: fmt.Sprintf("journal %s does not exist", path),
				Hint: "give --undo the file a --journal run wrote"}
		}
		return nil, err
	}
	res := &UndoResult{}
	seen := map[int]bool{}
	for i := len(lines) - 1; i >= 0; i-- {
		l := lines[i]
		if statement > 0 && l.Statement != statement {
			continue
		}
		if l.Kind != "" {
			if !seen[l.Statement] {
				seen[l.Statement] = true
				res.Statements = append(res.Statements, l.Statement)
			}
			continue
		}
		def, err := cat.Table(ctx, l.Table)
		if err != nil {
			return res, err
		}
		old, nv, err := images(l)
		if err != nil {
			return res, &diag.Error{Phase: diag.Execute, Code: diag.CodeBadJSON, Cause: err, Msg: fmt.Sprintf("journal %s: %v", path, err)}
		}
		ok, key, err := undoOne(ctx, client, def, old, nv)
		if err != nil {
			return res, undoPartial(res, err)
		}
		if ok {
			res.Restored = append(res.Restored, key)
		} else {
			res.Conflicts = append(res.Conflicts, key)
		}
	}
	if statement > 0 && len(res.Statements) == 0 {
		return res, &diag.Error{Phase: diag.Execute, Code: diag.CodeInvalid, Msg: fmt.Sprintf("journal %s has no statement %d", path, statement),
			Hint: "statements are numbered from 1 in the order they were journaled"}
	}
	return res, nil
}

func images(l journalLine) (old, nv value.Value, err error) {
	old, nv = value.MissingValue(), value.MissingValue()
	if len(l.Old) > 0 && string(l.Old) != "null" {
		if old, err = value.ParseItemJSON(l.Old); err != nil {
			return
		}
	}
	if len(l.New) > 0 && string(l.New) != "null" {
		nv, err = value.ParseItemJSON(l.New)
	}
	return
}

// undoOne restores one item; false is a conflict.
func undoOne(ctx context.Context, client dynamo.ItemWriter, def *planner.TableDef, old, nv value.Value) (bool, string, error) {
	img := old
	if img.Kind() != value.Map {
		img = nv
	}
	key, text, err := keyOf(def, img)
	if err != nil {
		return false, "", err
	}
	var sendErr error
	switch {
	case old.Kind() != value.Map: // inserted: delete it
		cond, err := holds(def, nv, nil)
		if err != nil {
			return false, text, err
		}
		e, err := expression.NewBuilder().WithCondition(cond).Build()
		if err != nil {
			return false, text, err
		}
		_, sendErr = client.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(def.Name), Key: key,
			ConditionExpression: e.Condition(), ExpressionAttributeNames: e.Names(), ExpressionAttributeValues: e.Values()})
	case nv.Kind() != value.Map: // deleted: put it back
		item := map[string]types.AttributeValue{}
		for n, v := range old.Attrs() {
			item[n] = v.AttributeValue()
		}
		e, err := expression.NewBuilder().WithCondition(expression.AttributeNotExists(expression.NameNoDotSplit(def.PK.Name))).Build()
		if err != nil {
			return false, text, err
		}
		_, sendErr = client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(def.Name), Item: item,
			ConditionExpression: e.Condition(), ExpressionAttributeNames: e.Names()})
	default: // updated: set the changed attributes back
		set, remove := changes(nv, old)
		if len(set) == 0 && len(remove) == 0 {
			return true, text, nil
		}
		var up expression.UpdateBuilder
		for _, n := range set {
			up = up.Set(expression.NameNoDotSplit(n), expression.Value(old.Attr(n).AttributeValue()))
		}
		for _, n := range remove {
			up = up.Remove(expression.NameNoDotSplit(n))
		}
		var absent []string
		for _, n := range old.SortedKeys() {
			if nv.Attr(n).Kind() == value.Missing {
				absent = append(absent, n)
			}
		}
		cond, err := holds(def, nv, absent)
		if err != nil {
			return false, text, err
		}
		e, err := expression.NewBuilder().WithUpdate(up).WithCondition(cond).Build()
		if err != nil {
			return false, text, err
		}
		_, sendErr = client.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(def.Name), Key: key,
			UpdateExpression: e.Update(), ConditionExpression: e.Condition(), ExpressionAttributeNames: e.Names(), ExpressionAttributeValues: e.Values()})
	}
	if sendErr == nil {
		return true, text, nil
	}
	var ccf *types.ConditionalCheckFailedException
	if errors.As(sendErr, &ccf) {
		return false, text, nil
	}
	return false, text, engine.DynamoError("undo", sendErr)
}

// holds is the condition that an item exists and holds img's attributes,
// and lacks the absent ones.
func holds(def *planner.TableDef, img value.Value, absent []string) (expression.ConditionBuilder, error) {
	return holdsAttrs(def.PK.Name, img, img.SortedKeys(), absent)
}

func undoPartial(res *UndoResult, err error) error {
	if len(res.Restored) == 0 && len(res.Conflicts) == 0 {
		return err
	}
	return &diag.Error{Phase: diag.Execute, Code: diag.CodePartialWrite, Cause: err,
		Msg:  fmt.Sprintf("undo stopped after restoring %d items (%d conflicts): %s", len(res.Restored), len(res.Conflicts), short(err)),
		Hint: "run --undo again: items already restored no longer hold the new image and are reported as conflicts, never changed twice"}
}
