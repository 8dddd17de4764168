package repl

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// describeItems renders items as "line:kind:text" for comparison.
func describeItems(items []scriptItem) []string {
	var out []string
	for _, it := range items {
		switch {
		case it.SQL != "":
			out = append(out, fmt.Sprintf("%d:sql:%s", it.Line, strings.Join(strings.Fields(it.SQL), " ")))
		case it.Meta != "":
			out = append(out, fmt.Sprintf("%d:meta:%s", it.Line, it.Meta))
		default:
			out = append(out, fmt.Sprintf("%d:foreign:%s", it.Line, it.Foreign))
		}
	}
	return out
}

func TestParseScriptItems(t *testing.T) {
	cases := []struct {
		name, script string
		want         []string
	}{
		{"statements and meta-commands in order",
			"SELECT 1;\n\\x\nSELECT 2;\n  \\format csv  \nSELECT 3",
			[]string{"1:sql:SELECT 1", "2:meta:\\x", "3:sql:SELECT 2", "4:meta:\\format csv", "5:sql:SELECT 3"}},
		{"a meta-command inside an unfinished statement runs first (psql)",
			"SELECT a,\n\\x\n b FROM t;\nSELECT 2;",
			[]string{"2:meta:\\x", "1:sql:SELECT a, b FROM t", "4:sql:SELECT 2"}},
		{"a meta-command before the ';' of a statement runs before it",
			"SELECT 1\n\\x\n;",
			[]string{"2:meta:\\x", "1:sql:SELECT 1"}},
		{"a backslash line inside a string is the string's",
			"SELECT 'a\n\\x' AS s;\n\\dt",
			[]string{"1:sql:SELECT 'a \\x' AS s", "3:meta:\\dt"}},
		{"several backslash lines inside one string, then a command",
			"SELECT 1;\nSELECT 'a\n\\x\n  \\y\n.tables\n' AS s;\n\\z\n.tables",
			[]string{"1:sql:SELECT 1", "2:sql:SELECT 'a \\x \\y .tables ' AS s", "7:meta:\\z", "8:foreign:.tables"}},
		{"a backslash line inside a block comment is the comment's",
			"/* notes\n\\x\n*/ SELECT 1;",
			[]string{"3:sql:SELECT 1"}},
		{"after a line comment the next line starts fresh",
			"-- first \\x\n\\x\nSELECT 1;",
			[]string{"2:meta:\\x", "3:sql:SELECT 1"}},
		{"two statements on one line, then a meta-command",
			"SELECT 1; SELECT 2;\n\\q\nSELECT 3;",
			[]string{"1:sql:SELECT 1", "1:sql:SELECT 2", "2:meta:\\q", "3:sql:SELECT 3"}},
		{"lines for other shells between statements",
			".tables\nSELECT 1;\nexit;\n.mode csv\nquit",
			[]string{"1:foreign:.tables", "2:sql:SELECT 1", "3:foreign:exit;", "4:foreign:.mode csv", "5:foreign:quit"}},
		{"exit inside a statement is a column",
			"SELECT a,\nexit\nFROM t;",
			[]string{"1:sql:SELECT a, exit FROM t"}},
		{"windows line ends",
			"SELECT 1;\r\n\\x\r\nSELECT 2;\r\n",
			[]string{"1:sql:SELECT 1", "2:meta:\\x", "3:sql:SELECT 2"}},
		{"only meta-commands", "\\dt\n\\d app\n", []string{"1:meta:\\dt", "2:meta:\\d app"}},
		{"empty", "", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			items, err := parseScript(tc.script)
			if err != nil {
				t.Fatalf("parseScript: %v", err)
			}
			if got := describeItems(items); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("items:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// A syntax error is found before anything runs and keeps its line in the
// file, meta-command lines included.
func TestParseScriptErrorKeepsItsLine(t *testing.T) {
	_, err := parseScript("\\x\nSELECT 1;\n\\format csv\n\nSELECT 1 +;\n")
	var pe *diag.Error
	if !errors.As(err, &pe) || pe.Phase != diag.Parse {
		t.Fatalf("got %v, want a parse error", err)
	}
	if pe.Pos.Line != 5 || pe.Pos.Column != 11 {
		t.Errorf("error at line %d, column %d, want line 5, column 11: %v", pe.Pos.Line, pe.Pos.Column, err)
	}
}

func TestForeignHint(t *testing.T) {
	cases := map[string]string{
		".tables":     `use \dt to list tables`,
		".TABLES;":    `use \dt to list tables`,
		".schema app": `use \d TABLE to describe a table (\dt lists them)`,
		".mode csv":   `use \format csv (or table, tsv, json, ndjson, markdown) to choose the output format`,
		".quit":       `use \q or Ctrl-D to quit`,
		".exit":       `use \q or Ctrl-D to quit`,
		"help":        `use \? to list the commands`,
		"Quit ;":      `use \q or Ctrl-D to quit`,
		"exit":        `use \q or Ctrl-D to quit`,
		"exit now":    "",
		"helpme":      "",
		"SELECT 1;":   "",
	}
	for line, want := range cases {
		if got := foreignHint(line); got != want {
			t.Errorf("foreignHint(%q) = %q, want %q", line, got, want)
		}
	}
}

// An unterminated string runs to the end: the backslash lines after it are
// the string's, and the parser reports where it starts.
func TestParseScriptUnterminatedString(t *testing.T) {
	_, err := parseScript("SELECT 1;\nSELECT 'a\n\\x\n\\q\n")
	var pe *diag.Error
	if !errors.As(err, &pe) || pe.Phase != diag.Parse || pe.Pos.Line != 2 || !strings.Contains(pe.Msg, "unterminated") {
		t.Fatalf("got %v, want an unterminated string at line 2", err)
	}
}
