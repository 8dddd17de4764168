package memdb

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// Only the Loader creates a table with '$' in its name; requests may then
// name it, while a '$' name that is no table, or CreateTable with one,
// fails DynamoDB's validation as before.
func TestDerivedTableNames(t *testing.T) {
	db := New()
	if _, err := db.CreateTable(ctx, tableDef("t$changes", "pk:S")); err == nil || !strings.Contains(err.Error(), "regular expression pattern") {
		t.Fatalf("CreateTable with '$': %v", err)
	}
	if _, err := db.Loader().CreateTable(ctx, tableDef("t$changes", "pk:S")); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Loader().PutItems(ctx, "t$changes", []rec{{"pk": S("a")}}); err != nil {
		t.Fatal(err)
	}
	if got := scan(t, db, &dynamodb.ScanInput{TableName: aws.String("t$changes")}); len(got.Items) != 1 {
		t.Fatalf("scan: %d items", len(got.Items))
	}
	if d := describeTable(t, db, "t$changes"); aws.ToString(d.TableName) != "t$changes" {
		t.Errorf("described %v", aws.ToString(d.TableName))
	}
	if _, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("t$changes"), Key: rec{"pk": S("a")}}); err != nil {
		t.Errorf("GetItem: %v", err)
	}
	if _, err := db.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("u$changes")}); err == nil || !strings.Contains(err.Error(), "regular expression pattern") {
		t.Errorf("scan of a '$' name that is no table: %v", err)
	}
}
