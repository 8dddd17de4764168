package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDemo runs the quick-start commands of the README on the built-in demo.
func TestDemo(t *testing.T) {
	r := invoke([]string{"--demo", "--format", "csv", "-e", "SHOW TABLES"}, "")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.err)
	}
	for _, table := range []string{"app", "leaderboard", "users", "customers", "orders", "products"} {
		if !strings.Contains(r.out, "\n"+table+"\n") {
			t.Errorf("SHOW TABLES lacks %s:\n%s", table, r.out)
		}
	}
	r = invoke([]string{"--demo", "--format", "csv", "-e", "SELECT SK, title, status FROM app WHERE PK = 'WS#acme' AND begins_with(SK, 'DOC#')"}, "")
	if r.code != 0 || strings.Count(r.out, "DOC#") < 5 {
		t.Fatalf("exit %d, out %q, err %q", r.code, r.out, r.err)
	}
	r = invoke([]string{"--demo", "--format", "csv", "-e", "SELECT o.SK, o.total, c.name FROM orders o JOIN customers c ON o.customer_id = c.id WHERE o.PK = 'USER#u_001'"}, "")
	if r.code != 0 || strings.Count(r.out, "ORDER#") < 1 {
		t.Fatalf("join on the demo: exit %d, out %q, err %q", r.code, r.out, r.err)
	}
}

// TestData loads files given with --data.
func TestData(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "orders.jsonl")
	lines := `{"PK":{"S":"u1"},"SK":{"S":"o1"},"total":{"N":"12.50"}}
{"PK":{"S":"u1"},"SK":{"S":"o2"},"total":{"N":"0.25"}}
{"PK":{"S":"u2"},"SK":{"S":"o1"},"total":{"N":"7"}}
`
	if err := os.WriteFile(good, []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	r := invoke([]string{"--data", good, "--key", "PK,SK", "--format", "csv", "-e", "SELECT SK, total FROM orders WHERE PK = 'u1'"}, "")
	if r.code != 0 || r.out != "SK,total\no1,12.5\no2,0.25\n" {
		t.Fatalf("exit %d, out %q, err %q", r.code, r.out, r.err)
	}
	r = invoke([]string{"--data", "named=" + good, "--key", "PK,SK", "--format", "csv", "-e", "SELECT SUM(total) AS s FROM named WHERE PK = 'u1'"}, "")
	if r.code != 0 || r.out != "s\n12.75\n" {
		t.Fatalf("named table: exit %d, out %q, err %q", r.code, r.out, r.err)
	}

	bad := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(bad, []byte(lines+"{\"PK\":{\"S\":\"u3\"},\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A bad line is met by the statement that reads it: a scan streams
	// the file, a keyed read loads it.
	for _, stmt := range []string{"SELECT COUNT(*) FROM bad", "SELECT * FROM bad WHERE PK = 'u1'"} {
		r = invoke([]string{"--data", bad, "--key", "PK,SK", "--allow-scan", "-e", stmt}, "")
		if r.code != 1 || !strings.HasPrefix(r.err, "error: ") || !strings.Contains(r.err, "bad.jsonl:4") || r.out != "" {
			t.Fatalf("%s: a bad file must fail naming the file and line, printing nothing: exit %d, out %q, err %q", stmt, r.code, r.out, r.err)
		}
	}
	r = invoke([]string{"--data", good, "-e", "SHOW TABLES"}, "")
	if r.code != 1 || !strings.Contains(r.err, "--key") {
		t.Fatalf("items without a key schema must ask for --key: exit %d, err %q", r.code, r.err)
	}
	r = invoke([]string{"--demo", "--endpoint-url", "http://localhost:8000", "-e", "SHOW TABLES"}, "")
	if r.code != 2 {
		t.Fatalf("--demo with --endpoint-url is a usage error: exit %d, err %q", r.code, r.err)
	}
}

// TestBinarySortKeyPrefix reads a binary sort key by a binary prefix: the
// Query must send the prefix as B (a string prefix would be refused by
// DynamoDB for a B key) and return exactly the items that start with it.
func TestBinarySortKeyPrefix(t *testing.T) {
	file := filepath.Join(t.TempDir(), "blobs.jsonl")
	// k = 0x01; s = 0x02ff00, 0x02ff, 0x0200, 0x03; k = 0x02; s = 0x02ff.
	lines := `{"k":{"B":"AQ=="},"s":{"B":"Av8A"},"n":{"N":"1"}}
{"k":{"B":"AQ=="},"s":{"B":"Av8="},"n":{"N":"2"}}
{"k":{"B":"AQ=="},"s":{"B":"AgA="},"n":{"N":"3"}}
{"k":{"B":"AQ=="},"s":{"B":"Aw=="},"n":{"N":"4"}}
{"k":{"B":"Ag=="},"s":{"B":"Av8="},"n":{"N":"5"}}
`
	if err := os.WriteFile(file, []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	r := invoke([]string{"--data", file, "--key", "k:B,s:B", "--format", "csv", "--stats", "text", "-e",
		"SELECT n FROM blobs WHERE k = X'01' AND begins_with(s, X'02FF')"}, "")
	if r.code != 0 || r.out != "n\n2\n1\n" {
		t.Fatalf("exit %d, out %q, err %q", r.code, r.out, r.err)
	}
	if !strings.Contains(r.err, "1 request (Query 1)") {
		t.Errorf("want one Query in the statistics, got %q", r.err)
	}
}
