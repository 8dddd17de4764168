package main

import (
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ddbsql/ddbsql/parser"
	"github.com/ddbsql/ddbsql/parser/diag"
)

// flagWord finds a flag spelled as a word of its own: --format in
// "--format csv" or "`--format`", not in "--format-x".
func flagWord(name string) *regexp.Regexp {
	return regexp.MustCompile(`(^|[\s\x60(,|])` + regexp.QuoteMeta(name) + `($|[\s\x60=,)|])`)
}

// singleDashLong finds a long flag written with one dash (-format).
var singleDashLong = regexp.MustCompile(`(^|[\s\x60(,|])-[a-zA-Z][a-zA-Z-]+`)

// TestHelpAndREADMEListEveryFlag walks the flag set: every flag it defines
// appears in --help and in the README's Flags section, spelled the same
// way (two dashes for long flags, one for one-letter flags), and neither
// spells a long flag with one dash.
func TestHelpAndREADMEListEveryFlag(t *testing.T) {
	r := cliRun(t, "", "--help")
	if r.code != 0 || r.err != "" {
		t.Fatalf("--help: exit %d, stderr %q", r.code, r.err)
	}
	help := r.out
	if h := cliRun(t, "", "-h"); h.code != 0 || h.out != help {
		t.Errorf("-h differs from --help: exit %d\n%s", h.code, h.out)
	}
	readme, err := os.ReadFile(filepath.FromSlash(readmePath))
	if err != nil {
		t.Fatal(err)
	}
	flags := section(string(readme), "## Flags")
	if flags == "" {
		t.Fatal("the README has no Flags section")
	}
	n := 0
	newFlagSet(&config{}, io.Discard).VisitAll(func(f *flag.Flag) {
		n++
		name := flagName(f.Name)
		if !flagWord(name).MatchString(help) {
			t.Errorf("--help does not list %s", name)
		}
		if !flagWord(name).MatchString(flags) {
			t.Errorf("the README's Flags section does not list %s", name)
		}
	})
	if n < 20 {
		t.Errorf("the flag set has only %d flags", n)
	}
	for _, line := range strings.Split(help, "\n") {
		if utf8.RuneCountInString(line) > 80 && strings.Contains(strings.TrimSpace(line), " ") {
			t.Errorf("--help has a line wider than 80 columns: %q", line)
		}
	}
	for where, text := range map[string]string{"--help": help, "the README's Flags section": flags} {
		if m := singleDashLong.FindString(text); m != "" {
			t.Errorf("%s spells a long flag with one dash: %q", where, strings.TrimSpace(m))
		}
	}
}

// TestHelpListsEveryStatement checks that --help lists each kind of
// statement the parser accepts, and that each example it would show is
// one the parser takes. The statement-starting words come from the
// parser's own message for a statement it does not know, so a new kind
// of statement shows up here.
func TestHelpListsEveryStatement(t *testing.T) {
	help := cliRun(t, "", "--help").out
	kinds := []struct{ inHelp, example string }{
		{"SELECT", "SELECT a FROM t WHERE PK = 'x'"},
		{"JOIN", "SELECT o.a FROM t o JOIN u c ON o.id = c.id WHERE o.PK = 'x'"},
		{"USE INDEX (i)", "SELECT a FROM t USE INDEX (i) WHERE PK = 'x'"},
		{"FORCE INDEX (i)", "SELECT a FROM t FORCE INDEX (i) WHERE PK = 'x'"},
		{"IGNORE INDEX (i)", "SELECT a FROM t IGNORE INDEX (i) WHERE PK = 'x'"},
		{"FROM `t`.`i`", "SELECT a FROM `t`.`i` WHERE k = 'x'"},
		{"EXPLAIN SELECT", "EXPLAIN SELECT a FROM t WHERE PK = 'x'"},
		{"EXPLAIN ANALYZE SELECT", "EXPLAIN ANALYZE SELECT a FROM t WHERE PK = 'x'"},
		{"EXPLAIN t", "EXPLAIN t"},
		{"DESCRIBE t", "DESCRIBE t"},
		{"DESC t", "DESC t"},
		{"SHOW TABLES", "SHOW TABLES"},
		{"SHOW INDEXES FROM t", "SHOW INDEXES FROM t"},
		{"SHOW INDEX", "SHOW INDEX FROM t"},
		{"SHOW KEYS", "SHOW KEYS IN t"},
	}
	for _, k := range kinds {
		if !strings.Contains(help, k.inHelp) {
			t.Errorf("--help does not list %s", k.inHelp)
		}
		if _, err := parser.Parse(k.example); err != nil {
			t.Errorf("--help lists %s, but the parser rejects %q: %v", k.inHelp, k.example, err)
		}
	}
	_, err := parser.Parse("FROBNICATE t")
	var pe *diag.Error
	if !errors.As(err, &pe) || pe.Phase != diag.Parse {
		t.Fatalf("an unknown statement: %v, want a parser error", err)
	}
	m := regexp.MustCompile(`starts with ([A-Z, ]+?)(?: or ([A-Z]+))?$`).FindStringSubmatch(pe.Hint)
	if m == nil {
		t.Fatalf("the parser's hint for an unknown statement no longer lists the statements: %q", pe.Hint)
	}
	for _, word := range append(strings.Split(m[1], ", "), m[2]) {
		if word != "" && !regexp.MustCompile(`(?m)^  `+word+`\b`).MatchString(help) {
			t.Errorf("the parser accepts statements starting with %s, but --help lists none", word)
		}
	}
	if !strings.Contains(help, `\?`) {
		t.Error(`--help does not say that \? lists the REPL's meta-commands`)
	}
}

// TestFlagMessages checks the exact message and exit status of bad flags:
// a misspelt flag gets the flag meant, a duration without a unit the
// form it needs, a bad table name in --data name=PATH and every --key
// mistake the --data and table they concern.
func TestFlagMessages(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, text string) string {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	const two = `{"PK":{"S":"u1"},"SK":{"S":"o1"},"n":{"N":"1"}}
{"PK":{"S":"u1"},"SK":{"S":"o2"},"n":{"N":"2"}}
`
	orders := write("orders.jsonl", two)
	noSK := write("nosk.jsonl", two+`{"PK":{"S":"u2"},"n":{"N":"3"}}`+"\n")
	inEqualsDir := write("run=1/items.jsonl", two)
	demoModel := filepath.FromSlash("../../exec/dynamo/offline/demodata/demo-model.json.gz") // a NoSQL Workbench model

	cases := []struct {
		name string
		args []string
		code int
		err  string // the whole of stderr, or its start when it ends in …
		out  string // stdout, when the command succeeds
	}{
		{name: "misspelt flag", args: []string{"--fromat", "csv"}, code: 2,
			err: "error: unknown flag --fromat; did you mean --format?\n"},
		{name: "missing dash inside", args: []string{"--allowscan"}, code: 2,
			err: "error: unknown flag --allowscan; did you mean --allow-scan?\n"},
		{name: "one dash, misspelt", args: []string{"-regoin", "x"}, code: 2,
			err: "error: unknown flag --regoin; did you mean --region?\n"},
		{name: "a prefix of one flag", args: []string{"--allow"}, code: 2,
			err: "error: unknown flag --allow; did you mean --allow-scan?\n"},
		{name: "upper case", args: []string{"--FORMAT", "csv"}, code: 2,
			err: "error: unknown flag --FORMAT; did you mean --format?\n"},
		{name: "nothing close", args: []string{"--frobnicate"}, code: 2,
			err: "error: unknown flag --frobnicate; ddbsql --help lists the flags\n"},
		{name: "an unknown one-letter flag", args: []string{"-x"}, code: 2,
			err: "error: unknown flag -x; ddbsql --help lists the flags\n"},

		{name: "timeout without a unit", args: []string{"--timeout", "5"}, code: 2,
			err: "error: --timeout 5: use a duration such as 5s, 500ms or 2m\n"},
		{name: "timeout with =", args: []string{"--timeout=1.5"}, code: 2,
			err: "error: --timeout 1.5: use a duration such as 5s, 500ms or 2m\n"},
		{name: "timeout that is no number", args: []string{"--timeout", "soon"}, code: 2,
			err: "error: --timeout soon: use a duration such as 5s, 500ms or 2m\n"},
		{name: "timeout with a blank", args: []string{"--timeout", "5 s"}, code: 2,
			err: "error: --timeout \"5 s\": use a duration such as 5s, 500ms or 2m\n"},
		{name: "timeout with a unit", args: []string{"--demo", "--timeout", "5s", "--format", "csv", "-e", "SELECT id FROM customers WHERE id = 'u_001'"},
			out: "id\nu_001\n"},

		{name: "a table name too short", args: []string{"--data", "x=" + orders}, code: 2,
			err: `error: --data x=` + orders + `: "x" is not a valid table name (3 to 255 characters: letters, digits, _ - .); for a file whose name holds =, write --data TABLE=./x=` + orders + "\n"},
		{name: "a table name with a bad character", args: []string{"--data", "my orders=" + orders}, code: 2,
			err: `error: --data "my orders=` + orders + `": "my orders" is not a valid table name …`},
		{name: "an empty table name", args: []string{"--data", "=" + orders}, code: 2,
			err: `error: --data =` + orders + `: "" is not a valid table name …`},
		{name: "no path after the name", args: []string{"--data", "orders="}, code: 2,
			err: "error: --data orders=: give the path after =, as in --data orders=orders.jsonl\n"},
		{name: "a name", args: []string{"--data", "shop=" + orders, "--key", "PK,SK", "--format", "csv", "-e", "SELECT n FROM shop WHERE PK = 'u1'"},
			out: "n\n1\n2\n"},
		{name: "an = in a directory of the path", args: []string{"--data", inEqualsDir, "--key", "PK,SK", "--format", "csv", "-e", "SELECT n FROM items WHERE PK = 'u1'"},
			out: "n\n1\n2\n"},

		{name: "a malformed --key", args: []string{"--data", orders, "--key", "PK,SK,X"}, code: 2,
			err: "error: --key PK,SK,X for table orders: give the partition key and at most one sort key, PK[,SK] (--key applies to the --data before it)\n"},
		{name: "a --key type that is no type", args: []string{"--data", "shop=" + orders, "--key", "PK:Q"}, code: 2,
			err: `error: --key PK:Q for table shop: key PK: type "Q" is not S, N or B (--key applies to the --data before it)` + "\n"},
		{name: "a --key for a folder", args: []string{"--data", dir, "--key", "PK:Q"}, code: 2,
			err: `error: --key PK:Q for --data ` + dir + `: key PK: type "Q" is not S, N or B (--key applies to the --data before it)` + "\n"},
		{name: "a malformed --key before any --data", args: []string{"--key", "PK,PK", "--data", orders}, code: 2,
			err: "error: --key PK,PK (before any --data, so for every --data): the partition and sort keys are both PK\n"},
		{name: "a --key and no --data", args: []string{"--key", "PK,SK", "-e", "SHOW TABLES"}, code: 2,
			err: "error: --key PK,SK: --key applies to the --data before it, and there is no --data; write --data PATH --key PK,SK\n"},
		{name: "two --key for one --data", args: []string{"--data", orders, "--key", "PK", "--key", "PK,SK"}, code: 2,
			err: "error: --key PK,SK for table orders: that --data already has --key PK; give one --key after each --data (--key applies to the --data before it)\n"},
		{name: "two --key before any --data", args: []string{"--key", "PK", "--key", "id", "--data", orders}, code: 2,
			err: "error: --key id: --key PK came before it and before any --data; give one --key after each --data it is for\n"},
		{name: "items without the --key sort key", args: []string{"--data", noSK, "--key", "PK,SK", "--allow-scan", "-e", "SELECT * FROM nosk"}, code: 1,
			err: "error: --key PK,SK for table nosk: " + noSK + ":3: item has no sort key SK (table nosk has key PK, SK) (--key applies to the --data before it)\n"},
		{name: "a key of another type", args: []string{"--data", "shop=" + orders, "--key", "PK:N", "--allow-scan", "-e", "SELECT * FROM shop"}, code: 1,
			err: "error: --key PK:N for table shop: " + orders + ":1: key PK is S here, but the table's PK is N (declared by --key) (--key applies to the --data before it)\n"},
		{name: "a --key before any --data, for the second", args: []string{"--key", "PK,SK", "--data", orders, "--data", noSK, "-e", "SELECT PK FROM nosk WHERE PK = 'u1'"}, code: 1,
			err: "error: --key PK,SK for table nosk: " + noSK + ":3: item has no sort key SK …"},
		{name: "a --key after another --data", args: []string{"--data", noSK, "--data", orders, "--key", "PK,SK", "-e", "SHOW TABLES"}, code: 1,
			err: "error: " + noSK + ": no key schema in nosk.jsonl: a file of items does not say which attributes are the table's keys; pass --key PK[,SK], right after --data " + noSK + "\n"},
		{name: "a --key a model disagrees with", args: []string{"--data", demoModel, "--key", "id", "-e", "SHOW TABLES"}, code: 1,
			err: "error: " + demoModel + ": --key id disagrees with table app's key in the model (PK, SK) (--key applies to the --data before it)\n"},
		{name: "the same --key for each", args: []string{"--data", orders, "--key", "PK,SK", "--data", "more=" + orders, "--key", "PK,SK", "--format", "csv", "-e", "SELECT COUNT(*) AS n FROM more WHERE PK = 'u1'"},
			out: "n\n2\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := cliRun(t, "", c.args...)
			checkClean(t, r)
			if r.code != c.code {
				t.Errorf("exit %d, want %d\nstderr: %s", r.code, c.code, r.err)
			}
			if prefix, ok := strings.CutSuffix(c.err, "…"); ok {
				if !strings.HasPrefix(r.err, prefix) {
					t.Errorf("stderr\n%q\nwant it to start with\n%q", r.err, prefix)
				}
			} else if r.err != c.err {
				t.Errorf("stderr\n%q\nwant\n%q", r.err, c.err)
			}
			if c.code == 0 && r.out != c.out {
				t.Errorf("stdout %q, want %q", r.out, c.out)
			}
		})
	}
}

// TestDataFileWithEquals checks a file of the current directory whose name
// holds an "=": --data a=b.jsonl reads table a from b.jsonl and, when only
// the file a=b.jsonl exists, says how to write it; items=./a=b.jsonl loads it.
func TestDataFileWithEquals(t *testing.T) {
	t.Chdir(t.TempDir())
	const items = `{"PK":{"S":"u1"},"n":{"N":"1"}}` + "\n"
	if err := os.WriteFile("abc=def.jsonl", []byte(items), 0o600); err != nil {
		t.Fatal(err)
	}
	r := cliRun(t, "", "--data", "abc=def.jsonl", "--key", "PK", "-e", "SHOW TABLES")
	want := "error: def.jsonl: cannot read: no such file or directory (--data abc=def.jsonl names table abc; to load the file abc=def.jsonl, write --data TABLE=./abc=def.jsonl)\n"
	if r.code != 1 || r.err != want {
		t.Errorf("exit %d, stderr\n%q\nwant\n%q", r.code, r.err, want)
	}
	r = cliRun(t, "", "--data", "items=./abc=def.jsonl", "--key", "PK", "--format", "csv", "-e", "SELECT n FROM items WHERE PK = 'u1'")
	if r.code != 0 || r.out != "n\n1\n" {
		t.Errorf("items=./abc=def.jsonl: exit %d, stdout %q, stderr %q", r.code, r.out, r.err)
	}
}
