package memdb

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// PutItems stores what PutItem stores, on a read-only DB, and rejects an
// item with PutItem's own error, reporting which item it was.
func TestLoaderPutItems(t *testing.T) {
	db := New(ReadOnly())
	w := db.Loader()
	if _, err := w.CreateTable(ctx, tableDef("tbl", "pk:S", "sk:N")); err != nil {
		t.Fatal(err)
	}
	items := []rec{{"pk": S("a"), "sk": N("1"), "x": N("007")}, {"pk": S("a"), "sk": N("2")}, {"pk": S("b"), "sk": N("1")}}
	if n, err := w.PutItems(ctx, "tbl", items); err != nil || n != len(items) {
		t.Fatalf("PutItems: %d, %v", n, err)
	}
	got := scan(t, db, &dynamodb.ScanInput{TableName: aws.String("tbl")})
	if len(got.Items) != len(items) {
		t.Fatalf("stored %d items, want %d", len(got.Items), len(items))
	}
	if d := describeTable(t, db, "tbl"); aws.ToInt64(d.ItemCount) != int64(len(items)) {
		t.Errorf("table counts %d items", aws.ToInt64(d.ItemCount))
	}

	bad := []rec{{"pk": S("c"), "sk": N("1")}, {"pk": S(""), "sk": N("1")}, {"pk": S("d"), "sk": N("1")}}
	rw := newDB(t, tableDef("tbl", "pk:S", "sk:N"))
	_, want := rw.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: bad[1]})
	if want == nil {
		t.Fatal("PutItem accepted an empty key")
	}
	n, err := w.PutItems(ctx, "tbl", bad)
	if n != 1 || err == nil || err.Error() != want.Error() {
		t.Fatalf("PutItems rejected item %d with %v, want item 1 with %v", n, err, want)
	}
	if _, err := w.PutItems(ctx, "nope", bad[:1]); errCode(err) != "ResourceNotFoundException" {
		t.Errorf("PutItems into a missing table: %v", err)
	}
}
