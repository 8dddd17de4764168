//go:build linux

package repl_test

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
)

// TestREPLScriptCommands runs \e, \i, \o and the hints for other shells'
// commands in the REPL on a terminal.
func TestREPLScriptCommands(t *testing.T) {
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

	t.Run("edit runs what the editor saved", e.testEdit)
	t.Run("edit without an editor or with a failing one", e.testEditFailures)
	t.Run("include and output files", e.testIncludeAndOutput)
	t.Run("parquet goes to a \\o file, never to the terminal", e.testBinaryOutput)
	t.Run("other shells' commands get hints", e.testForeignHints)
}

// writeExecutable writes a shell script the test uses as an editor.
func writeExecutable(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+text), 0o700); err != nil {
		t.Fatal(err)
	}
}

func (e *replEnv) testEdit(t *testing.T) {
	dir := t.TempDir()
	seen := filepath.Join(dir, "seen.sql")
	editor := filepath.Join(dir, "editor")
	// The editor keeps what it was given and saves a new statement.
	writeExecutable(t, editor, `cp "$1" `+seen+`
printf "SELECT SK, seats FROM %s\nWHERE PK = 'WS#acme' AND SK = 'META';\n" '`+e.app+`' > "$1"
`)
	s := e.start(t, e.env(t, "VISUAL="+editor, "EDITOR=/nonexistent"), "--format", "csv")
	s.send(e.sql("SELECT SK FROM {app} WHERE PK = 'WS#acme' AND SK = 'META';\r"))
	s.expect("META")
	s.expect(e.prompt())
	s.send("\\e\r")
	s.expect("SK,seats")
	s.expect("META,25")
	s.expect(e.prompt())
	got, err := os.ReadFile(seen)
	if err != nil {
		t.Fatalf("the editor did not run: %v", err)
	}
	if want := e.sql("SELECT SK FROM {app} WHERE PK = 'WS#acme' AND SK = 'META';\n"); string(got) != want {
		t.Errorf("the editor got %q, want the last statement %q", got, want)
	}
	s.send("\\q\r")
	if code := s.waitExit(); code != 0 {
		t.Fatalf("exit status %d", code)
	}
}

func (e *replEnv) testEditFailures(t *testing.T) {
	dir := t.TempDir()
	failing := filepath.Join(dir, "failing")
	writeExecutable(t, failing, `echo "SELECT 'must not run' AS x;" > "$1"; exit 3`+"\n")
	s := e.start(t, e.env(t, "EDITOR="+failing))
	s.send("\\e\r")
	s.expect(`error: \e: ` + failing + ` exited with status 3; nothing was run`)
	s.expect(e.prompt())
	if strings.Contains(s.text(), "must not run") {
		t.Errorf("what a failing editor saved was run")
	}
	s.send("\\q\r")
	s.waitExit()

	s = e.start(t, e.env(t, "EDITOR=no-such-editor-anywhere"))
	s.send("\\e\r")
	s.expect(`error: \e: no editor "no-such-editor-anywhere" found; set $VISUAL or $EDITOR to an editor's command`)
	s.expect(e.prompt())
	s.send("\\q\r")
	s.waitExit()
}

func (e *replEnv) testIncludeAndOutput(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "two.sql")
	text := e.sql("SELECT SK, seats FROM {app} WHERE PK = 'WS#acme' AND SK = 'META';\n\\x\n\nSELECT nope FROM {app} WHERE PK = 'WS#acme' AND bogus(SK);\nSELECT 'not reached' AS x;\n")
	if err := os.WriteFile(script, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.csv")
	s := e.start(t, e.env(t), "--format", "csv")
	s.send("\\i " + script + "\r")
	s.expect("META,25")
	s.expect("Expanded display is on.")
	s.expect("error: " + script + ":4: unknown function bogus()")
	s.expect(e.prompt())
	if strings.Contains(s.text(), "not reached") {
		t.Errorf("the file went on after its failure")
	}
	s.send("\\x off\r")
	s.expect(e.prompt())
	s.send("\\o " + out + "\r")
	s.expect("Results go to " + out)
	s.expect(e.prompt())
	s.send(e.sql("SELECT seats FROM {app} WHERE PK = 'WS#acme' AND SK = 'META';\r"))
	s.expect(e.prompt())
	s.send("\\o\r")
	s.expect("Results go to the terminal.")
	s.expect(e.prompt())
	if strings.Contains(s.since(), "seats") {
		t.Errorf("a result went to the terminal while \\o was on")
	}
	s.send("\\q\r")
	if code := s.waitExit(); code != 0 {
		t.Fatalf("exit status %d", code)
	}
	data, err := os.ReadFile(out)
	if err != nil || string(data) != "seats\n25\n" {
		t.Errorf("%s: %q, %v", out, data, err)
	}
}

func (e *replEnv) testForeignHints(t *testing.T) {
	s := e.start(t, e.env(t))
	for line, hint := range map[string]string{
		".tables":     `hint: use \dt to list tables`,
		".schema app": `hint: use \d TABLE to describe a table`,
		".mode csv":   `hint: use \format csv`,
		".quit":       `hint: use \q or Ctrl-D to quit`,
	} {
		s.send(line + "\r")
		s.expect(hint)
		s.expect(e.prompt()) // the main prompt, not a continuation
	}
	s.send("\\q\r")
	if code := s.waitExit(); code != 0 {
		t.Fatalf("exit status %d", code)
	}
}
