package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

// cliRun runs ddbsql as main does (run: every error printed, panics
// recovered) and returns what it printed.
func cliRun(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), args, streams{in: strings.NewReader(stdin), out: &out, err: &errOut})
	return result{out: out.String(), err: errOut.String(), code: code}
}

// checkClean fails on the things a user must never see on stderr: a stack
// trace, or control characters that would drive the terminal.
func checkClean(t *testing.T, r result) {
	t.Helper()
	for _, stack := range []string{"goroutine ", "panic(", ".go:", "runtime error"} {
		if strings.Contains(r.err, stack) {
			t.Fatalf("a stack trace on stderr:\n%s", r.err)
		}
	}
	for _, c := range r.err {
		if unicode.IsControl(c) && c != '\n' && c != '\t' {
			t.Fatalf("control character %U on stderr: %q", c, r.err)
		}
	}
	if r.code != 0 && !strings.HasPrefix(r.err, "error: ") {
		t.Fatalf("exit %d without an error message: %q", r.code, r.err)
	}
}

// TestCommandLineSurface feeds the command line bad values, bad files and
// enormous statements: each gets a clear error (exit 2 for usage, 1 for a
// statement) or its correct answer, never a panic or a crash.
func TestCommandLineSurface(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	rng := rand.New(rand.NewPCG(1, 2))
	garbage := make([]byte, 4096)
	for i := range garbage {
		garbage[i] = byte(rng.IntN(256))
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(`{"PK":{"S":"a"}}` + "\n" + `{"PK":{"S":"b"}}` + "\n"))
	zw.Close()
	items := write("items.jsonl", []byte(`{"PK":{"S":"a"},"n":{"N":"1"}}`+"\n"+`{"PK":{"S":"b"},"n":{"N":"2"}}`+"\n"))
	binary := write("garbage.bin", garbage)
	truncated := write("truncated.json", []byte(`[{"PK":{"S":"a"}},{"PK":`))
	badGzip := write("cut.json.gz", gz.Bytes()[:gz.Len()/2])
	comments := write("comments.sql", []byte("-- nothing to run\n/* still nothing */\n# nor here\n;;\n"))
	empty := write("empty.sql", nil)

	count := "SELECT COUNT(*) AS n FROM customers"
	keys := make([]string, 100_000)
	for i := range keys {
		keys[i] = fmt.Sprintf("'c_%d'", i)
	}
	keys[500], keys[70_000] = "'u_001'", "'u_002'"
	ors := make([]string, 10_000)
	for i := range ors {
		ors[i] = fmt.Sprintf("name = 'nobody %d'", i)
	}
	ors[9_999] = "name = 'Alice Tanaka'"

	cases := []struct {
		name  string
		stdin string
		args  []string
		code  int
		want  string // in stderr when code != 0, in stdout otherwise
	}{
		// Flags with bad values.
		{name: "negative timeout without a unit", args: []string{"--timeout", "-1", "-e", count}, code: 2, want: `--timeout -1: use a duration such as 5s, 500ms or 2m`},
		{name: "negative timeout", args: []string{"--timeout", "-5s", "-e", count}, code: 2, want: `--timeout -5s: must not be negative`},
		{name: "timeout in bare seconds", args: []string{"--timeout", "30", "-e", count}, code: 2, want: "--timeout 30: use a duration such as 5s, 500ms or 2m"},
		{name: "unknown format", args: []string{"--format", "nope", "-e", count}, code: 2, want: `unknown --format "nope"`},
		{name: "zero segments is the default", args: []string{"--demo", "--allow-scan", "--segments", "0", "--format", "csv", "-e", count}, want: "n\n40\n"},
		{name: "huge segments", args: []string{"--allow-scan", "--segments", "5000000", "-e", count}, code: 2, want: `--segments 5000000: at most 1024`},
		{name: "segments beyond int64", args: []string{"--segments", "99999999999999999999999", "-e", count}, code: 2, want: "at most 1024"},
		{name: "negative segments", args: []string{"--segments", "-2", "-e", count}, code: 2, want: `--segments -2: at least 0`},
		{name: "max-rcu not a number", args: []string{"--max-rcu", "abc", "-e", count}, code: 2, want: `--max-rcu abc: want a number`},
		{name: "max-rcu NaN", args: []string{"--max-rcu", "NaN", "-e", count}, code: 2, want: `--max-rcu NaN: want a number`},
		{name: "rate-limit infinite", args: []string{"--rate-limit", "+Inf", "-e", count}, code: 2, want: `--rate-limit +Inf: want a number`},
		{name: "zero concurrency", args: []string{"--concurrency", "0", "-e", count}, code: 2, want: `--concurrency 0: at least 1`},
		{name: "unknown stats", args: []string{"--stats", "loud", "-e", count}, code: 2, want: `unknown --stats "loud"`},
		{name: "unknown flag", args: []string{"--frobnicate", "-e", count}, code: 2, want: "unknown flag --frobnicate"},
		{name: "flag without its value", args: []string{"-e"}, code: 2, want: "-e needs a value"},
		{name: "bad --key", args: []string{"--data", items, "--key", "PK:X", "-e", "SHOW TABLES"}, code: 2, want: `--key PK:X for table items: key PK: type "X" is not S, N or B (--key applies to the --data before it)`},
		{name: "empty --key", args: []string{"--data", items, "--key", "", "-e", "SHOW TABLES"}, code: 2, want: "empty key attribute name"},
		{name: "--key of the wrong type", args: []string{"--data", items, "--key", "PK:N", "--allow-scan", "-e", "SELECT * FROM items"}, code: 1, want: "key PK is S here, but the table's PK is N"},

		// Data files.
		{name: "missing --data", args: []string{"--data", filepath.Join(dir, "nope.json"), "--key", "PK", "-e", "SHOW TABLES"}, code: 1, want: "cannot read: no such file"},
		{name: "binary --data", args: []string{"--data", binary, "--key", "PK", "-e", "SHOW TABLES"}, code: 1, want: "unknown format"},
		{name: "truncated --data", args: []string{"--data", truncated, "--key", "PK", "--allow-scan", "-e", "SELECT * FROM truncated"}, code: 1, want: "truncated.json"},
		{name: "cut gzip --data", args: []string{"--data", badGzip, "--key", "PK", "-e", "SHOW TABLES"}, code: 1, want: "gzip"},
		{name: "good --data", args: []string{"--data", items, "--key", "PK", "--format", "csv", "-e", "SELECT n FROM items WHERE PK = 'b'"}, want: "n\n2\n"},

		// Scripts.
		{name: "missing -f", args: []string{"--demo", "-f", filepath.Join(dir, "none.sql")}, code: 2, want: "cannot read -f"},
		{name: "a directory as -f", args: []string{"--demo", "-f", dir}, code: 2, want: "is a directory"},
		{name: "binary garbage on stdin", stdin: string(garbage), args: []string{"--demo"}, code: 1, want: "error: <stdin>:1: syntax error at column "},
		{name: "an empty script", args: []string{"--demo", "-f", empty}},
		{name: "empty stdin", args: []string{"--demo"}},
		{name: "a script of comments", args: []string{"--demo", "-f", comments}},
		{name: "comments on stdin", stdin: "-- nothing\n/* */", args: []string{"--demo"}},

		// Enormous statements.
		{name: "an IN list of 100 000 keys", args: []string{"--demo", "--format", "csv", "-e", "SELECT id FROM customers WHERE id IN (" + strings.Join(keys, ", ") + ") ORDER BY id"},
			want: "id\nu_001\nu_002\n"},
		{name: "10 000 OR branches", args: []string{"--demo", "--allow-scan", "--format", "csv", "-e", "SELECT id FROM customers WHERE " + strings.Join(ors, " OR ")},
			want: "id\nu_001\n"},
		{name: "parentheses 10 000 deep", args: []string{"--demo", "-e", "SELECT * FROM customers WHERE " + strings.Repeat("(", 10_000) + "id = 'u_001'" + strings.Repeat(")", 10_000)},
			code: 1, want: "too many nested parentheses"},
		{name: "NOT 30 000 deep", args: []string{"--demo", "-e", "SELECT * FROM customers WHERE " + strings.Repeat("NOT ", 30_000) + "id = 'u_001'"},
			code: 1, want: "expression nested too deeply (more than 20000 levels)"},
		{name: "a 10 MB string literal", args: []string{"--demo", "--allow-scan", "--format", "csv", "-e", "SELECT id FROM customers WHERE name = '" + strings.Repeat("x", 10<<20) + "'"},
			want: "id\n"},
		{name: "a 10 MB string key", args: []string{"--demo", "--format", "csv", "-e", "SELECT id FROM customers WHERE id = '" + strings.Repeat("x", 10<<20) + "'"},
			code: 1, want: "2048 bytes"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := cliRun(t, tc.stdin, tc.args...)
			checkClean(t, r)
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d\nstderr: %.500s", r.code, tc.code, r.err)
			}
			got := r.out
			if tc.code != 0 {
				got = r.err
			}
			if !strings.Contains(got, tc.want) {
				t.Errorf("output lacks %q:\nstdout: %.300s\nstderr: %.500s", tc.want, r.out, r.err)
			}
			if tc.want == "" && tc.code == 0 && (r.out != "" || r.err != "") {
				t.Errorf("nothing to run printed something:\nstdout: %q\nstderr: %q", r.out, r.err)
			}
		})
	}
}
