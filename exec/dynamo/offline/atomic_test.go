package offline

import (
	"context"
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/parser/diag"
)

// A failing source, whichever it is, leaves nothing loaded: the tables of
// the sources before it are deleted again, and the DB is not frozen.
func TestAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	good := write(t, dir, "good.jsonl", lines(lineA, lineB, lineC))
	model := write(t, dir, "model.json", workbenchModel)
	bad := write(t, dir, "bad.jsonl", lines(lineA, `{"PK":{"S":"a"}}`))
	for _, tc := range []struct {
		name    string
		sources []Source
	}{
		{"second source fails", []Source{{Path: good, Keys: pkSK}, {Path: bad, Keys: pkSK}}},
		{"third source fails", []Source{{Path: model}, {Path: good, Keys: pkSK}, {Path: bad, Keys: pkSK}}},
		{"first source fails", []Source{{Path: bad, Keys: pkSK}, {Path: good, Keys: pkSK}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := memdb.New()
			keep(t, db)
			loadErr(t, db, diag.CodeMissingKey, tc.sources...)
			if names := tableNames(t, db); len(names) != 1 || names[0] != "kept" {
				t.Fatalf("tables after a failed load: %v, want only the table that was there before", names)
			}
			if db.IsReadOnly() {
				t.Error("a failed Load froze the DB")
			}
			// The same sources without the bad one load afterwards.
			var ok []Source
			for _, s := range tc.sources {
				if s.Path != bad {
					ok = append(ok, s)
				}
			}
			mustLoad(t, db, ok...)
		})
	}
}

// A later table of the same Workbench model failing removes the earlier ones.
func TestAllOrNothingWithinModel(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "m.json", replaceOnce(workbenchModel, `{"id": {"S": "c2"}, "name": {"S": "Bob"}}`, `{"name": {"S": "Bob"}}`))
	db := newDB()
	loadErr(t, db, diag.CodeMissingKey, Source{Path: p})
	if names := tableNames(t, db); len(names) != 0 {
		t.Fatalf("tables %v", names)
	}
}

func TestCancelled(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "good.jsonl", lines(lineA, lineB, lineC))
	c, cancel := context.WithCancel(ctx)
	cancel()
	db := newDB()
	tables, err := Load(c, db, []Source{{Path: p, Keys: pkSK}})
	if !errors.Is(err, context.Canceled) || tables != nil {
		t.Fatalf("Load on a cancelled context: %v, %v", tables, err)
	}
	if names := tableNames(t, db); len(names) != 0 {
		t.Fatalf("tables %v", names)
	}
}

// keep creates a table "kept" that a failed Load must leave alone.
func keep(t *testing.T, db *memdb.DB) {
	t.Helper()
	_, err := db.Loader().CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("kept"),
		BillingMode:          types.BillingModePayPerRequest,
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}}})
	if err != nil {
		t.Fatal(err)
	}
}

func replaceOnce(s, old, new string) string {
	for i := 0; i+len(old) <= len(s); i++ {
		if s[i:i+len(old)] == old {
			return s[:i] + new + s[i+len(old):]
		}
	}
	panic("replaceOnce: " + old + " not found")
}
