package bulkload_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/bulkload"
	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/planner/value"
)

// backend is where a test loads: the in-process DynamoDB or dynalite, with
// a table name unique to the test.
type backend struct {
	name   string
	client interface {
		bulkload.Client
		Scan(ctx context.Context, in *dynamodb.ScanInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error)
	}
	prefix string
}

func (b backend) table(name string) string { return b.prefix + name }

func eachBackend(t *testing.T, f func(t *testing.T, b backend)) {
	t.Run("memdb", func(t *testing.T) { f(t, backend{name: "memdb", client: memdb.New(), prefix: "t_"}) })
	t.Run("dynalite", func(t *testing.T) {
		f(t, backend{name: "dynalite", client: dynalitetest.Client(t), prefix: dynalitetest.Prefix(t)})
	})
}

// options keeps checkpoints in the test's own folder.
func options(t *testing.T) bulkload.Options {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	return bulkload.Options{Concurrency: 3, Target: "test"}
}

// dump scans the whole table into DynamoDB-JSON lines, sorted.
func dump(t *testing.T, c interface {
	Scan(ctx context.Context, in *dynamodb.ScanInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error)
}, table string) []string {
	t.Helper()
	var rows []string
	in := &dynamodb.ScanInput{TableName: aws.String(table)}
	for {
		out, err := c.Scan(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range out.Items {
			rows = append(rows, render(t, it))
		}
		if out.LastEvaluatedKey == nil {
			break
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
	sort.Strings(rows)
	return rows
}

func render(t *testing.T, it map[string]types.AttributeValue) string {
	v, err := value.FromItem(it)
	if err != nil {
		t.Fatal(err)
	}
	return string(value.AppendDynamoJSON(nil, v))
}

// normalized renders DynamoDB-JSON item lines as dump does.
func normalized(t *testing.T, lines []string) []string {
	var out []string
	for _, l := range lines {
		v, err := value.ParseItemJSON([]byte(l))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(value.AppendDynamoJSON(nil, v)))
	}
	sort.Strings(out)
	return out
}

func same(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("table has %d items, want %d\n got: %.1500s\nwant: %.1500s", len(got), len(want), strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func writeFile(t *testing.T, dir, name, data string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// genItems makes n DynamoDB-JSON items keyed PK (S) and SK (N), with
// exact 38-digit numbers, sets, maps and lists.
func genItems(n int) []string {
	var out []string
	for i := range n {
		out = append(out, fmt.Sprintf(`{"PK":{"S":"P#%02d"},"SK":{"N":"%d"},"amount":{"N":"1234567890123456789012345678901234567.%d"},"tags":{"SS":["a","t%d"]},"doc":{"M":{"n":{"N":"%d.25"},"l":{"L":[{"S":"x"},{"BOOL":true},{"NULL":true}]}}},"pad":{"S":"%s"}}`,
			i%9, i, i%10, i%5, i, strings.Repeat("z", i%50)))
	}
	return out
}

var pkSK = []string{"PK:S", "SK:N"}

func newMem() *memdb.DB { return memdb.New() }
