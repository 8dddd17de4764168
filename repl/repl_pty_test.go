//go:build linux

package repl_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
)

// replEnv is one REPL test setup: the binary, dynalite with the app
// fixture under a unique prefix, and a clean environment.
type replEnv struct {
	bin, endpoint, label, app string
}

// The pty tests share one build and one fixture load: they are subtests.
func TestREPLOnTerminal(t *testing.T) {
	endpoint := dynalitetest.Endpoint(t)
	prefix := dynalitetest.Prefix(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := fixtures.Load(ctx, dynalitetest.Client(t), prefix, fixtures.App()); err != nil {
		t.Fatalf("loading fixtures: %v", err)
	}
	u, _ := url.Parse(endpoint)
	e := &replEnv{bin: buildBinary(t, t.TempDir()), endpoint: endpoint, label: u.Host + "@us-east-1",
		app: "`" + prefix + "app`"}

	t.Run("statement prints rows", e.testRows)
	t.Run("multi-line input and paste", e.testMultiLine)
	t.Run("completion", e.testCompletion)
	t.Run("completion of double-quoted names", e.testCompletionDoubleQuoted)
	t.Run("history written and reloaded", e.testHistory)
	t.Run("ctrl-c cancels a slow statement", e.testCancel)
	t.Run("ctrl-d restores the terminal", e.testCtrlD)
	t.Run("sigterm and sighup restore the terminal", e.testSignals)
	t.Run("double ctrl-c quits", e.testDoubleCtrlC)
	t.Run("meta-commands", e.testMeta)
	t.Run("EXPLAIN in JSON after \\format json", e.testExplainJSON)
	t.Run("scan asks first", e.testScanQuestion)
	t.Run("a write of several items asks first", e.testWriteQuestion)
	t.Run("pager for tall results", e.testPager)
	t.Run("piped stdin runs as a script", e.testPipedStdin)
	t.Run("no controlling terminal: plain line input", e.testNoControllingTerminal)
	t.Run("no colour", e.testNoColor)
	t.Run("prompt names the connection", e.testPromptLabel)
	t.Run("history moves to the state directory", e.testHistoryMigration)
	t.Run("settings file", e.testSettingsFile)
}

// env is the child's environment: history and settings in temporary
// state and config directories, a pager that marks its lines, nothing from
// the developer's.
func (e *replEnv) env(t *testing.T, extra ...string) []string {
	home := t.TempDir()
	env := []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, "config"),
		"XDG_STATE_HOME=" + filepath.Join(home, "state"),
		"PATH=" + os.Getenv("PATH"), "TERM=xterm", "PAGER=sed s/^/PAGED:/",
		"AWS_ACCESS_KEY_ID=test", "AWS_SECRET_ACCESS_KEY=test", "AWS_REGION=us-east-1",
		"AWS_EC2_METADATA_DISABLED=true",
		// A -race binary would otherwise wait a second before exiting;
		// halt_on_error makes a race fail the exit status the tests check.
		"GORACE=atexit_sleep_ms=0 halt_on_error=1"}
	return append(env, extra...)
}

// envValue is NAME's value in env ("NAME=value" entries).
func envValue(env []string, name string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, name+"="); ok {
			return v
		}
	}
	return ""
}

func (e *replEnv) prompt() string { return "ddbsql (" + e.label + ")> " }

func (e *replEnv) start(t *testing.T, env []string, args ...string) *screen {
	s := startScreen(t, e.bin, env, append([]string{"--endpoint-url", e.endpoint}, args...)...)
	s.expect(e.prompt())
	return s
}

func (e *replEnv) sql(s string) string { return strings.ReplaceAll(s, "{app}", e.app) }

func (e *replEnv) testRows(t *testing.T) {
	s := e.start(t, e.env(t))
	s.send(e.sql("SELECT SK, title FROM {app} WHERE PK = 'WS#globex' ORDER BY SK LIMIT 3;") + "\r")
	s.expect("DOC#0013")
	s.expect("DOC#0015")
	s.expect(e.prompt())
	s.send("\\q\r")
	if code := s.waitExit(); code != 0 {
		t.Fatalf("exit status %d", code)
	}
}

func (e *replEnv) testMultiLine(t *testing.T) {
	s := e.start(t, e.env(t))
	s.send("SELECT SK\r")
	s.expect("...> ")
	s.send(e.sql("FROM {app}\r"))
	s.expect("...> ")
	s.send("WHERE PK = 'WS#hooli' -- the last workspace\r")
	s.expect("...> ")
	s.send("LIMIT 1;\r")
	s.expect("DOC#0037")
	s.expect(e.prompt())
	// A paste: two statements and their Enters arrive in one read.
	s.send(e.sql("SELECT SK FROM {app} WHERE PK = 'WS#umbrella' LIMIT 1;\rSELECT SK FROM {app}\rWHERE PK = 'WS#initech' LIMIT 1;\r"))
	s.expect("DOC#0031")
	s.expect("DOC#0021")
	s.expect(e.prompt())
	s.send("\x04")
	if code := s.waitExit(); code != 0 {
		t.Fatalf("exit status %d", code)
	}
}

func (e *replEnv) testCompletion(t *testing.T) {
	s := e.start(t, e.env(t))
	// A table name, with its key schema.
	partial := e.app[:len(e.app)-3] // "`<prefix>a"
	s.send("SELECT * FROM " + partial)
	s.expect(e.app)
	s.expect("PK (S) / SK (S) · 2 GSIs · 1 LSI")
	// Tab picks it; the next key inserts it.
	s.send("\t")
	s.expect(e.app) // the menu and the line show the selection
	s.send(" WHERE ")
	// Key attributes first.
	s.expect("PK")
	s.expect("partition key (S)")
	s.expect("sort key (S)")
	s.expect("GSI1 partition key (S)")
	s.send("PK = 'WS#hooli' AND SK = 'META';\r")
	s.expect("Hooli")
	s.expect(e.prompt())
	// Indexes after USE INDEX (.
	s.send(e.sql("SELECT * FROM {app} USE INDEX ("))
	s.expect("ByCreated")
	s.expect("LSI · PK (S) / createdAt (S) · KEYS_ONLY")
	s.expect("ByOwner")
	s.expect("GSI1")
	s.expect("GSI · GSI1PK (S) / GSI1SK (S) · ALL")
	s.send("\x03")
	s.expect(e.prompt())
	s.send("\\q\r")
	s.waitExit()
}

// testCompletionDoubleQuoted types names in double quotes: completion
// keeps them double-quoted, a ';' inside a double-quoted name does not end
// the statement, and the statement runs.
func (e *replEnv) testCompletionDoubleQuoted(t *testing.T) {
	s := e.start(t, e.env(t))
	table := `"` + strings.Trim(e.app, "`") + `"`
	s.send("SELECT * FROM " + table[:len(table)-3]) // "<prefix>a
	s.expect(table)
	s.expect("PK (S) / SK (S) · 2 GSIs · 1 LSI")
	s.send("\t")
	s.expect(table)
	s.send(` WHERE "P`)
	s.expect(`"PK"`)
	s.expect("partition key (S)")
	s.send("\t")
	s.expect(`"PK"`) // the line shows the selection
	s.send(" = 'WS#hooli' AND \"SK\" = 'META' AND \"no;such\" IS NULL;\r")
	s.expect("Hooli")
	s.expect(e.prompt())
	s.send("\\q\r")
	s.waitExit()
}

func (e *replEnv) testHistory(t *testing.T) {
	env := e.env(t)
	stmt := e.sql("SELECT name FROM {app} WHERE PK = 'WS#acme' AND SK = 'META';")
	s := e.start(t, env)
	s.send(stmt + "\r")
	s.expect("Acme Corp")
	s.expect(e.prompt())
	s.send(stmt + "\r") // a consecutive duplicate is not stored again
	s.expect("Acme Corp")
	s.expect(e.prompt())
	s.send("SELECT name\r")
	s.expect("...> ")
	s.send(e.sql("FROM {app} WHERE PK = 'WS#globex' AND SK = 'META';\r"))
	s.expect("Globex")
	s.expect(e.prompt())
	s.send("\\q\r")
	s.waitExit()

	path := filepath.Join(envValue(env, "XDG_STATE_HOME"), "ddbsql", "history")
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatalf("history file: %v", err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("history file mode %v, want 0600", fi.Mode().Perm())
	}
	data, _ := os.ReadFile(path)
	joined := e.sql("SELECT name FROM {app} WHERE PK = 'WS#globex' AND SK = 'META';")
	want := stmt + "\n" + joined + "\n\\q\n"
	if string(data) != want {
		t.Errorf("history file:\n%s\nwant:\n%s", data, want)
	}

	// Reloaded: Up twice recalls the first statement; Enter runs it.
	s = e.start(t, env)
	s.send("\x1b[A")
	s.expect(`\q`)
	s.send("\x1b[A")
	s.expect(joined)
	s.send("\x1b[A")
	s.expect(stmt)
	s.send("\r")
	s.expect("Acme Corp")
	s.expect(e.prompt())
	s.send("\\q\r")
	s.waitExit()
}

// stallingProxy forwards to dynalite but holds every Query until the
// client gives up; started reports each stalled request.
func stallingProxy(t *testing.T, endpoint string) (*httptest.Server, chan struct{}) {
	target, _ := url.Parse(endpoint)
	rp := httputil.NewSingleHostReverseProxy(target)
	started := make(chan struct{}, 16)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.Header.Get("X-Amz-Target"), ".Query") {
			_, _ = io.Copy(io.Discard, r.Body)
			started <- struct{}{}
			select {
			case <-r.Context().Done():
			case <-time.After(time.Minute):
			}
			http.Error(w, "stalled", http.StatusServiceUnavailable)
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, started
}

func (e *replEnv) testCancel(t *testing.T) {
	proxy, started := stallingProxy(t, e.endpoint)
	u, _ := url.Parse(proxy.URL)
	s := startScreen(t, e.bin, e.env(t), "--endpoint-url", proxy.URL)
	prompt := "ddbsql (" + u.Host + "@us-east-1)> "
	s.expect(prompt)
	s.send(e.sql("SELECT * FROM {app} WHERE PK = 'WS#acme';\r"))
	select {
	case <-started:
	case <-time.After(expectTimeout):
		t.Fatalf("the Query never reached the server; output:\n%s", printable(s.since()))
	}
	s.mark()
	sent := time.Now()
	s.send("\x03")
	s.expect("cancelled")
	if d := time.Since(sent); d > 5*time.Second {
		t.Errorf("cancelling took %v", d)
	}
	s.expect("0 rows")
	s.expect(prompt)
	// The REPL goes on.
	s.send("\\dt\r")
	s.expect(e.app[1 : len(e.app)-1])
	s.expect(prompt)
	s.send("\\q\r")
	if code := s.waitExit(); code != 0 {
		t.Fatalf("exit status %d", code)
	}
}

func (e *replEnv) testCtrlD(t *testing.T) {
	s := e.start(t, e.env(t))
	if cooked(s.termios()) {
		t.Fatalf("at the prompt the terminal should be in raw mode")
	}
	s.send("SELECT 1\r") // Ctrl-D exits even with an unfinished statement
	s.expect("...> ")
	s.send("\x04")
	if code := s.waitExit(); code != 0 {
		t.Fatalf("exit status %d", code)
	}
	if !cooked(s.termios()) {
		t.Fatalf("after Ctrl-D: ECHO and ICANON are not both set (lflag %#x)", s.termios().Lflag)
	}
}

func (e *replEnv) testSignals(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP} {
		s := e.start(t, e.env(t))
		s.send("SELECT")
		s.expect("SELECT")
		if cooked(s.termios()) {
			t.Fatalf("while typing the terminal should be in raw mode")
		}
		if err := s.cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		if code := s.waitExit(); code != 128+int(sig) {
			t.Errorf("%v: exit status %d, want %d", sig, code, 128+int(sig))
		}
		if !cooked(s.termios()) {
			t.Fatalf("after %v: ECHO and ICANON are not both set (lflag %#x)", sig, s.termios().Lflag)
		}
	}
}

func (e *replEnv) testDoubleCtrlC(t *testing.T) {
	s := e.start(t, e.env(t))
	s.send("SELECT foo\r")
	s.expect("...> ")
	s.send("FROM")
	s.expect("FROM")
	s.send("\x03") // clears the line and the unfinished statement
	s.expect(e.prompt())
	s.send("\x03")
	s.expect("Ctrl-C again")
	s.send("\x03")
	if code := s.waitExit(); code != 0 {
		t.Fatalf("exit status %d", code)
	}
	if !cooked(s.termios()) {
		t.Fatalf("after Ctrl-C Ctrl-C the terminal is not restored")
	}
}

func (e *replEnv) testMeta(t *testing.T) {
	s := e.start(t, e.env(t))
	s.send("\\help\r")
	s.expect(`\set allow_scan on|off`)
	s.expect(e.prompt())
	s.send("\\?\r") // the psql spelling of \help
	s.expect("SQL statements end with ;")
	s.expect(e.prompt())
	s.send("\\format csv\r")
	s.expect("Output format is csv.")
	s.expect(e.prompt())
	s.send("\\timing on\r")
	s.expect("Timing is on.")
	s.expect(e.prompt())
	s.send("\\stats text\r")
	s.expect("Statistics are text.")
	s.expect(e.prompt())
	s.send(e.sql("SELECT SK, seats FROM {app} WHERE PK = 'WS#acme' AND SK = 'META';\r"))
	s.expect("SK,seats")
	s.expect("META,25")
	s.expect("-- 1 row")
	s.expect("Time: ")
	s.expect(e.prompt())
	s.send("\\di " + e.app + "\r")
	s.expect("ByCreated")
	s.expect(e.prompt())
	s.send("\\nosuch\r")
	s.expect("error: unknown command \\nosuch")
	s.expect(e.prompt())
	s.send("SELECT FROM WHERE;\r") // errors print as in batch mode and the REPL goes on
	s.expect("error: ")
	s.expect(e.prompt())
	s.send("quit\r")
	if code := s.waitExit(); code != 0 {
		t.Fatalf("exit status %d", code)
	}
}

// testWriteQuestion: a write of several items asks with the count and the
// WCU; no writes nothing, yes writes them; a write of one item does not ask.
func (e *replEnv) testWriteQuestion(t *testing.T) {
	s := e.start(t, e.env(t))
	s.send(e.sql("INSERT INTO {app} (PK, SK) VALUES ('Q#1', 'A');\r"))
	s.expect("writes are journaled in ")
	s.expect("/ddbsql/journal/")
	s.expect("1 item inserted")
	s.expect(e.prompt())
	s.send(e.sql("INSERT INTO {app} (PK, SK) VALUES ('Q#1', 'B'), ('Q#1', 'C');\r"))
	s.expect("INSERT inserts 2 items in " + e.app[1:len(e.app)-1] + " (~2 WCU), e.g. PK='Q#1', SK='B'. Go ahead? [y/N] ")
	s.send("n\r")
	s.expect("not confirmed; nothing was written")
	s.expect(e.prompt())
	s.send(e.sql("INSERT INTO {app} (PK, SK) VALUES ('Q#1', 'B'), ('Q#1', 'C');\r"))
	s.expect("Go ahead? [y/N] ")
	s.send("y\r")
	s.expect("2 items inserted")
	s.expect(e.prompt())
	s.send(e.sql("DELETE FROM {app} WHERE PK = 'Q#1';\r"))
	s.expect("DELETE deletes 3 items in ")
	s.send("y\r")
	s.expect("3 items deleted")
	s.expect(e.prompt())
	s.send("\\q\r")
	s.waitExit()
}

func (e *replEnv) testScanQuestion(t *testing.T) {
	s := e.start(t, e.env(t))
	s.send(e.sql("SELECT SK FROM {app} WHERE title = 'none';\r"))
	// dynalite's DescribeTable reports 0 items, as DynamoDB does for a
	// freshly loaded table: the question says the cost is unknown.
	s.expect("Scan " + e.app[1:len(e.app)-1] + ": reads the whole table (unknown cost: DescribeTable reports 0 items; counts lag by up to six hours). Run it? [y/N] ")
	s.send("n\r")
	s.expect("error: ")
	s.expect(e.prompt())
	// A double-quoted key "value" is a name: the note comes with the question.
	s.send(e.sql(`SELECT SK FROM {app} WHERE PK = "WS#hooli";` + "\r"))
	s.expect(`note: "WS#hooli" is a name here, not a string`)
	s.expect("write 'WS#hooli'")
	s.expect("(unknown cost: DescribeTable reports 0 items; counts lag by up to six hours). Run it? [y/N] ")
	s.send("n\r")
	s.expect("error: ")
	s.expect(e.prompt())
	// A statement that runs shows its note too, before its rows.
	s.send(e.sql(`SELECT SK FROM {app} WHERE PK = 'WS#hooli' AND SK = "META";` + "\r"))
	s.expect(`note: "META" is a name here, not a string`)
	s.expect(e.prompt())
	s.send("\\q\r")
	s.waitExit()
}

func (e *replEnv) testPager(t *testing.T) {
	s := e.start(t, e.env(t))
	s.send(e.sql("SELECT SK FROM {app} WHERE PK = 'WS#hooli' AND SK = 'META';\r"))
	s.expect("META")
	if strings.Contains(s.since(), "PAGED:") {
		t.Errorf("a short result went through the pager")
	}
	s.expect(e.prompt())
	s.send(e.sql("SELECT SK FROM {app} WHERE PK = 'WS#big' LIMIT 60;\r"))
	s.expect("PAGED:")
	s.expect("DOC#B00060")
	s.expect(e.prompt())
	s.send("\\pager off\r")
	s.expect("Pager is off.")
	s.mark()
	s.send(e.sql("SELECT SK FROM {app} WHERE PK = 'WS#big' LIMIT 60;\r"))
	s.expect("DOC#B00060")
	if strings.Contains(s.since(), "PAGED:") {
		t.Errorf("\\pager off still paged")
	}
	s.send("\\q\r")
	s.waitExit()
}

func (e *replEnv) testPipedStdin(t *testing.T) {
	cmd := exec.Command(e.bin, "--endpoint-url", e.endpoint)
	cmd.Env = e.env(t)
	cmd.Stdin = strings.NewReader("SHOW TABLES;\n")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("ddbsql: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), e.app[1:len(e.app)-1]) {
		t.Errorf("SHOW TABLES output lacks the app table:\n%s", out)
	}
	if strings.Contains(string(out), "\x1b") {
		t.Errorf("escape sequences in piped output: %q", out)
	}
	if strings.Contains(string(out), e.prompt()) {
		t.Errorf("a prompt in piped output: %q", out)
	}
}

// go-prompt panics without a controlling terminal; the REPL then reads
// plain lines.
func (e *replEnv) testNoControllingTerminal(t *testing.T) {
	s := startScreenCtty(t, false, e.bin, e.env(t), "--endpoint-url", e.endpoint)
	s.expect("line editing is off")
	s.expect(e.prompt())
	s.send(e.sql("SELECT name FROM {app} WHERE PK = 'WS#acme' AND SK = 'META';\n"))
	s.expect("Acme Corp")
	s.expect(e.prompt())
	s.send("\x04")
	if code := s.waitExit(); code != 0 {
		t.Fatalf("exit status %d", code)
	}
	if strings.Contains(s.text(), "\x1b[") {
		t.Errorf("plain mode printed escape sequences")
	}
}
