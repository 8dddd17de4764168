package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mattn/go-shellwords"

	"github.com/ddbsql/ddbsql/parser"
)

// The README's examples are a contract: every statement in a ```sql block
// and every `ddbsql --demo …` (or `go run ./cmd/ddbsql --demo …`) line in a
// ```sh block runs on the demo tables and succeeds, and a SELECT returns at
// least one row. A statement that needs flags says so on a comment line
// right above it in its block:
//
//	-- flags: --allow-scan
//	SELECT category, COUNT(*) FROM products GROUP BY category;
//
// Statements that illustrate an error belong in a ```text block.

const readmePath = "../../README.md"

// flagsComment introduces the flags a ```sql example needs.
const flagsComment = "-- flags:"

// example is one runnable example of the README.
type example struct {
	line int      // 1-based line in the README where it starts
	sql  string   // a ```sql statement ("" for a command line)
	args []string // the command line's arguments after ddbsql, or a statement's flags
}

func (e example) String() string {
	if e.sql != "" {
		return fmt.Sprintf("README.md:%d: %s", e.line, oneLine(e.sql))
	}
	return fmt.Sprintf("README.md:%d: ddbsql %s", e.line, strings.Join(e.args, " "))
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// fence is one fenced code block of a Markdown text.
type fence struct {
	info string // the word after ```, e.g. "sql"
	line int    // 1-based line of the block's first content line
	body string
}

// fences cuts the fenced code blocks out of Markdown text.
func fences(markdown string) ([]fence, error) {
	var out []fence
	var cur *fence
	var body strings.Builder
	sc := bufio.NewScanner(strings.NewReader(markdown))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		switch {
		case cur == nil && strings.HasPrefix(trimmed, "```"):
			cur = &fence{info: strings.TrimSpace(strings.TrimPrefix(trimmed, "```")), line: n + 1}
			body.Reset()
		case cur != nil && trimmed == "```":
			cur.body = body.String()
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			body.WriteString(line)
			body.WriteByte('\n')
		}
	}
	if cur != nil {
		return nil, fmt.Errorf("the code block starting at line %d is never closed", cur.line-1)
	}
	return out, sc.Err()
}

// examples finds the runnable examples of Markdown text: the statements of
// its ```sql blocks and the demo command lines of its ```sh blocks. A demo
// line it cannot run as written is an error, so nothing is skipped.
func examples(markdown string) ([]example, error) {
	blocks, err := fences(markdown)
	if err != nil {
		return nil, err
	}
	var out []example
	for _, b := range blocks {
		switch b.info {
		case "sql":
			for _, p := range parser.Split(b.body) {
				ex := example{line: b.line + strings.Count(b.body[:p.Start], "\n"), sql: p.Text}
				code, flags, err := statementFlags(p.Text)
				if err != nil {
					return nil, fmt.Errorf("README.md:%d: %v", ex.line, err)
				}
				ex.line += strings.Count(p.Text[:len(p.Text)-len(code)], "\n")
				ex.sql, ex.args = code, flags
				out = append(out, ex)
			}
		case "sh":
			lines := strings.Split(b.body, "\n")
			for i := 0; i < len(lines); i++ {
				start, line := i, lines[i]
				// A line ending in \ continues on the next one.
				for strings.HasSuffix(line, "\\") && i+1 < len(lines) {
					i++
					line = strings.TrimSuffix(line, "\\") + " " + lines[i]
				}
				args, demo, err := demoCommand(line)
				if err != nil {
					return nil, fmt.Errorf("README.md:%d: %v", b.line+start, err)
				}
				if demo {
					out = append(out, example{line: b.line + start, args: args})
				}
			}
		}
	}
	return out, nil
}

// statementFlags splits a statement's leading comment lines from its code
// and returns the flags of a "-- flags: …" line among them.
func statementFlags(text string) (code string, flags []string, err error) {
	rest := text
	for {
		line, after, _ := strings.Cut(rest, "\n")
		trimmed := strings.TrimSpace(line)
		if !strings.HasPrefix(trimmed, "--") {
			break
		}
		if f, ok := strings.CutPrefix(trimmed, flagsComment); ok {
			words, err := shellwords.Parse(f)
			if err != nil {
				return "", nil, fmt.Errorf("cannot read %q: %v", trimmed, err)
			}
			flags = append(flags, words...)
		}
		rest = after
	}
	return strings.TrimSpace(rest), flags, nil
}

// demoCommand reads one line of a ```sh block: whether it runs ddbsql on
// the demo tables, and with which arguments.
func demoCommand(line string) ([]string, bool, error) {
	p := shellwords.NewParser()
	p.ParseComment = true
	words, err := p.Parse(line)
	if err != nil {
		return nil, false, fmt.Errorf("cannot split %q into words: %v", line, err)
	}
	var args []string
	switch {
	case len(words) >= 1 && words[0] == "ddbsql":
		args = words[1:]
	case len(words) >= 3 && words[0] == "go" && words[1] == "run" && words[2] == "./cmd/ddbsql":
		args = words[3:]
	default:
		if strings.Contains(line, "ddbsql") && strings.Contains(line, "--demo") {
			return nil, false, fmt.Errorf("a --demo example must start with ddbsql or go run ./cmd/ddbsql so that it can be run as written: %q", line)
		}
		return nil, false, nil
	}
	demo := false
	for _, a := range args {
		demo = demo || a == "--demo"
	}
	if demo && p.Position >= 0 {
		return nil, false, fmt.Errorf("a --demo example must be one plain command (no pipe, redirect or ;) so that it can be run as written: %q", line)
	}
	return args, demo, nil
}

// isSelect reports whether a statement is a SELECT (not EXPLAIN, SHOW…).
func isSelect(sql string) bool {
	word, _, _ := strings.Cut(strings.TrimSpace(sql), " ")
	return strings.EqualFold(word, "SELECT")
}

// check runs an example as ddbsql would and returns what is wrong with it.
func check(t *testing.T, ex example) []string {
	t.Helper()
	var problems []string
	report := func(r result) {
		if r.code != 0 {
			problems = append(problems, fmt.Sprintf("exit status %d", r.code))
		}
		for _, l := range strings.Split(r.err, "\n") {
			if strings.HasPrefix(l, "error:") {
				problems = append(problems, "stderr: "+l)
			}
		}
	}
	// selects runs each SELECT alone, as ndjson, and wants a row.
	selects := func(flags []string, statements []string) {
		for _, s := range statements {
			if !isSelect(s) {
				continue
			}
			args := append(append(append([]string{}, flags...), "--format", "ndjson"), "-e", s)
			r := cliRun(t, "", args...)
			report(r)
			if r.code == 0 && countRows(r.out) == 0 {
				problems = append(problems, fmt.Sprintf("%s returns no rows", oneLine(s)))
			}
		}
	}
	if ex.sql != "" {
		args := append([]string{"--demo"}, ex.args...)
		report(cliRun(t, "", append(args, "-e", ex.sql)...))
		if len(problems) == 0 {
			selects(args, []string{ex.sql})
		}
		return problems
	}
	report(cliRun(t, "", ex.args...))
	if len(problems) > 0 {
		return problems
	}
	flags, statements := splitCommand(ex.args)
	selects(flags, statements)
	return problems
}

// splitCommand separates a command line's -e statements from its other
// arguments.
func splitCommand(args []string) (flags, statements []string) {
	for i := 0; i < len(args); i++ {
		if args[i] == "-e" && i+1 < len(args) {
			for _, p := range parser.Split(args[i+1]) {
				statements = append(statements, p.Text)
			}
			i++
			continue
		}
		flags = append(flags, args[i])
	}
	return flags, statements
}

// countRows counts the rows of ndjson output, checking each is an object.
func countRows(ndjson string) int {
	n := 0
	for _, l := range strings.Split(ndjson, "\n") {
		var row map[string]any
		if strings.TrimSpace(l) != "" && json.Unmarshal([]byte(l), &row) == nil {
			n++
		}
	}
	return n
}

// TestREADMEExamples runs every example of the README on the demo tables.
func TestREADMEExamples(t *testing.T) {
	text, err := os.ReadFile(filepath.FromSlash(readmePath))
	if err != nil {
		t.Fatalf("reading the README: %v", err)
	}
	exs, err := examples(string(text))
	if err != nil {
		t.Fatal(err)
	}
	var statements, commands int
	for _, ex := range exs {
		if ex.sql != "" {
			statements++
		} else {
			commands++
		}
		for _, p := range check(t, ex) {
			t.Errorf("%s: %s", ex, p)
		}
	}
	// The README has a few dozen examples: far fewer means the blocks were
	// not found, not that they pass.
	if statements < 10 || commands < 2 {
		t.Errorf("found only %d ```sql statements and %d demo command lines in the README", statements, commands)
	}
}

// TestREADMEExampleChecks proves the checks catch broken examples: a
// statement that fails, a SELECT that returns nothing, a demo command that
// fails, one that needs flags it does not say, and a demo line that cannot
// be run as written.
func TestREADMEExampleChecks(t *testing.T) {
	const doc = "# t\n\n" +
		"```sql\n" +
		"SELECT SK FROM app WHERE PK = 'WS#acme' LIMIT 1; -- fine\n" +
		"SELECT SK FROM app WHERE nope = 1;\n" +
		"SELECT SK FROM app WHERE PK = 'WS#nobody';\n" +
		"-- a comment\n" +
		"-- flags: --allow-scan --format csv\n" +
		"SELECT COUNT(*) FROM products;\n" +
		"SELECT COUNT(*) FROM products\n" +
		"```\n\n" +
		"```sh\n" +
		"ddbsql --demo -e \"SHOW TABLES\"   # fine\n" +
		"go run ./cmd/ddbsql --demo -e \"SELECT * FROM customers WHERE id = 'c_0001'\"\n" +
		"ddbsql --demo --format csv \\\n" +
		"  -e \"SHOW TABLES\"\n" +
		"ddbsql --endpoint-url http://localhost:8000 -e \"SHOW TABLES\"\n" +
		"```\n"
	exs, err := examples(doc)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		line   int
		args   string
		broken bool
	}{
		{4, "", false},
		{5, "", true}, // the attribute is no key: a Scan, refused
		{6, "", true}, // no rows
		{9, "--allow-scan --format csv", false},
		{10, "", true}, // the same without its flags
		{14, "--demo -e SHOW TABLES", false},
		{15, "--demo -e SELECT * FROM customers WHERE id = 'c_0001'", true}, // no rows
		{16, "--demo --format csv -e SHOW TABLES", false},                   // on two lines
	}
	if len(exs) != len(want) {
		t.Fatalf("found %d examples, want %d: %v", len(exs), len(want), exs)
	}
	for i, w := range want {
		ex := exs[i]
		if ex.line != w.line || strings.Join(ex.args, " ") != w.args {
			t.Errorf("example %d is %s with args %q, want line %d, args %q", i, ex, ex.args, w.line, w.args)
		}
		if problems := check(t, ex); (len(problems) > 0) != w.broken {
			t.Errorf("%s: broken %v, want %v (%v)", ex, len(problems) > 0, w.broken, problems)
		}
	}

	if _, err := examples("```sh\nddbsql --demo -e \"SHOW TABLES\" > tables.txt\n```\n"); err == nil || !strings.Contains(err.Error(), "README.md:2:") {
		t.Errorf("a demo line with a redirect must be an error naming its line, got %v", err)
	}
	if _, err := examples("```sh\necho \"SHOW TABLES;\" | ddbsql --demo\n```\n"); err == nil {
		t.Error("a piped demo command must be an error, not skipped")
	}
	if _, err := examples("```sql\nSELECT 1;\n"); err == nil {
		t.Error("an unclosed code block must be an error")
	}
}

// transcript is a ```text block that shows a demo command and what it
// prints: "$ ddbsql --demo …" on its first line, its output below.
type transcript struct {
	line int
	args []string
	want string
}

// transcripts finds the transcripts of Markdown text. A ```text block
// whose first line runs ddbsql without --demo is an error: it could not
// be checked.
func transcripts(markdown string) ([]transcript, error) {
	blocks, err := fences(markdown)
	if err != nil {
		return nil, err
	}
	var out []transcript
	for _, b := range blocks {
		first, rest, _ := strings.Cut(b.body, "\n")
		command, ok := strings.CutPrefix(first, "$ ")
		if b.info != "text" || !ok {
			continue
		}
		args, demo, err := demoCommand(command)
		if err != nil {
			return nil, fmt.Errorf("README.md:%d: %v", b.line, err)
		}
		if !demo {
			return nil, fmt.Errorf("README.md:%d: a transcript must run ddbsql --demo so that it can be checked: %q", b.line, first)
		}
		out = append(out, transcript{line: b.line, args: args, want: rest})
	}
	return out, nil
}

// TestREADMETranscripts runs each transcript's command and compares what
// it prints (stdout, then stderr) with the block.
func TestREADMETranscripts(t *testing.T) {
	text, err := os.ReadFile(filepath.FromSlash(readmePath))
	if err != nil {
		t.Fatal(err)
	}
	ts, err := transcripts(string(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) == 0 {
		t.Fatal("the README has no transcripts; the Scan example should be one")
	}
	for _, tr := range ts {
		r := cliRun(t, "", tr.args...)
		checkClean(t, r)
		if got := r.out + r.err; got != tr.want {
			t.Errorf("README.md:%d: ddbsql %s prints\n%s\nbut the README shows\n%s", tr.line, strings.Join(tr.args, " "), got, tr.want)
		}
	}
	if _, err := transcripts("```text\n$ ddbsql -e \"SHOW TABLES\"\n```\n"); err == nil {
		t.Error("a transcript without --demo must be an error")
	}
}

// TestREADMERequirements checks that the Quick start names what a fresh
// machine needs, with the Go version go.mod asks for and the Node.js
// version the dynalite test server declares.
func TestREADMERequirements(t *testing.T) {
	readme, err := os.ReadFile(filepath.FromSlash(readmePath))
	if err != nil {
		t.Fatal(err)
	}
	quick := section(string(readme), "## Quick start")
	if quick == "" {
		t.Fatal("the README has no Quick start section")
	}
	gomod, err := os.ReadFile(filepath.FromSlash("../../go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\S+)\s*$`).FindSubmatch(gomod)
	if m == nil {
		t.Fatal("go.mod has no go line")
	}
	pkg, err := os.ReadFile(filepath.FromSlash("../../testdata/dynalite/package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var dynalite struct {
		Engines struct{ Node string } `json:"engines"`
	}
	if err := json.Unmarshal(pkg, &dynalite); err != nil {
		t.Fatal(err)
	}
	node := "Node.js " + strings.Replace(dynalite.Engines.Node, ">=", "≥ ", 1)
	for _, want := range []string{"Go " + string(m[1]), "gcc", "clang", "-race", node, "npm", "downloads the Go modules", "minutes"} {
		if !strings.Contains(quick, want) {
			t.Errorf("the Quick start does not mention %q", want)
		}
	}
}

// section is the text of a Markdown section from its heading (a line
// starting with heading) to the next heading of the same level.
func section(markdown, heading string) string {
	start := strings.Index(markdown, "\n"+heading)
	if start < 0 {
		return ""
	}
	rest := markdown[start+1:]
	level := heading[:strings.IndexByte(heading, ' ')+1]
	if end := strings.Index(rest[1:], "\n"+level); end >= 0 {
		return rest[:end+1]
	}
	return rest
}
