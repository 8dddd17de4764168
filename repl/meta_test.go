package repl

import (
	"reflect"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/exec/session"
)

func TestParseMeta(t *testing.T) {
	cases := []struct {
		in   string
		want metaCmd
		err  string
	}{
		{`\dt`, metaCmd{Name: "dt", Args: []string{}}, ""},
		{`  \d app  `, metaCmd{Name: "d", Args: []string{"app"}}, ""},
		{`\d ` + "`my-table.v2`", metaCmd{Name: "d", Args: []string{"my-table.v2"}}, ""},
		{`\d ` + "`with space`;", metaCmd{Name: "d", Args: []string{"with space"}}, ""},
		{`\d ` + "`a``b`", metaCmd{Name: "d", Args: []string{"a`b"}}, ""},
		{`\FORMAT csv;`, metaCmd{Name: "format", Args: []string{"csv"}}, ""},
		{`\set allow_scan on`, metaCmd{Name: "set", Args: []string{"allow_scan", "on"}}, ""},
		{`\?`, metaCmd{Name: "help", Args: []string{}}, ""},
		{`\`, metaCmd{}, "empty meta-command"},
		{`\d ` + "`open", metaCmd{}, "unterminated"},
		{`\d "my-table.v2"`, metaCmd{Name: "d", Args: []string{"my-table.v2"}}, ""},
		{`\di "a""b" "with space"`, metaCmd{Name: "di", Args: []string{`a"b`, "with space"}}, ""},
		{`\d "open`, metaCmd{}, `unterminated "`},
		{`dt`, metaCmd{}, "not a meta-command"},
	}
	for _, c := range cases {
		got, err := parseMeta(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if got.Name != c.want.Name || !reflect.DeepEqual(append([]string{}, got.Args...), c.want.Args) {
			t.Errorf("%q: got %+v, want %+v", c.in, got, c.want)
		}
	}
}

func TestQuitWordsAndMetaLines(t *testing.T) {
	for _, s := range []string{"quit", "exit", "QUIT;", " exit ; ", `\q`} {
		if !isQuitWord(s) {
			t.Errorf("%q should quit", s)
		}
	}
	for _, s := range []string{"quitter", "SELECT quit", "exit now"} {
		if isQuitWord(s) {
			t.Errorf("%q should not quit", s)
		}
	}
	if !isMetaLine(`  \dt`) || isMetaLine(`SELECT '\dt'`) {
		t.Error("isMetaLine")
	}
}

func TestSettingsCommands(t *testing.T) {
	st := settings{Format: "table", Stats: session.StatsOff, Pager: true}
	run := func(line string) (string, error) {
		t.Helper()
		cmd, err := parseMeta(line)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		msg, handled, err := st.apply(cmd)
		if !handled {
			t.Fatalf("%s: not handled", line)
		}
		return msg, err
	}
	steps := []struct{ line, msg, err string }{
		{`\format csv`, "Output format is csv.", ""},
		{`\format`, "Output format is csv.", ""},
		{`\format xml`, "", "unknown format"},
		{`\x`, "Expanded display is on.", ""},
		{`\x off`, "Expanded display is off.", ""},
		{`\x maybe`, "", "expected on or off"},
		{`\timing on`, "Timing is on.", ""},
		{`\stats text`, "Statistics are text.", ""},
		{`\stats loud`, "", "expected \\stats off, text or json"},
		{`\set allow_scan on`, "allow_scan is on.", ""},
		{`\set consistent yes`, "consistent is on.", ""},
		{`\set allow_scan`, "", "needs on or off"},
		{`\set nosuch on`, "", "unknown setting"},
		{`\pager off`, "Pager is off.", ""},
		{`\set memory_limit 2GiB`, "memory_limit is 2GiB.", ""},
		{`\set memory_limit 512 MiB`, "memory_limit is 512MiB.", ""},
		{`\set memory_limit lots`, "", "is not a size"},
		{`\set memory_limit`, "", "needs a size"},
	}
	for _, s := range steps {
		msg, err := run(s.line)
		if s.err != "" {
			if err == nil || !strings.Contains(err.Error(), s.err) {
				t.Errorf("%s: error %v, want %q", s.line, err, s.err)
			}
			continue
		}
		if err != nil || msg != s.msg {
			t.Errorf("%s: %q, %v; want %q", s.line, msg, err, s.msg)
		}
	}
	want := settings{Format: "csv", Expanded: false, Timing: true, Stats: session.StatsText, AllowScan: true, Consistent: true, Pager: false, MemoryLimit: 512 << 20}
	if st != want {
		t.Errorf("settings %+v, want %+v", st, want)
	}
	list, _ := run(`\set`)
	for _, w := range []string{"allow_scan = on", "consistent = on", "format = csv", "stats = text", "pager = off", "memory_limit = 512MiB"} {
		if !strings.Contains(list, w) {
			t.Errorf(`\set lacks %q:\n%s`, w, list)
		}
	}
	if _, handled, _ := st.apply(metaCmd{Name: "dt"}); handled {
		t.Error(`\dt is not a settings command`)
	}

	s := &session.Session{}
	st.applyTo(s)
	if cfg := s.Settings(); cfg.Format != "csv" || !cfg.Plan.AllowScan || !cfg.Plan.Consistent || cfg.FormatOptions.Expanded || cfg.MemoryLimit != 512<<20 {
		t.Errorf("applyTo: %+v", cfg)
	}
}

func TestHelpListsEveryCommand(t *testing.T) {
	usage := ""
	for _, h := range metaHelp {
		usage += h.Usage + "\n"
	}
	for _, n := range metaNames {
		if !strings.Contains(usage, `\`+n) {
			t.Errorf(`\help does not list \%s`, n)
		}
	}
}
