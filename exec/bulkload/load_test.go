package bulkload_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/exec/bulkload"
	"github.com/ddbsql/ddbsql/parser/diag"
)

func TestLoadJSONLines(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		items := genItems(260)
		p := writeFile(t, t.TempDir(), "items.jsonl", strings.Join(items, "\n")+"\n")
		opts := options(t)
		prog := &bulkload.Progress{}
		opts.Progress = prog
		rep, err := bulkload.Load(context.Background(), b.client, bulkload.Source{Table: b.table("lines"), Path: p, Keys: pkSK}, opts)
		if err != nil {
			t.Fatal(err)
		}
		if !rep.Created || rep.Items != 260 || rep.Written != 260 || rep.Resumed != 0 || rep.Verified != 260 || rep.WCU < 260 || rep.Requests < 11 || rep.VerifyRequests < 3 || rep.VerifyRCU <= 0 {
			t.Fatalf("report %+v", rep)
		}
		if s := prog.Snapshot(); s.Read != 260 || s.Written != 260 || s.Checked != 260 {
			t.Fatalf("progress %+v", s)
		}
		if _, err := os.Stat(rep.Checkpoint); !os.IsNotExist(err) {
			t.Fatalf("checkpoint %s left after a complete load: %v", rep.Checkpoint, err)
		}
		same(t, dump(t, b.client, b.table("lines")), normalized(t, items))

		// Loading again into the existing table (its key schema is read)
		// writes the same items: puts are idempotent.
		rep, err = bulkload.Load(context.Background(), b.client, bulkload.Source{Table: b.table("lines"), Path: p}, opts)
		if err != nil || rep.Created || rep.Written != 260 {
			t.Fatalf("second load: %+v, %v", rep, err)
		}
		same(t, dump(t, b.client, b.table("lines")), normalized(t, items))
	})
}

func TestLoadExportFolder(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		items := genItems(40)
		dir := filepath.Join(t.TempDir(), "AWSDynamoDB", "01747000000000-a1b2c3d4")
		var f1, f2 []string
		for i, it := range items {
			line := `{"Item":` + it + `}`
			if i < 25 {
				f1 = append(f1, line)
			} else {
				f2 = append(f2, line)
			}
		}
		writeFile(t, dir, "data/aaaa.json", strings.Join(f1, "\n")+"\n")
		writeFile(t, dir, "data/bbbb.json", strings.Join(f2, "\n")+"\n")
		writeFile(t, dir, "manifest-files.json", `{"itemCount":25,"dataFileS3Key":"x/AWSDynamoDB/01747000000000-a1b2c3d4/data/aaaa.json"}`+"\n"+
			`{"itemCount":15,"dataFileS3Key":"x/AWSDynamoDB/01747000000000-a1b2c3d4/data/bbbb.json"}`+"\n")
		writeFile(t, dir, "manifest-summary.json", `{"version":"2020-06-30","exportArn":"arn:aws:dynamodb:us-east-1:123456789012:table/Src/export/01747000000000-a1b2c3d4","tableArn":"arn:aws:dynamodb:us-east-1:123456789012:table/Src","manifestFilesS3Key":"x/AWSDynamoDB/01747000000000-a1b2c3d4/manifest-files.json","itemCount":40,"outputFormat":"DYNAMODB_JSON"}`)
		rep, err := bulkload.Load(context.Background(), b.client, bulkload.Source{Table: b.table("export"), Path: filepath.Dir(filepath.Dir(dir)), Keys: pkSK}, options(t))
		if err != nil || rep.Written != 40 || rep.Verified != 40 {
			t.Fatalf("%+v, %v", rep, err)
		}
		same(t, dump(t, b.client, b.table("export")), normalized(t, items))
	})
}

func TestLoadCSVTyping(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		csv := "\ufeffPK,SK,price,zip,code:S,big,ok:BOOL,tags (SS),blob:B,note\n" +
			"a,1,12.50,007,42,12345678901234567890123456789012345678,true,\"{\"\"SS\"\":[\"\"x\"\",\"\"y\"\"]}\",aGk=,\"hello, world\"\n" +
			"a,2,-3e2,,0042,0.000001,false,,,\n"
		p := writeFile(t, t.TempDir(), "rows.csv", csv)
		rep, err := bulkload.Load(context.Background(), b.client, bulkload.Source{Table: b.table("csv"), Path: p, Keys: pkSK}, options(t))
		if err != nil || rep.Written != 2 {
			t.Fatalf("%+v, %v", rep, err)
		}
		same(t, dump(t, b.client, b.table("csv")), normalized(t, []string{
			`{"PK":{"S":"a"},"SK":{"N":"1"},"price":{"N":"12.5"},"zip":{"S":"007"},"code":{"S":"42"},"big":{"N":"12345678901234567890123456789012345678"},"ok":{"BOOL":true},"tags":{"SS":["x","y"]},"blob":{"B":"aGk="},"note":{"S":"hello, world"}}`,
			`{"PK":{"S":"a"},"SK":{"N":"2"},"price":{"N":"-300"},"code":{"S":"0042"},"big":{"N":"0.000001"},"ok":{"BOOL":false}}`,
		}))
	})
}

func TestLoadErrorsNameFileAndLine(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	cases := []struct {
		name, file, data string
		code             diag.Code
		says             string
	}{
		{"csv fields", "a.csv", "PK,SK,x\na,1,2\nb,2\n", diag.CodeBadItem, "a.csv:3"},
		{"csv duplicate", "b.csv", "PK,SK\na,1\nb,1\na,1.0\n", diag.CodeDuplicateKey, "b.csv:4"},
		{"csv empty key", "c.csv", "PK,SK\na,1\n,2\n", diag.CodeMissingKey, "c.csv:3"},
		{"csv no key column", "d.csv", "PK,x\na,1\n", diag.CodeMissingKey, "d.csv:1"},
		{"csv key not a number", "e.csv", "PK,SK\na,one\n", diag.CodeBadItem, "e.csv:2"},
		{"csv 39 digits", "f.csv", "PK,SK,n\na,1,123456789012345678901234567890123456789\n", diag.CodeBadItem, "f.csv:2"},
		{"json line", "g.jsonl", `{"PK":{"S":"a"},"SK":{"N":"1"}}` + "\n" + `{"PK":{"S":"a"},"SK":{"N":"2"}` + "\n", diag.CodeBadJSON, "g.jsonl:2"},
		{"json key type", "h.jsonl", `{"PK":{"S":"a"},"SK":{"S":"1"}}` + "\n", diag.CodeKeyType, "h.jsonl:1"},
		{"too large", "i.jsonl", `{"PK":{"S":"a"},"SK":{"N":"1"},"x":{"S":"` + strings.Repeat("x", 410000) + `"}}` + "\n", diag.CodeBadItem, "i.jsonl:1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := backend{client: newMem(), prefix: "t_"}
			p := writeFile(t, dir, c.file, c.data)
			_, err := bulkload.Load(ctx, b.client, bulkload.Source{Table: "t_errs", Path: p, Keys: pkSK}, options(t))
			if diag.CodeOf(err) != c.code || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("error %v (code %q); want %s at %s", err, diag.CodeOf(err), c.code, c.says)
			}
		})
	}
}

func TestLoadKeySchema(t *testing.T) {
	ctx := context.Background()
	db := newMem()
	p := writeFile(t, t.TempDir(), "x.jsonl", `{"PK":{"S":"a"},"SK":{"N":"1"}}`+"\n")
	if _, err := bulkload.Load(ctx, db, bulkload.Source{Table: "nokeys", Path: p}, options(t)); diag.CodeOf(err) != diag.CodeNotFound {
		t.Fatalf("a missing table without --key: %v", err)
	}
	if _, err := bulkload.Load(ctx, db, bulkload.Source{Table: "made", Path: p, Keys: pkSK}, options(t)); err != nil {
		t.Fatal(err)
	}
	_, err := bulkload.Load(ctx, db, bulkload.Source{Table: "made", Path: p, Keys: []string{"PK:S", "SK:S"}}, options(t))
	if diag.CodeOf(err) != diag.CodeKeyMismatch || !strings.Contains(err.Error(), "whose key is PK:S,SK:N") {
		t.Fatalf("--key against another schema: %v", err)
	}
}
