package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
)

func writeTemp(t *testing.T, name, data string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// genLines makes n DynamoDB-JSON lines keyed PK (S) and SK (N).
func genLines(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `{"PK":{"S":"P#%d"},"SK":{"N":"%d"},"v":{"N":"0.%038d"}}`+"\n", i%7, i, i)
	}
	return b.String()
}

func TestLoadCSVInProcess(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	db := memdb.New()
	p := writeTemp(t, "people.csv", "id,age,zip,joined:S\nu1,41,01234,2020\nu2,,99999,2021\n")
	r := invokeWith([]string{"--load", "people=" + p, "--key", "id:S"}, "", db)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.err)
	}
	for _, want := range []string{"created table people (on-demand capacity)\n",
		"people: 2 items from " + p + "; 2 items written, 2 WCU, 1 BatchWriteItem request\n",
		"people: checked: all 2 items are in the table (1 BatchGetItem request, consistent reads, 2 RCU)\n"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.out)
		}
	}
	q := invokeWith([]string{"--format", "ndjson", "--allow-scan", "-e", "SELECT id, age, zip, joined FROM people ORDER BY id"}, "", db)
	want := `{"id":"u1","age":41,"zip":"01234","joined":"2020"}` + "\n" + `{"id":"u2","age":null,"zip":99999,"joined":"2021"}` + "\n"
	if q.out != want {
		t.Fatalf("table after the load:\n%s\nwant\n%s%s", q.out, want, q.err)
	}
}

func TestLoadErrors(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	db := memdb.New()
	bad := writeTemp(t, "bad.jsonl", `{"PK":{"S":"a"},"SK":{"N":"1"}}`+"\n"+`{"PK":{"S":"a"}}`+"\n")
	for _, c := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"--load", "items.jsonl"}, 2, "error: --load items.jsonl: write --load TABLE=PATH"},
		{[]string{"--load", "tab1="}, 2, "error: --load tab1=: give the path after ="},
		{[]string{"--load", "tab1=" + bad, "--demo"}, 2, "cannot be combined with --demo or --data"},
		{[]string{"--load", "tab1=" + bad, "-e", "SELECT 1"}, 2, "--load loads and exits"},
		{[]string{"--load", "tab1=" + bad, "--load", "tab2=" + bad, "--checkpoint", "x.json"}, 2, "--checkpoint names the checkpoint of one --load"},
		{[]string{"--checkpoint", "x.json", "-e", "SELECT 1"}, 2, "--checkpoint is for --load"},
		{[]string{"--load", "tab1=" + bad, "--key", "PK:S", "--key", "SK:N"}, 2, "that --load already has --key PK:S"},
		{[]string{"--load", "tab1=" + bad}, 1, "error: table tab1 does not exist"},
		{[]string{"--load", "tab1=" + bad, "--key", "PK:S,SK:N"}, 1, "error: " + bad + ":2: item has no sort key SK"},
	} {
		r := invokeWith(c.args, "", db)
		if r.code != c.code || !strings.Contains(r.err, c.err) {
			t.Errorf("ddbsql %q: exit %d, stderr %q; want %d and %q", c.args, r.code, r.err, c.code, c.err)
		}
	}
}

// On dynalite, through --endpoint-url: a --key before the --load applies
// to it, and the items are all there afterwards.
func TestLoadDynalite(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	endpoint := dynalitetest.Endpoint(t)
	table := dynalitetest.Prefix(t) + "lines"
	p := writeTemp(t, "items.jsonl", genLines(120))
	r := invoke([]string{"--endpoint-url", endpoint, "--key", "PK:S,SK:N", "--load", table + "=" + p, "--concurrency", "2", "--rate-limit", "5000"}, "")
	if r.code != 0 || !regexp.MustCompile(`: 120 items from .*; 120 items written, 120 WCU, 5 BatchWriteItem requests\n`).MatchString(r.out) {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.code, r.out, r.err)
	}
	out, err := dynalitetest.Client(t).Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String(table), Select: "COUNT"})
	if err != nil || out.Count != 120 {
		t.Fatalf("count %v, %v", out, err)
	}
}
