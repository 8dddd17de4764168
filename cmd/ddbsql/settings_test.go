package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeSettings writes a settings file and points DDBSQL_CONFIG at it.
func writeSettings(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("DDBSQL_CONFIG", path)
	return path
}

func TestSettingsPath(t *testing.T) {
	cases := []struct {
		flag      string
		flagSet   bool
		env       []string
		want      string
		wantNamed bool
	}{
		{"/f.toml", true, []string{"DDBSQL_CONFIG", "/e.toml", "HOME", "/home/u"}, "/f.toml", true},
		{"", true, []string{"DDBSQL_CONFIG", "/e.toml"}, "", true}, // --config "": no file
		{"", false, []string{"DDBSQL_CONFIG", "/e.toml", "XDG_CONFIG_HOME", "/c"}, "/e.toml", true},
		{"", false, []string{"DDBSQL_CONFIG", "", "HOME", "/home/u"}, "", true},
		{"", false, []string{"XDG_CONFIG_HOME", "/c", "HOME", "/home/u"}, "/c/ddbsql/config.toml", false},
		// An empty or relative XDG_CONFIG_HOME is ignored (XDG specification).
		{"", false, []string{"XDG_CONFIG_HOME", "rel", "HOME", "/home/u"}, "/home/u/.config/ddbsql/config.toml", false},
		{"", false, []string{"HOME", "/home/u"}, "/home/u/.config/ddbsql/config.toml", false},
	}
	for i, c := range cases {
		m := map[string]string{}
		for j := 0; j < len(c.env); j += 2 {
			m[c.env[j]] = c.env[j+1]
		}
		getenv := func(k string) (string, bool) { v, ok := m[k]; return v, ok }
		got, named := settingsPath(c.flag, c.flagSet, getenv)
		if got != c.want || named != c.wantNamed {
			t.Errorf("case %d: %q, %v; want %q, %v", i, got, named, c.want, c.wantNamed)
		}
	}
}

// TestSettingsFileDefaults checks that the file's values become the
// defaults of a run, that flags win over them, and that comments and
// either case of a format name are fine.
func TestSettingsFileDefaults(t *testing.T) {
	writeSettings(t, `# defaults for every run
format = "CSV"   # a comment after a value
max-rcu = 0.1
timeout = "90s"
concurrency = 3
consistent = true
no-color = true
pager = ""
`)
	cfg, code, ok := parseFlags(nil, io.Discard, io.Discard)
	if !ok {
		t.Fatalf("parseFlags failed with %d", code)
	}
	if cfg.format != "csv" || cfg.maxRCU != 0.1 || cfg.timeout != 90*time.Second || cfg.concurrency != 3 ||
		!cfg.consistent || !cfg.noColor || cfg.pager == nil || *cfg.pager != "" {
		t.Errorf("settings not applied: %+v", cfg)
	}
	cfg, _, ok = parseFlags([]string{"--format", "json", "--max-rcu", "5", "--timeout", "1s"}, io.Discard, io.Discard)
	if !ok || cfg.format != "json" || cfg.maxRCU != 5 || cfg.timeout != time.Second || cfg.concurrency != 3 {
		t.Errorf("flags must win over the file: %+v", cfg)
	}

	// End to end: the file's max-rcu refuses a Scan, its format prints csv.
	r := invoke([]string{"--demo", "--allow-scan", "-e", "SELECT * FROM customers"}, "")
	if r.code != exitError || !strings.Contains(r.err, "more than the --max-rcu budget of 0.1") {
		t.Errorf("max-rcu from the file: exit %d\n%s", r.code, r.err)
	}
	r = invoke([]string{"--demo", "--max-rcu", "100", "-e", "SELECT name FROM customers WHERE id = 'u_004'"}, "")
	if r.code != 0 || r.out != "name\nDave Suzuki\n" {
		t.Errorf("format from the file: exit %d, out %q, err %q", r.code, r.out, r.err)
	}
}

// TestSettingsConnectionPrecedence checks the order for profile, region and
// endpoint-url: flag, then the AWS environment variable, then the file; and
// that --demo does not use them at all.
func TestSettingsConnectionPrecedence(t *testing.T) {
	writeSettings(t, "profile = \"file\"\nregion = \"eu-west-1\"\nendpoint-url = \"http://localhost:8000\"\n")
	for _, name := range []string{"AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL_DYNAMODB", "AWS_ENDPOINT_URL"} {
		t.Setenv(name, "")
	}
	cfg, _, ok := parseFlags(nil, io.Discard, io.Discard)
	if !ok || cfg.profile != "file" || cfg.region != "eu-west-1" || cfg.endpointURL != "http://localhost:8000" {
		t.Fatalf("file values not used: %+v", cfg)
	}
	t.Setenv("AWS_PROFILE", "env")
	t.Setenv("AWS_DEFAULT_REGION", "ap-northeast-1")
	t.Setenv("AWS_ENDPOINT_URL_DYNAMODB", "http://127.0.0.1:9000")
	cfg, _, ok = parseFlags(nil, io.Discard, io.Discard)
	if !ok || cfg.profile != "" || cfg.region != "" || cfg.endpointURL != "" {
		t.Errorf("the environment must win over the file (the SDK reads it): %+v", cfg)
	}
	cfg, _, ok = parseFlags([]string{"--profile", "flag", "--region", "us-west-2"}, io.Discard, io.Discard)
	if !ok || cfg.profile != "flag" || cfg.region != "us-west-2" {
		t.Errorf("flags must win: %+v", cfg)
	}
	// --demo with a file that names an AWS connection is not a conflict.
	r := invoke([]string{"--demo", "-e", "SHOW TABLES"}, "")
	if r.code != 0 {
		t.Errorf("--demo with connection settings in the file: exit %d\n%s", r.code, r.err)
	}
}

// TestSettingsFileErrors checks that a bad file stops the run with status
// 2 and a message naming the file, the line, the key and what is allowed.
func TestSettingsFileErrors(t *testing.T) {
	cases := []struct{ body, want string }{
		{"format = \"cvs\"\n", `line 1: format = "cvs": use one of table, csv, tsv, json, ndjson, markdown`},
		{"\n# note\ncolour = true\n", `line 3: unknown key "colour"; the keys are format, stats, pager, profile, region, endpoint-url, max-rcu, rate-limit, read-price, concurrency, timeout, memory-limit, temp-dir, consistent, no-color`},
		{"stats = \"verbose\"\n", `line 1: stats = "verbose": use one of off, text, json`},
		{"max-rcu = \"lots\"\n", `line 1: max-rcu must be a number, e.g. max-rcu = 100`},
		{"format = \"csv\"\nmax-rcu = -1\n", `line 2: max-rcu = -1: must not be negative`},
		{"timeout = 30\n", `line 1: timeout must be a string in double quotes, e.g. timeout = "30s"`},
		{"timeout = \"30\"\n", `line 1: timeout = "30": use a duration such as 5s, 500ms or 2m`},
		{"no-color = \"yes\"\n", `line 1: no-color must be true or false, e.g. no-color = true`},
		{"concurrency = 0\n", `line 1: concurrency = 0: at least 1`},
		{"endpoint-url = \"localhost:8000\"\n", `line 1: endpoint-url = "localhost:8000": want an http or https URL with a host, e.g. http://localhost:8000`},
		{"format = \"csv\"\n[repl]\nx = 1\n", `line 2: [repl]: the settings file has no sections; write its keys at the top, e.g. format = "csv"`},
		{"format = \"csv\"\nformat = \"json\"\n", `line 2: not valid TOML: Key 'format' has already been defined.`},
		{"format = csv\n", `line 1: not valid TOML: `},
	}
	for _, c := range cases {
		path := writeSettings(t, c.body)
		r := invoke([]string{"--demo", "-e", "SHOW TABLES"}, "")
		want := "error: settings file " + path + ", " + c.want
		if r.code != exitUsage || !strings.HasPrefix(r.err, want) || r.out != "" {
			t.Errorf("file %q: exit %d\n%s\nwant exit 2 and a message starting\n%s", c.body, r.code, r.err, want)
		}
		if !strings.Contains(r.err, "\nhint: fix the file, or use --config \"\" to run without it\n") {
			t.Errorf("file %q: no hint:\n%s", c.body, r.err)
		}
	}
}

func TestSettingsFileMissing(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope.toml")
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // nothing there: no file, no message
	t.Setenv("DDBSQL_CONFIG", "")
	os.Unsetenv("DDBSQL_CONFIG")
	if r := invoke([]string{"--demo", "-e", "SHOW TABLES"}, ""); r.code != 0 || r.err != "" {
		t.Errorf("no settings file at the default place: exit %d\n%s", r.code, r.err)
	}
	r := invoke([]string{"--config", missing, "--demo", "-e", "SHOW TABLES"}, "")
	want := "error: settings file " + missing + ": no such file (a file named by --config or DDBSQL_CONFIG must exist)\n" +
		"hint: create it, or use --config \"\" to run without a settings file\n"
	if r.code != exitUsage || r.err != want {
		t.Errorf("missing --config file: exit %d\n%s\nwant\n%s", r.code, r.err, want)
	}
	writeSettings(t, "format = \"cvs\"\n")
	if r := invoke([]string{"--config", "", "--demo", "-e", "SHOW TABLES"}, ""); r.code != 0 {
		t.Errorf("--config \"\" must skip the file: exit %d\n%s", r.code, r.err)
	}
	if r := invoke([]string{"--version"}, ""); r.code != 0 {
		t.Errorf("--version must not read the file: exit %d\n%s", r.code, r.err)
	}
}

// TestSettingsReadmeExample checks that the example file in the README's
// "Settings file" section is accepted as written.
func TestSettingsReadmeExample(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "### Settings file")
	_, block, ok2 := strings.Cut(section, "```toml\n")
	example, _, ok3 := strings.Cut(block, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal("README has no ```toml example under ### Settings file")
	}
	values, serr := parseSettings("README.md", []byte(example))
	if serr != nil {
		t.Fatalf("the README's example is rejected: %v", serr)
	}
	if len(values) < 8 {
		t.Errorf("only %d keys parsed from the example", len(values))
	}
	writeSettings(t, example)
	if r := invoke([]string{"--demo", "-e", "SHOW TABLES"}, ""); r.code != 0 || !strings.HasPrefix(r.out, "| table_name |") {
		t.Errorf("running with the README's example: exit %d\n%s%s", r.code, r.out, r.err)
	}
}
