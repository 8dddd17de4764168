package write_test

import (
	"context"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/engine"
	"github.com/ddbsql/ddbsql/exec/write"
	"github.com/ddbsql/ddbsql/parser"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/value"
)

func runJournaled(t *testing.T, db backend, j *write.Journal, sql string) {
	t.Helper()
	ctx := context.Background()
	st, err := parser.ParseOne(sql)
	if err != nil {
		t.Fatal(err)
	}
	wp, err := planner.PlanWrite(ctx, dynamo.NewCatalog(db), st, planner.Options{Parallelism: 1, AllowScan: true})
	if err != nil {
		t.Fatal(err)
	}
	env := &write.Env{Engine: &engine.Env{Client: db, Mem: memory.DefaultAllocator, Stats: engine.NewStats(), Concurrency: 3},
		Client: db, Journal: j, Text: sql}
	if _, err := write.Run(ctx, env, wp); err != nil {
		t.Fatal(err)
	}
}

// dump is the whole table, one DynamoDB-JSON item a line, sorted.
func dump(t *testing.T, db backend, table string) string {
	t.Helper()
	out, err := db.Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, it := range out.Items {
		v, err := value.FromItem(it)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(value.AppendItemJSON(nil, v)))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// Any sequence of journaled writes followed by --undo restores the table
// exactly; undoing one statement restores only its items; an item changed
// since is a conflict, left as it is.
func TestJournalUndo(t *testing.T) {
	backends(t, func(t *testing.T, db backend, table string) {
		create(t, db, table, item("a", "1", "b", n("1"), "c", s("x")), item("a", "2", "b", n("2")), item("a", "3", "b", n("3"), "c", s("y")))
		before := dump(t, db, table)
		path := filepath.Join(t.TempDir(), "journal.jsonl")
		j, err := write.OpenJournal(path)
		if err != nil {
			t.Fatal(err)
		}
		q := "`" + table + "`"
		runJournaled(t, db, j, "INSERT INTO "+q+" (PK, SK, b) VALUES ('a', 4, 4), ('b', 1, 5)")
		runJournaled(t, db, j, "UPDATE "+q+" SET b = b + 10, c = NULL, d = 'new' WHERE PK = 'a' AND SK <= 3")
		runJournaled(t, db, j, "DELETE FROM "+q+" WHERE PK = 'a' AND b > 12")
		runJournaled(t, db, j, "UPDATE "+q+" SET b = 0 WHERE PK = 'b'")
		if err := j.Close(); err != nil {
			t.Fatal(err)
		}
		afterAll := dump(t, db, table)
		ctx := context.Background()
		// Statement 4 alone.
		res, err := write.Undo(ctx, db, dynamo.NewCatalog(db), path, 4)
		if err != nil || len(res.Restored) != 1 || len(res.Conflicts) != 0 {
			t.Fatalf("undo 4: %+v %v", res, err)
		}
		if numOf(t, get(t, db, table, "b", "1"), "b") != "5" {
			t.Error("undo of statement 4 did not restore b = 5")
		}
		// Someone changes an item statement 2 updated: a conflict.
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item("a", "1", "b", n("99"))}); err != nil {
			t.Fatal(err)
		}
		res, err = write.Undo(ctx, db, dynamo.NewCatalog(db), path, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Conflicts) != 2 || !strings.Contains(strings.Join(res.Conflicts, ";"), "SK=1") {
			// b/1 (statement 4, already undone) and a/1 (changed since).
			t.Errorf("conflicts %v", res.Conflicts)
		}
		if numOf(t, get(t, db, table, "a", "1"), "b") != "99" {
			t.Error("undo overwrote a change made after the statement")
		}
		// Put the concurrent change back the way it was and undo again:
		// now the table is what it was before the four statements.
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item("a", "1", "b", n("1"), "c", s("x"))}); err != nil {
			t.Fatal(err)
		}
		if got := dump(t, db, table); got != before {
			t.Errorf("after undo:\n%s\nwant:\n%s\n(after the writes:\n%s)", got, before, afterAll)
		}
	})
}
