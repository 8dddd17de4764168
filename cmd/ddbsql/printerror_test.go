package main

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/exec/engine"
	"github.com/ddbsql/ddbsql/parser"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/repl"
)

// TestPrintErrorByPhase pins the exact text printError writes for an
// error of each phase, alone and located in a script.
func TestPrintErrorByPhase(t *testing.T) {
	_, parseErr := parser.Parse("SELECT 1;\nSELECT * FORM app")
	setIndex := &diag.Error{Phase: diag.Evaluate, Code: diag.CodeSetIndex, Msg: "tags is a string set; sets are unordered, so tags[0] has no element 0",
		Hint: "test membership with contains(tags, 'x'), or read the whole set"}
	cases := []struct {
		name string
		err  error
		want string
	}{
		{"parse", parseErr,
			"error: syntax error at line 2, column 10: unexpected 'FORM'\n  SELECT * FORM app\n           ^\nhint: did you mean FROM?\n"},
		{"parse, in a script", &repl.ScriptError{Name: "report.sql", Line: 2, Err: parseErr},
			"error: report.sql:2: syntax error at column 10: unexpected 'FORM'\n  SELECT * FORM app\n           ^\nhint: did you mean FROM?\n"},
		{"plan, a hint of two lines",
			&diag.Error{Phase: diag.Plan, Code: diag.CodeScanNotAllowed, Msg: "this statement needs a Scan of table app", Hint: `"x" is a name here` + "\nadd = or IN on a partition key"},
			"error: this statement needs a Scan of table app\nhint: \"x\" is a name here\nhint: add = or IN on a partition key\n"},
		{"plan, in a script", &repl.ScriptError{Name: "<stdin>", Line: 3, Err: &diag.Error{Phase: diag.Plan, Code: diag.CodeUnknownTable, Msg: `table "x" does not exist`, Hint: "SHOW TABLES lists the tables"}},
			"error: <stdin>:3: table \"x\" does not exist\nhint: SHOW TABLES lists the tables\n"},
		{"execute, around an evaluation error",
			&diag.Error{Phase: diag.Execute, Code: diag.CodeEval, Msg: setIndex.Msg, Hint: setIndex.Hint, Cause: setIndex},
			"error: tags is a string set; sets are unordered, so tags[0] has no element 0\nhint: test membership with contains(tags, 'x'), or read the whole set\n"},
		{"execute, a panic", engine.PanicError("boom"),
			"error: internal error: boom (please report this statement)\n"},
		{"connect", &diag.Error{Phase: diag.Connect, Code: diag.CodeRegion, Msg: "no AWS region configured", Hint: "use --region"},
			"error: no AWS region configured\nhint: use --region\n"},
		{"load, at a file and line", &diag.Error{Phase: diag.Load, Code: diag.CodeBadJSON, Pos: diag.Pos{Source: "orders.jsonl", Line: 3, Column: 7}, Msg: "invalid JSON"},
			"error: orders.jsonl:3:7: invalid JSON\n"},
		{"load, reworded by the command line", reworded(&diag.Error{Phase: diag.Load, Code: diag.CodeNoKeySchema, Pos: diag.Pos{Source: "a.jsonl"}, Msg: "no key schema"}, nil, "a.jsonl: no key schema, right after --data a.jsonl"),
			"error: a.jsonl: no key schema, right after --data a.jsonl\n"},
		{"command", &diag.Error{Phase: diag.Command, Code: diag.CodeUnknownCommand, Msg: `".tables" is not a ddbsql command or statement`, Hint: `use \dt to list tables`},
			"error: \".tables\" is not a ddbsql command or statement\nhint: use \\dt to list tables\n"},
		{"config, wrapped", fmt.Errorf("settings: %w", &diag.Error{Phase: diag.Config, Code: diag.CodeBadFlag, Pos: diag.Pos{Source: "--timeout 5x"}, Msg: "use a duration such as 5s"}),
			"error: --timeout 5x: use a duration such as 5s\n"},
		{"no diag.Error", errors.New("cannot read stdin"), "error: cannot read stdin\n"},
		{"control characters are not printed", &diag.Error{Phase: diag.Plan, Code: diag.CodeUnknownColumn, Msg: "no column \"a\x1b[2Jb\""},
			"error: no column \"a\uFFFD[2Jb\"\n"},
	}
	for _, c := range cases {
		var sb strings.Builder
		printError(&sb, c.err)
		if got := sb.String(); got != c.want {
			t.Errorf("%s:\ngot  %q\nwant %q", c.name, got, c.want)
		}
	}
}
