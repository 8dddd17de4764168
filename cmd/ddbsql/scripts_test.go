package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeScript writes a script file into dir with the fixture names
// expanded, and returns its path.
func (c *cli) writeScript(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(c.expand(text)), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

const acmeMeta = "SELECT PK, name FROM {app} WHERE PK = 'WS#acme' AND SK = 'META';"

// Meta-commands work in -f files, on stdin and in -e the way they do in
// the REPL, between statements, and change what follows them.
func TestScriptMetaCommands(t *testing.T) {
	backends(t, func(t *testing.T, c *cli) {
		t.Run("format and expanded display change the following statements", func(t *testing.T) {
			r := c.runStdin(acmeMeta + "\n\\format csv\n" + acmeMeta + "\n\\x\n\\format table\n" + acmeMeta + "\n")
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.err)
			}
			parts := strings.SplitN(r.out, "PK,name\nWS#acme,", 2)
			if len(parts) != 2 || !strings.Contains(parts[0], "| PK ") {
				t.Fatalf("want a table, then csv:\n%s", r.out)
			}
			if !strings.Contains(parts[1], "-[ RECORD 1 ]") || !strings.Contains(parts[1], "PK   | WS#acme") {
				t.Errorf("\\x did not turn on expanded display for the last statement:\n%s", r.out)
			}
			for _, msg := range []string{"Output format is csv.", "Expanded display is on."} {
				if !strings.Contains(r.err, msg) || strings.Contains(r.out, msg) {
					t.Errorf("%q should be on stderr only (stdout stays results):\nstdout: %s\nstderr: %s", msg, r.out, r.err)
				}
			}
		})
		t.Run("dt, d and di run their statements", func(t *testing.T) {
			r := c.runStdin("\\dt\n\\d {app}\n\\di {app}\n", "--format", "csv")
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.err)
			}
			app := strings.Trim(c.expand("{app}"), "`")
			for _, want := range []string{"table_name\n", app + "\n", "GSI1"} {
				if !strings.Contains(r.out, want) {
					t.Errorf("output lacks %q:\n%s", want, r.out)
				}
			}
		})
		t.Run("timing and stats report on stderr", func(t *testing.T) {
			r := c.run("-e", "\\timing on\n\\stats text\n"+acmeMeta)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.err)
			}
			if !strings.Contains(r.err, "Time: ") || !strings.Contains(r.err, "RCU") {
				t.Errorf("want a Time: line and statistics on stderr:\n%s", r.err)
			}
			if strings.Contains(r.out, "Time: ") {
				t.Errorf("timing went to stdout:\n%s", r.out)
			}
		})
		t.Run("set allow_scan lets a Scan run", func(t *testing.T) {
			scan := "SELECT COUNT(*) AS n FROM {app};"
			if r := c.runStdin(scan); r.code == 0 {
				t.Fatalf("a Scan ran without --allow-scan:\n%s", r.out)
			}
			r := c.runStdin("\\set allow_scan on\n"+scan, "--format", "csv")
			if r.code != 0 || !strings.HasPrefix(r.out, "n\n") {
				t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.code, r.out, r.err)
			}
		})
		t.Run("a byte order mark does not hide the first line's command", func(t *testing.T) {
			r := c.runStdin("\ufeff\\format csv\n" + acmeMeta)
			if r.code != 0 || !strings.HasPrefix(r.out, "PK,name\n") {
				t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.code, r.out, r.err)
			}
		})
		t.Run("q stops the script successfully", func(t *testing.T) {
			r := c.runStdin(acmeMeta + "\n\\q\nSELECT nope FROM nowhere WHERE PK = 'x';\n")
			if r.code != 0 || r.err != "" {
				t.Fatalf("exit %d, stderr %q", r.code, r.err)
			}
			if strings.Count(r.out, "WS#acme") != 1 {
				t.Errorf("want the first statement's row only:\n%s", r.out)
			}
		})
		t.Run("q in a later -e stops the rest", func(t *testing.T) {
			r := c.run("-e", "\\q", "-e", "SELECT nope FROM nowhere WHERE PK = 'x'")
			if r.code != 0 || r.out != "" || r.err != "" {
				t.Fatalf("exit %d\nstdout: %q\nstderr: %q", r.code, r.out, r.err)
			}
		})
		t.Run("help lists the commands on stdout", func(t *testing.T) {
			for _, cmd := range []string{"\\?", "\\help"} {
				r := c.run("-e", cmd)
				if r.code != 0 || !strings.Contains(r.out, `\dt`) || !strings.Contains(r.out, `\i FILE`) {
					t.Fatalf("%s: exit %d\nstdout: %s\nstderr: %s", cmd, r.code, r.out, r.err)
				}
			}
		})
		t.Run("unknown command stops the script and points to \\?", func(t *testing.T) {
			r := c.runStdin("\\frobnicate\n" + acmeMeta)
			if r.code != 1 || r.out != "" {
				t.Fatalf("exit %d, stdout %q", r.code, r.out)
			}
			if want := "error: <stdin>:1: unknown command \\frobnicate; \\? lists the commands\n"; r.err != want {
				t.Errorf("stderr %q, want %q", r.err, want)
			}
		})
		t.Run("interactive-only commands", func(t *testing.T) {
			r := c.run("-e", "\\e")
			if r.code != 1 || !strings.Contains(r.err, `error: \e needs an interactive terminal`) {
				t.Fatalf("\\e: exit %d, stderr %q", r.code, r.err)
			}
			r = c.runStdin("\\pager off\n" + acmeMeta)
			if r.code != 0 || !strings.Contains(r.out, "WS#acme") || !strings.Contains(r.err, `warning: \pager needs an interactive terminal; ignored`) {
				t.Fatalf("\\pager: exit %d\nstdout: %s\nstderr: %s", r.code, r.out, r.err)
			}
		})
		t.Run("a bad meta-command argument is an error", func(t *testing.T) {
			r := c.runStdin(acmeMeta + "\n\\format yaml\n" + acmeMeta)
			if r.code != 1 || !strings.HasPrefix(r.err, `error: <stdin>:2: unknown format "yaml"`) {
				t.Fatalf("exit %d, stderr %q", r.code, r.err)
			}
			if strings.Count(r.out, "WS#acme") != 1 {
				t.Errorf("the statement after the failure ran:\n%s", r.out)
			}
		})
	})
}

// Lines written for sqlite3 or typed out of habit are errors with the
// ddbsql way as a hint, never the start of a statement.
func TestScriptForeignCommands(t *testing.T) {
	c := newMemCLI(t)
	cases := map[string]string{
		".tables":     `hint: use \dt to list tables`,
		".schema app": `hint: use \d TABLE to describe a table (\dt lists them)`,
		".mode csv":   `hint: use \format csv (or table, tsv, json, ndjson, markdown) to choose the output format`,
		".quit":       `hint: use \q or Ctrl-D to quit`,
		".exit":       `hint: use \q or Ctrl-D to quit`,
		"help":        `hint: use \? to list the commands`,
		"exit;":       `hint: use \q or Ctrl-D to quit`,
		"QUIT":        `hint: use \q or Ctrl-D to quit`,
	}
	for line, hint := range cases {
		r := c.runStdin(acmeMeta + "\n" + line + "\n" + acmeMeta)
		word := strings.Fields(strings.TrimSuffix(line, ";"))[0]
		want := fmt.Sprintf("error: <stdin>:2: %q is not a ddbsql command or statement\n%s\n", word, hint)
		if r.code != 1 || r.err != want {
			t.Errorf("%s: exit %d\nstderr %q\nwant   %q", line, r.code, r.err, want)
		}
		if strings.Count(r.out, "WS#acme") != 1 {
			t.Errorf("%s: want only the first statement run:\n%s", line, r.out)
		}
	}
	// Inside a statement the same words are SQL.
	r := c.runStdin("SELECT PK,\nexit\nFROM {app} WHERE PK = 'WS#acme' AND SK = 'META';", "--format", "csv")
	if r.code != 0 || !strings.HasPrefix(r.out, "PK,exit\n") {
		t.Errorf("exit as a column: exit %d\nstdout: %s\nstderr: %s", r.code, r.out, r.err)
	}
}

// Errors name the script and the line the failing statement starts on.
func TestScriptErrorLocations(t *testing.T) {
	c := newMemCLI(t)
	dir := t.TempDir()
	t.Run("-f names the file and the statement's first line", func(t *testing.T) {
		f := c.writeScript(t, dir, "report.sql", acmeMeta+"\n\n-- the next one fails\nSELECT name\n  FROM {app}\n  WHERE PK = 'WS#acme' AND bogus(SK);\n")
		r := c.run("-f", f)
		if r.code != 1 || !strings.HasPrefix(r.err, "error: "+f+":4: unknown function bogus()") {
			t.Fatalf("exit %d, stderr %q", r.code, r.err)
		}
		if !strings.Contains(r.err, "\nhint: ") {
			t.Errorf("the hint line is gone: %q", r.err)
		}
	})
	t.Run("a syntax error is located at its own line and nothing runs", func(t *testing.T) {
		f := c.writeScript(t, dir, "syntax.sql", acmeMeta+"\n\\x\nSELECT 1 +;\n")
		r := c.run("-f", f)
		want := "error: " + f + ":3: syntax error at column 11: unexpected end of statement\n  SELECT 1 +;\n            ^\n"
		if r.code != 1 || r.err != want || r.out != "" {
			t.Fatalf("exit %d\nstdout %q\nstderr %q\nwant   %q", r.code, r.out, r.err, want)
		}
	})
	t.Run("a syntax error in a later file stops everything before it runs", func(t *testing.T) {
		good := c.writeScript(t, dir, "good.sql", acmeMeta)
		bad := c.writeScript(t, dir, "bad.sql", "\n\nSELEKT 1;")
		r := c.run("-f", good, "-f", bad)
		if r.code != 1 || r.out != "" || !strings.HasPrefix(r.err, "error: "+bad+":3: ") {
			t.Fatalf("exit %d\nstdout %q\nstderr %q", r.code, r.out, r.err)
		}
	})
	t.Run("stdin is <stdin>", func(t *testing.T) {
		r := c.runStdin(acmeMeta + "\nSELECT * FROM nowhere WHERE PK = 'x';")
		if r.code != 1 || !strings.HasPrefix(r.err, "error: <stdin>:2: ") {
			t.Fatalf("exit %d, stderr %q", r.code, r.err)
		}
	})
	t.Run("one -e stays plain, several are numbered", func(t *testing.T) {
		r := c.run("-e", "SELECT * FROM nowhere WHERE PK = 'x'")
		if r.code != 1 || !strings.HasPrefix(r.err, "error: ") || strings.Contains(strings.SplitN(r.err, "\n", 2)[0], "-e") {
			t.Fatalf("exit %d, stderr %q", r.code, r.err)
		}
		r = c.run("-e", acmeMeta, "-e", "\n"+acmeMeta+"\nSELECT * FROM nowhere WHERE PK = 'x'")
		if r.code != 1 || !strings.HasPrefix(r.err, "error: -e #2:3: ") {
			t.Fatalf("exit %d, stderr %q", r.code, r.err)
		}
	})
}

// \i runs a file relative to the current directory, nested files keep
// their own error locations, and recursion is refused.
func TestScriptInclude(t *testing.T) {
	c := newMemCLI(t)
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.Mkdir("sub", 0o700); err != nil {
		t.Fatal(err)
	}
	c.writeScript(t, dir, "sub/inner.sql", "SELECT 'inner' AS who;\n")
	// sub/outer.sql names sub/inner.sql from the current directory, as
	// psql's \i does (not relative to the including file).
	c.writeScript(t, dir, "sub/outer.sql", "SELECT 'outer' AS who;\n\\i sub/inner.sql\n")
	t.Run("nested files run in order", func(t *testing.T) {
		r := c.runStdin("\\i sub/outer.sql\nSELECT 'after' AS who;", "--format", "csv")
		if r.code != 0 || r.out != "who\nouter\nwho\ninner\nwho\nafter\n" {
			t.Fatalf("exit %d\nstdout %q\nstderr %q", r.code, r.out, r.err)
		}
	})
	t.Run("ir is relative to the file being run", func(t *testing.T) {
		c.writeScript(t, dir, "sub/relative.sql", "SELECT 'relative' AS who;\n\\ir inner.sql\n")
		r := c.run("--format", "csv", "-f", "sub/relative.sql")
		if r.code != 0 || r.out != "who\nrelative\nwho\ninner\n" {
			t.Fatalf("exit %d\nstdout %q\nstderr %q", r.code, r.out, r.err)
		}
		// Outside any file it is relative to the current directory.
		r = c.runStdin("\\ir sub/inner.sql", "--format", "csv")
		if r.code != 0 || r.out != "who\ninner\n" {
			t.Fatalf("exit %d\nstdout %q\nstderr %q", r.code, r.out, r.err)
		}
	})
	t.Run("an error inside keeps the inner file's location", func(t *testing.T) {
		c.writeScript(t, dir, "broken.sql", "SELECT 1;\n\nSELECT * FROM nowhere WHERE PK = 'x';\n")
		r := c.runStdin("\\i broken.sql\nSELECT 'after' AS who;")
		if r.code != 1 || !strings.HasPrefix(r.err, "error: broken.sql:3: ") || strings.Contains(r.out, "after") {
			t.Fatalf("exit %d\nstdout %q\nstderr %q", r.code, r.out, r.err)
		}
	})
	t.Run("a syntax error in an included file", func(t *testing.T) {
		c.writeScript(t, dir, "typo.sql", "SELECT 1;\nSELEKT 2;\n")
		r := c.runStdin("SELECT 'before' AS who;\n\\i typo.sql")
		if r.code != 1 || !strings.HasPrefix(r.err, "error: typo.sql:2: ") || !strings.Contains(r.out, "before") {
			t.Fatalf("exit %d\nstdout %q\nstderr %q", r.code, r.out, r.err)
		}
	})
	t.Run("a missing file", func(t *testing.T) {
		r := c.runStdin("\\i nothere.sql")
		if want := "error: <stdin>:1: \\i nothere.sql: no such file or directory\n"; r.code != 1 || r.err != want {
			t.Fatalf("exit %d\nstderr %q\nwant   %q", r.code, r.err, want)
		}
	})
	t.Run("recursion is refused", func(t *testing.T) {
		c.writeScript(t, dir, "a.sql", "SELECT 'a' AS who;\n\\i b.sql\n")
		c.writeScript(t, dir, "b.sql", "SELECT 'b' AS who;\n\\i ./a.sql\n")
		r := c.run("-f", "a.sql")
		want := "error: b.sql:2: \\i ./a.sql: the file is already running (a.sql → b.sql → a.sql); a script cannot include itself\n"
		if r.code != 1 || r.err != want {
			t.Fatalf("exit %d\nstderr %q\nwant   %q", r.code, r.err, want)
		}
		// From stdin the first file is not on the stack yet: a.sql runs once more, then stops.
		r = c.runStdin("\\i a.sql", "--format", "csv")
		if r.code != 1 || r.out != "who\na\nwho\nb\n" || !strings.HasPrefix(r.err, "error: b.sql:2: ") {
			t.Fatalf("exit %d\nstdout %q\nstderr %q", r.code, r.out, r.err)
		}
	})
	t.Run("nesting is bounded", func(t *testing.T) {
		// 20 different files, each including the next: no file repeats,
		// so only the depth bound stops it.
		for i := 0; i < 20; i++ {
			c.writeScript(t, dir, fmt.Sprintf("n%d.sql", i), fmt.Sprintf("\\i n%d.sql\n", i+1))
		}
		r := c.run("-f", "n0.sql")
		if r.code != 1 || !strings.Contains(r.err, "more than 16 files are nested") {
			t.Fatalf("exit %d\nstderr %q", r.code, r.err)
		}
	})
	t.Run("q in an included file stops everything", func(t *testing.T) {
		c.writeScript(t, dir, "quit.sql", "SELECT 'in' AS who;\n\\q\nSELECT 'not' AS who;\n")
		r := c.runStdin("\\i quit.sql\nSELECT 'after' AS who;", "--format", "csv")
		if r.code != 0 || r.out != "who\nin\n" {
			t.Fatalf("exit %d\nstdout %q\nstderr %q", r.code, r.out, r.err)
		}
	})
}

// \o sends results to a file and back; errors still go to stderr.
func TestScriptOutput(t *testing.T) {
	c := newMemCLI(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "out.csv")
	if err := os.WriteFile(out, []byte("old content that must go\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf("SELECT 'screen' AS w;\n\\o %s\nSELECT 'file1' AS w;\nSELECT 'file2' AS w;\n\\o\nSELECT 'screen2' AS w;\n\\o %s\nSELECT nope FROM nowhere WHERE PK = 'x';\n", out, out)
	r := c.runStdin(script, "--format", "csv")
	if r.code != 1 {
		t.Fatalf("exit %d, stderr %q", r.code, r.err)
	}
	if r.out != "w\nscreen\nw\nscreen2\n" {
		t.Errorf("stdout %q", r.out)
	}
	if !strings.HasPrefix(r.err, "error: <stdin>:8: ") {
		t.Errorf("stderr %q", r.err)
	}
	// The second \o emptied the file again; the failed statement wrote nothing.
	data, err := os.ReadFile(out)
	if err != nil || string(data) != "" {
		t.Errorf("%s: %q, %v", out, data, err)
	}

	r = c.runStdin(fmt.Sprintf("\\o %s\nSELECT 'file1' AS w;\nSELECT 'file2' AS w;\n", out), "--format", "csv")
	data, _ = os.ReadFile(out)
	if r.code != 0 || r.out != "" || string(data) != "w\nfile1\nw\nfile2\n" {
		t.Errorf("exit %d, stdout %q, file %q, stderr %q", r.code, r.out, data, r.err)
	}

	r = c.runStdin("\\o |gzip > x.gz")
	if want := "error: <stdin>:1: \\o |gzip > x.gz: sending results to a command is not supported; write them to a file and run the command on it\n"; r.code != 1 || r.err != want {
		t.Errorf("exit %d\nstderr %q\nwant   %q", r.code, r.err, want)
	}

	r = c.runStdin("\\o " + filepath.Join(dir, "no", "such", "dir.csv"))
	if r.code != 1 || !strings.HasPrefix(r.err, "error: <stdin>:1: \\o ") || !strings.Contains(r.err, "no such file or directory") {
		t.Errorf("exit %d, stderr %q", r.code, r.err)
	}
}
