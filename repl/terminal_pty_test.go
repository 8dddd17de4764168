//go:build linux

package repl_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// sgrRE matches Select Graphic Rendition sequences (colours, bold,
// reverse); cursor movement and erasing are other sequences.
var sgrRE = regexp.MustCompile("\x1b\\[([0-9;]*)m")

// colourSequences returns the SGR sequences that set a colour: a
// parameter 30–49 (foreground, background, 256/true colour, default
// colour) or 90–107 (bright colours).
func colourSequences(out string) []string {
	var found []string
	for _, m := range sgrRE.FindAllStringSubmatch(out, -1) {
		for _, p := range strings.Split(m[1], ";") {
			n, err := strconv.Atoi(p)
			if err == nil && (n >= 30 && n <= 49 || n >= 90 && n <= 107) {
				found = append(found, strconv.Quote(m[0]))
				break
			}
		}
	}
	return found
}

// completeCustomers opens the completion menu on the demo's customers
// table, picks it with Tab, runs the statement and quits.
func completeCustomers(t *testing.T, s *screen, prompt string) {
	t.Helper()
	s.send("SELECT name FROM cus")
	s.expect("customers")
	s.send("\t")
	s.expect("customers")
	s.send(" WHERE id = 'u_004';\r")
	s.expect("Dave Suzuki")
	s.expect(prompt)
	s.send("\\q\r")
	if code := s.waitExit(); code != 0 {
		t.Fatalf("exit status %d", code)
	}
}

// testNoColor checks that NO_COLOR (any non-empty value), --no-color and
// no-color in the settings file leave every colour out, the completion
// menu's included, while the selected row stays marked (reverse video);
// and that without them the menu is coloured, so the check can fail.
func (e *replEnv) testNoColor(t *testing.T) {
	const prompt = "ddbsql (demo)> "
	t.Run("colours by default", func(t *testing.T) {
		s := startScreen(t, e.bin, e.env(t), "--demo")
		s.expect(prompt)
		completeCustomers(t, s, prompt)
		if len(colourSequences(s.text())) == 0 {
			t.Errorf("no colour sequences without NO_COLOR: the check below proves nothing")
		}
	})
	settings := func(t *testing.T, body string) []string {
		env := e.env(t)
		dir := filepath.Join(envValue(env, "XDG_CONFIG_HOME"), "ddbsql")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return env
	}
	for _, c := range []struct {
		name string
		env  func(t *testing.T) []string
		args []string
	}{
		{"NO_COLOR=1", func(t *testing.T) []string { return e.env(t, "NO_COLOR=1") }, nil},
		{"NO_COLOR=false counts too", func(t *testing.T) []string { return e.env(t, "NO_COLOR=false") }, nil},
		{"--no-color", func(t *testing.T) []string { return e.env(t) }, []string{"--no-color"}},
		{"settings file", func(t *testing.T) []string { return settings(t, "no-color = true\n") }, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := startScreen(t, e.bin, c.env(t), append([]string{"--demo"}, c.args...)...)
			s.expect(prompt)
			completeCustomers(t, s, prompt)
			out := s.text()
			if found := colourSequences(out); len(found) > 0 {
				t.Errorf("%d colour sequences, e.g. %s", len(found), found[0])
			}
			if !strings.Contains(out, "\x1b[0;7") {
				t.Errorf("the selected suggestion is not shown in reverse video")
			}
		})
	}
	t.Run("NO_COLOR empty keeps colours", func(t *testing.T) {
		s := startScreen(t, e.bin, e.env(t, "NO_COLOR="), "--demo")
		s.expect(prompt)
		completeCustomers(t, s, prompt)
		if len(colourSequences(s.text())) == 0 {
			t.Errorf("an empty NO_COLOR turned colours off; no-color.org says only a non-empty value does")
		}
	})
}

// testHistoryMigration checks that the history of an earlier version
// ($XDG_CONFIG_HOME/ddbsql/history) moves to the state directory
// silently and is recalled with Up.
func (e *replEnv) testHistoryMigration(t *testing.T) {
	env := e.env(t)
	oldPath := filepath.Join(envValue(env, "XDG_CONFIG_HOME"), "ddbsql", "history")
	newPath := filepath.Join(envValue(env, "XDG_STATE_HOME"), "ddbsql", "history")
	if err := os.MkdirAll(filepath.Dir(oldPath), 0o755); err != nil {
		t.Fatal(err)
	}
	stmt := e.sql("SELECT name FROM {app} WHERE PK = 'WS#acme' AND SK = 'META';")
	if err := os.WriteFile(oldPath, []byte(stmt+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := e.start(t, env)
	s.send("\x1b[A")
	s.expect("WS#acme")
	s.send("\r")
	s.expect("Acme Corp")
	s.expect(e.prompt())
	s.send("\\q\r")
	if code := s.waitExit(); code != 0 {
		t.Fatalf("exit status %d", code)
	}
	if strings.Contains(s.text(), "warning") {
		t.Errorf("the move was not silent")
	}
	if _, err := os.Stat(oldPath); !os.IsNotExist(err) {
		t.Errorf("the old history file is still there (%v)", err)
	}
	fi, err := os.Stat(newPath)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("new history file: %v, %v", fi, err)
	}
	data, _ := os.ReadFile(newPath)
	if want := stmt + "\n" + stmt + "\n\\q\n"; string(data) == want {
		t.Errorf("a recalled statement equal to the last entry was stored twice")
	} else if want := stmt + "\n\\q\n"; string(data) != want {
		t.Errorf("history file:\n%s\nwant:\n%s", data, want)
	}
}

// testPromptLabel checks the prompt's connection label for the demo.
func (e *replEnv) testPromptLabel(t *testing.T) {
	s := startScreen(t, e.bin, e.env(t), "--demo")
	s.expect("ddbsql (demo)> ")
	s.send("\x04")
	if code := s.waitExit(); code != 0 {
		t.Fatalf("exit status %d", code)
	}
}

// testSettingsFile checks that the settings file's defaults reach the
// REPL (format, and a pager that wins over $PAGER) and that a flag wins
// over the file.
func (e *replEnv) testSettingsFile(t *testing.T) {
	env := e.env(t)
	dir := filepath.Join(envValue(env, "XDG_CONFIG_HOME"), "ddbsql")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	body := "# defaults\nformat = \"csv\"\npager = \"sed s/^/FILEPAGER:/\"\n"
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	stmt := e.sql("SELECT PK, SK FROM {app} WHERE PK = 'WS#acme' AND SK = 'META';\r")
	s := e.start(t, env)
	s.send(stmt)
	s.expect("PK,SK")
	s.expect("WS#acme,META")
	s.expect(e.prompt())
	// A tall result goes through the file's pager, not $PAGER.
	s.mark()
	s.send(e.sql("SELECT SK FROM {app} WHERE PK = 'WS#big' LIMIT 60;\r"))
	s.expect("FILEPAGER:")
	s.expect("DOC#B00060")
	s.expect(e.prompt())
	if strings.Contains(s.text(), "PAGED:") {
		t.Errorf("$PAGER was used, not the settings file's pager")
	}
	s.send("\\q\r")
	s.waitExit()

	s = e.start(t, env, "--format", "json")
	s.send(stmt)
	s.expect(`"SK":"META"`)
	s.expect(e.prompt())
	s.send("\\q\r")
	s.waitExit()
}
